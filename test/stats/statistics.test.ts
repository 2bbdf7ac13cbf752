import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapMean, makeResamples, quantile, ResampleBank } from '../../src/stats/bootstrap.js';
import { adjustTogether, benjaminiHochberg, cohensKappa, compareCells, holm, signFlipTest } from '../../src/stats/compare.js';
import { classifyFailure } from '../../src/judge/index.js';
import { summarizeCell, Tally, type CellSummary } from '../../src/stats/stats.js';
import { deriveSeed, makeRng } from '../../src/ground/seeds.js';
import { surfaceSummary, unstableTasks } from '../../src/stats/surface.js';

const cell = (eps: number, lambda: number, cs: readonly number[], n = 4): CellSummary =>
  summarizeCell(eps, lambda, cs.map((c, i) => ({ scenario: `t${String(i).padStart(2, '0')}`, n, c, errors: 0 })), new ResampleBank('s').for(cs.length));

describe('bootstrap over tasks', () => {
  it('draws the same resamples from the same run seed, for every cell with that many tasks', () => {
    expect(makeResamples('42', 5, 10)).toEqual(makeResamples('42', 5, 10));
    expect(makeResamples('42', 5, 10)).not.toEqual(makeResamples('43', 5, 10));
    const bank = new ResampleBank('42', 10);
    expect(bank.for(5)).toBe(bank.for(5));
  });

  it('gives an interval around the mean that narrows with more tasks', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 40 }), (values) => {
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        const b = bootstrapMean(values, makeResamples('p', values.length, 400));
        expect(b.low).toBeLessThanOrEqual(mean + 1e-9);
        expect(b.high).toBeGreaterThanOrEqual(mean - 1e-9);
      }),
      { numRuns: 50 },
    );
    const narrow = bootstrapMean(Array.from({ length: 200 }, (_, i) => i % 2), makeResamples('w', 200, 500));
    const wide = bootstrapMean(Array.from({ length: 10 }, (_, i) => i % 2), makeResamples('w', 10, 500));
    expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });

  it('puts bootstrap intervals on every pass^k of a cell', () => {
    const c = cell(0, 0, [4, 4, 0, 2, 3, 1, 4, 0]);
    for (const e of c.passHatK) {
      expect(e.ci95[0]).toBeLessThanOrEqual(e.value);
      expect(e.ci95[1]).toBeGreaterThanOrEqual(e.value);
    }
  });
});

describe('surface summaries', () => {
  const cells = [0, 0.5, 1].flatMap((eps) => [0, 0.5, 1].map((lambda) => cell(eps, lambda, Array(10).fill(Math.round(4 * (1 - 0.2 * eps - 0.6 * lambda))))));

  it('give the volume, the slopes along ε and λ, and the critical thresholds', () => {
    const s = surfaceSummary(cells, 1, 0.8);
    expect(s.volume).toBeCloseTo(cells.reduce((a, c) => a + (c.passHatK[0]?.value ?? 0), 0) / 9);
    expect(s.slopeEps).toBeLessThan(0);
    expect(s.slopeLambda).toBeLessThan(s.slopeEps ?? 0);
    // At λ = 0: 1.0 at ε = 0 and 0.5, 0.75 at ε = 1.
    expect(s.criticalEps).toBe(0.5);
    expect(s.criticalLambda).toBe(0);
    expect(surfaceSummary(cells, 1, 0.7).criticalEps).toBe(1);
    expect(surfaceSummary([cell(0, 0, [0, 0])], 1).criticalEps).toBeNull();
    expect(surfaceSummary([cell(0, 0, [4, 4])], 1).slopeEps).toBeNull();
  });

  it('list unstable tasks most unstable first, with their dominant failure', () => {
    const t = new Tally();
    const add = (scenario: string, pass: boolean, failure?: 'missing-write' | 'duplicated-write') => t.add({ agent: 'a', eps: 0, lambda: 0, scenario }, pass ? 'pass' : 'fail', failure ? { failure } : {});
    for (const p of [true, false, false, false]) add('mostly-fails', p, 'missing-write');
    for (const p of [true, true, false, false]) add('half', p, 'duplicated-write');
    for (const p of [true, true, true, true]) add('stable', p);
    const u = unstableTasks([{ agent: 'a', cells: t.cells('a') }]);
    expect(u.map((x) => [x.scenario, x.successes, x.dominantFailure])).toEqual([
      ['half', 2, 'duplicated-write'],
      ['mostly-fails', 1, 'missing-write'],
    ]);
    expect(u[0]?.passN).toBe(0);
  });
});

