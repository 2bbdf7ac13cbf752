import { describe, expect, it } from 'vitest';
import { composeStrategies, parseStrategies, retryAfterMs, type StrategyContext, type ToolCall } from '../../src/agents/strategies.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { createClock } from '../../src/ground/clock.js';
import { makeRng } from '../../src/ground/seeds.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import type { ToolResult } from '../../src/ground/tools.js';
import { episodeOptions, retail, scenario } from '../helpers.js';

const result = (status: number, body: unknown = {}, headers: Record<string, string> = {}): ToolResult => ({ ok: status >= 200 && status < 300, status, body, headers: new Headers(headers) });

/** A tool that answers from a script of results, recording every call and its options. */
function scripted(...results: ToolResult[]) {
  const calls: { tool: string; key: string | undefined }[] = [];
  const call: ToolCall = async (tool, _args, options) => {
    calls.push({ tool, key: options?.idempotencyKey });
    return results[Math.min(calls.length - 1, results.length - 1)] as ToolResult;
  };
  return { call, calls };
}

const context = (extra: Partial<StrategyContext> = {}): StrategyContext & { clock: ReturnType<typeof createClock> } => ({
  signal: new AbortController().signal,
  isWrite: (t: string) => t.startsWith('cancel') || t.startsWith('return'),
  rng: makeRng('strategies'),
  toolSpecs: retail.tools,
  ...extra,
  clock: createClock(),
});

describe('backoff', () => {
  it('waits with full jitter under a doubling, capped ceiling', async () => {
    const ctx = context();
    const t = scripted(result(503), result(503), result(503), result(200));
    const r = await composeStrategies(t.call, parseStrategies('backoff'), ctx, { backoff: { baseMs: 1000, capMs: 1500 } })('get_order', {});
    expect(r.status).toBe(200);
    expect(t.calls).toHaveLength(4);
    // Three waits, each at most min(cap, base * 2^i): 1000 + 1500 + 1500.
    expect(ctx.clock.elapsed()).toBeLessThanOrEqual(4000);
    expect(ctx.clock.elapsed()).toBeGreaterThan(0);
  });

  it('honours Retry-After in seconds and as an HTTP date, and gives up on one longer than it will wait', async () => {
    const ctx = context();
    const date = new Date(ctx.clock.now() + 7000).toUTCString();
    expect(retryAfterMs(result(429, {}, { 'retry-after': '3' }), ctx.clock.now())).toBe(3000);
    expect(retryAfterMs(result(429, {}, { 'retry-after': date }), ctx.clock.now())).toBe(7000);
    const t = scripted(result(429, {}, { 'retry-after': date }), result(200));
    await composeStrategies(t.call, parseStrategies('backoff'), ctx)('get_order', {});
    expect(ctx.clock.elapsed()).toBeGreaterThanOrEqual(7000);
    const long = scripted(result(429, {}, { 'retry-after': '3600' }), result(200));
    expect((await composeStrategies(long.call, parseStrategies('backoff'), context())('get_order', {})).status).toBe(429);
    expect(long.calls).toHaveLength(1);
  });
});

describe('idempotency and verify', () => {
  it('idempotency sends one key for every attempt of a write, whatever order the strategies are listed in', async () => {
    for (const spec of ['backoff+idempotency', 'idempotency+backoff']) {
      const t = scripted(result(504), result(200));
      await composeStrategies(t.call, parseStrategies(spec), context())('cancel_order', {});
      expect(t.calls).toHaveLength(2);
      expect(t.calls[0]?.key).toBeDefined();
      expect(t.calls[1]?.key).toBe(t.calls[0]?.key);
    }
    const reads = scripted(result(200));
    await composeStrategies(reads.call, parseStrategies('idempotency'), context())('get_order', {});
    expect(reads.calls[0]?.key).toBeUndefined();
  });

  it('verify reads the state after an uncertain write and does not write again when it took effect', async () => {
    const checks: string[] = [];
    const done = scripted(result(504), result(200));
    const r = await composeStrategies(done.call, parseStrategies('verify'), context({ verifyWrite: async (tool) => (checks.push(tool), 'done') }))('cancel_order', {});
    expect(r.ok).toBe(true);
    expect(done.calls).toHaveLength(1);
    expect(checks).toEqual(['cancel_order']);
    const notDone = scripted(result(504), result(200));
    expect((await composeStrategies(notDone.call, parseStrategies('verify'), context({ verifyWrite: async () => 'not-done' }), { verify: { after: 'none' } })('cancel_order', {})).status).toBe(200);
    expect(notDone.calls).toHaveLength(2);
  });

  it('verify reads back a success it cannot trust, by the world\'s policy: writes that move money, every write, or none', async () => {
    // retail marks cancel_order as moving money, change_order_address not.
    const isWrite = (t: string) => t === 'cancel_order' || t === 'change_order_address';
    const run = async (tool: string, after: string | undefined, checks: ('done' | 'not-done')[]) => {
      const seen: string[] = [];
      const t = scripted(result(200));
      const r = await composeStrategies(t.call, parseStrategies('verify'), context({ isWrite, verifyWrite: async (name) => (seen.push(name), checks[seen.length - 1] ?? 'done') }), after ? { verify: { after } } : {})(tool, {});
      return { r, writes: t.calls.length, checks: seen.length };
    };
    // A money write acknowledged but not done (a silent write): read back, written again, read back.
    expect(await run('cancel_order', undefined, ['not-done', 'done'])).toMatchObject({ writes: 2, checks: 2, r: { ok: true } });
    // Done the first time: one write, one read.
    expect(await run('cancel_order', undefined, ['done'])).toMatchObject({ writes: 1, checks: 1 });
    // An address change moves no money: taken on trust by default, read back under `every-write`.
    expect(await run('change_order_address', undefined, ['not-done'])).toMatchObject({ writes: 1, checks: 0 });
    expect(await run('change_order_address', 'every-write', ['not-done', 'done'])).toMatchObject({ writes: 2, checks: 2 });
    expect(await run('cancel_order', 'none', ['not-done'])).toMatchObject({ writes: 1, checks: 0 });
    // Never more writes than its attempts.
    expect(await run('cancel_order', undefined, ['not-done', 'not-done', 'not-done', 'not-done'])).toMatchObject({ writes: 3 });
  });
});

