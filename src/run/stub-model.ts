/**
 * A local model for trying every LLM path without a key (`shakedown stub-llm`), and for the tests: real
 * HTTP on loopback, on the OpenAI Chat Completions wire format (`POST /v1/chat/completions`: tool_calls,
 * usage, finish_reason) and the Anthropic Messages one (`POST /v1/messages`: tool_use and tool_result
 * blocks, usage, stop_reason) at the same base URL.
 *
 * Its "model" plays the built-in worlds' desk: the order desk of examples/http-agent/desk.mjs for retail
 * (a request whose tools hold `get_order`), the reservation desk of travel-desk.mjs for travel (tools
 * holding `get_reservation`), re-deciding from the whole conversation each time, its waits through the
 * agent's wait tool and its keys as the write tools' idempotency_key. Asked as the LLM user simulator or
 * the LLM claim judge (their system prompts), it plays those parts too. Deterministic: the same
 * conversation gets the same answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CLAIM_WORDING, readClaim } from '../judge/claims.js';
import { KEY_ARG, WAIT_TOOL } from '../agents/llm.js';
import { decide, type DeskAction, type DeskEvent } from '../../examples/http-agent/desk.mjs';
import { decideTravel } from '../../examples/http-agent/travel-desk.mjs';

export interface StubOptions {
  /** Answer the first N requests with 500 before behaving. */
  readonly failFirst?: number;
  /** Send the first tool call with arguments that are not valid JSON. */
  readonly malformedFirst?: boolean;
  /** Answer every request after this many ms, as a remote model would. @default 0 */
  readonly delayMs?: number;
  /**
   * As a claim judge (a system prompt that asks for success/failure/pending/none): `good` reads the
   * message with the project's wording reader, `bad` answers `none` to everything. @default 'good'
   */
  readonly judge?: 'good' | 'bad';
  /**
   * What the "model" does as an agent on Chat Completions: `desk` plays the world's desk (above); `status`
   * answers order-status questions only (it looks the customer up by e-mail, then calls get_order). The
   * Messages API always plays the desk. @default 'desk'
   */
  readonly script?: 'status' | 'desk';
  /** The port to listen on (0: any free port). @default 0 */
  readonly port?: number;
  /**
   * A provider's quota, enforced as one does: at most `rpm` model requests in any `windowMs` (a minute),
   * more answered 429 with Retry-After; every answer carries OpenAI's `x-ratelimit-*` request headers.
   * `GET /v1/stats` tells what was accepted and refused, and when. @default no quota
   */
  readonly quota?: { readonly rpm: number; readonly windowMs?: number };
}

type Call = { id?: string; function?: { name?: string; arguments?: string } };
/**
 * A tool message as the desk's result. Over HTTP the agent writes `{status, retryAfter?, date?, body}` or
 * `{error}`; over MCP (`tools: mcp`) a success is the answer's body as it came (JSON, or text cut short)
 * and an error result is `{status, retryAfter?, date?, body}`.
 */
export function deskResult(content: string): DeskEvent {
  let r: unknown;
  try {
    r = JSON.parse(content || 'null');
  } catch {
    return { type: 'result', status: 200, body: content };
  }
  const o = r !== null && typeof r === 'object' && !Array.isArray(r) ? (r as { status?: unknown; retryAfter?: string; date?: string; body?: unknown; error?: unknown }) : undefined;
  if (o && typeof o.error === 'string' && Object.keys(o).length === 1) return { type: 'result', status: 0, body: null };
  if (o && typeof o.status === 'number' && Object.keys(o).every((k) => ['status', 'retryAfter', 'date', 'body', 'replayed'].includes(k))) return { type: 'result', status: o.status, ...(o.retryAfter ? { retryAfter: o.retryAfter } : {}), ...(o.date ? { date: o.date } : {}), body: o.body ?? null };
  return { type: 'result', status: 200, body: r };
}

/** A message's text: Chat Completions content is a string, or an array of parts (`{type: 'text', text}`), as SDKs send it. */
export const textOf = (content: Message['content']): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join('') : '');

