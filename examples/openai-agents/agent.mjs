#!/usr/bin/env node
/**
 * An agent built on the OpenAI Agents SDK for JavaScript (`@openai/agents`), swept by Shakedown without
 * change as a command agent: the SDK takes the episode's tools from its MCP server, as it takes any MCP
 * server, and Shakedown's faults reach the model through them (docs/agents.md, "Frameworks").
 *
 *   OPENAI_API_KEY=sk-... npx shakedown sweep --agent "cmd:node examples/openai-agents/agent.mjs" \
 *     --scenario read-order-status --scenario cancel-pending-mistake --eps 0 --lambda 0,0.3 --profile rate-limit
 *
 * The model: OPENAI_MODEL (default gpt-4o-mini) on the Chat Completions API at OPENAI_BASE_URL (default
 * OpenAI's), so any OpenAI-compatible server works, and so do the tests' local stub models.
 *   --transport http   (default) MCPServerStreamableHttp at SHAKEDOWN_MCP_URL;
 *   --transport stdio  MCPServerStdio launching the `shakedown` server of SHAKEDOWN_MCP_CONFIG.
 *
 * Two things a careful agent adds to the SDK's defaults, both here: a tool call that fails without an
 * answer is shown to the model as `{"error": ...}` rather than as prose, and a `wait` tool lets the model
 * honour a Retry-After (it waits on the episode's clock, so a sweep spends no real time on it).
 */
import { createInterface } from 'node:readline';
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { Agent, MCPServerStdio, MCPServerStreamableHttp, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';

const args = process.argv.slice(2);
const i = args.indexOf('--transport');
const transport = i >= 0 ? args[i + 1] : 'http';
if (transport !== 'http' && transport !== 'stdio') {
  console.error('usage: agent.mjs [--transport http|stdio]');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify({ agent: { id: `openai-agents-${transport}`, description: `an OpenAI Agents SDK agent (${process.env.OPENAI_MODEL ?? 'gpt-4o-mini'}), tools over MCP (${transport})` } })}\n`);
if (process.env.SHAKEDOWN_PROBE) process.exit(0);
if (!process.env.OPENAI_API_KEY) {
  console.error('set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible server)');
  process.exit(2);
}
// Traces would go to OpenAI with the key; a benchmark run keeps them home.
setTracingDisabled(true);

// A failure without an answer (a reset, a timeout) reaches the model as data it can act on.
const errorFunction = ({ error }) => JSON.stringify({ error: `the call failed without a response (${error?.message ?? error})` });
const server =
  transport === 'http'
    ? new MCPServerStreamableHttp({ url: process.env.SHAKEDOWN_MCP_URL, name: 'shakedown', errorFunction })
    : new MCPServerStdio({ ...JSON.parse(readFileSync(process.env.SHAKEDOWN_MCP_CONFIG, 'utf8')).mcpServers.shakedown, name: 'shakedown', errorFunction });
await server.connect();

const wait = tool({
  name: 'wait',
  description: 'Wait the given number of seconds (at most 300) before going on, e.g. before retrying a tool that answered 429 or 503 with retryAfter.',
  parameters: { type: 'object', properties: { seconds: { type: 'number', minimum: 0, maximum: 300 } }, required: ['seconds'], additionalProperties: false },
  strict: true,
  execute: async ({ seconds }) => {
    const r = await fetch(`${process.env.SHAKEDOWN_CLOCK_URL}/sleep`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds }) });
    return JSON.stringify(await r.json());
  },
});

const agent = new Agent({
  name: 'customer-service',
  instructions: `You are a customer service agent. Follow this policy exactly.\n\n${process.env.SHAKEDOWN_POLICY}\n\nWhen a tool answers 429 or 503 with retryAfter, use the wait tool for that long before you retry; give each change an idempotency_key of your own and reuse it when you retry that change.`,
  model: new OpenAIChatCompletionsModel(new OpenAI({ apiKey: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL || undefined, maxRetries: 2 }), process.env.OPENAI_MODEL ?? 'gpt-4o-mini'),
  mcpServers: [server],
  tools: [wait],
});

let history = [];
const usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { message } = JSON.parse(line);
  const result = await run(agent, [...history, { role: 'user', content: message }], { maxTurns: 100 });
  history = result.history;
  for (const r of result.rawResponses) {
    usage.calls++;
    usage.promptTokens += r.usage?.inputTokens ?? 0;
    usage.completionTokens += r.usage?.outputTokens ?? 0;
  }
  process.stdout.write(`${JSON.stringify({ reply: String(result.finalOutput ?? ''), usage })}\n`);
}
await server.close();
