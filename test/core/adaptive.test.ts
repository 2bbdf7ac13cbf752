import { describe, expect, it } from 'vitest';
import { adaptiveEstimate, binomial, passAtK, passHatK } from '../../src/core/stats.js';

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