/** The conversation as the desk's history: user messages, its calls and waits, their results, its replies. */
function deskHistory(messages: readonly (Message & { tool_call_id?: string })[]): DeskEvent[] {
  const history: DeskEvent[] = [];
  const waits = new Set<string>();
  for (const m of messages) {
    if (m.role === 'user') history.push({ type: 'user', text: textOf(m.content) });
    else if (m.role === 'assistant') {
      for (const c of (m.tool_calls ?? []) as Call[]) {
        const args = JSON.parse(c.function?.arguments || '{}') as Record<string, unknown>;
        if (c.function?.name === WAIT_TOOL) {
          waits.add(c.id ?? '');
          history.push({ type: 'wait', ms: Number(args.seconds) * 1000 });
        } else {
          const { [KEY_ARG]: key, ...rest } = args;
          history.push({ type: 'call', tool: c.function?.name ?? '', args: rest, ...(typeof key === 'string' ? { key } : {}) });
        }
      }
      if (!m.tool_calls?.length) history.push({ type: 'reply', text: textOf(m.content) });
    } else if (m.role === 'tool' && !waits.has(m.tool_call_id ?? '')) history.push(deskResult(textOf(m.content)));
  }
  return history;
}


type Block = { type: string; text?: string; id?: string; name?: string; input?: Record<string, unknown>; tool_use_id?: string; content?: string | { type: string; text?: string }[] };
type AnthropicMessage = { role: 'user' | 'assistant'; content: string | Block[] };

/** The desk of the world whose tools a request offers: travel's when it can read reservations, else retail's. */
const deskFor = (tools: readonly string[]): ((history: readonly DeskEvent[]) => DeskAction) => (tools.includes('get_reservation') ? decideTravel : decide);

/** A tool_result block's text: a string, or text blocks. */
const blockText = (content: Block['content']): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => b.text ?? '').join('') : '');

function anthropicHistory(messages: readonly AnthropicMessage[]): DeskEvent[] {
  const out: DeskEvent[] = [];
  const waits = new Set<string>();
  for (const m of messages) {
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (m.role === 'user') {
      for (const b of blocks) {
        if (b.type === 'text') out.push({ type: 'user', text: b.text ?? '' });
        else if (b.type === 'tool_result' && !waits.has(b.tool_use_id ?? '')) out.push(deskResult(blockText(b.content)));
      }
    } else {
      const uses = blocks.filter((b) => b.type === 'tool_use');
      for (const u of uses) {
        if (u.name === WAIT_TOOL) {
          waits.add(u.id ?? '');
          out.push({ type: 'wait', ms: Number(u.input?.seconds) * 1000 });
        } else {
          const { [KEY_ARG]: key, ...args } = u.input ?? {};
          out.push({ type: 'call', tool: u.name ?? '', args, ...(typeof key === 'string' ? { key } : {}) });
        }
      }
      if (uses.length === 0) out.push({ type: 'reply', text: blocks.map((b) => b.text ?? '').join('\n') });
    }
  }
  return out;
}

/** The desk's next action as a Messages API answer. */
function anthropicAnswer(body: { model?: string; messages?: AnthropicMessage[] }, served: number, size: number, tools: readonly string[]): Record<string, unknown> {
  const action = deskFor(tools)(anthropicHistory(body.messages ?? []));
  const content =
    action.type === 'reply'
      ? [{ type: 'text', text: action.text }]
      : action.type === 'wait'
        ? [{ type: 'tool_use', id: `toolu_${served}`, name: WAIT_TOOL, input: { seconds: action.ms / 1000 } }]
        : [{ type: 'tool_use', id: `toolu_${served}`, name: action.tool, input: { ...action.args, ...(action.key ? { [KEY_ARG]: action.key } : {}) } }];
  return { id: `msg_${served}`, type: 'message', role: 'assistant', model: body.model ?? 'stub', content, stop_reason: action.type === 'reply' ? 'end_turn' : 'tool_use', stop_sequence: null, usage: { input_tokens: Math.ceil(size / 4), output_tokens: 12 } };
}

