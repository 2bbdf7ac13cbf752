/**
 * Delivery-path parity (docs/faults.md, "Time"): one client logic, the order desk of
 * examples/http-agent/desk.mjs (Retry-After honoured, backoff, one Idempotency-Key per change), run as a
 * module agent, as an HTTP service in another Node process, through global interception, over MCP, and as
 * the LLM agent against a stub model scripted with the same logic, meets the same faults and gets the same
 * outcomes on the same seeds, under rate limits, timeouts, outages and timeouts after commit.
 *
 * Under `simulated` agent time every path is deterministic and the records agree exactly (messages, calls,
 * statuses, simulated times). Real time enters only where an agent waits in real time: the service with
 * `--wait real` under `real` agent time, whose waits the clock counts; there outcomes and calls agree,
 * and simulated time is at least the module's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultKinds, faultProfiles } from '../../faults/index.js';
import { perturbationFamilies } from '../../perturbations/index.js';
import { interceptGlobally } from '../../src/agents/intercept.js';
import { loadAgent } from '../../src/agents/loader.js';
import { llmAgent } from '../../src/agents/llm.js';
import { defineAgent, type AgentFactory } from '../../src/agents/contract.js';
import type { AgentTime } from '../../src/core/clock.js';
import { anthropicSettingsSchema, llmSettingsSchema } from '../../src/core/config.js';
import { anthropicAgent } from '../../src/agents/anthropic.js';
import { startAnthropicStub } from '../anthropic-stub.js';
import { runEpisode, WorldHarness, type EpisodeRecord } from '../../src/core/episode.js';
import { resolveFamilies } from '../../src/core/perturb.js';
import { deskReply, httpCall, type DeskEvent } from '../../examples/http-agent/desk.mjs';
import { startLlmStub, type LlmStub } from '../llm-stub.js';
import deskMcp, { mcpCall } from '../../examples/desk-mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startToolServer } from '../../src/agents/tool-server.js';
import { retail, scenario } from '../helpers.js';

const SCENARIOS = ['read-order-status', 'read-order-status-name-zip', 'cancel-pending-no-longer-needed', 'cancel-pending-mistake'];
const PROFILES = ['rate-limit', 'timeouts', 'outage', 'timeout-after-commit'];
const LAMBDA = 0.6;
const TRIALS = 3;

/** The desk as a module agent: the episode's fetch (or the global one, for interception) and the episode clock. */
const deskModule = (global: boolean): AgentFactory =>
  defineAgent({
    id: 'desk',
    description: 'the order desk as a module agent',
    create: (ctx) => {
      const history: DeskEvent[] = [];
      const f = global ? globalThis.fetch : ctx.fetch;
      return { reply: (text) => deskReply(history, text, { call: (a) => httpCall(f, ctx.baseUrl, ctx.tools, a, ctx.signal), wait: (ms) => ctx.clock.sleep(ms, ctx.signal) }) };
    },
  });

const harness = new WorldHarness(retail, '42');
const families = resolveFamilies(perturbationFamilies, undefined);

/** Every (scenario, profile, trial) episode of one path, in parallel; the key names the same agent on every path. */
async function sweep(factory: AgentFactory, agentTime: AgentTime | { mode: 'auto' }, profiles = PROFILES): Promise<Map<string, EpisodeRecord>> {
  const out = new Map<string, EpisodeRecord>();
  const jobs: Promise<void>[] = [];
  for (const id of SCENARIOS) {
    const prepared = await harness.prepare(scenario(id));
    for (const profileId of profiles) {
      const profile = faultProfiles.find((p) => p.id === profileId);
      if (!profile) throw new Error(`no profile ${profileId}`);
      for (let trial = 0; trial < TRIALS; trial++) {
        // Episode ids come from the key: the profile goes into the trial number so that keys differ across profiles.
        const key = { scenario: id, agent: 'desk', eps: 0, lambda: LAMBDA, trial: PROFILES.indexOf(profileId) * 100 + trial };
        jobs.push(
          runEpisode(harness, prepared, factory, key, { runSeed: '42', families, faultKinds, profile, agentTime, deadlineMs: 120_000 }).then((r) => {
            out.set(`${id}|${profileId}|${trial}`, r);
          }),
        );
      }
    }
  }
  await Promise.all(jobs);
  return out;
}

