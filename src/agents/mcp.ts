/**
 * A world's tools as a Model Context Protocol server, for agents that take their tools over MCP (built
 * with the official SDK, `@modelcontextprotocol/sdk`). Each tool is an MCP tool with its description and
 * JSON Schema input; a call goes through the episode's fetch, so it meets the same fault schedule, clock
 * and idempotency as on every other delivery path. How faults reach an MCP client:
 * - an answer with a status (4xx, 429 with Retry-After, 5xx) is a tool result with `isError: true` whose
 *   text is `{"status", "retryAfter"?, "date"?, "body"}`;
 * - no answer at all (a connection reset) and a gateway timeout (504) are protocol errors (the client's
 *   `callTool` rejects), as a broken or timed-out transport would be;
 * - a 2xx answer is a result whose text is the answer's body as it came: drifted fields, a body cut short,
 *   an empty list are delivered as they are.
 * A write tool takes an optional `idempotency_key` argument, sent as the Idempotency-Key header: MCP has no
 * headers, so the key travels with the arguments.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, inputSchemaWithKey, splitKeyArg } from '../ground/tools.js';
import type { ToolSpec, ToolSpecJson } from '../ground/world.js';

/** The argument a write tool takes for its Idempotency-Key over MCP: the same as for a model's function tools. */
export { KEY_ARG as MCP_KEY_ARG } from '../ground/tools.js';

/** What an episode's MCP server needs: its tools and the fetch that reaches them. */
export interface McpToolSource {
  readonly tools: readonly ToolSpecJson[];
  readonly toolSpecs: readonly ToolSpec[];
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  readonly signal?: AbortSignal;
}

/** An MCP server (not yet connected) that serves an episode's tools. */
export function mcpServerFor(source: McpToolSource, name = 'shakedown'): Server {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
  const specs = new Map(source.toolSpecs.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: source.tools.map((t) => {
      const inputSchema = inputSchemaWithKey(t, 'Optional: sent as the Idempotency-Key; give the same key when you retry the same change.');
      return { name: t.name, description: t.description, inputSchema: inputSchema as { type: 'object' } };
    }),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const spec = specs.get(request.params.name);
    if (!spec) throw new McpError(ErrorCode.InvalidParams, `no tool named ${request.params.name}; tools: ${[...specs.keys()].join(', ')}`);
    const { args, idempotencyKey } = splitKeyArg(spec, (request.params.arguments ?? {}) as Record<string, unknown>);
    const r = await callTool(source.fetch, source.baseUrl, spec, args, { ...(source.signal ? { signal: source.signal } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) });
    // No answer, or the gateway gave up: the transport failed, as a client of a remote MCP server would see it.
    if (r.status === 0) throw new McpError(ErrorCode.ConnectionClosed, `the tool ${spec.name} did not answer: the connection was reset`);
    if (r.status === 504) throw new McpError(ErrorCode.RequestTimeout, `the tool ${spec.name} timed out (gateway timeout)`);
    const text = r.body === undefined ? '' : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
    if (r.ok) return { content: [{ type: 'text', text }], ...(r.headers.get('idempotent-replayed') ? { _meta: { replayed: true } } : {}) };
    const retryAfter = r.headers.get('retry-after');
    const date = r.headers.get('date');
    return { isError: true, content: [{ type: 'text', text: JSON.stringify({ status: r.status, ...(retryAfter ? { retryAfter } : {}), ...(date ? { date } : {}), body: r.body ?? null }) }] };
  });
  return server;
}

/**
 * An MCP client connected in-process to a new MCP server for the episode's tools: what `ctx.mcp()` gives a
 * module agent. Closing it closes the server too.
 */
export async function mcpClientFor(source: McpToolSource, name = 'shakedown-agent'): Promise<Client> {
  const server = mcpServerFor(source);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  const close = client.close.bind(client);
  client.close = async () => {
    await close();
    await server.close();
  };
  return client;
}