describe('breaker, tolerant, fallback', () => {
  it('breaker opens after repeated failures, fails fast while open, and lets one probe through after the cooldown', async () => {
    const ctx = context();
    const t = scripted(result(503), result(503), result(503), result(200));
    const call = composeStrategies(t.call, parseStrategies('breaker'), ctx, { breaker: { threshold: 3, cooldownMs: 10_000 } });
    for (let i = 0; i < 3; i++) await call('get_order', {});
    const fast = await call('get_order', {});
    expect(fast.body).toMatchObject({ error: 'circuit_open' });
    expect(t.calls).toHaveLength(3);
    // Other tools have their own circuit.
    expect((await call('get_user', {})).status).toBe(200);
    await ctx.clock.sleep(10_000);
    expect((await call('get_order', {})).status).toBe(200);
  });

  it('tolerant reads a drifted order back into the declared shape', async () => {
    const drifted = { data: { ID: 'W1', user_id: 'u1', Status: 'DELIVERED', address_address1: '1 Main', address_zip: '10001', items: [{ item_id: 'a', price: '$12.50' }], total: '$12.50' }, apiVersion: '2' };
    const t = scripted(result(200, drifted));
    const r = await composeStrategies(t.call, parseStrategies('tolerant'), context())('get_order', {});
    expect(r.body).toMatchObject({ id: 'W1', userId: 'u1', status: 'delivered', address: { address1: '1 Main', zip: '10001' }, items: [{ itemId: 'a', price: 12.5 }], total: 12.5 });
  });

  it('fallback takes another route when a read comes back empty, and leaves writes alone', async () => {
    const routes: string[] = [];
    const alternative = async (tool: string) => (routes.push(tool), result(200, { orders: [{ orderId: '#W1' }] }));
    const empty = scripted(result(200, { orders: [] }));
    expect((await composeStrategies(empty.call, parseStrategies('fallback'), context({ alternative }))('list_user_orders', {})).body).toEqual({ orders: [{ orderId: '#W1' }] });
    const write = scripted(result(404));
    expect((await composeStrategies(write.call, parseStrategies('fallback'), context({ alternative }))('cancel_order', {})).status).toBe(404);
    expect(routes).toEqual(['list_user_orders']);
  });
});

describe('strategies in episodes', () => {
  const harness = new WorldHarness(retail, '42');
  const run = async (agent: string, scenarioId: string, profileId: string, lambda: number, trial = 0) => {
    const s = scenario(scenarioId);
    return runEpisode(harness, await harness.prepare(s), resolveAgent(agent), { scenario: s.id, agent, eps: 0, lambda, trial }, episodeOptions({ profileId }));
  };

  it('under timeouts after the commit, backoff+idempotency and verify leave no duplicated write while retry does', async () => {
    const duplicated = (r: Awaited<ReturnType<typeof run>>) => r.diff.some((d) => /duplicated/.test(d.message));
    expect(duplicated(await run('reference:retry', 'return-one-of-two', 'timeout-after-commit', 1))).toBe(true);
    for (const agent of ['reference:backoff+idempotency', 'reference:verify', 'reference:robust']) {
      const r = await run(agent, 'return-one-of-two', 'timeout-after-commit', 1);
      expect(duplicated(r)).toBe(false);
      expect(r.outcome).toBe('pass');
    }
  });

  it('escalate hands off a task it cannot finish: outcome escalated, with the reason, when nothing wrong was written', async () => {
    const r = await run('reference:robust', 'read-order-status', 'empty', 1);
    expect(r.outcome).toBe('escalated');
    expect(r.escalation?.reason).toMatch(/can't find|can't read/);
    expect(r.messages.filter((m) => m.role === 'agent').some((m) => /handed your request to a colleague/.test(m.text))).toBe(true);
    const plain = await run('reference:none', 'read-order-status', 'empty', 1);
    expect(plain.outcome).toBe('fail');
    expect(plain.escalation).toBeUndefined();
  });
});