/** What must agree across paths: the conversation, every call and its answer, the faults, the verdict, the time. */
const view = (r: EpisodeRecord) => ({
  outcome: r.outcome,
  failure: r.failure ?? null,
  ended: r.ended,
  error: r.error?.message ?? null,
  messages: r.messages.map((m) => `${m.role}: ${m.text}`),
  calls: r.trace.map((t) => [t.tool, t.ordinal, t.status, t.atMs, t.fault ?? '', t.idempotencyKey ?? '', t.replayed ?? false, t.effect ?? false]),
  faults: r.faults,
  simulatedMs: r.simulatedMs,
});

function startService(wait: 'clock' | 'real'): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../../examples/http-agent/agent.mjs', import.meta.url)), '--port', '0', '--wait', wait]);
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`agent.mjs exited with ${code}: ${out}`)));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m?.[1]) resolve({ child, url: m[1] });
    });
  });
}

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

const passRate = (m: Map<string, EpisodeRecord>, profile: string) => {
  const rs = [...m.entries()].filter(([k]) => k.split('|')[1] === profile).map(([, r]) => r);
  return rs.filter((r) => r.outcome === 'pass').length / rs.length;
};

describe('one client logic, four delivery paths', () => {
  it('the module twin meets every fault kind of the four profiles, and does not pass everything', () => {
    const fired = new Set([...module.values()].flatMap((r) => r.faults.map((f) => `${f.kind}${f.phase === 'after' ? ' after commit' : ''}`)));
    expect([...fired].sort()).toEqual(['rate-limit', 'server-error', 'timeout', 'timeout after commit']);
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

  it('over the Model Context Protocol (an MCP client from ctx.mcp()): the same records', async () => {
    const overMcp = await sweep(deskMcp, { mode: 'simulated' });
    for (const [k, r] of module) expect(view(overMcp.get(k) as EpisodeRecord), k).toEqual(view(r));
  });

  it('over MCP\'s Streamable HTTP transport, from a client talking to the loopback tool server: the same records', async () => {
    const server = await startToolServer(harness.runtime);
    const overHttp = defineAgent({
      id: 'desk-mcp-http',
      description: 'the order desk over MCP, Streamable HTTP',
      create: (ctx) => {
        const history: DeskEvent[] = [];
        const client = (async () => {
          const c = new Client({ name: 'desk', version: '1.0.0' });
          await c.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrlFor(ctx.episodeId))));
          return c;
        })();
        return {
          reply: async (text) => deskReply(history, text, { call: async (a) => mcpCall(await client, a), wait: (ms) => ctx.clock.sleep(ms, ctx.signal) }),
          close: async () => (await client).close(),
        };
      },
    });
    try {
      const got = await sweep(overHttp, { mode: 'simulated' });
      for (const [k, r] of module) expect(view(got.get(k) as EpisodeRecord), k).toEqual(view(r));
    } finally {
      await server.close();
    }
  });

  it('as an HTTP service that sleeps in real time, under real agent time: the same outcomes and calls', async () => {
    const { child, url } = await startService('real');
    children.push(child);
    const service = await loadAgent(url);
    try {
      // `auto` is `real` for a service: its real sleeps before a retry pass the rate-limit window.
      const real = await sweep(service, { mode: 'auto' }, ['rate-limit']);
      let waited = 0;
      for (const [k, r] of real) {
        const twin = module.get(k) as EpisodeRecord;
        // A Retry-After date is written on the episode clock, which now holds the real part too.
        const undated = (x: EpisodeRecord) => ({ ...view(x), faults: x.faults.map((f) => ({ ...f, detail: { ...f.detail, retryAfter: f.detail?.retryAfter ? 'a date' : '' } })) });
        const { simulatedMs: realMs, calls: realCalls, ...rest } = undated(r);
        const { simulatedMs: twinMs, calls: twinCalls, ...twinRest } = undated(twin);
        expect(rest, k).toEqual(twinRest);
        // Call for call the same, except when each was made: real time is never less than the waits it covers.
        expect(realCalls.map((c) => c.filter((_, i) => i !== 3)), k).toEqual(twinCalls.map((c) => c.filter((_, i) => i !== 3)));
        expect(realMs, k).toBeGreaterThanOrEqual(twinMs);
        waited += twinMs;
      }
      expect(waited).toBeGreaterThan(0);
      expect(passRate(real, 'rate-limit')).toBe(passRate(module, 'rate-limit'));
    } finally {
      await service.dispose?.();
    }
  });
});
