/**
 * Statistics that know tasks come in families: a family of identical variants counts as one task, not
 * as many; a run of hand-written tasks (every family a singleton) is computed exactly as before.
 */
import { describe, expect, it } from 'vitest';
import { clusteredMeanInterval, clusteredSe, clustersOf, makeResamples, ResampleBank, taskMeanInterval } from '../../src/stats/bootstrap.js';
import { compareCells, signFlipTest } from '../../src/stats/compare.js';
import { meanSe, summarizeCell, type TaskCount } from '../../src/stats/stats.js';
import { familyOf } from '../../src/ground/family-id.js';

/** F families of m tasks each, every variant a copy of its template's value. */
const copies = (values: readonly number[], m: number) => values.flatMap((v, f) => Array.from({ length: m }, (_, i) => ({ id: i === 0 ? `t${f}` : `t${f}--v${i}`, v })));

describe('clustered statistics', () => {
  it('see no families in hand-written ids, and group a template with its variants', () => {
    expect(clustersOf(['a', 'b', 'c'], familyOf)).toBeUndefined();
    const c = clustersOf(['a', 'a--v1', 'b', 'a--v2', 'b--v1'], familyOf);
    expect(c?.count).toBe(2);
    expect([...(c?.of ?? [])]).toEqual([0, 0, 1, 0, 1]);
  });

  it('with singleton families, give the SE over tasks', () => {
    const values = [0.1, 0.9, 0.4, 0.7, 0.2, 1];
    const singletons = { of: Int32Array.from(values.map((_, i) => i)), count: values.length };
    expect(clusteredSe(values, singletons)).toBeCloseTo(meanSe(values).se, 12);
  });

  it('count a family of identical variants as one task: the SE and the interval are those of the families', () => {
    const families = [0, 1, 1, 0, 1, 0.5, 0, 1, 1, 0.5, 0, 1];
    const tasks = copies(families, 7);
    const clusters = clustersOf(tasks.map((t) => t.id), familyOf);
    if (!clusters) throw new Error('no clusters');
    const values = tasks.map((t) => t.v);
    const naive = meanSe(values).se;
    const clustered = clusteredSe(values, clusters);
    // Seven copies shrink the naive SE by about sqrt(7); the clustered one stays at the families' own.
    expect(clustered).toBeCloseTo(meanSe(families).se, 10);
    expect(clustered / naive).toBeGreaterThan(2.4);
    const wide = clusteredMeanInterval(values, clusters, makeResamples('42', clusters.count));
    const alone = taskMeanInterval(families, makeResamples('42', families.length));
    expect(wide.low).toBeCloseTo(alone.low, 10);
    expect(wide.high).toBeCloseTo(alone.high, 10);
    const narrow = taskMeanInterval(values, makeResamples('42', values.length));
    expect(wide.high - wide.low).toBeGreaterThan(1.8 * (narrow.high - narrow.low));
  });

  it('test a difference by flipping whole families, and say how many independent tasks there are', () => {
    // Six families, each +1 in every one of its seven variants: exactly 2 of 64 family flips are as extreme.
    const cell = (c: (f: number) => number): TaskCount[] => copies([0, 1, 2, 3, 4, 5], 7).map((t) => ({ scenario: t.id, n: 1, c: c(t.v), errors: 0 }));
    const a = [summarizeCell(0, 0, cell(() => 1))];
    const b = [summarizeCell(0, 0, cell(() => 0))];
    expect(a[0]?.families).toBe(6);
    const [r] = compareCells(a, b, 1, new ResampleBank('42'), '42');
    expect(r?.p).toBeCloseTo(2 / 64, 12);
    expect(r?.families).toBe(6);
    // Over 42 tasks as if independent, the same differences would look far stronger.
    expect(signFlipTest(Array(42).fill(1), '42')).toBeLessThan(0.001);
    // Differences that vary only between families: the effective number is about the number of families
    // (42 / 41 * 5 / 6 of it, from the two estimates' small-sample factors), not the 42 tasks.
    const mixed = (f: number) => (f % 2 === 0 ? 1 : 0);
    const [m] = compareCells([summarizeCell(0, 0, cell(mixed))], b, 1, new ResampleBank('42'), '42');
    expect(m?.effectiveTasks).toBe(5);
    expect(m?.minDetectable).toBeCloseTo(2.8 * meanSe([1, 0, 1, 0, 1, 0]).se, 10);
  });

  it('leave a run of hand-written tasks as it was: no families, the same intervals and p-values', () => {
    const tasks: TaskCount[] = ['a', 'b', 'c', 'd', 'e'].map((s, i) => ({ scenario: s, n: 4, c: i % 5, errors: 0 }));
    const cell = summarizeCell(0, 0, tasks, makeResamples('42', 5), undefined, undefined, (f) => makeResamples('42', f));
    expect(cell.families).toBeUndefined();
    expect(cell).toEqual(summarizeCell(0, 0, tasks, makeResamples('42', 5)));
  });
});
