#!/usr/bin/env node
/**
 * A command agent that takes its tools over the Model Context Protocol: the order desk of
 * ../http-agent/desk.mjs behind an MCP client from the official SDK. Shakedown launches it once per
 * episode (`--agent "cmd:node examples/mcp-agent/agent.mjs"`); the protocol is in docs/agents.md,
 * "Command agents".
 *
 *   npx shakedown sweep --agent "cmd:node examples/mcp-agent/agent.mjs --transport stdio" \
 *     --scenario read-order-status --scenario cancel-pending-mistake --eps 0 --lambda 0,0.3 --profile rate-limit
 *
 * --transport stdio  (default) it launches the MCP server named `shakedown` in the config file at
 *                    SHAKEDOWN_MCP_CONFIG, as an MCP client launches its servers;
 * --transport http   it connects to the episode's Streamable HTTP endpoint at SHAKEDOWN_MCP_URL.
 * --wait clock       (default) it waits on the episode's clock (POST SHAKEDOWN_CLOCK_URL/sleep): no real time;
 * --wait real        it sleeps in real time, as it would in production.
 *
 * It writes its name first, then one JSON line per reply; its logs go to stderr.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { deskReply, mcpCall } from '../http-agent/desk.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const transport = flag('transport', 'stdio');
const waitMode = flag('wait', 'clock');
// How it reads a Retry-After date: against the answer's Date (`header`), or its own clock (`own`, as urllib3 does).
const datesMode = flag('dates', 'header');
if (!['stdio', 'http'].includes(transport) || !['clock', 'real'].includes(waitMode) || !['header', 'own'].includes(datesMode)) {
  console.error(`usage: agent.mjs [--transport stdio|http] [--wait clock|real] [--dates header|own]`);
  process.exit(2);
}

// Its name, first: Shakedown reads it when the sweep starts (SHAKEDOWN_PROBE=1) and shows it in tables.
process.stdout.write(`${JSON.stringify({ agent: { id: `desk-mcp-${transport}`, description: `order desk over MCP (${transport}), waits: ${waitMode}` } })}\n`);
if (process.env.SHAKEDOWN_PROBE) process.exit(0);

const env = (name) => {
  const v = process.env[name];
  if (!v) {
    console.error(`${name} is not set: run this agent from a Shakedown sweep (--agent "cmd:node ${process.argv[1]}")`);
    process.exit(2);
  }
  return v;
};

async function connect() {
  const client = new Client({ name: 'desk', version: '1.0.0' });
  if (transport === 'http') await client.connect(new StreamableHTTPClientTransport(new URL(env('SHAKEDOWN_MCP_URL'))));
  else {
    const { command, args: serverArgs } = JSON.parse(readFileSync(env('SHAKEDOWN_MCP_CONFIG'), 'utf8')).mcpServers.shakedown;
    await client.connect(new StdioClientTransport({ command, args: serverArgs, stderr: 'inherit' }));
  }
  return client;
}

async function wait(ms) {
  if (ms <= 0) return;
  if (waitMode === 'real') return new Promise((resolve) => setTimeout(resolve, ms));
  const r = await fetch(`${env('SHAKEDOWN_CLOCK_URL')}/sleep`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms }) });
  if (!r.ok) throw new Error(`the episode clock refused the wait: ${r.status}`);
}

const client = await connect();
const history = [];
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { message } = JSON.parse(line);
  const call = async (action) => {
    const result = await mcpCall(client, action);
    return datesMode === 'own' ? { ...result, receivedAt: Date.now() } : result;
  };
  const reply = await deskReply(history, message, { call, wait });
  process.stdout.write(`${JSON.stringify({ reply })}\n`);
}
await client.close();
