/**
 * Bootstrap over tasks (DESIGN decision 13): resample the tasks of a cell with replacement and recompute
 * the mean of their per-task estimates. The resamples are drawn once per run from the run seed, so every
 * cell and every agent of a run uses the same ones and paired comparisons stay paired.
 */
import { deriveSeed, makeRng } from './seeds.js';

/** Resamples of task indices: `resamples[b][i]` is the task drawn i-th in resample b. */
export type Resamples = readonly Uint16Array[];

/** How many resamples a run draws. @default 2000 */
export const BOOTSTRAP_RESAMPLES = 2000;

/** Draws B resamples of T task indices from the run seed (the same for every cell with T tasks). */
export function makeResamples(runSeed: string, tasks: number, count: number = BOOTSTRAP_RESAMPLES): Resamples {
  const rng = makeRng(deriveSeed(runSeed, 'bootstrap', tasks, count));
  const out: Uint16Array[] = [];
  for (let b = 0; b < count; b++) {
    const draw = new Uint16Array(tasks);
    for (let i = 0; i < tasks; i++) draw[i] = Math.floor(rng() * tasks);
    out.push(draw);
  }
  return out;
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
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

/** Percentile bootstrap of the mean of `values` over the resamples: the 95% interval and the bootstrap SE. */
export function bootstrapMean(values: readonly number[], resamples: Resamples): { low: number; high: number; se: number } {
  if (values.length === 0) return { low: Number.NaN, high: Number.NaN, se: Number.NaN };
  // An indexed loop over typed arrays: the run's hot loop when a cell has thousands of tasks. The sum
  // keeps the draw's order, so the means are the same to the last bit.
  const v = Float64Array.from(values);
  const means = resamples.map((draw) => {
    let s = 0;
    for (let i = 0; i < draw.length; i++) s += v[draw[i] as number] as number;
    return s / draw.length;
  });
  const mean = means.reduce((a, b) => a + b, 0) / means.length;
  const se = Math.sqrt(means.reduce((a, m) => a + (m - mean) ** 2, 0) / Math.max(1, means.length - 1));
  means.sort((a, b) => a - b);
  return { low: quantile(means, 0.025), high: quantile(means, 0.975), se };
}