describe('paired comparisons', () => {
  it('the sign-flip test is exact for few tasks and seeded for many', () => {
    expect(signFlipTest([1, 1, 1, 1], 's')).toBeCloseTo(2 / 16);
    expect(signFlipTest([0, 0, 0], 's')).toBe(1);
    const many = Array.from({ length: 30 }, () => 0.5);
    expect(signFlipTest(many, 's')).toBe(signFlipTest(many, 's'));
    expect(signFlipTest(many, 's')).toBeLessThan(0.001);
  });

  it('draws the resamples makeRng draws, index for index, whatever the seed, task count and count', () => {
    // The reference: one generator call per index, as the bootstrap was first written.
    const reference = (seed: string, tasks: number, count: number) => {
      const rng = makeRng(deriveSeed(seed, 'bootstrap', tasks, count));
      return Array.from({ length: count }, () => Uint16Array.from({ length: tasks }, () => Math.floor(rng() * tasks)));
    };
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 40 }), (seed, tasks, count) => {
        expect(makeResamples(seed, tasks, count)).toEqual(reference(seed, tasks, count));
      }),
      { numRuns: 60 },
    );
    // Long enough that the carry's rare overflow step comes many times in one stream.
    expect(makeResamples('42', 3976, 60)).toEqual(reference('42', 3976, 60));
  });

  it('the drawn sign-flip test counts exactly the flips makeRng draws, for differences whose sums round', () => {
    // The reference: a plain loop over makeRng's draws, each taken as its 32 bits from the top, one bit a
    // coin, the coins given out class by class (the differences' sizes in order of first appearance).
    const reference = (all: readonly number[], seed: string, draws: number): number => {
      const d = all.filter((x) => x !== 0);
      const observed = Math.abs(d.reduce((s, x) => s + x, 0));
      const scale = d.reduce((s, x) => s + Math.abs(x), 0);
      const sizes: number[] = [];
      const counts: number[] = [];
      for (const x of d) {
        const k = sizes.indexOf(Math.abs(x));
        if (k < 0) {
          sizes.push(Math.abs(x));
          counts.push(1);
        } else counts[k] = (counts[k] as number) + 1;
      }
      const rng = makeRng(deriveSeed(seed, 'sign-flip', d.length));
      const bits: number[] = [];
      const coin = (): number => {
        if (bits.length === 0) {
          const word = rng() * 2 ** 32;
          for (let i = 31; i >= 0; i--) bits.push(Math.floor(word / 2 ** i) % 2);
        }
        return bits.shift() as number;
      };
      let hits = 1;
      for (let b = 0; b < draws; b++) {
        let sum = 0;
        sizes.forEach((a, k) => {
          let heads = 0;
          for (let i = 0; i < (counts[k] as number); i++) heads += coin();
          sum += a * (2 * heads - (counts[k] as number));
        });
        if (Math.abs(sum) >= observed - 1e-12 * Math.max(1, scale)) hits++;
      }
      return hits / (draws + 1);
    };
    fc.assert(
      fc.property(
        // More than 20 changed tasks (drawn, not enumerated); thirds and sixths make sums that round, so
        // a flip drawn differently or summed in another order would show in the count.
        fc.array(fc.integer({ min: -6, max: 6 }).filter((x) => x !== 0), { minLength: 21, maxLength: 90 }),
        fc.integer({ min: 0, max: 3 }),
        fc.string({ maxLength: 6 }),
        (units, zeros, seed) => {
          const diffs = [...units.map((u) => u / 6 + (u % 2 === 0 ? 0 : 1 / 3)), ...Array<number>(zeros).fill(0)];
          expect(signFlipTest(diffs, seed, 400)).toBe(reference(diffs, seed, 400));
        },
      ),
      { numRuns: 200 },
    );
    // A small difference against noise: p in the middle, where every miscounted flip moves it.
    const mixed = Array.from({ length: 400 }, (_, i) => ((i * 7919) % 13) / 13 - 0.445);
    const p = signFlipTest(mixed, 'mixed', 3000);
    expect(p).toBe(reference(mixed, 'mixed', 3000));
    expect(p).toBeGreaterThan(0.01);
    expect(p).toBeLessThan(0.99);
  });

  it('the drawn sign-flip test agrees with the exact p over every flip, within its draws\' error', () => {
    // The exact p of differences in a few sizes: each size's heads are binomial(m, 1/2), enumerated.
    const exactP = (classes: readonly (readonly [number, number, number])[]): number => {
      // classes: [size, tasks, tasks with a positive difference]
      const observed = Math.abs(classes.reduce((s, [a, m, up]) => s + a * (2 * up - m), 0));
      const choose = (n: number, k: number): number => { let c = 1; for (let i = 1; i <= k; i++) c = (c * (n - i + 1)) / i; return c; };
      let sums: [number, number][] = [[0, 1]];
      for (const [a, m] of classes) {
        const next: [number, number][] = [];
        for (const [s, w] of sums) for (let h = 0; h <= m; h++) next.push([s + a * (2 * h - m), w * choose(m, h) / 2 ** m]);
        sums = next;
      }
      return sums.reduce((p, [s, w]) => p + (Math.abs(s) >= observed - 1e-9 ? w : 0), 0);
    };
    const cases: (readonly (readonly [number, number, number])[])[] = [
      [[0.25, 30, 19], [0.5, 12, 8], [1, 6, 3]],
      [[1, 41, 27]],
      [[0.25, 50, 31], [0.75, 9, 4]],
      [[1 / 3, 25, 16], [2 / 3, 14, 9], [1, 3, 1]],
    ];
    for (const [i, classes] of cases.entries()) {
      const diffs = classes.flatMap(([a, m, up]) => [...Array<number>(up).fill(a), ...Array<number>(m - up).fill(-a)]);
      const draws = 20_000;
      const p = signFlipTest(diffs, `dist${i}`, draws);
      const truth = exactP(classes);
      expect(truth).toBeGreaterThan(0.01);
      expect(Math.abs(p - truth)).toBeLessThan(4 * Math.sqrt((truth * (1 - truth)) / draws) + 1 / draws);
    }
  });

  it('the exact sign-flip test counts every flip, each summed in task order', () => {
    // Up to 20 changed tasks: every flip, summed in task order, by a reduce over each mask.
    const exact = (all: readonly number[]): number => {
      const d = all.filter((x) => x !== 0);
      const observed = Math.abs(d.reduce((s, x) => s + x, 0));
      let hits = 0;
      for (let mask = 0; mask < 2 ** d.length; mask++) if (Math.abs(d.reduce((s, x, i) => s + ((mask >> i) & 1 ? -x : x), 0)) >= observed - 1e-12) hits++;
      return hits / 2 ** d.length;
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -6, max: 6 }), { minLength: 1, maxLength: 12 }), (units) => {
        const diffs = units.map((u) => u / 6 + (u % 2 === 0 ? 0 : 1 / 3));
        expect(signFlipTest(diffs, 'any')).toBe(diffs.every((x) => x === 0) ? 1 : exact(diffs));
      }),
      { numRuns: 200 },
    );
    const sixteen = Array.from({ length: 16 }, (_, i) => (((i * 5) % 7) - 2) / 6 + (i % 2 ? 1 / 3 : 0));
    expect(signFlipTest(sixteen, 'any')).toBe(exact(sixteen));
  });

  it('Holm adjusts p-values step-down and keeps their order', () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5])).toEqual([0.5]);
  });

  it('call a clear difference better or worse and a small one undetectable, with the smallest detectable difference', () => {
    const bank = new ResampleBank('c');
    const strong = compareCells([cell(0, 0, Array(30).fill(4))], [cell(0, 0, Array(30).fill(0))], 1, bank, 'c');
    expect(strong[0]).toMatchObject({ difference: 1, verdict: 'better' });
    const weak = compareCells([cell(0, 0, [4, 3, 4, 3, 4, 4])], [cell(0, 0, [4, 4, 3, 4, 4, 3])], 1, bank, 'c');
    expect(weak[0]?.verdict).toBe('no detectable difference');
    expect(weak[0]?.minDetectable).toBeGreaterThan(0);
    expect(compareCells([cell(0, 0, Array(30).fill(0))], [cell(0, 0, Array(30).fill(4))], 1, bank, 'c')[0]?.verdict).toBe('worse');
  });

  it('the sign-flip test runs on the changed tasks, exactly up to 20 of them', () => {
    // 18 changed tasks among 28: exact over 2^18 flips, unaffected by the 10 unchanged ones.
    const diffs = [...Array(18).fill(0.25), ...Array(10).fill(0)];
    expect(signFlipTest(diffs, 's')).toBe(2 / 2 ** 18);
    expect(signFlipTest(diffs.slice(0, 18), 's')).toBe(signFlipTest(diffs, 'another seed'));
  });

  it('Benjamini-Hochberg adjusts step-up and never below the raw p', () => {
    expect(benjaminiHochberg([0.01, 0.04, 0.03])).toEqual([0.03, 0.04, 0.04]);
    const ps = [0.001, 0.2, 0.03, 0.04];
    for (const [i, q] of benjaminiHochberg(ps).entries()) expect(q).toBeGreaterThanOrEqual(ps[i] as number);
  });

  it('say when few changed tasks cannot reach significance, name tasks that flipped in every trial, and give no detectable size from a zero SE', () => {
    const bank = new ResampleBank('c');
    // One task breaks in every trial for A: never significant over 28 tasks, always named.
    const a = [0, ...Array(27).fill(4)];
    const b = Array(28).fill(4);
    const [r] = compareCells([cell(0, 0, a)], [cell(0, 0, b)], 4, bank, 'c');
    expect(r).toMatchObject({ changed: 1, minP: 1, verdict: 'no detectable difference' });
    expect(r?.flipped).toEqual([{ scenario: 't00', a: '0/4', b: '4/4' }]);
    const same = compareCells([cell(0, 0, b)], [cell(0, 0, b)], 4, bank, 'c')[0];
    expect(same?.minDetectable).toBeNull();
    // Four changed tasks: the smallest p is 2/16 = 0.125, whatever the differences.
    const four = compareCells([cell(0, 0, [4, 4, 4, 4])], [cell(0, 0, [0, 0, 0, 0])], 1, bank, 'c')[0];
    expect(four?.minP).toBe(0.125);
    expect(four?.verdict).toBe('no detectable difference');
  });

  it('adjusts a family of comparisons together, as the grid does across agent pairs', () => {
    const bank = new ResampleBank('c');
    const clear = compareCells([cell(0, 0, Array(12).fill(4))], [cell(0, 0, Array(12).fill(0))], 1, bank, 'c');
    const alone = clear[0]?.pAdjusted ?? 1;
    const together = adjustTogether([...clear, ...clear, ...clear]);
    expect(together[0]?.pAdjusted).toBeCloseTo(Math.min(1, 3 * alone), 12);
    expect(adjustTogether([...clear, ...clear], 'bh')[0]?.pAdjusted).toBeCloseTo(alone, 12);
  });

  it("Cohen's kappa is 1 for full agreement, about 0 for chance, negative below it", () => {
    expect(cohensKappa([[true, true], [false, false], [true, true]])).toBe(1);
    expect(cohensKappa([[true, false], [false, true]])).toBeLessThan(0);
    expect(cohensKappa([[true, true], [true, false], [false, true], [false, false]])).toBeCloseTo(0);
  });
});

