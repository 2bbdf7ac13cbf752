/**
 * A local Anthropic Messages API server for tests: real HTTP on loopback and the real wire format (content
 * blocks, tool_use, tool_result, usage, stop_reason). Its "model" is the order desk of
 * examples/http-agent/desk.mjs, re-deciding from the whole conversation each time, its waits through the
 * agent's wait tool and its keys as the write tools' idempotency_key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEY_ARG, WAIT_TOOL } from '../src/agents/llm.js';
import { decide, type DeskEvent } from '../examples/http-agent/desk.mjs';
import { deskResult } from './llm-stub.js';

type Block = { type: string; text?: string; id?: string; name?: string; input?: Record<string, unknown>; tool_use_id?: string; content?: string };
type Message = { role: 'user' | 'assistant'; content: string | Block[] };

export interface AnthropicStub {
  readonly baseUrl: string;
  readonly requests: { apiKey: string | undefined; version: string | undefined; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

function history(messages: readonly Message[]): DeskEvent[] {
  const out: DeskEvent[] = [];
  const waits = new Set<string>();
  for (const m of messages) {
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (m.role === 'user') {
      for (const b of blocks) {
        if (b.type === 'text') out.push({ type: 'user', text: b.text ?? '' });
        else if (b.type === 'tool_result' && !waits.has(b.tool_use_id ?? '')) out.push(deskResult(b.content ?? ''));
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

export async function startAnthropicStub(): Promise<AnthropicStub> {
  const requests: AnthropicStub['requests'] = [];
  let served = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { model?: string; messages?: Message[] };
      requests.push({ apiKey: req.headers['x-api-key'] as string | undefined, version: req.headers['anthropic-version'] as string | undefined, body });
      served++;
      if (req.url !== '/v1/messages') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not found' } }));
        return;
      }
      const action = decide(history(body.messages ?? []));
      const content =
        action.type === 'reply'
          ? [{ type: 'text', text: action.text }]
          : action.type === 'wait'
            ? [{ type: 'tool_use', id: `toolu_${served}`, name: WAIT_TOOL, input: { seconds: action.ms / 1000 } }]
            : [{ type: 'tool_use', id: `toolu_${served}`, name: action.tool, input: { ...action.args, ...(action.key ? { [KEY_ARG]: action.key } : {}) } }];
      const input = Math.ceil(raw.length / 4);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: `msg_${served}`, type: 'message', role: 'assistant', model: body.model ?? 'stub', content, stop_reason: action.type === 'reply' ? 'end_turn' : 'tool_use', stop_sequence: null, usage: { input_tokens: input, output_tokens: 12 } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
