import { describe, expect, it } from 'vitest';
import { bootstrapMean, bootstrapMeans, expandedZ, makeResamples, quantile, taskMeanInterval, wilson } from '../../src/stats/bootstrap.js';
import { deriveSeed, makeRng } from '../../src/ground/seeds.js';
import { passHatK } from '../../src/stats/stats.js';

describe('the interval of a cell (taskMeanInterval)', () => {
  const resamples = makeResamples('interval', 28, 2000);

  it('never collapses: every task passing every trial still leaves room below 1', () => {
    const ci = taskMeanInterval(Array(28).fill(1), resamples);
    expect(ci.high).toBe(1);
    // Wilson at the expanded critical value: T / (T + z^2).
    const z = expandedZ(28);
    expect(ci.low).toBeCloseTo(28 / (28 + z * z), 12);
    expect(ci.low).toBeLessThan(0.9);
    const none = taskMeanInterval(Array(28).fill(0), resamples);
    expect(none.low).toBe(0);
    expect(none.high).toBeGreaterThan(0.1);
  });

  it('holds the mean, and is never narrower than either of its parts', () => {
    const rng = makeRng('values');
    for (let r = 0; r < 50; r++) {
      const values = Array.from({ length: 28 }, () => (rng() < 0.3 ? 1 : rng()));
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const ci = taskMeanInterval(values, resamples);
      expect(ci.low).toBeLessThanOrEqual(mean);
      expect(ci.high).toBeGreaterThanOrEqual(mean);
      const w = wilson(mean, 28, expandedZ(28));
      expect(ci.low).toBeLessThanOrEqual(w.low);
      expect(ci.high).toBeGreaterThanOrEqual(w.high);
    }
  });

  it('expands the critical value for few tasks as t does: 2.09 for 28, 1.96 in the limit', () => {
    expect(expandedZ(28)).toBeCloseTo(2.0895, 3);
    expect(expandedZ(100_000)).toBeCloseTo(1.96, 2);
    expect(expandedZ(1)).toBe(Number.POSITIVE_INFINITY);
  });

  it('covers a reliable agent (every task p = 0.99, 28 tasks x 4 trials) where the plain bootstrap does not', () => {
    const reps = 300;
    const truth = 0.99 ** 4;
    let hits = 0;
    let plainHits = 0;
    for (let r = 0; r < reps; r++) {
      const rng = makeRng(deriveSeed('reliable', r));
      const values = Array.from({ length: 28 }, () => {
        let c = 0;
        for (let t = 0; t < 4; t++) if (rng() < 0.99) c++;
        return passHatK(4, c, 4);
      });
      const ci = taskMeanInterval(values, resamples);
      if (ci.low <= truth && truth <= ci.high) hits++;
      const plain = bootstrapMean(values, resamples);
      if (plain.low <= truth && truth <= plain.high) plainHits++;
    }
    expect(hits / reps).toBeGreaterThanOrEqual(0.93);
    // The interval it replaced: collapsed to [1, 1] whenever every trial passed (a third of the runs).
    expect(plainHits / reps).toBeLessThan(0.8);
  });
});

describe('the bootstrap of several lists at once (bootstrapMeans)', () => {
  it("gives each list, to the last bit, what one list's own resample sums give", () => {
    const rng = makeRng('lists');
    // 502 resamples: a single list sums four at a time, and two are left over.
    const resamples = makeResamples('lists', 97, 502);
    // pass^k-like values for k = 1..4 over 97 tasks of 4 trials: sums of sixths are not exact in binary.
    const counts = Array.from({ length: 97 }, () => Math.floor(rng() * 5));
    const lists = [1, 2, 3, 4].map((k) => counts.map((c) => passHatK(4, c, k)));
    const alone = (values: number[], tail: number) => {
      const means = resamples.map((draw) => {
        let s = 0;
        for (const i of draw) s += values[i] as number;
        return s / draw.length;
      });
      const mean = means.reduce((a, b) => a + b, 0) / means.length;
      const se = Math.sqrt(means.reduce((a, m) => a + (m - mean) ** 2, 0) / (means.length - 1));
      means.sort((a, b) => a - b);
      return { low: quantile(means, tail), high: quantile(means, 1 - tail), se };
    };
    // One list, fewer than four, four, and more than four (two groups of four, the second part empty).
    for (const some of [lists.slice(0, 1), lists.slice(1, 3), lists, [...lists, ...lists.slice(0, 2).reverse()]]) expect(bootstrapMeans(some, resamples, 0.03)).toEqual(some.map((l) => alone(l, 0.03)));
    expect(() => bootstrapMeans([[1, 0], [1]], resamples)).toThrow(RangeError);
  });
});
