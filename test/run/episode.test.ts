import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { defineAgent } from '../../src/agents/contract.js';
import { ProviderPace } from '../../src/model/pace.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { episodeSeeds } from '../../src/ground/record.js';
import { planKeys, runSweep } from '../../src/run/sweep.js';
import { Tally } from '../../src/stats/stats.js';
import { buildGrid } from '../../src/report/grid.js';
import { episodeOptions, retail, retailScenarios, scenario } from '../helpers.js';

const key = (agent: string, eps = 0, lambda = 0, trial = 0) => ({ scenario: 'cancel-pending-mistake', agent, eps, lambda, trial });

async function run(agent: ReturnType<typeof defineAgent>, options = episodeOptions()) {
  const harness = new WorldHarness(retail, '42');
  return runEpisode(harness, await harness.prepare(scenario('cancel-pending-mistake')), agent, key(agent.id), options);
}

describe('episodes', () => {
  it('an agent that throws gives outcome error with its message, and the episode is still judged', async () => {
    const r = await run(defineAgent({ id: 'thrower', description: 't', create: () => ({ reply: async () => { throw new Error('model unavailable'); } }) }));
    expect(r.outcome).toBe('error');
    expect(r.ended).toBe('agent-error');
    expect(r.error).toEqual({ name: 'Error', message: 'model unavailable' });
    expect(r.diff.length).toBeGreaterThan(0);
  });

  it('an agent that hangs is stopped at the deadline', async () => {
    const r = await run(defineAgent({ id: 'hang', description: 'h', create: () => ({ reply: () => new Promise<string>(() => undefined) }) }), episodeOptions({ deadlineMs: 50 }));
    expect(r.outcome).toBe('error');
    expect(r.ended).toBe('deadline');
  });

  it("a wait for a model provider's quota moves the deadline on, for an agent that says its time is real", async () => {
    // A provider paused by a 429 for 0.4 s: the agent's first request waits it out, past a 0.2 s deadline.
    const waiter = (time?: { mode: 'real' }) =>
      defineAgent({
        id: 'waiter',
        description: 'w',
        ...(time ? { time } : {}),
        create: () => {
          const pace = new ProviderPace();
          pace.learn(429, { 'retry-after': '0.4' });
          return { reply: async () => (await pace.acquire(1), pace.release(1), 'Done.') };
        },
      });
    const real = await run(waiter({ mode: 'real' }), episodeOptions({ deadlineMs: 200 }));
    expect(real.ended).toBe('done');
    // An agent that says nothing of its time is taken to call no model here: the wait is its own.
    const unsaid = await run(waiter(), episodeOptions({ deadlineMs: 200 }));
    expect(unsaid.ended).toBe('deadline');
    // A wait past the episode's allowance for the provider ends it at the deadline, not after the wait.
    const capped = await run(waiter({ mode: 'real' }), episodeOptions({ deadlineMs: 200, maxProviderWaitMs: 50 }));
    expect(capped.ended).toBe('deadline');
    expect(capped.error?.message).toMatch(/50 ms waiting for the model provider's quota/);
  });

  it('an agent that sleeps past the simulated deadline is stopped without wall time', async () => {
    const r = await run(
      defineAgent({ id: 'sleeper', description: 's', create: (ctx) => ({ reply: async () => { for (;;) await ctx.clock.sleep(60_000); } }) }),
      episodeOptions({ simulatedDeadlineMs: 600_000 }),
    );
    expect(r.ended).toBe('deadline');
    expect(r.simulatedMs).toBeLessThanOrEqual(600_000);
  });

  it('a bug in the world is an error of the world, not a failure of the agent', async () => {
    const broken = { ...retail, handlers: (instance: Parameters<typeof retail.handlers>[0]) => [http.get('*/api/orders/:orderId', () => { throw new Error('db down'); }), ...retail.handlers(instance)] };
    const harness = new WorldHarness(broken, '42');
    const r = await runEpisode(harness, await harness.prepare(scenario('read-order-status')), resolveAgent('reference:none'), { ...key('reference:none'), scenario: 'read-order-status' }, episodeOptions());
    expect(r.outcome).toBe('error');
    expect(r.error?.name).toBe('WorldError');
    expect(r.error?.message).toMatch(/GET \/api\/orders\/%23W9000101: db down/);
  });

  it('an agent whose close() hangs does not hold the episode', async () => {
    const r = await run(defineAgent({ id: 'sticky', description: 's', create: () => ({ reply: async () => 'Done.', close: () => new Promise<void>(() => undefined) }) }));
    expect(r.outcome).toBe('fail');
  }, 20_000);

  it('a reply that is not a string is an agent error', async () => {
    const r = await run(defineAgent({ id: 'num', description: 'n', create: () => ({ reply: async () => 42 as unknown as string }) }));
    expect(r.outcome).toBe('error');
    expect(r.error?.message).toMatch(/must be a string/);
  });

  it('gives agents the policy, tool specs with JSON Schema, and a seed', async () => {
    let seen: unknown;
    await run(defineAgent({ id: 'peek', description: 'p', create: (ctx) => { seen = { policy: ctx.policy.slice(0, 40), tools: ctx.tools.map((t) => t.name), schema: ctx.tools[0]?.inputSchema, seed: ctx.seed, gold: ctx.gold }; return { reply: async () => 'ok' }; } }));
    expect(seen).toMatchObject({ policy: expect.stringContaining('Retail'), tools: expect.arrayContaining(['cancel_order', 'get_order']), schema: { type: 'object' }, gold: undefined });
  });

  it('perturbs every user turn and keeps each original beside the families that fired', async () => {
    const harness = new WorldHarness(retail, '42');
    const s = scenario('missing-info-cancel');
    const agent = resolveAgent('reference:none');
    const records = await Promise.all([0, 1, 2, 3].map(async (trial) => runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps: 1, lambda: 0, trial }, episodeOptions())));
    const later = records.flatMap((r) => r.messages.filter((m) => m.role === 'user').slice(1));
    expect(later.length).toBeGreaterThan(0);
    expect(later.some((m) => m.original !== undefined && m.original !== m.text && (m.perturbations?.length ?? 0) > 0)).toBe(true);
    for (const m of records.flatMap((r) => r.messages)) if (m.original !== undefined) expect(m.perturbations?.length).toBeGreaterThan(0);
  });

  it('under timeouts after the commit, a retry without an Idempotency-Key writes twice and the diff names the duplicate', async () => {
    const harness = new WorldHarness(retail, '42');
    const s = scenario('return-one-of-two');
    const options = episodeOptions({ profileId: 'timeout-after-commit' });
    const keyFor = (agent: string) => ({ scenario: s.id, agent, eps: 0, lambda: 1, trial: 0 });
    const retry = await runEpisode(harness, await harness.prepare(s), resolveAgent('reference:retry'), keyFor('reference:retry'), options);
    expect(retry.outcome).toBe('fail');
    expect(retry.faults.every((f) => f.kind === 'timeout' && f.phase === 'after')).toBe(true);
    expect(retry.diff.map((d) => d.message)).toEqual(expect.arrayContaining([expect.stringMatching(/payments: .*"type":"refund".* duplicated/)]));
    // One attempt commits once: the database is right even though the agent saw a 504.
    const none = await runEpisode(harness, await harness.prepare(s), resolveAgent('reference:none'), keyFor('reference:none'), options);
    expect(none.diff).toEqual([]);
  });

  it('derives wording and fault seeds from the cell, never from the agent (common random numbers)', () => {
    const a = episodeSeeds('42', key('reference:none', 0.5, 0.3, 1));
    const b = episodeSeeds('42', key('reference:retry', 0.5, 0.3, 1));
    expect(a.perturbation).toBe(b.perturbation);
    expect(a.faults).toBe(b.faults);
    expect(a.user).toBe(b.user);
    expect(a.agent).not.toBe(b.agent);
    expect(episodeSeeds('42', key('x', 0.5, 0.3, 2)).faults).not.toBe(a.faults);
    expect(episodeSeeds('42', key('x', 0.5, 0.3, 2), true).faults).toBe(episodeSeeds('42', key('x', 0.5, 0.3, 0), true).faults);
  });
});

