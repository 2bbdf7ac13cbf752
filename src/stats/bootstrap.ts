/**
 * Bootstrap over tasks (DESIGN decision 13): resample the tasks of a cell with replacement and recompute
 * the mean of their per-task estimates. The resamples are drawn once per run from the run seed, so every
 * cell and every agent of a run uses the same ones and paired comparisons stay paired.
 *
 * A cell of many tasks whose values take few distinct values (pass^k of a few trials: with 4 trials a task's
 * pass^1..pass^4 are one of five tuples) is resampled by class instead: a resample of n tasks drawn with
 * replacement is, in distribution, a multinomial draw of how many fall in each class, so each resample draws
 * those counts (one binomial per class, from the run seed) instead of n task indices (`classMeans`).
 */
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import binomial from '@stdlib/random-base-binomial';
import { aleaState, deriveSeed, makeRng } from '../ground/seeds.js';

/**
 * Resamples of task indices: `resamples[b][i]` is the task drawn i-th in resample b. `classSeed`, set by
 * `makeResamples`, seeds the class draws of the same resamples' count and task count.
 */
export type Resamples = readonly Uint16Array[] & { readonly classSeed?: string };

/**
 * How a bootstrap draws: by task index, by class of equal values (multinomial counts), or by class where a
 * cell has at least CLASS_DRAWS_AT tasks per class and by index elsewhere (the default).
 */
export type DrawWay = 'auto' | 'classes' | 'tasks';

/**
 * Tasks per class from which `auto` draws by class: a resample by class costs about one binomial draw per
 * class, one by index one addition per task and list, so classes pay only where they are few.
 */
export const CLASS_DRAWS_AT = 64;

/** How many resamples a run draws. @default 2000 */
export const BOOTSTRAP_RESAMPLES = 2000;

/**
 * Draws B resamples of T task indices from the run seed (the same for every cell with T tasks): index i of
 * resample b is floor(u T), u the generator's next draw. The generator is stepped inline on locals: t =
 * 2091639 s0 + c 2^-32 is exact (every state is a multiple of 2^-32), and its integer part, the next carry,
 * is floor(2091639 s0), plus one only when the fraction of 2091639 s0 and c 2^-32 together reach 1 (about
 * once in 2,000 steps, so the processor predicts that branch): the carry no longer waits on the previous
 * step's sum. The same draws as calling `makeRng`'s generator per index (test/stats/statistics.test.ts holds
 * them equal), several times faster, and a grid over a million records draws resamples for every task count
 * its cells and pairs have.
 */
export function makeResamples(runSeed: string, tasks: number, count: number = BOOTSTRAP_RESAMPLES): Resamples {
  let { c, s0, s1, s2 } = aleaState(deriveSeed(runSeed, 'bootstrap', tasks, count));
  const out: Uint16Array[] = [];
  for (let b = 0; b < count; b++) {
    const draw = new Uint16Array(tasks);
    for (let i = 0; i < tasks; i++) {
      const scaled = 2091639 * s0;
      const whole = Math.floor(scaled);
      let next = scaled - whole + c * 2.3283064365386963e-10;
      c = whole;
      if (next >= 1) {
        next -= 1;
        c += 1;
      }
      s0 = s1;
      s1 = s2;
      s2 = next;
      draw[i] = Math.floor(next * tasks);
    }
    out.push(draw);
  }
  // Not enumerable: the resamples still compare equal, element for element, to a plain array of the same draws.
  Object.defineProperty(out, 'classSeed', { value: deriveSeed(runSeed, 'bootstrap-classes', tasks, count) });
  return out as Resamples;
}

/** Resamples per task count, drawn on first use, for a run. */
export class ResampleBank {
  private readonly bank = new Map<number, Resamples>();
  constructor(
    private readonly runSeed: string,
    private readonly count: number = BOOTSTRAP_RESAMPLES,
  ) {}

  for(tasks: number): Resamples {
    let r = this.bank.get(tasks);
    if (!r) this.bank.set(tasks, (r = makeResamples(this.runSeed, tasks, this.count)));
    return r;
  }
}

/** The q-quantile of sorted values (linear interpolation). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

/**
 * The critical value of the expanded percentile bootstrap for n tasks (Hesterberg 2015, "What teachers
 * should know about the bootstrap", section 4.4): Student's t with n - 1 degrees of freedom, scaled by
 * sqrt(n / (n - 1)) for the plug-in variance the bootstrap uses. 1.96 in the limit; 2.09 at 28 tasks.
 */
