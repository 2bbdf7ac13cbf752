/**
 * The delivery-path parity kit (docs/faults.md, "Time"): one client logic, the order desk of
 * examples/http-agent/desk.mjs, swept the same way whichever way it is delivered. The parity test
 * (test/e2e/parity.test.ts) compares the records; `npx tsx bench/parity.ts` prints the table of pass^1
 * per path and profile that docs/faults.md shows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { faultKinds, faultProfiles } from '../faults/index.js';
import { perturbationFamilies } from '../perturbations/index.js';
import { defineAgent, type AgentFactory } from '../src/agents/contract.js';
import type { AgentTime } from '../src/ground/clock.js';
import type { FaultProfile } from '../src/ground/faults.js';
import { runEpisode, WorldHarness } from '../src/run/episode.js';
import { type EpisodeRecord } from '../src/ground/record.js';
import { resolveFamilies } from '../src/ground/perturb.js';
import { deskReply, httpCall, type DeskEvent } from '../examples/http-agent/desk.mjs';
import { retail, scenario } from './helpers.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpCall } from '../examples/http-agent/desk.mjs';

export const SCENARIOS = ['read-order-status', 'read-order-status-name-zip', 'cancel-pending-no-longer-needed', 'cancel-pending-mistake'];
/** Profiles that, together, fire every fault kind (`truncated`, `lost-writes` and `untrue-reads` are the kit's own: bodies cut short; partial commits; the other lying kinds). */
export const PROFILES = ['rate-limit', 'timeouts', 'outage', 'timeout-after-commit', 'network', 'drift', 'empty', 'truncated', 'lost-writes', 'untrue-reads'];
const KIT_PROFILES: readonly FaultProfile[] = [
  { id: 'truncated', description: 'bodies cut short only', weights: { 'truncated-body': 1 } },
  { id: 'lost-writes', description: 'writes that commit part of what they were asked only', weights: { 'partial-commit': 1 } },
  { id: 'untrue-reads', description: 'writes acknowledged and lost, stale reads and wrong values only', weights: { 'silent-write': 0.5, 'stale-read': 0.25, 'wrong-value': 0.25 } },
];
export const LAMBDA = 0.6;
export const TRIALS = 3;
const ALL_TRIALS = Array.from({ length: TRIALS }, (_, t) => t);
/** One trial of each scenario and profile that, over the profiles, fires every fault kind (the paths that start a process per episode run it alone). */
export const ONE_TRIAL = [1];

/** The desk as a module agent: the episode's fetch (or the global one, for interception) and the episode clock. */
export const deskModule = (global: boolean): AgentFactory =>
  defineAgent({
    id: 'desk',
    description: 'the order desk as a module agent',
    create: (ctx) => {
      const history: DeskEvent[] = [];
      const f = global ? globalThis.fetch : ctx.fetch;
      return { reply: (text) => deskReply(history, text, { call: (a) => httpCall(f, ctx.baseUrl, ctx.tools, a, ctx.signal), wait: (ms) => ctx.clock.sleep(ms, ctx.signal) }) };
    },
  });

export const harness = new WorldHarness(retail, '42');
export const families = resolveFamilies(perturbationFamilies, undefined);

/**
 * Every (scenario, profile, trial) episode of one path, `concurrency` at a time (all at once unless told:
 * a path that starts a process per episode is given a limit, and may run fewer trials); the key names the
 * same agent on every path.
 */
export async function sweep(factory: AgentFactory, agentTime: AgentTime | { mode: 'auto' }, profiles = PROFILES, concurrency = Infinity, trials: readonly number[] = ALL_TRIALS): Promise<Map<string, EpisodeRecord>> {
  const out = new Map<string, EpisodeRecord>();
  const jobs: (() => Promise<void>)[] = [];
  for (const id of SCENARIOS) {
    const prepared = await harness.prepare(scenario(id));
    for (const profileId of profiles) {
      const profile = [...faultProfiles, ...KIT_PROFILES].find((p) => p.id === profileId);
      if (!profile) throw new Error(`no profile ${profileId}`);
      for (const trial of trials) {
        // Episode ids come from the key: the profile goes into the trial number so that keys differ across profiles.
        const key = { scenario: id, agent: 'desk', eps: 0, lambda: LAMBDA, trial: PROFILES.indexOf(profileId) * 100 + trial };
        jobs.push(() =>
          runEpisode(harness, prepared, factory, key, { runSeed: '42', families, faultKinds, profile, agentTime, deadlineMs: 120_000 }).then((r) => {
            out.set(`${id}|${profileId}|${trial}`, r);
          }),
        );
      }
    }
  }
  const lanes = Array.from({ length: Math.min(concurrency, jobs.length) }, async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await job();
  });
  await Promise.all(lanes);
  return out;
}

/** What must agree across paths: the conversation, every call and its answer, the faults, the verdict, the time. */
export const view = (r: EpisodeRecord) => ({
  outcome: r.outcome,
  failure: r.failure ?? null,
  ended: r.ended,
  error: r.error?.message ?? null,
  messages: r.messages.map((m) => `${m.role}: ${m.text}`),
  calls: r.trace.map((t) => [t.tool, t.ordinal, t.status, t.atMs, t.fault ?? '', t.idempotencyKey ?? '', t.replayed ?? false, t.effect ?? false]),
  faults: r.faults,
  simulatedMs: r.simulatedMs,
});

export function startService(wait: 'clock' | 'real', dates: 'header' | 'own' = 'header'): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../examples/http-agent/agent.mjs', import.meta.url)), '--port', '0', '--wait', wait, '--dates', dates]);
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

export const passRate = (m: Map<string, EpisodeRecord>, profile: string) => {
  const rs = [...m.entries()].filter(([k]) => k.split('|')[1] === profile).map(([, r]) => r);
  return rs.filter((r) => r.outcome === 'pass').length / rs.length;
};

/** The desk as an MCP client over Streamable HTTP, at the URL a tool server gives each episode. */
export const deskOverMcpHttp = (mcpUrlFor: (episodeId: string) => string): AgentFactory =>
  defineAgent({
    id: 'desk-mcp-http',
    description: 'the order desk over MCP, Streamable HTTP',
    create: (ctx) => {
      const history: DeskEvent[] = [];
      const client = (async () => {
        const c = new Client({ name: 'desk', version: '1.0.0' });
        await c.connect(new StreamableHTTPClientTransport(new URL(mcpUrlFor(ctx.episodeId))));
        return c;
      })();
      return {
        reply: async (text) => deskReply(history, text, { call: async (a) => mcpCall(await client, a), wait: (ms) => ctx.clock.sleep(ms, ctx.signal) }),
        close: async () => (await client).close(),
      };
    },
  });
