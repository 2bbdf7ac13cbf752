// Stability: every figure recomputed by brute force on small random runs, the path rules one test each,
// the worked example of docs/statistics.md, and the comparison told apart from a tie.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellStability, type TrialFacts } from '../../src/stats/stability.js';
import { compareStability } from '../../src/stats/stability-compare.js';
import { pathKey, pathOf, stateKey, writeTarget } from '../../src/ground/stability.js';
import { makeResamples } from '../../src/stats/bootstrap.js';
import type { TraceEntry } from '../../src/ground/runtime.js';

/** The brute-force figures: by counting, with nothing shared with the code under test. */
function brute(tasks: { scenario: string; trials: TrialFacts[] }[]) {
  const used = tasks.filter((t) => t.trials.length >= 2);
  const count = (xs: string[]) => xs.filter((x, i) => xs.indexOf(x) === i).length;
  const oneState = used.filter((t) => count(t.trials.map((x) => x.state)) === 1).length / used.length;
  const failing = used.map((t) => t.trials.filter((x) => !x.pass)).filter((f) => f.length >= 2);
  const converge = failing.length === 0 ? null : failing.filter((f) => count(f.map((x) => x.state)) === 1).length / failing.length;
  const onePath = used.filter((t) => count(t.trials.map((x) => x.path)) === 1).length / used.length;
  const calls = used.flatMap((t) => t.trials.map((x) => x.calls));
  let sum = 0;
  for (const c of calls) sum += c;
  const mean = sum / calls.length;
  let sq = 0;
  for (const c of calls) sq += (c - mean) * (c - mean);
  const sd = calls.length > 1 ? Math.sqrt(sq / (calls.length - 1)) : 0;
  // The 95th percentile by linear interpolation between order statistics.
  const sorted = [...calls].sort((a, b) => a - b);
  const h = (sorted.length - 1) * 0.95;
  const p95 = (sorted[Math.floor(h)] as number) + ((sorted[Math.ceil(h)] as number) - (sorted[Math.floor(h)] as number)) * (h - Math.floor(h));
  const within =
    used
      .map((t) => {
        const xs = t.trials.map((x) => x.calls);
        const m = xs.reduce((a, b) => a + b, 0) / xs.length;
        return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
      })
      .reduce((a, b) => a + b, 0) / used.length;
  return { oneState, converge, onePath, mean, sd, p95, within, failingTasks: failing.length };
}

const trial = fc.record({ pass: fc.boolean(), state: fc.constantFrom('a', 'b', 'c'), path: fc.constantFrom('p', 'q'), calls: fc.integer({ min: 0, max: 12 }), turns: fc.integer({ min: 1, max: 5 }), simulatedMs: fc.integer({ min: 0, max: 60_000 }) });
const run = fc.array(fc.array(trial, { minLength: 2, maxLength: 6 }), { minLength: 1, maxLength: 12 }).map((ts) => ts.map((trials, i) => ({ scenario: `t${String(i).padStart(2, '0')}`, trials })));

