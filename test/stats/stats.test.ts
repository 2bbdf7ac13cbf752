import { expandedZ, wilson } from '../../src/stats/bootstrap.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binomial, meanSe, passAtK, passHatK, summarizeCell, Tally } from '../../src/stats/stats.js';
import { ShakedownError } from '../../src/ground/errors.js';

describe('pass^k estimator', () => {
  it('matches hand-computed values', () => {
    expect(passHatK(4, 2, 2)).toBeCloseTo(1 / 6, 12);
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passHatK(4, 3, 2)).toBeCloseTo(3 / 6, 12);
    expect(passHatK(5, 4, 3)).toBeCloseTo(4 / 10, 12);
    expect(passHatK(4, 2, 1)).toBe(0.5);
  });

  it('is 0 when there are fewer successes than k', () => {
    expect(passHatK(4, 1, 2)).toBe(0);
    expect(passHatK(8, 3, 4)).toBe(0);
  });

  it('refuses k > n with an error that says what to do', () => {
    expect(() => passHatK(3, 3, 4)).toThrow(ShakedownError);
    expect(() => passHatK(3, 3, 4)).toThrow(/--trials 4/);
  });

  it('pass@k is one minus the chance that all k draws fail', () => {
    expect(passAtK(4, 2, 2)).toBeCloseTo(1 - 1 / 6, 12);
    expect(passAtK(4, 0, 3)).toBe(0);
  });

  it('never increases with k and stays in [0, 1]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))), ([n, c]) => {
        let prev = 1;
        for (let k = 1; k <= n; k++) {
          const v = passHatK(n, c, k);
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(prev + 1e-12);
          prev = v;
        }
      }),
    );
  });

  it('binomial coefficients', () => {
    expect(binomial(5, 2)).toBe(10);
    expect(binomial(10, 0)).toBe(1);
    expect(binomial(3, 4)).toBe(0);
  });
});

describe('cell summaries', () => {
  it('averages per-task estimates, not a pooled rate', () => {
    // Pooled, 5 of 8 trials pass (0.625); per task, pass^2 is (1 + 1/6) / 2.
    const cell = summarizeCell(0, 0, [
      { scenario: 'a', n: 4, c: 4, errors: 0 },
      { scenario: 'b', n: 4, c: 2, errors: 0 },
    ]);
    expect(cell.passHatK.map((e) => e.k)).toEqual([1, 2, 3, 4]);
    expect(cell.passHatK[1]?.value).toBeCloseTo((1 + 1 / 6) / 2, 12);
    expect(cell.passHatK[0]?.value).toBeCloseTo(0.75, 12);
    expect(cell.passHatK[0]?.se).toBeCloseTo(meanSe([1, 0.5]).se, 12);
    // Without resamples: the Wilson score interval over the 2 tasks, at the expanded critical value (t with 1 df).
    const [low, high] = cell.passHatK[0]?.ci95 ?? [NaN, NaN];
    const w = wilson(0.75, 2, expandedZ(2));
    expect([low, high]).toEqual([w.low, w.high]);
    expect(low).toBeGreaterThan(0);
    expect(high).toBeLessThan(1);
    expect(cell.episodes).toBe(8);
  });

  it('standard error over tasks', () => {
    const { mean, se } = meanSe([1, 0, 1, 0]);
    expect(mean).toBe(0.5);
    expect(se).toBeCloseTo(Math.sqrt(1 / 3 / 4), 12);
  });

  it('tallies outcomes by agent, cell and task; errors count as failures', () => {
    const t = new Tally();
    for (const outcome of ['pass', 'fail', 'error', 'pass'] as const) t.add({ agent: 'x', eps: 0, lambda: 0.1, scenario: 's' }, outcome);
    const [cell] = t.cells('x');
    expect(cell?.perTask).toEqual([{ scenario: 's', n: 4, c: 2, errors: 1, failures: { 'agent-error': 1, 'missing-write': 1 } }]);
    expect(cell?.failures).toEqual({ 'agent-error': 1, 'missing-write': 1 });
    expect(cell?.passHatK[1]?.value).toBeCloseTo(1 / 6, 12);
  });
});

describe("the harness's failures are never the agent's", () => {
  it('leaves simulator, world and judge errors out of every estimate, counts them apart, and gives the confusion rate', () => {
    const t = new Tally();
    const key = (scenario: string) => ({ agent: 'a', eps: 0, lambda: 0, scenario });
    for (let i = 0; i < 4; i++) t.add(key('t1'), 'pass');
    for (let i = 0; i < 3; i++) t.add(key('t2'), 'pass', i === 0 ? { confused: true } : {});
    t.add(key('t2'), 'error', { failure: 'simulator-error' });
    t.add(key('t2'), 'fail', { failure: 'missing-write' });
    t.add(key('t1'), 'error', { failure: 'world-error' });
    t.add(key('t1'), 'error', { failure: 'agent-error' });
    const [cell] = t.cells('a');
    // t1: 4 passes + 1 agent error (the world error left out); t2: 3 passes + 1 failure (the simulator error left out).
    expect(cell?.perTask.map((x) => [x.scenario, x.n, x.c])).toEqual([['t1', 5, 4], ['t2', 4, 3]]);
    expect(cell?.harness).toEqual({ 'simulator-error': 1, 'world-error': 1 });
    expect(cell?.failures).toEqual({ 'agent-error': 1, 'missing-write': 1 });
    expect(cell?.confusionRate).toBe(Math.round((1 / 11) * 10_000) / 10_000);
    expect(cell?.passHatK[0]?.value).toBeCloseTo((4 / 5 + 3 / 4) / 2, 12);
  });
});