describe('sweeps', () => {
  const plan = (concurrency: number) => ({
    ...episodeOptions(),
    world: retail,
    scenarios: retailScenarios.filter((s) => ['cancel', 'return', 'ambiguous'].includes(s.tags.category)),
    agents: ['oracle', 'noop', 'reference:none', 'reference:retry'].map(resolveAgent),
    eps: [0, 0.5],
    lambda: [0, 0.3],
    trials: 3,
    concurrency,
  });
  const gridOf = (records: Awaited<ReturnType<typeof runSweep>>) => {
    const tally = new Tally();
    for (const r of records) tally.add(r.key, r.outcome);
    return buildGrid({ world: 'retail', seed: '42', profile: 'mixed', fixedTrials: false, eps: [0, 0.5], lambda: [0, 0.3], trials: 3, agents: ['oracle', 'noop', 'reference:none', 'reference:retry'] }, tally);
  };

  it('are deterministic: same seed, same outcomes and grid, whatever the concurrency', async () => {
    const a = await runSweep(plan(8));
    const b = await runSweep(plan(2));
    const strip = (rs: typeof a) => new Map(rs.map((r) => [JSON.stringify(r.key), JSON.stringify({ ...r, wallMs: 0 })]));
    expect(strip(a)).toEqual(strip(b));
    expect(gridOf(a)).toEqual(gridOf(b));
  });

  it('keep no records when told not to, handing each to onEpisode alone', async () => {
    const seen: string[] = [];
    const kept = await runSweep({ ...plan(4), trials: 1 }, { retainRecords: false, onEpisode: (r) => void seen.push(JSON.stringify(r.key)) });
    expect(kept).toEqual([]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(planKeys({ ...plan(4), trials: 1 }).length);
  });

  it('frame the agents with their baselines, and retry beats none under faults', async () => {
    const grid = gridOf(await runSweep(plan(8)));
    const cell = (agent: string, eps: number, lambda: number) => grid.agents.find((a) => a.agent === agent)?.cells.find((c) => c.eps === eps && c.lambda === lambda);
    expect(cell('oracle', 0, 0)?.passHatK[0]?.value).toBe(1);
    for (const c of grid.agents.find((a) => a.agent === 'noop')?.cells ?? []) expect(c.passHatK[0]?.value).toBe(0);
    expect(cell('reference:retry', 0, 0.3)?.passHatK[0]?.value).toBeGreaterThan(cell('reference:none', 0, 0.3)?.passHatK[0]?.value ?? 1);
    for (const { cells } of grid.agents) for (const c of cells) for (let k = 1; k < c.passHatK.length; k++) expect(c.passHatK[k]?.value).toBeLessThanOrEqual((c.passHatK[k - 1]?.value ?? 0) + 1e-12);
  });

  it('refuse, before any episode runs, a scenario whose gold actions fail', async () => {
    const s = scenario('cancel-pending-mistake');
    const broken = { ...s, id: 'broken-gold', gold: [...s.gold, ...s.gold] };
    let episodes = 0;
    await expect(runSweep({ ...plan(2), scenarios: [s, broken] }, { onEpisode: () => void episodes++ })).rejects.toThrow(/broken-gold: gold\[1\] \(cancel_order\) answered 409/);
    expect(episodes).toBe(0);
  });

  it('skip finished keys and stop launching when aborted', async () => {
    const first = await runSweep({ ...plan(4), trials: 1 });
    const skip = new Set(first.slice(0, 10).map((r) => `${r.key.scenario}|${r.key.agent}|${r.key.eps}|${r.key.lambda}|${r.key.trial}`));
    const rest = await runSweep({ ...plan(4), trials: 1 }, { skip });
    expect(rest.length).toBe(first.length - 10);
    const controller = new AbortController();
    controller.abort();
    expect(await runSweep(plan(4), { signal: controller.signal })).toEqual([]);
  });
});