/** The desk's next action as a Chat Completions message. */
function deskMessage(messages: readonly Message[], served: number, tools: readonly string[]): { message: Record<string, unknown>; finish: string } {
  const action = deskFor(tools)(deskHistory(messages));
  const call = (name: string, args: Record<string, unknown>) => ({ message: { role: 'assistant', content: null, tool_calls: [{ id: `call_${served}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, finish: 'tool_calls' });
  if (action.type === 'wait') return call(WAIT_TOOL, { seconds: action.ms / 1000 });
  if (action.type === 'call') return call(action.tool, { ...action.args, ...(action.key ? { [KEY_ARG]: action.key } : {}) });
  return { message: { role: 'assistant', content: action.text }, finish: 'stop' };
}

export interface StubModel {
  /** The base URL of both APIs, e.g. http://127.0.0.1:8787/v1. */
  readonly baseUrl: string;
  /** Every request, in order: its path, its credentials as sent, its body. */
  readonly requests: { path: string; authorization: string | undefined; apiKey: string | undefined; version: string | undefined; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

type Message = { role: string; content: string | null | { type: string; text?: string }[]; tool_calls?: unknown[] };

export async function startStubModel(options: StubOptions = {}): Promise<StubModel> {
  const requests: StubModel['requests'] = [];
  let served = 0;
  let malformedSent = false;
  const accepted: number[] = [];
  const quotaStats: { accepted: number; refused: number; first?: number; last?: number } = { accepted: 0, refused: 0 };
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v1/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...quotaStats, spanMs: quotaStats.first !== undefined && quotaStats.last !== undefined ? quotaStats.last - quotaStats.first : 0 }));
      return;
    }
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    // A request the stub cannot read is answered 400, as a provider would; it never stops the server.
    const guarded = () => {
      try {
        answer();
      } catch (error) {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: (error as Error).message } }));
      }
    };
    req.on('end', () => (options.delayMs ? setTimeout(guarded, options.delayMs) : guarded()));
    const answer = () => {
      let body: { model?: string; messages?: Message[]; tools?: { name?: string; function?: { name?: string } }[] };
      try {
        body = JSON.parse(raw || '{}') as typeof body;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'the body is not JSON' } }));
        return;
      }
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization, apiKey: req.headers['x-api-key'] as string | undefined, version: req.headers['anthropic-version'] as string | undefined, body });
      served++;
      const tools = (body.tools ?? []).map((t) => t.function?.name ?? t.name ?? '');
      // The quota: requests in the window, the oldest first.
      if (options.quota && req.method === 'POST') {
        const windowMs = options.quota.windowMs ?? 60_000;
        const allowed = Math.max(1, Math.floor((options.quota.rpm * windowMs) / 60_000));
        const now = performance.now(); // clock: a stub provider's quota is wall time
        while (accepted.length > 0 && (accepted[0] as number) <= now - windowMs) accepted.shift();
        const reset = accepted.length > 0 ? Math.max(1, (accepted[0] as number) + windowMs - now) : 1;
        const limits = { 'x-ratelimit-limit-requests': String(options.quota.rpm), 'x-ratelimit-remaining-requests': String(Math.max(0, allowed - accepted.length - 1)), 'x-ratelimit-reset-requests': `${Math.ceil(reset)}ms` };
        if (accepted.length >= allowed) {
          quotaStats.refused++;
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(Math.ceil(reset / 1000)), ...limits }).end(JSON.stringify({ error: { type: 'rate_limit_exceeded', message: 'Rate limit reached for requests' } }));
          return;
        }
        accepted.push(now);
        quotaStats.accepted++;
        quotaStats.first ??= now;
        quotaStats.last = now;
        for (const [k, v] of Object.entries(limits)) res.setHeader(k, v);
      }
      if (req.method === 'POST' && req.url === '/v1/messages') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(anthropicAnswer(body as { model?: string; messages?: AnthropicMessage[] }, served, raw.length, tools)));
        return;
      }
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      if (served <= (options.failFirst ?? 0)) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'upstream overloaded' } }));
        return;
      }
      const messages = body.messages ?? [];
      const last = messages.at(-1);
      const system = messages[0]?.role === 'system' ? textOf(messages[0].content) : '';
      const lastText = textOf(last?.content ?? null);
      if (system.startsWith('You read one message a customer-service agent sent')) {
        const text = /Message:\n([\s\S]*)$/.exec(lastText)?.[1] ?? '';
        const content = options.judge === 'bad' ? 'none' : readClaim({ text }, DEFAULT_CLAIM_WORDING);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `chatcmpl-${served}`, object: 'chat.completion', created: 1_767_000_000, model: body.model ?? 'stub', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }], usage: { prompt_tokens: 40, completion_tokens: 1, total_tokens: 41 } }));
        return;
      }
      if (system.startsWith('You are a customer contacting')) {
        // Playing the user: ask about the order the instructions name, then say DONE once answered.
        const order = /order = (#?W\d{7})/.exec(system)?.[1] ?? '#W0000000';
        const email = /email: ([^;\s]+)/.exec(system)?.[1] ?? 'someone@example.org';
        const said = lastText;
        const content = said.includes('support chat opens') ? `Hi, what's the status of order ${order}? My email is ${email}.` : /order number|which order/i.test(said) ? `It's order ${order}.` : 'DONE';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `chatcmpl-${served}`, object: 'chat.completion', created: 1_767_000_000, model: body.model ?? 'stub', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
        return;
      }
      if (options.script !== 'status') {
        const { message, finish } = deskMessage(messages, served, tools);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `chatcmpl-${served}`, object: 'chat.completion', created: 1_767_000_000, model: body.model ?? 'stub', choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage: { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 12, total_tokens: Math.ceil(raw.length / 4) + 12 } }));
        return;
      }
      const said = messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)).join('\n');
      const id = /#?\s?(W\d{7})/i.exec(said)?.[1]?.toUpperCase();
      const email = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(said)?.[0]?.toLowerCase();
      // Which tool each tool message answers, from the assistant's calls before it.
      const calledName = (toolCallId: unknown): string | undefined => {
        for (const m of messages) for (const c of (m.tool_calls ?? []) as { id?: string; function?: { name?: string } }[]) if (c.id === toolCallId) return c.function?.name;
        return undefined;
      };
      const results = messages.filter((m) => m.role === 'tool').map((m) => ({ tool: calledName((m as { tool_call_id?: unknown }).tool_call_id), result: JSON.parse(textOf(m.content) || '{}') as { status?: number; body?: { status?: string; userId?: string }; error?: string } }));
      const identified = results.some((r) => r.tool === 'find_user_by_email' && r.result.status === 200);
      const toolCall = (name: string, args: Record<string, unknown>): Record<string, unknown> => {
        const broken = options.malformedFirst && !malformedSent;
        malformedSent ||= Boolean(broken);
        const json = JSON.stringify(args);
        return { role: 'assistant', content: null, tool_calls: [{ id: `call_${served}`, type: 'function', function: { name, arguments: broken ? json.slice(0, -2) : json } }] };
      };
      let message: Record<string, unknown>;
      let finish = 'stop';
      const lastResult = last?.role === 'tool' ? results.at(-1) : undefined;
      if (lastResult?.result.error?.includes('not valid JSON')) {
        message = lastResult.tool === 'get_order' ? toolCall('get_order', { orderId: `#${id}` }) : toolCall('find_user_by_email', { email });
        finish = 'tool_calls';
      } else if (lastResult?.tool === 'get_order') {
        const result = lastResult.result;
        message = { role: 'assistant', content: result.status === 200 && result.body?.status ? `Order #${id} is ${result.body.status}.` : `Sorry, I could not look up order #${id} (${result.status ?? result.error}).` };
      } else if (lastResult?.tool === 'find_user_by_email' && !identified) {
        message = { role: 'assistant', content: `Sorry, I could not verify your identity (${lastResult.result.status ?? lastResult.result.error}).` };
      } else if (!identified) {
        if (email) {
          message = toolCall('find_user_by_email', { email });
          finish = 'tool_calls';
        } else message = { role: 'assistant', content: 'Before I can help, I need to verify your identity. Could you give me your email address?' };
      } else if (id) {
        message = toolCall('get_order', { orderId: `#${id}` });
        finish = 'tool_calls';
      } else {
        message = { role: 'assistant', content: 'Which order do you mean? Please give me the order number.' };
      }
      const prompt = Math.ceil(raw.length / 4);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${served}`,
          object: 'chat.completion',
          created: 1_767_000_000,
          model: body.model ?? 'stub',
          choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
          usage: { prompt_tokens: prompt, completion_tokens: 12, total_tokens: prompt + 12 },
        }),
      );
    };
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
