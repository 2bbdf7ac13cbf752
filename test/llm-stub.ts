/**
 * A local OpenAI-compatible Chat Completions server for tests: real HTTP on loopback and the real wire
 * format (tool_calls, usage, finish_reason). Its "model" answers order-status questions as the policy
 * asks: it looks the customer up by e-mail (find_user_by_email), then calls get_order, so an agent's
 * whole loop (tools, tool results, a final answer) can be exercised.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CLAIM_WORDING, readClaim } from '../src/judge/claims.js';
import { KEY_ARG, WAIT_TOOL } from '../src/agents/llm.js';
import { decide, type DeskEvent } from '../examples/http-agent/desk.mjs';

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
   * What the "model" does as an agent: `status` answers order-status questions (above); `desk` is the
   * order desk of examples/http-agent/desk.mjs, re-deciding from the whole conversation each time, its
   * waits through the agent's wait tool and its keys as the write tools' idempotency_key. @default 'status'
   */
  readonly script?: 'status' | 'desk';
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

/** The desk's next action as a Chat Completions message. */
function deskMessage(messages: readonly Message[], served: number): { message: Record<string, unknown>; finish: string } {
  const action = decide(deskHistory(messages));
  const call = (name: string, args: Record<string, unknown>) => ({ message: { role: 'assistant', content: null, tool_calls: [{ id: `call_${served}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, finish: 'tool_calls' });
  if (action.type === 'wait') return call(WAIT_TOOL, { seconds: action.ms / 1000 });
  if (action.type === 'call') return call(action.tool, { ...action.args, ...(action.key ? { [KEY_ARG]: action.key } : {}) });
  return { message: { role: 'assistant', content: action.text }, finish: 'stop' };
}

export interface LlmStub {
  readonly baseUrl: string;
  readonly requests: { authorization: string | undefined; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

type Message = { role: string; content: string | null | { type: string; text?: string }[]; tool_calls?: unknown[] };

export async function startLlmStub(options: StubOptions = {}): Promise<LlmStub> {
  const requests: LlmStub['requests'] = [];
  let served = 0;
  let malformedSent = false;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => (options.delayMs ? setTimeout(answer, options.delayMs) : answer()));
    const answer = () => {
      const body = JSON.parse(raw || '{}') as { model?: string; messages?: Message[] };
      requests.push({ authorization: req.headers.authorization, body });
      served++;
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
      if (options.script === 'desk') {
        const { message, finish } = deskMessage(messages, served);
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
