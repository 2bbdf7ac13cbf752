import { describe, expect, it } from 'vitest';
import { bootstrapMeans, CLASS_DRAWS_AT, makeResamples, taskMeanIntervals, valueClasses } from '../../src/stats/bootstrap.js';
import { makeRng } from '../../src/ground/seeds.js';

/** n tasks of 4 trials each, passes drawn from a mixed population; the lists are pass^1..pass^4. */
function passLists(n: number, seed: string): number[][] {
  const rng = makeRng(seed);
  const choose = (a: number, b: number): number => (b > a ? 0 : b === 0 ? 1 : (choose(a - 1, b - 1) * a) / b);
  const passes = Array.from({ length: n }, () => {
    const p = rng() < 0.5 ? 0.95 : rng() * 0.6;
    let c = 0;
    for (let t = 0; t < 4; t++) if (rng() < p) c++;
    return c;
  });
  return [1, 2, 3, 4].map((k) => passes.map((c) => choose(c, k) / choose(4, k)));
}

describe('bootstrap draws by class', () => {
  it('finds the tasks whose values agree in every list, in order of first appearance, and gives up past its limit', () => {
    const lists = [
      [1, 0, 1, 0.5, 0],
      [1, 0, 1, 0, 0],
    ];
    const c = valueClasses(lists, 10);
    expect(c && Array.from(c.sizes)).toEqual([2, 2, 1]);
    expect(c && Array.from(c.values)).toEqual([1, 1, 0, 0, 0.5, 0]);
    expect(valueClasses(lists, 2)).toBeUndefined();
  });

  it('gives the intervals of drawing task indices, in distribution, on thousands of tasks', () => {
    const lists = passLists(4000, 'classes');
    const resamples = makeResamples('run', 4000, 2000);
    const byClass = bootstrapMeans(lists, resamples, 0.025, 'classes');
    const byTask = bootstrapMeans(lists, resamples, 0.025, 'tasks');
    for (let j = 0; j < lists.length; j++) {
      const a = byClass[j] as { low: number; high: number; se: number };
      const b = byTask[j] as { low: number; high: number; se: number };
      // The bootstrap SE of either is the sample SD over sqrt(n); 2,000 resamples estimate it to about 2%,
      // and the 2.5% and 97.5% points to about a tenth of it.
      expect(Math.abs(a.se / b.se - 1)).toBeLessThan(0.08);
      expect(Math.abs(a.low - b.low)).toBeLessThan(0.35 * b.se);
      expect(Math.abs(a.high - b.high)).toBeLessThan(0.35 * b.se);
      const values = lists[j] as number[];
      const mean = values.reduce((s, x) => s + x, 0) / values.length;
      const sd = Math.sqrt(values.reduce((s, x) => s + (x - mean) ** 2, 0) / values.length);
      expect(Math.abs(a.se / (sd / Math.sqrt(values.length)) - 1)).toBeLessThan(0.08);
      expect(a.low).toBeLessThan(mean);
      expect(a.high).toBeGreaterThan(mean);
    }
  });

  it('is what `auto` draws where a cell has at least CLASS_DRAWS_AT tasks a class, and by index elsewhere', () => {
    const big = passLists(5 * CLASS_DRAWS_AT, 'big');
    const r = makeResamples('run', big[0]?.length as number, 500);
    expect(taskMeanIntervals(big, r)).toEqual(taskMeanIntervals(big, r, 'classes'));
    expect(taskMeanIntervals(big, r)).not.toEqual(taskMeanIntervals(big, r, 'tasks'));
    const small = passLists(40, 'small');
    const s = makeResamples('run', 40, 500);
    expect(taskMeanIntervals(small, s)).toEqual(taskMeanIntervals(small, s, 'tasks'));
  });

  it('draws the same for the same run seed and task count, and otherwise for another', () => {
    const lists = passLists(1000, 'seeded');
    expect(bootstrapMeans(lists, makeResamples('a', 1000, 300), 0.025, 'classes')).toEqual(bootstrapMeans(lists, makeResamples('a', 1000, 300), 0.025, 'classes'));
    expect(bootstrapMeans(lists, makeResamples('a', 1000, 300), 0.025, 'classes')).not.toEqual(bootstrapMeans(lists, makeResamples('b', 1000, 300), 0.025, 'classes'));
  });

  it('needs resamples that carry the seed of their class draws', () => {
    const plain = [Uint16Array.from([0, 1, 1])];
    expect(() => bootstrapMeans([[1, 0, 1]], plain, 0.025, 'classes')).toThrow(/makeResamples/);
    expect(bootstrapMeans([[1, 0, 1]], plain)[0]?.low).toBeCloseTo(1 / 3);
  });
});
