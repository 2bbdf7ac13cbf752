/**
 * Paired comparisons of two agents (or one agent in two runs) cell by cell, with the task as the unit:
 * per-task differences of pass^k, their bootstrap interval, a paired sign-flip permutation test,
 * Holm's adjustment across cells, a verdict and the smallest difference the data could have detected.
 */
import { bootstrapMean, clusterBootstrapMean, clusteredSe, clustersOf, familySums, valueClasses, type Clusters, type ResampleBank } from './bootstrap.js';
import { familyOf } from '../ground/family-id.js';
import { deriveSeed, makeRng, type Rng } from '../ground/seeds.js';
import { adaptiveEstimate, meanSe, passHatK, type CellSummary } from './stats.js';

export type Verdict = 'better' | 'worse' | 'no detectable difference';

export interface CellComparison {
  readonly eps: number;
  readonly lambda: number;
  readonly k: number;
  /** Tasks both sides ran with at least k trials. */
  readonly tasks: number;
  /** Mean over tasks of pass^k(A) - pass^k(B). */
  readonly difference: number;
  readonly ci95: readonly [number, number];
  /** Two-sided p-value of the paired sign-flip permutation test. */
  readonly p: number;
  /** p adjusted across the cells compared (Holm). */
  readonly pAdjusted: number;
  readonly verdict: Verdict;
  /**
   * The smallest difference this many tasks could detect with 80% power at the 5% level, (1.96 + 0.84) SE;
   * null when the tasks' differences do not vary (the SE is 0 and says nothing of what could be detected).
   */
  readonly minDetectable: number | null;
  /** Tasks whose difference is not zero: the sign-flip test sees only these. */
  readonly changed: number;
  /** The smallest p-value the test can reach with this many changed tasks: 2 / 2^changed. */
  readonly minP: number;
  /**
   * Tasks that changed in every trial, one side passing all its trials and the other none: the bug that
   * breaks one task is seen here even when no test across tasks can call it significant.
   */
  readonly flipped: readonly { readonly scenario: string; readonly a: string; readonly b: string }[];
  /**
   * When tasks come in families (generated variants): how many families, and the effective number of
   * independent tasks, N x (SE over tasks / clustered SE)^2, at most N. The test, the interval and
   * `minDetectable` then take the family as their unit. Absent for runs of hand-written tasks.
   */
  readonly families?: number;
  readonly effectiveTasks?: number;
}

/** How p-values are adjusted across the cells (and agent pairs) compared. */
export type Adjustment = 'holm' | 'bh';

/** How many sign flips the permutation test draws. @default 10000 */
export const PERMUTATIONS = 10_000;

/** Most changed tasks for which the sign-flip test enumerates every flip (2^20 sums). */
export const EXACT_SIGN_FLIP_TASKS = 20;

/**
 * Two-sided p-value of the paired sign-flip test on per-task differences. Tasks with no difference do
 * not change the statistic under any flip, so the test runs on the changed tasks only: exact (every flip)
 * for up to EXACT_SIGN_FLIP_TASKS of them, else drawn.
 */
export function signFlipTest(all: readonly number[], seed: string, draws: number = PERMUTATIONS): number {
  const differences = all.filter((d) => d !== 0);
  const observed = Math.abs(differences.reduce((s, d) => s + d, 0));
  const T = differences.length;
  if (T === 0 || observed === 0) return 1;
  const tolerance = 1e-12;
  const d = Float64Array.from(differences);
  if (T <= EXACT_SIGN_FLIP_TASKS) return exactSignFlips(d, observed - tolerance);
  // A drawn sum is added by classes of size, not in task order: the tolerance grows with the sums' scale,
  // far above their rounding and far below the gap between two sums that differ.
  const scale = differences.reduce((s, x) => s + Math.abs(x), 0);
  return drawnSignFlips(d, observed - tolerance * Math.max(1, scale), makeRng(deriveSeed(seed, 'sign-flip', T)), draws);
}