describe('failure taxonomy', () => {
  const base = { ended: 'done' as const, diff: [], missingOutputs: [], wrongActions: 0, goldChangesState: true };
  const d = (kind: 'changed' | 'missing' | 'unexpected' | 'duplicated') => ({ path: 'p', kind, message: 'm' });
  it('classifies from the outcome, how it ended and the diff', () => {
    expect(classifyFailure({ ...base, outcome: 'pass' })).toBeUndefined();
    expect(classifyFailure({ ...base, outcome: 'error', ended: 'deadline' })).toBe('deadline');
    expect(classifyFailure({ ...base, outcome: 'error', ended: 'agent-error' })).toBe('agent-error');
    expect(classifyFailure({ ...base, outcome: 'error', ended: 'done', errorName: 'WorldError' })).toBe('world-error');
    expect(classifyFailure({ ...base, outcome: 'escalated' })).toBe('escalated');
    expect(classifyFailure({ ...base, outcome: 'fail', diff: [d('duplicated')], wrongActions: 1 })).toBe('duplicated-write');
    expect(classifyFailure({ ...base, outcome: 'fail', diff: [d('changed')], wrongActions: 1 })).toBe('wrong-target-or-value');
    expect(classifyFailure({ ...base, outcome: 'fail', diff: [d('changed')], wrongActions: 1, goldChangesState: false })).toBe('policy-violation');
    expect(classifyFailure({ ...base, outcome: 'fail', diff: [d('missing')] })).toBe('missing-write');
    expect(classifyFailure({ ...base, outcome: 'fail', missingOutputs: ['12.50'] })).toBe('missing-output');
  });
});
