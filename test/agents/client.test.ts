import { afterEach, describe, expect, it } from 'vitest';
import { getFaultProfile, faultKinds } from '../../faults/index.js';
import { withStrategies } from '../../src/agents/client.js';
import { llmAgent } from '../../src/agents/llm.js';
import { loadAgent } from '../../src/agents/loader.js';
import { llmSettingsSchema } from '../../src/ground/config.js';
import { createClock } from '../../src/ground/clock.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { FaultInjector } from '../../src/ground/faults.js';
import { startLlmStub, type LlmStub } from '../llm-stub.js';
import { episodeOptions, retail, scenario } from '../helpers.js';

const harness = new WorldHarness(retail, '42');

/** An episode's tool session under a fault profile, and a context for `withStrategies` on it. */
async function session(profile: string, lambda: number) {
  const prepared = await harness.prepare(scenario('cancel-pending-mistake'));
  const clock = createClock();
  const faults = new FaultInjector({ seed: 'client-test', lambda, profile: getFaultProfile(profile), kinds: faultKinds, params: {} });
  const s = harness.runtime.open({ episodeId: `client-${profile}-${lambda}`.replace(/\./g, ''), db: harness.episodeDb(prepared).db, clock, faults });
  const ctx = { fetch: s.fetch, baseUrl: s.baseUrl, toolSpecs: retail.tools, clock, signal: new AbortController().signal, seed: 'agent-seed' };
  return { s, ctx, clock };
}

describe('withStrategies: the fallback strategies around any tool client', () => {
  it('backoff waits out a rate limit on the episode clock, honouring Retry-After; a plain fetch meets the 429', async () => {
    const plain = await session('rate-limit', 1);
    const r0 = await plain.ctx.fetch(`${plain.ctx.baseUrl}/orders/%23W9000201`);
    expect(r0.status).toBe(429);
    plain.s.close();
    const wrapped = await session('rate-limit', 0.5);
    const fetch = withStrategies(wrapped.ctx, 'backoff');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${wrapped.ctx.baseUrl}/orders/%23W9000201`)).status);
    expect(statuses.every((x) => x === 200)).toBe(true);
    expect(wrapped.s.trace.some((t) => t.status === 429)).toBe(true);
    expect(wrapped.clock.elapsed()).toBeGreaterThan(0);
    const body = (await (await fetch(`${wrapped.ctx.baseUrl}/orders/%23W9000201`)).json()) as { orderId: string };
    expect(body.orderId).toBe('#W9000201');
    wrapped.s.close();
  });

  it('idempotency sends one key on every attempt of a write; a request that names no tool goes through as it is', async () => {
    const { s, ctx } = await session('server', 1);
    const fetch = withStrategies(ctx, 'backoff+idempotency');
    const r = await fetch(`${ctx.baseUrl}/orders/%23W9000201/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'ordered by mistake' }) });
    // Every attempt meets a server error at λ = 1: the last answer comes back, after every retry.
    expect(r.status).toBeGreaterThanOrEqual(500);
    const keys = s.trace.filter((t) => t.tool === 'cancel_order').map((t) => t.idempotencyKey);
    expect(keys.length).toBeGreaterThan(1);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTruthy();
    expect((await fetch(`${ctx.baseUrl}/no/such/tool`)).status).toBe(404);
    s.close();
  });

  it('refuses strategies that need to know the world or that talk to the user, saying what to do', async () => {
    const { s, ctx } = await session('server', 0);
    expect(() => withStrategies(ctx, 'verify')).toThrow(/`verify` .* needs `verifyWrite`/);
    expect(() => withStrategies(ctx, 'escalate')).toThrow(/`escalate` is a way of talking to the user/);
    expect(() => withStrategies(ctx, 'bounce')).toThrow(/bounce/);
    s.close();
  });
});

describe('llm:MODEL+STRATEGIES: a model behind a resilient tool client', () => {
  let stub: LlmStub | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
    delete process.env.SHAKEDOWN_TEST_CLIENT_KEY;
  });

  it('passes rate-limited episodes the model alone fails, on the same faults', async () => {
    stub = await startLlmStub();
    process.env.SHAKEDOWN_TEST_CLIENT_KEY = 'sk-client';
    const settings = llmSettingsSchema.parse({ baseUrl: stub.baseUrl, model: 'stub-model', apiKeyEnv: 'SHAKEDOWN_TEST_CLIENT_KEY' });
    const alone = llmAgent(settings);
    const behind = await loadAgent('llm:stub-model+backoff', undefined, settings);
    expect(behind.id).toBe('llm:stub-model+backoff');
    const s = scenario('read-order-status');
    const outcomes = async (agent: typeof alone) => {
      const out: string[] = [];
      for (let trial = 0; trial < 6; trial++) out.push((await runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps: 0, lambda: 0.5, trial }, episodeOptions({ profileId: 'rate-limit' }))).outcome);
      return out;
    };
    const a = await outcomes(alone);
    const b = await outcomes(behind);
    expect(b.every((o) => o === 'pass')).toBe(true);
    expect(a.filter((o) => o === 'pass').length).toBeLessThan(b.length);
  }, 60_000);
});

describe('comparing strategies on your own agent (examples/status-bot-resilient.ts)', () => {
  it('the same bot behind backoff passes every rate-limited episode; alone it does not', async () => {
    const { loadModuleAgent } = await import('../../src/agents/loader.js');
    const root = new URL('../..', import.meta.url).pathname;
    const plain = await loadModuleAgent('./examples/status-bot.ts', root);
    const resilient = await loadModuleAgent('./examples/status-bot-resilient.ts', root);
    expect(resilient.id).toBe('status-bot+backoff');
    const s = scenario('read-order-status');
    const passes = async (agent: typeof plain) => {
      let n = 0;
      for (let trial = 0; trial < 8; trial++) if ((await runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps: 0, lambda: 0.3, trial }, episodeOptions({ profileId: 'rate-limit' }))).outcome === 'pass') n++;
      return n;
    };
    expect(await passes(resilient)).toBe(8);
    expect(await passes(plain)).toBeLessThan(8);
  }, 60_000);
});