describe('stability of a cell', () => {
  it('equals its brute-force recomputation on random runs', () => {
    fc.assert(
      fc.property(run, (tasks) => {
        const s = cellStability(tasks, (n) => makeResamples('seed', n, 200));
        const b = brute(tasks);
        expect(s).toBeDefined();
        if (!s) return;
        expect(s.states.oneState.value).toBeCloseTo(b.oneState, 4);
        expect(s.states.failingTasks).toBe(b.failingTasks);
        if (b.converge === null) expect(s.states.failingConverge).toBeNull();
        else expect(s.states.failingConverge?.value).toBeCloseTo(b.converge, 4);
        expect(s.paths.onePath.value).toBeCloseTo(b.onePath, 4);
        expect(s.resources.calls.mean).toBeCloseTo(b.mean, 4);
        expect(s.resources.calls.sd).toBeCloseTo(b.sd, 4);
        expect(s.resources.calls.p95).toBeCloseTo(b.p95, 4);
        expect(s.resources.calls.withinTaskSd).toBeCloseTo(b.within, 4);
        if (b.mean === 0) expect(s.resources.calls.cv).toBeNull();
        else expect(s.resources.calls.cv).toBeCloseTo(b.sd / b.mean, 3);
        // Every interval holds its estimate.
        for (const share of [s.states.oneState, s.paths.onePath, ...(s.states.failingConverge ? [s.states.failingConverge] : [])]) {
          expect(share.ci95[0]).toBeLessThanOrEqual(share.value + 1e-9);
          expect(share.ci95[1]).toBeGreaterThanOrEqual(share.value - 1e-9);
        }
      }),
      { numRuns: 200, seed: 41 },
    );
  });

  it('works the example of docs/statistics.md out as the page does', () => {
    // Three tasks of four trials: one passes every time; one fails twice, the same way; one fails four
    // times, two ways.
    const t = (pass: boolean, state: string, calls: number): TrialFacts => ({ pass, state, path: state, calls, turns: 2, simulatedMs: 1000 });
    const s = cellStability([
      { scenario: 'a', trials: [t(true, 'goal', 3), t(true, 'goal', 3), t(true, 'goal', 3), t(true, 'goal', 3)] },
      { scenario: 'b', trials: [t(true, 'goal', 3), t(false, 'x', 4), t(true, 'goal', 3), t(false, 'x', 4)] },
      { scenario: 'c', trials: [t(false, 'x', 2), t(false, 'y', 6), t(false, 'x', 2), t(false, 'y', 6)] },
    ]);
    expect(s?.states.oneState.value).toBe(0.3333);
    expect(s?.states.distinctMean).toBe(1.6667);
    expect(s?.states.failingTasks).toBe(2);
    expect(s?.states.failingConverge?.value).toBe(0.5);
    expect(s?.resources.calls.mean).toBe(3.5);
    expect(s?.resources.calls.p95).toBe(6);
    // b and c both end in two states by two paths: c first, its calls spread more (sd 2.31 against 0.58).
    expect(s?.leastConsistent.map((x) => [x.scenario, x.callsSd])).toEqual([['c', 2.3094], ['b', 0.5774]]);
  });

  it('leaves out tasks with one trial, and has no figure without two', () => {
    expect(cellStability([{ scenario: 'a', trials: [{ pass: true, state: 's', path: 'p', calls: 1, turns: 1, simulatedMs: 0 }] }])).toBeUndefined();
  });
});