/**
 * The exact sign-flip test: the share of all 2^T flips whose sum is at least `bound` in size. Each sum adds
 * the tasks in order (0, then task 0 flipped or not, then task 1, ...), and flips that agree on the first
 * tasks share those partial sums: the sums are built a task at a time, each level twice the last, so all
 * 2^T of them cost 2^(T+1) additions instead of T 2^T, and each is the same to the last bit as adding its
 * T terms one by one.
 */
function exactSignFlips(d: Float64Array, bound: number): number {
  let sums = new Float64Array(1);
  for (let i = 0; i < d.length; i++) {
    const x = d[i] as number;
    const next = new Float64Array(sums.length * 2);
    for (let j = 0; j < sums.length; j++) {
      next[2 * j] = (sums[j] as number) + x;
      next[2 * j + 1] = (sums[j] as number) + -x;
    }
    sums = next;
  }
  let hits = 0;
  for (let j = 0; j < sums.length; j++) if (Math.abs(sums[j] as number) >= bound) hits++;
  return hits / sums.length;
}

/**
 * The drawn sign-flip test's loop: `draws` sums of the differences, each difference kept or flipped by a
 * fair coin, counted when at least `bound` in size; p = (hits + 1) / (draws + 1).
 *
 * Differences of pass^k take few sizes (with 4 trials, differences of quarters), so the tasks are grouped
 * by the size |d| of their difference, in order of first appearance, and a class of m tasks of size a adds
 * a (2 h - m) to a draw's sum, h the number of heads among its m coins. Each coin is one bit of the
 * generator's draws, each draw 32 bits (an Alea output is a multiple of 2^-32, so u 2^32 is its 32 bits,
 * taken from the top), and h is counted a word at a time: the draws are as fair and as independent as
 * one generator call per sign, a 32nd as many, and a class's heads cost one count per word. The bits run
 * on from class to class and from draw to draw. With a 32nd as many draws the generator is called, not
 * stepped inline as `makeResamples` steps it. Before, each sign took one draw; the p-values differ draw for
 * draw, not in distribution (test/stats/statistics.test.ts holds the drawn p to the exact one over every
 * flip, and the bits to a plain loop over `makeRng`).
 */
function drawnSignFlips(d: Float64Array, bound: number, rng: Rng, draws: number): number {
  const { sizes, counts } = magnitudeClasses(d);
  const K = sizes.length;
  let word = 0;
  let left = 0;
  let hits = 1;
  for (let b = 0; b < draws; b++) {
    let sum = 0;
    for (let k = 0; k < K; k++) {
      const m = counts[k] as number;
      let need = m;
      let heads = 0;
      while (need > 0) {
        if (left === 0) {
          word = (rng() * 4294967296) >>> 0;
          left = 32;
        }
        const take = need < left ? need : left;
        heads += popcount32(take === 32 ? word : word >>> (32 - take));
        word = take === 32 ? 0 : (word << take) >>> 0;
        left -= take;
        need -= take;
      }
      sum += (sizes[k] as number) * (2 * heads - m);
    }
    if (Math.abs(sum) >= bound) hits++;
  }
  return hits / (draws + 1);
}

/** The sizes |d| of the differences, in order of first appearance, and how many differences have each: their classes of equal values (`valueClasses`). */
export function magnitudeClasses(d: ArrayLike<number>): { sizes: Float64Array; counts: Int32Array } {
  const classes = valueClasses([Array.from(d, Math.abs)], Number.POSITIVE_INFINITY) as { sizes: Int32Array; values: Float64Array };
  return { sizes: classes.values, counts: classes.sizes };
}

/** The number of set bits of a 32-bit unsigned integer. */
export function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Holm's step-down adjustment of p-values (order kept). */
export function holm(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const out = new Array<number>(ps.length).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (ps.length - rank) * p));
    out[i] = running;
  });
  return out;
}

