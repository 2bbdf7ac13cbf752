#!/usr/bin/env node
/**
 * An MCP server on stdio that is one episode's MCP endpoint: every JSON-RPC message a client writes on
 * stdin goes to the episode's Streamable HTTP endpoint on the sweep's tool server, and every answer comes
 * back on stdout unchanged (tool results, error results, protocol errors for resets and timeouts). It is
 * the `command` of the `shakedown` entry in the MCP config a command agent is given
 * (SHAKEDOWN_MCP_CONFIG, docs/agents.md "Command agents"), so that an agent which launches its MCP servers
 * itself, as most MCP clients do, takes the episode's tools over stdio.
 *
 *   node src/cli/mcp-stdio-bridge.mjs http://127.0.0.1:PORT/<episode>/mcp
 *
 * Plain JavaScript, so that it starts without a TypeScript loader.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = process.argv[2];
if (!url || !/^https?:\/\//.test(url)) {
  process.stderr.write('usage: mcp-stdio-bridge.mjs URL  (the episode\'s MCP endpoint, http://HOST:PORT/<episode>/mcp)\n');
  process.exit(2);
}

const upstream = new StreamableHTTPClientTransport(new URL(url));
const downstream = new StdioServerTransport();
// JSON-RPC's code for a server that cannot be reached (the SDK's ErrorCode.ConnectionClosed).
const CONNECTION_CLOSED = -32000;

downstream.onmessage = (message) => {
  upstream.send(message).catch((error) => {
    // A request that cannot reach the episode (it is over, or the sweep stopped) still gets an answer.
    if ('id' in message && 'method' in message) {
      void downstream.send({ jsonrpc: '2.0', id: message.id, error: { code: CONNECTION_CLOSED, message: `the episode's MCP endpoint cannot be reached: ${error?.message ?? error}` } });
    }
  });
};
upstream.onmessage = (message) => void downstream.send(message);
upstream.onerror = (error) => process.stderr.write(`mcp-stdio-bridge: ${error?.message ?? error}\n`);
downstream.onclose = () => {
  void upstream.close().finally(() => process.exit(0));
};
process.stdin.on('end', () => downstream.onclose?.());

await upstream.start();
await downstream.start();