export function expandedZ(n: number, level = 0.95): number {
  if (n < 2) return Number.POSITIVE_INFINITY;
  return Math.sqrt(n / (n - 1)) * tQuantile(1 - (1 - level) / 2, n - 1);
}

/** The Wilson score interval for a mean of values in [0, 1] over n units, at critical value z. */
export function wilson(mean: number, n: number, z: number): { low: number; high: number } {
  if (n < 1 || !Number.isFinite(z)) return { low: 0, high: 1 };
  const d = 1 + (z * z) / n;
  const centre = (mean + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((mean * (1 - mean)) / n + (z * z) / (4 * n * n))) / d;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The 95% interval of a cell's pass^k (the mean over tasks of values in [0, 1]); docs/statistics.md has
 * the coverage table that chose it. The expanded percentile bootstrap over tasks (percentiles at
 * Phi(-expandedZ(n))), widened where needed to the Wilson score interval over tasks at the same critical
 * value. The bootstrap alone collapses near 0 and 1 (every task passing gives [1, 1]) and covers 3% to 90%
 * there; Wilson is conservative for any mean of values in [0, 1] (their variance is at most m(1 - m)) and
 * never has zero width. Together they cover at least 95% of every 28-task population the bench draws.
 */
export function taskMeanInterval(values: readonly number[], resamples: Resamples, way: DrawWay = 'auto'): { low: number; high: number; se: number } {
  return taskMeanIntervals([values], resamples, way)[0] as { low: number; high: number; se: number };
}

/**
 * `taskMeanInterval` of several value lists over the same tasks (a cell's pass^k for every k), in one
 * pass over the resamples: each resample's draws are read once for all of them.
 */
export function taskMeanIntervals(lists: readonly (readonly number[])[], resamples: Resamples, way: DrawWay = 'auto'): { low: number; high: number; se: number }[] {
  const n = lists[0]?.length ?? 0;
  if (n === 0) return lists.map(() => ({ low: Number.NaN, high: Number.NaN, se: Number.NaN }));
  const z = expandedZ(n);
  const tail = Number.isFinite(z) ? normalCdf(-z, 0, 1) : 0;
  const boots = bootstrapMeans(lists, resamples, tail, way);
  return lists.map((values, j) => {
    const boot = boots[j] as { low: number; high: number; se: number };
    const mean = values.reduce((a, b) => a + b, 0) / n;
    const w = wilson(Math.min(1, Math.max(0, mean)), n, z);
    return { low: Math.min(boot.low, w.low), high: Math.max(boot.high, w.high), se: boot.se };
  });
}

/**
 * Percentile bootstrap of the mean of `values` over the resamples: the interval between the `tail` and
 * `1 - tail` quantiles (95% by default) and the bootstrap SE.
 */
export function bootstrapMean(values: readonly number[], resamples: Resamples, tail = 0.025, way: DrawWay = 'auto'): { low: number; high: number; se: number } {
  return bootstrapMeans([values], resamples, tail, way)[0] as { low: number; high: number; se: number };
}

/**
 * `bootstrapMean` of several value lists of one length. The run's hot loop when a cell has thousands of
 * tasks, so every sum is a local the processor keeps in a register: lists go four at a time, interleaved
 * in one typed array so that a drawn task's four values sit together, and a single list sums four
 * resamples at a time. Independent sums let the additions overlap; each still adds its draws in order,
 * so every mean is the same to the last bit as summing one list over one resample alone. Where the tasks'
 * values fall in few classes (`way`, `CLASS_DRAWS_AT`), each resample is drawn by class (`classMeans`).
 */
export function bootstrapMeans(lists: readonly (readonly number[])[], resamples: Resamples, tail = 0.025, way: DrawWay = 'auto'): { low: number; high: number; se: number }[] {
  const n = lists[0]?.length ?? 0;
  if (lists.some((l) => l.length !== n)) throw new RangeError('bootstrapMeans needs value lists of one length');
  if (n === 0) return lists.map(() => ({ low: Number.NaN, high: Number.NaN, se: Number.NaN }));
  const means = lists.map(() => new Float64Array(resamples.length));
  if (way === 'classes' && resamples.classSeed === undefined) throw new RangeError('bootstrapMeans draws by class only from resamples made by makeResamples (they carry the seed of the class draws)');
  const classes = way === 'tasks' || resamples.classSeed === undefined ? undefined : valueClasses(lists, way === 'classes' ? n : Math.floor(n / CLASS_DRAWS_AT));
  if (classes) classMeans(classes, n, resamples.classSeed as string, means);
  else if (lists.length === 1) resampleMeans(Float64Array.from(lists[0] as readonly number[]), resamples, means[0] as Float64Array);
  else for (let j = 0; j < lists.length; j += 4) resampleMeansOfFour(lists.slice(j, j + 4), resamples, means.slice(j, j + 4));
  return means.map((m) => {
    const list = Array.from(m);
    const mean = list.reduce((a, b) => a + b, 0) / list.length;
    const se = Math.sqrt(list.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, list.length - 1));
    list.sort((a, b) => a - b);
    return { low: quantile(list, tail), high: quantile(list, 1 - tail), se };
  });
}

