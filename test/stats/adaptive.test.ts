import { describe, expect, it } from 'vitest';
import { adaptiveEstimate, binomial, passAtK, passHatK, summarizeCell } from '../../src/stats/stats.js';
import { compareCells } from '../../src/stats/compare.js';
import { ResampleBank } from '../../src/stats/bootstrap.js';

/** The exact expectation of an estimator over every outcome of the two-stage design, for pass rate p. */
function expectation(p: number, n1: number, n: number, estimate: (nTrials: number, c: number) => number): { mean: number; variance: number } {
  let mean = 0;
  let second = 0;
  const pmf = (trials: number, c: number) => binomial(trials, c) * p ** c * (1 - p) ** (trials - c);
  for (let c1 = 0; c1 <= n1; c1++) {
    const w1 = pmf(n1, c1);
    if (c1 === 0 || c1 === n1) {
      const v = estimate(n1, c1);
      mean += w1 * v;
      second += w1 * v * v;
      continue;
    }
    for (let c2 = 0; c2 <= n - n1; c2++) {
      const w = w1 * pmf(n - n1, c2);
      const v = estimate(n, c1 + c2);
      mean += w * v;
      second += w * v * v;
    }
  }
  return { mean, variance: second - mean * mean };
}

describe('adaptive trials', () => {
  it('keep pass^k and pass@k unbiased for every pass rate, computed exactly over all outcomes', () => {
    for (const [n1, n] of [[3, 6], [4, 8], [2, 5]] as const) {
      for (const p of [0.05, 0.3, 0.5, 0.8, 0.97]) {
        for (let k = 1; k <= n1; k++) {
          const hat = expectation(p, n1, n, (trials, c) => adaptiveEstimate(n1, trials, c, (c1) => passHatK(n1, c1, k)));
          expect(hat.mean).toBeCloseTo(p ** k, 12);
          const at = expectation(p, n1, n, (trials, c) => adaptiveEstimate(n1, trials, c, (c1) => passAtK(n1, c1, k)));
          expect(at.mean).toBeCloseTo(1 - (1 - p) ** k, 12);
        }
      }
    }
  });

  it('are never more variable than the first round alone, and use the extra trials when the first round allows it', () => {
    const p = 0.6;
    const rb = expectation(p, 4, 8, (trials, c) => adaptiveEstimate(4, trials, c, (c1) => passHatK(4, c1, 1)));
    const firstOnly = expectation(p, 4, 4, (trials, c) => passHatK(trials, c, 1));
    expect(rb.variance).toBeLessThan(firstOnly.variance);
    // With a first round of two, a mixed round is always one of two: the extra trials cannot move an unbiased estimate.
    expect(adaptiveEstimate(2, 8, 5, (c1) => passHatK(2, c1, 1))).toBe(0.5);
    expect(() => adaptiveEstimate(3, 6, 0, (c1) => c1)).toThrow(/cannot follow a mixed first round/);
  });
});

describe('adaptive cells', () => {
  // Every task extended: each had a mixed first round of 2 and got all 4 trials.
  const a = [{ scenario: 's1', n: 4, c: 3, errors: 0 }, { scenario: 's2', n: 4, c: 2, errors: 0 }, { scenario: 's3', n: 4, c: 1, errors: 0 }];
  const b = [{ scenario: 's1', n: 4, c: 1, errors: 0 }, { scenario: 's2', n: 4, c: 2, errors: 0 }, { scenario: 's3', n: 2, c: 2, errors: 0 }];
  const est = (t: { n: number; c: number }, k: number) => adaptiveEstimate(2, t.n, t.c, (c1) => passHatK(2, c1, k));

  it('summarise a cell whose every task was extended, up to the first round only, with the two-stage estimate', () => {
    const cell = summarizeCell(0, 0, a, undefined, undefined, 2);
    expect(cell.passHatK.map((e) => e.k)).toEqual([1, 2]);
    const brute = a.reduce((sum, t) => sum + est(t, 2), 0) / a.length;
    expect(cell.passHatK[1]?.value).toBeCloseTo(brute, 12);
  });

  it('compare cells with the two-stage estimate, which the plain one over all trials is not', () => {
    const cells = (tasks: typeof a) => [summarizeCell(0, 0, tasks, undefined, undefined, 2)];
    const [r] = compareCells(cells(a), cells(b), 2, new ResampleBank('7'), '7', 0.05, 2);
    const brute = a.reduce((sum, t, i) => sum + est(t, 2) - est(b[i] as typeof t, 2), 0) / a.length;
    expect(r?.difference).toBeCloseTo(brute, 12);
    const plain = a.reduce((sum, t, i) => sum + passHatK(t.n, t.c, 2) - passHatK((b[i] as typeof t).n, (b[i] as typeof t).c, 2), 0) / a.length;
    expect(Math.abs(brute - plain)).toBeGreaterThan(0.01);
    // Beyond the first round there is no unbiased estimate: nothing is compared.
    expect(compareCells(cells(a), cells(b), 3, new ResampleBank('7'), '7', 0.05, 2)).toEqual([]);
  });
});
