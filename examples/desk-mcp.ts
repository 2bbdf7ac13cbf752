import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defineAgent } from '../src/index.js';
import { deskReply, type DeskAction, type DeskEvent, type DeskResult } from './http-agent/desk.mjs';

/**
 * The order desk of examples/http-agent/desk.mjs taking its tools over the Model Context Protocol: an
 * MCP client from `ctx.mcp()`, as an agent built on an MCP-capable SDK would hold one. What it meets of
 * faults: a tool result with `isError` and `{status, retryAfter, date, body}` for an answer with a status,
 * a rejected call for a reset or a gateway timeout (docs/agents.md, "MCP").
 *
 *   npx shakedown sweep --agent ./examples/desk-mcp.ts --agent ./examples/desk.ts \
 *     --scenario read-order-status --scenario cancel-pending-mistake --eps 0 --lambda 0,0.3 --profile rate-limit
 */
export async function mcpCall(client: Client, action: DeskAction & { type: 'call' }): Promise<DeskResult> {
  let result: Awaited<ReturnType<Client['callTool']>>;
  try {
    result = await client.callTool({ name: action.tool, arguments: { ...action.args, ...(action.key ? { idempotency_key: action.key } : {}) } });
  } catch {
    // A reset or a timeout: no answer, as the desk's HTTP client sees one.
    return { status: 0, body: null };
  }
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  const text = first?.type === 'text' ? (first.text ?? '') : '';
  if (result.isError) {
    const o = JSON.parse(text) as { status: number; retryAfter?: string; date?: string; body: unknown };
    return { status: o.status, ...(o.retryAfter ? { retryAfter: o.retryAfter } : {}), ...(o.date ? { date: o.date } : {}), body: o.body };
  }
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // A body cut short stays text, as over HTTP.
  }
  return { status: 200, body };
}

export default defineAgent({
  id: 'desk-mcp',
  description: 'order desk (status, cancellation) taking its tools over MCP',
  worlds: ['retail'],
  create: (ctx) => {
    const history: DeskEvent[] = [];
    if (!ctx.mcp) throw new Error('this agent needs ctx.mcp (Shakedown 0.1 or later)');
    const client = ctx.mcp();
    return {
      reply: async (text) =>
        deskReply(history, text, {
          call: async (action) => mcpCall(await client, action),
          wait: (ms) => ctx.clock.sleep(ms, ctx.signal),
        }),
    };
  },
});