/** Benjamini-Hochberg's step-up adjustment (false discovery rate) of p-values (order kept). */
export function benjaminiHochberg(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => b.p - a.p);
  const out = new Array<number>(m).fill(1);
  let running = 1;
  order.forEach(({ p, i }, j) => {
    const rank = m - j;
    running = Math.min(running, Math.min(1, (m * p) / rank));
    out[i] = running;
  });
  return out;
}

/** The verdict of a comparison after adjustment: the adjusted p-value decides, never the interval. */
const verdictOf = (pAdjusted: number, difference: number, alpha: number): Verdict => (pAdjusted < alpha ? (difference > 0 ? 'better' : 'worse') : 'no detectable difference');

/**
 * Adjusts the p-values of comparisons together (several cells, several agent pairs) and sets their
 * verdicts again: a family of comparisons is corrected as one, whichever way it was computed.
 */
export function adjustTogether<T extends CellComparison>(rows: readonly T[], method: Adjustment = 'holm', alpha = 0.05): T[] {
  const adjusted = (method === 'bh' ? benjaminiHochberg : holm)(rows.map((r) => r.p));
  return rows.map((r, i) => {
    const pAdjusted = adjusted[i] ?? 1;
    return { ...r, pAdjusted, verdict: verdictOf(pAdjusted, r.difference, alpha) };
  });
}

/**
 * One cell's comparison when its tasks come in families: the per-task differences summed per family, the
 * sign-flip test flipping whole families, a percentile bootstrap resampling families, and the clustered
 * SE behind the smallest detectable difference.
 */
function clusteredComparison(eps: number, lambda: number, k: number, diffs: readonly number[], clusters: Clusters, bank: ResampleBank, seed: string, flipped: CellComparison['flipped']): Omit<CellComparison, 'pAdjusted' | 'verdict'> {
  const N = diffs.length;
  const F = clusters.count;
  const { mean, se: iid } = meanSe(diffs);
  const se = clusteredSe(diffs, clusters);
  const sums = [...familySums(diffs, clusters).sums];
  const { low, high } = F >= 2 ? clusterBootstrapMean(diffs, clusters, bank.for(F)) : { low: mean, high: mean };
  const changedFamilies = sums.filter((d) => d !== 0).length;
  return {
    eps,
    lambda,
    k,
    tasks: N,
    difference: mean,
    ci95: [low, high] as const,
    p: signFlipTest(sums, seed),
    minDetectable: se > 0 ? (1.96 + 0.84) * se : null,
    changed: diffs.filter((d) => d !== 0).length,
    minP: changedFamilies === 0 ? 1 : Math.min(1, 2 / 2 ** changedFamilies),
    flipped,
    families: F,
    effectiveTasks: se > 0 ? Math.min(N, Math.round((N * iid * iid) / (se * se))) : N,
  };
}