describe('what counts as the same path', () => {
  const entry = (over: Partial<TraceEntry>): TraceEntry => ({ tool: 'cancel_order', method: 'POST', path: '/api/orders/%23W1/cancel', ordinal: 0, status: 200, atMs: 0, ...over });
  const cancelArgs = { orderId: '#W1', reason: 'no longer needed' };
  const cancel = entry({ effect: true, args: cancelArgs });
  const address = entry({ tool: 'change_order_address', path: '/api/orders/%23W2/address', effect: true, args: { orderId: '#W2', city: 'Springfield' } });
  const read = entry({ tool: 'get_order', method: 'GET', path: '/api/orders/%23W1' });

  it('rule 1: reads are set aside', () => {
    expect(pathKey([read, cancel, read])).toBe(pathKey([cancel]));
  });

  it('rule 2: writes that changed nothing are set aside (refused, failed, answered from the idempotency store)', () => {
    const failed = entry({ status: 504, args: cancelArgs });
    const replayed = entry({ status: 200, replayed: true, args: cancelArgs });
    expect(pathKey([failed, cancel, replayed])).toBe(pathKey([cancel]));
  });

  it('rule 3: writes to different records commute; writes to one record keep their order', () => {
    expect(pathKey([cancel, address])).toBe(pathKey([address, cancel]));
    const first = entry({ tool: 'change_order_address', path: '/api/orders/%23W1/address', effect: true, args: { orderId: '#W1', city: 'A' } });
    expect(pathKey([first, cancel])).not.toBe(pathKey([cancel, first]));
    expect(pathOf([address, cancel])).toEqual(['/api/orders/%23W1: cancel_order({"orderId":"#W1","reason":"no longer needed"})', '/api/orders/%23W2: change_order_address({"city":"Springfield","orderId":"#W2"})']);
  });

  it('a different write, or the same write with other arguments, is another path', () => {
    expect(pathKey([cancel])).not.toBe(pathKey([entry({ effect: true, args: { orderId: '#W1', reason: 'ordered by mistake' } })]));
    expect(pathKey([cancel])).not.toBe(pathKey([cancel, address]));
  });

  it("a write's record is its URL path without a final action word", () => {
    expect(writeTarget('/api/orders/%23W1/cancel')).toBe('/api/orders/%23W1');
    expect(writeTarget('http://x.test/api/reservations/R900201/flights?x=1')).toBe('/api/reservations/R900201');
    expect(writeTarget('/api/users/U1')).toBe('/api/users/U1');
    // With the tool's template, a record named in letters is a record, not an action word.
    expect(writeTarget('/api/users/alice', '/users/{userId}')).toBe('/api/users/alice');
    expect(writeTarget('/api/users/alice/payment', '/users/{userId}/payment')).toBe('/api/users/alice');
  });

  it('the same final state is the same differences from the goal, in any order; the goal has one key', () => {
    const d1 = { path: 'orders.W1.status', kind: 'changed' as const, expected: 'cancelled', actual: 'pending', message: '' };
    const d2 = { path: 'orders.W1.address.city', kind: 'changed' as const, expected: 'A', actual: 'B', message: 'another sentence' };
    expect(stateKey([d1, d2])).toBe(stateKey([d2, d1]));
    expect(stateKey([d1])).not.toBe(stateKey([{ ...d1, actual: 'processed' }]));
    expect(stateKey([])).toBe(stateKey([]));
  });
});

describe('comparing two agents on stability', () => {
  const facts = (states: string[], calls = 3): TrialFacts[] => states.map((state) => ({ pass: false, state, path: state, calls, turns: 2, simulatedMs: 0 }));
  const tasks = (n: number, f: (i: number) => TrialFacts[]) => [{ eps: 0, lambda: 0, tasks: Array.from({ length: n }, (_, i) => ({ scenario: `t${String(i).padStart(2, '0')}`, trials: f(i) })) }];

  it('names the agent whose failing trials scatter, at the same pass rate', () => {
    const steady = tasks(16, () => facts(['x', 'x', 'x', 'x']));
    const scattered = tasks(16, () => facts(['x', 'y', 'x', 'y']));
    const [c] = compareStability(steady, scattered, { a: 'steady', b: 'scattered' }, 's', (n) => makeResamples('s', n, 500));
    expect(c?.oneState.difference).toBe(1);
    expect(c?.oneState.pAdjusted).toBeLessThan(0.05);
    expect(c?.notes.some((n) => n.startsWith('scattered ends its trials of a task in one state less often'))).toBe(true);
  });

  it('names nothing between equals, and names an agent that makes 3x the calls at a pass rate not told apart', () => {
    const a = tasks(16, () => facts(['x', 'x'], 3));
    expect(compareStability(a, a, { a: 'a', b: 'b' }, 's', (n) => makeResamples('s', n, 500))[0]?.notes).toEqual([]);
    const costly = tasks(16, () => facts(['x', 'x'], 9));
    expect(compareStability(costly, a, { a: 'costly', b: 'a' }, 's', (n) => makeResamples('s', n, 500))[0]?.notes).toContain('at a pass rate not told apart, costly makes 3.0x the tool calls');
    // Where pass^k already differs, the cost is not named as if the pass rates were equal.
    expect(compareStability(costly, a, { a: 'costly', b: 'a' }, 's', (n) => makeResamples('s', n, 500), () => true)[0]?.notes).toEqual([]);
  });
});
