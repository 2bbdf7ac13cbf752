import { defineAgent } from 'shakedown';
import { deskReply, mcpCall, type DeskEvent } from './http-agent/desk.mjs';

/**
 * The order desk of examples/http-agent/desk.mjs taking its tools over the Model Context Protocol: an
 * MCP client from `ctx.mcp()`, as an agent built on an MCP-capable SDK would hold one. What it meets of
 * faults: a tool result with `isError` and `{status, retryAfter, date, body}` for an answer with a status,
 * a rejected call for a reset or a gateway timeout (docs/agents.md, "MCP").
 *
 *   npx shakedown sweep --agent ./examples/desk-mcp.ts --agent ./examples/desk.ts \
 *     --scenario read-order-status --scenario cancel-pending-mistake --eps 0 --lambda 0,0.3 --profile rate-limit
 */
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
