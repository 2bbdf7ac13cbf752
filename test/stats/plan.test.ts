import { describe, expect, it } from 'vitest';
import { spreadFromPilot, spreadFromRate, tasksNeeded, varianceAt, withinVariance } from '../../src/stats/plan.js';
import { binomial } from '../../src/stats/stats.js';

describe('planning a run', () => {
  it('knows the noise of a task estimate exactly: with n = k trials it is a Bernoulli of p^k', () => {
    expect(withinVariance(4, 4, 0.9)).toBeCloseTo(0.9 ** 4 * (1 - 0.9 ** 4), 12);
    expect(withinVariance(1, 1, 0.3)).toBeCloseTo(0.21, 12);
    // Against a direct sum over outcomes for n = 8, k = 2.
    let second = 0;
    for (let c = 0; c <= 8; c++) second += binomial(8, c) * 0.7 ** c * 0.3 ** (8 - c) * (binomial(c, 2) / binomial(8, 2)) ** 2;
    expect(withinVariance(8, 2, 0.7)).toBeCloseTo(second - 0.7 ** 4, 12);
    // More trials, less noise.
    expect(withinVariance(16, 4, 0.9)).toBeLessThan(withinVariance(8, 4, 0.9));
  });

  it('the worked example of docs/statistics.md: a difference of 0.1 in pass^4 at pass rate 0.9 with 4 trials takes 357 tasks', () => {
    const { alike } = spreadFromRate(0.9, 4);
    const sd = Math.sqrt(2 * varianceAt(alike, 4, 4));
    expect(sd).toBeCloseTo(0.672, 3);
    // By hand: ((z + z_0.8) sd / 0.1)^2 with z = 1.96 gives 354.5; the expanded z at that size (1.9695) gives 357.
    expect(tasksNeeded(sd, { difference: 0.1, power: 0.8 })).toBe(357);
    expect(tasksNeeded(sd, { difference: 0.2, power: 0.8 })).toBeLessThan(100);
    // Even a loose target needs three tasks: with two, t has one degree of freedom (z = 18); one too narrow for any count says so.
    expect(tasksNeeded(0.3, { width: 2 })).toBe(3);
    expect(tasksNeeded(0.5, { width: 0.001 })).toBe(Number.POSITIVE_INFINITY);
  });

  it('splits a pilot into how much tasks differ and the noise within them', () => {
    // Half the tasks always pass, half never: all of the spread is between tasks.
    const split = spreadFromPilot([...Array(10).fill({ n: 4, c: 4 }), ...Array(10).fill({ n: 4, c: 0 })], 1);
    expect(split.between).toBeCloseTo(0.25 * (20 / 19), 12);
    // Tasks alike at 0.5: what varies is noise, and the between part is near zero.
    const alike = spreadFromPilot(Array.from({ length: 40 }, (_, i) => ({ n: 8, c: [3, 4, 5, 4][i % 4] as number })), 1);
    expect(alike.between).toBeLessThan(0.01);
  });
});
