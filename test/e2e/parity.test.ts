/**
 * Delivery-path parity (docs/faults.md, "Time"), in this process and over loopback: one client logic, the order desk of
 * examples/http-agent/desk.mjs (Retry-After honoured, backoff, one Idempotency-Key per change), run as a
 * module agent, as an HTTP service in another Node process, through global interception, over MCP (an
 * in-process client, a client over Streamable HTTP, a command launched per episode over stdio and over
 * Streamable HTTP), and as the LLM agents against stub models scripted with the same logic, meets the same
 * faults and gets the same outcomes on the same seeds, under profiles that together fire every fault kind.
 *
 * Under `simulated` agent time every path is deterministic and the records agree exactly (messages, calls,
 * statuses, simulated times). Real time enters only where an agent waits in real time: the service with
 * `--wait real` under `real` agent time, whose waits the clock counts; there outcomes and calls agree,
 * and simulated time is at least the module's. The paths that start a process per episode, and the real
 * waits, are in parity-processes.test.ts, which runs beside this file.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interceptGlobally } from '../../src/agents/intercept.js';
import { loadAgent } from '../../src/agents/loader.js';
import { llmAgent } from '../../src/agents/llm.js';
import { anthropicSettingsSchema, llmSettingsSchema } from '../../src/ground/config.js';
import { anthropicAgent } from '../../src/agents/anthropic.js';
import { startAnthropicStub } from '../anthropic-stub.js';
import type { EpisodeRecord } from '../../src/ground/record.js';
import { deskModule, deskOverMcpHttp, harness, passRate, startService, sweep, view } from '../parity-kit.js';
import { startLlmStub, type LlmStub } from '../llm-stub.js';
import deskMcp from '../../examples/desk-mcp.js';
import { startToolServer } from '../../src/agents/tool-server.js';

import { faultKinds } from '../../faults/index.js';

let module: Map<string, EpisodeRecord>;
let stub: LlmStub;
const children: ChildProcess[] = [];

beforeAll(async () => {
  module = await sweep(deskModule(false), { mode: 'simulated' });
  stub = await startLlmStub({ script: 'desk' });
});
afterAll(async () => {
  for (const c of children) c.kill();
  await stub?.close();
});

describe('one client logic, every delivery path', () => {
  it('the module twin meets every fault kind, and does not pass everything', () => {
    const faults = [...module.values()].flatMap((r) => r.faults);
    expect([...new Set(faults.map((f) => f.kind))].sort()).toEqual(faultKinds.map((k) => k.id).sort());
    expect(faults.some((f) => f.kind === 'timeout' && f.phase === 'after')).toBe(true);
    // Retries with one key per change: a timeout after commit is replayed, never written twice.
    expect([...module.values()].some((r) => r.trace.some((t) => t.replayed))).toBe(true);
    expect([...module.values()].every((r) => !r.diff.some((d) => /payments/.test(d.message) && /unexpected/.test(d.message)))).toBe(true);
    expect(passRate(module, 'rate-limit')).toBe(1);
    // Outages outlast its eight attempts now and then: the paths must agree on failures too.
    expect(passRate(module, 'outage')).toBeLessThan(1);
  });

  it('as an HTTP service in another Node process, waiting on the episode clock: the same records', async () => {
    const { child, url } = await startService('clock');
    children.push(child);
    const service = await loadAgent(url);
    expect(service.id).toBe('desk-node');
    try {
      const http = await sweep(service, { mode: 'simulated' });
      for (const [k, r] of module) expect(view(http.get(k) as EpisodeRecord), k).toEqual(view(r));
    } finally {
      await service.dispose?.();
    }
  });

  it('through global interception of fetch: the same records', async () => {
    const interception = interceptGlobally([harness.runtime]);
    try {
      const global = await sweep(deskModule(true), { mode: 'simulated' });
      for (const [k, r] of module) expect(view(global.get(k) as EpisodeRecord), k).toEqual(view(r));
    } finally {
      interception.close();
    }
  });

  it('as the LLM agent against a stub model that waits as told: the same records', async () => {
    process.env.SHAKEDOWN_PARITY_KEY = 'sk-parity';
    const llm = llmAgent(llmSettingsSchema.parse({ baseUrl: stub.baseUrl, model: 'desk', apiKeyEnv: 'SHAKEDOWN_PARITY_KEY', maxSteps: 100, retries: 0 }));
    const viaModel = await sweep(llm, { mode: 'simulated' });
    for (const [k, r] of module) expect(view(viaModel.get(k) as EpisodeRecord), k).toEqual(view(r));
    // The model keyed the change itself (the write tools' idempotency_key) and waited through the wait tool.
    const body = stub.requests.at(-1)?.body as { tools?: { function: { name: string; parameters: { properties: Record<string, unknown> } } }[] };
    expect(body.tools?.find((t) => t.function.name === 'cancel_order')?.function.parameters.properties).toHaveProperty('idempotency_key');
    expect(body.tools?.some((t) => t.function.name === 'wait')).toBe(true);
  });

  it('as the Anthropic agent (Messages API, tool_use and tool_result blocks) against a stub model: the same records', async () => {
    const stub = await startAnthropicStub();
    process.env.SHAKEDOWN_PARITY_ANTHROPIC_KEY = 'sk-ant-parity';
    try {
      const agent = anthropicAgent(anthropicSettingsSchema.parse({ baseUrl: stub.baseUrl, model: 'desk', apiKeyEnv: 'SHAKEDOWN_PARITY_ANTHROPIC_KEY', maxSteps: 100, retries: 0 }));
      const got = await sweep(agent, { mode: 'simulated' });
      for (const [k, r] of module) expect(view(got.get(k) as EpisodeRecord), k).toEqual(view(r));
      // The wire: the key in x-api-key with the API version, tools with input_schema, usage recorded.
      expect(stub.requests.every((q) => q.apiKey === 'sk-ant-parity' && q.version === '2023-06-01')).toBe(true);
      const tools = stub.requests[0]?.body.tools as { name: string; input_schema: { properties: Record<string, unknown> } }[];
      expect(tools.find((t) => t.name === 'cancel_order')?.input_schema.properties).toHaveProperty('idempotency_key');
      expect([...got.values()].every((r) => (r.usage?.calls ?? 0) > 0)).toBe(true);
    } finally {
      await stub.close();
    }
  });

  it('as the LLM agents taking their tools over MCP (llm.tools: mcp), against the same stub models: the same records', async () => {
    process.env.SHAKEDOWN_PARITY_KEY = 'sk-parity';
    const anthropicStub = await startAnthropicStub();
    try {
      const openai = llmAgent(llmSettingsSchema.parse({ baseUrl: stub.baseUrl, model: 'desk', apiKeyEnv: 'SHAKEDOWN_PARITY_KEY', maxSteps: 100, retries: 0, tools: 'mcp' }));
      const anthropic = anthropicAgent(anthropicSettingsSchema.parse({ baseUrl: anthropicStub.baseUrl, model: 'desk', apiKeyEnv: 'SHAKEDOWN_PARITY_KEY', maxSteps: 100, retries: 0, tools: 'mcp' }));
      for (const agent of [openai, anthropic]) {
        const got = await sweep(agent, { mode: 'simulated' });
        for (const [k, r] of module) expect(view(got.get(k) as EpisodeRecord), `${agent.id} ${k} ${JSON.stringify(got.get(k)?.error)}`).toEqual(view(r));
      }
      // The model was shown the tools the MCP server lists (the key argument is the server's), and an error result as it came.
      const tools = stub.requests.at(-1)?.body.tools as { function: { name: string; parameters: { properties: Record<string, unknown> } } }[];
      expect(tools.find((t) => t.function.name === 'cancel_order')?.function.parameters.properties.idempotency_key).toMatchObject({ description: expect.stringMatching(/Idempotency-Key/) });
      const toolMessages = stub.requests.flatMap((q) => (q.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool').map((m) => m.content));
      expect(toolMessages.some((c) => /^\{"status":429,"retryAfter":/.test(c))).toBe(true);
      expect(anthropicStub.requests.some((q) => (q.body.messages as { content: unknown }[]).some((m) => Array.isArray(m.content) && (m.content as { type: string; is_error?: boolean }[]).some((b) => b.type === 'tool_result' && b.is_error)))).toBe(true);
    } finally {
      await anthropicStub.close();
    }
  });

  it('over the Model Context Protocol (an MCP client from ctx.mcp()): the same records', async () => {
    const overMcp = await sweep(deskMcp, { mode: 'simulated' });
    for (const [k, r] of module) expect(view(overMcp.get(k) as EpisodeRecord), k).toEqual(view(r));
  });

  it('over MCP\'s Streamable HTTP transport, from a client talking to the loopback tool server: the same records', async () => {
    const server = await startToolServer();
    const overHttp = deskOverMcpHttp((id) => server.grant(harness.runtime.access(id)).mcpUrl);
    try {
      const got = await sweep(overHttp, { mode: 'simulated' });
      for (const [k, r] of module) expect(view(got.get(k) as EpisodeRecord), k).toEqual(view(r));
    } finally {
      await server.close();
    }
  });

});