/** Compares A with B in every cell both have, for pass^k. */
export function compareCells(a: readonly CellSummary[], b: readonly CellSummary[], k: number, bank: ResampleBank, seed: string, alpha = 0.05, adaptiveFirst?: number, adjustment: Adjustment = 'holm'): CellComparison[] {
  // In an adaptive run a task's estimate is the two-stage one the grid uses, never the plain one over its trials.
  const hat = (t: { n: number; c: number }) => (adaptiveFirst === undefined ? passHatK(t.n, t.c, k) : adaptiveEstimate(adaptiveFirst, t.n, t.c, (c1) => passHatK(adaptiveFirst, c1, k)));
  if (adaptiveFirst !== undefined && k > adaptiveFirst) return [];
  const raw = a.flatMap((ca) => {
    const cb = b.find((c) => c.eps === ca.eps && c.lambda === ca.lambda);
    if (!cb) return [];
    const bTasks = new Map(cb.perTask.map((t) => [t.scenario, t]));
    const diffs: number[] = [];
    const ids: string[] = [];
    const flipped: { scenario: string; a: string; b: string }[] = [];
    for (const ta of ca.perTask) {
      const tb = bTasks.get(ta.scenario);
      if (!tb || ta.n < k || tb.n < k) continue;
      diffs.push(hat(ta) - hat(tb));
      ids.push(ta.scenario);
      const all = (t: { n: number; c: number }) => t.c === t.n;
      const none = (t: { n: number; c: number }) => t.c === 0;
      if ((all(ta) && none(tb)) || (none(ta) && all(tb))) flipped.push({ scenario: ta.scenario, a: `${ta.c}/${ta.n}`, b: `${tb.c}/${tb.n}` });
    }
    if (diffs.length === 0) return [];
    const clusters = clustersOf(ids, familyOf);
    if (clusters) return [clusteredComparison(ca.eps, ca.lambda, k, diffs, clusters, bank, deriveSeed(seed, ca.eps, ca.lambda, k), flipped)];
    const { mean, se } = meanSe(diffs);
    const boot = diffs.length >= 2 ? bootstrapMean(diffs, bank.for(diffs.length)) : { low: mean, high: mean };
    const changed = diffs.filter((d) => d !== 0).length;
    return [
      {
        eps: ca.eps,
        lambda: ca.lambda,
        k,
        tasks: diffs.length,
        difference: mean,
        ci95: [boot.low, boot.high] as const,
        p: signFlipTest(diffs, deriveSeed(seed, ca.eps, ca.lambda, k)),
        minDetectable: se > 0 ? (1.96 + 0.84) * se : null,
        changed,
        minP: changed === 0 ? 1 : Math.min(1, 2 / 2 ** changed),
        flipped,
      },
    ];
  });
  return adjustTogether(raw.map((r) => ({ ...r, pAdjusted: r.p, verdict: 'no detectable difference' as Verdict })), adjustment, alpha);
}

/** Cohen's kappa of two raters' binary labels on the same items (1 = perfect agreement, 0 = chance). */
export function cohensKappa(pairs: readonly (readonly [boolean, boolean])[]): number {
  const n = pairs.length;
  if (n === 0) return Number.NaN;
  const agree = pairs.filter(([x, y]) => x === y).length / n;
  const pa = pairs.filter(([x]) => x).length / n;
  const pb = pairs.filter(([, y]) => y).length / n;
  const chance = pa * pb + (1 - pa) * (1 - pb);
  return chance === 1 ? 1 : (agree - chance) / (1 - chance);
}

/** One task's change in pass^k between a run and a baseline run, for one agent and cell. */
export interface TaskChange {
  readonly agent: string;
  readonly eps: number;
  readonly lambda: number;
  readonly scenario: string;
  /** Passes in trials, now and in the baseline: `1/4`. */
  readonly now: string;
  readonly before: string;
  /** pass^k now minus pass^k in the baseline. */
  readonly change: number;
}

/** Every task whose pass^k changed between the cells of a run and a baseline's, regressions first (largest drop first). */
export function taskChanges(agent: string, now: readonly CellSummary[], before: readonly CellSummary[], k: number): TaskChange[] {
  const out: TaskChange[] = [];
  for (const c of now) {
    const b = before.find((x) => x.eps === c.eps && x.lambda === c.lambda);
    if (!b) continue;
    const byTask = new Map(b.perTask.map((t) => [t.scenario, t]));
    for (const t of c.perTask) {
      const u = byTask.get(t.scenario);
      if (!u || t.n < k || u.n < k) continue;
      const change = passHatK(t.n, t.c, k) - passHatK(u.n, u.c, k);
      if (change !== 0) out.push({ agent, eps: c.eps, lambda: c.lambda, scenario: t.scenario, now: `${t.c}/${t.n}`, before: `${u.c}/${u.n}`, change });
    }
  }
  return out.sort((x, y) => x.change - y.change || (x.scenario < y.scenario ? -1 : x.scenario > y.scenario ? 1 : 0));
}