/**
 * The tasks' classes: tasks whose values agree in every list, in order of first appearance, with how many
 * tasks each has and its values (class k's value of list j at `values[k * lists + j]`); undefined past
 * `limit` classes.
 */
export function valueClasses(lists: readonly (readonly number[])[], limit: number): { sizes: Int32Array; values: Float64Array } | undefined {
  const n = lists[0]?.length ?? 0;
  const L = lists.length;
  const index = new Map<string, number>();
  const sizes: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    let key = '';
    for (let j = 0; j < L; j++) key += `${(lists[j] as readonly number[])[i] as number},`;
    const k = index.get(key);
    if (k !== undefined) {
      sizes[k] = (sizes[k] as number) + 1;
      continue;
    }
    if (sizes.length >= limit) return undefined;
    index.set(key, sizes.length);
    sizes.push(1);
    for (let j = 0; j < L; j++) values.push((lists[j] as readonly number[])[i] as number);
  }
  return { sizes: Int32Array.from(sizes), values: Float64Array.from(values) };
}

/**
 * The lists' means over each resample, drawn by class: how many of the n drawn tasks fall in each class is
 * multinomial with the classes' shares, drawn as one binomial per class given those before it (of the
 * tasks still to place, the share of the classes still open), by stdlib's binomial sampler on an Alea
 * generator from `seed`. The same distribution as drawing n task indices, at a cost per resample of the
 * classes, not the tasks. Every cell drawn with one seed draws the same counts for the same classes.
 */
function classMeans(classes: { sizes: Int32Array; values: Float64Array }, n: number, seed: string, out: readonly Float64Array[]): void {
  const draw = binomial.factory({ prng: makeRng(seed) });
  const { sizes, values } = classes;
  const K = sizes.length;
  const L = out.length;
  const acc = new Float64Array(L);
  const B = out[0]?.length ?? 0;
  for (let b = 0; b < B; b++) {
    acc.fill(0);
    let left = n;
    let rest = n;
    for (let k = 0; k < K && left > 0; k++) {
      const m = sizes[k] as number;
      const x = m >= rest ? left : draw(left, m / rest);
      rest -= m;
      left -= x;
      if (x > 0) for (let j = 0; j < L; j++) acc[j] = (acc[j] as number) + x * (values[k * L + j] as number);
    }
    for (let j = 0; j < L; j++) (out[j] as Float64Array)[b] = (acc[j] as number) / n;
  }
}

/** The mean of `v` over each resample, four resamples summed side by side. */
function resampleMeans(v: Float64Array, resamples: Resamples, out: Float64Array): void {
  const B = resamples.length;
  let b = 0;
  for (; b + 4 <= B; b += 4) {
    const d0 = resamples[b] as Uint16Array;
    const d1 = resamples[b + 1] as Uint16Array;
    const d2 = resamples[b + 2] as Uint16Array;
    const d3 = resamples[b + 3] as Uint16Array;
    const n = d0.length;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    for (let i = 0; i < n; i++) {
      a0 += v[d0[i] as number] as number;
      a1 += v[d1[i] as number] as number;
      a2 += v[d2[i] as number] as number;
      a3 += v[d3[i] as number] as number;
    }
    out[b] = a0 / n;
    out[b + 1] = a1 / n;
    out[b + 2] = a2 / n;
    out[b + 3] = a3 / n;
  }
  for (; b < B; b++) {
    const d = resamples[b] as Uint16Array;
    let a = 0;
    for (let i = 0; i < d.length; i++) a += v[d[i] as number] as number;
    out[b] = a / d.length;
  }
}

/** The means of up to four lists over each resample, their values interleaved (missing lists sum zeros). */
function resampleMeansOfFour(lists: readonly (readonly number[])[], resamples: Resamples, out: readonly Float64Array[]): void {
  const n = lists[0]?.length ?? 0;
  const v = new Float64Array(n * 4);
  lists.forEach((list, j) => list.forEach((x, i) => (v[i * 4 + j] = x)));
  const spare = new Float64Array(resamples.length);
  const [m0 = spare, m1 = spare, m2 = spare, m3 = spare] = out;
  for (let b = 0; b < resamples.length; b++) {
    const draw = resamples[b] as Uint16Array;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    for (let i = 0; i < draw.length; i++) {
      const at = (draw[i] as number) << 2;
      a0 += v[at] as number;
      a1 += v[at + 1] as number;
      a2 += v[at + 2] as number;
      a3 += v[at + 3] as number;
    }
    m0[b] = a0 / draw.length;
    m1[b] = a1 / draw.length;
    m2[b] = a2 / draw.length;
    m3[b] = a3 / draw.length;
  }
}

/**
 * Tasks grouped into families (clusters): `of[i]` is the family index of value i, `count` the number of
 * families. Tasks of one family share a template and are not independent (docs/statistics.md, "Task
 * families"); the family is then the unit of resampling and of the standard error.
 */
export interface Clusters {
  readonly of: Int32Array;
  readonly count: number;
}

/** The families of the given task ids by `familyOf`, or undefined when every task is its own family (nothing to cluster). */
export function clustersOf(ids: readonly string[], familyOf: (id: string) => string): Clusters | undefined {
  const index = new Map<string, number>();
  const of = new Int32Array(ids.length);
  ids.forEach((id, i) => {
    const f = familyOf(id);
    let k = index.get(f);
    if (k === undefined) index.set(f, (k = index.size));
    of[i] = k;
  });
  return index.size === ids.length ? undefined : { of, count: index.size };
}

/** Per family: the sum of its values (what a sign-flip test over families flips) and how many it has. */
export function familySums(values: readonly number[], clusters: Clusters): { sums: Float64Array; sizes: Float64Array } {
  const sums = new Float64Array(clusters.count);
  const sizes = new Float64Array(clusters.count);
  values.forEach((v, i) => {
    const f = clusters.of[i] as number;
    sums[f] = (sums[f] as number) + v;
    sizes[f] = (sizes[f] as number) + 1;
  });
  return { sums, sizes };
}

/**
 * The standard error of the mean over tasks when tasks come in families: the cluster-robust (ratio)
 * estimate over families, sqrt(F / (F - 1) * sum_f (S_f - m_f * mean)^2) / N. With one task per family
 * it is the usual SE over tasks.
 */
export function clusteredSe(values: readonly number[], clusters: Clusters): number {
  const F = clusters.count;
  const N = values.length;
  if (F < 2 || N === 0) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / N;
  const { sums, sizes } = familySums(values, clusters);
  let ss = 0;
  for (let f = 0; f < F; f++) ss += ((sums[f] as number) - (sizes[f] as number) * mean) ** 2;
  return Math.sqrt((F / (F - 1)) * ss) / N;
}

/**
 * `bootstrapMean` with families as the unit: each of the run's resamples for F families draws families
 * with replacement, and its mean is their tasks' sum over their number; the interval is between the
 * `tail` and `1 - tail` quantiles of those means.
 */
export function clusterBootstrapMean(values: readonly number[], clusters: Clusters, resamples: Resamples, tail = 0.025): { low: number; high: number } {
  const { sums, sizes } = familySums(values, clusters);
  const means = resamples.map((draw) => {
    let s = 0;
    let m = 0;
    for (let i = 0; i < draw.length; i++) {
      s += sums[draw[i] as number] as number;
      m += sizes[draw[i] as number] as number;
    }
    return s / m;
  });
  means.sort((a, b) => a - b);
  return { low: quantile(means, tail), high: quantile(means, 1 - tail) };
}

/**
 * `taskMeanInterval` with families as the unit: the expanded percentile bootstrap over families
 * (`clusterBootstrapMean`) at the critical value of F units, widened to the Wilson interval over F units.
 * SE is the clustered one.
 */
export function clusteredMeanInterval(values: readonly number[], clusters: Clusters, resamples: Resamples): { low: number; high: number; se: number } {
  const F = clusters.count;
  if (values.length === 0) return { low: Number.NaN, high: Number.NaN, se: Number.NaN };
  const z = expandedZ(F);
  const boot = clusterBootstrapMean(values, clusters, resamples, Number.isFinite(z) ? normalCdf(-z, 0, 1) : 0);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const w = wilson(Math.min(1, Math.max(0, mean)), F, z);
  return { low: Math.min(boot.low, w.low), high: Math.max(boot.high, w.high), se: clusteredSe(values, clusters) };
}
