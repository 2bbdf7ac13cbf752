/**
 * How many tasks and trials a run needs (`shakedown plan`, docs/statistics.md "Planning a run"): for a
 * target width of a cell's 95% interval of pass^k, or for a paired difference between two agents to be
 * detected with a given power. The task is the unit, so the spread of per-task pass^k decides; it has
 * two parts, how much tasks differ in their true pass^k (between) and the noise of a task's estimate
 * from n trials (within, which more trials shrink).
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { expandedZ } from './bootstrap.js';
import { binomial } from './stats.js';

/**
 * Variance of the unbiased pass^k estimate C(c, k) / C(n, k) of one task with true rate p and n trials,
 * exactly: E over c ~ Binomial(n, p) of the estimate squared, less p^(2k).
 */
export function withinVariance(n: number, k: number, p: number): number {
  if (k > n) return Number.NaN;
  let second = 0;
  for (let c = k; c <= n; c++) {
    const est = binomial(c, k) / binomial(n, k);
    second += binomial(n, c) * p ** c * (1 - p) ** (n - c) * est * est;
  }
  return Math.max(0, second - p ** (2 * k));
}

/** The spread of one agent's per-task pass^k, in the parts that planning needs. */
export interface Spread {
  /** Variance across tasks of their true pass^k. */
  readonly between: number;
  /** Per-task pass rates, for the within-task noise at any number of trials. */
  readonly rates: readonly number[];
}

/** Variance of one task's estimate at n trials, averaged over the tasks, plus the between part. */
export const varianceAt = (s: Spread, n: number, k: number): number => s.between + s.rates.reduce((a, p) => a + withinVariance(n, k, p), 0) / Math.max(1, s.rates.length);

/**
 * The spread of a pilot's per-task counts: the between part is the observed variance of per-task
 * estimates less their mean within-task noise (method of moments, floored at 0), the rates are c/n.
 */
export function spreadFromPilot(tasks: readonly { n: number; c: number }[], k: number): Spread {
  const usable = tasks.filter((t) => t.n >= k);
  const rates = usable.map((t) => t.c / t.n);
  const values = usable.map((t) => binomial(t.c, k) / binomial(t.n, k));
  const T = values.length;
  if (T < 2) return { between: 0, rates };
  const mean = values.reduce((a, b) => a + b, 0) / T;
  const observed = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (T - 1);
  const within = usable.reduce((a, t, i) => a + withinVariance(t.n, k, rates[i] as number), 0) / T;
  return { between: Math.max(0, observed - within), rates };
}

/** The two ends a pass rate alone allows: every task alike (least spread) or every task all-or-nothing (most). */
export function spreadFromRate(p: number, k: number, tasks = 28): { alike: Spread; extreme: Spread } {
  const m = p ** k;
  return { alike: { between: 0, rates: Array(tasks).fill(p) }, extreme: { between: m * (1 - m), rates: Array(tasks).fill(p > 0.5 ? 1 : 0) } };
}

/** A target: the full width of a cell's 95% interval, or a paired difference with a power. */
export type PlanTarget = { readonly width: number } | { readonly difference: number; readonly power: number };

/** Most tasks a plan considers. */
export const MAX_PLAN_TASKS = 100_000;

/**
 * The fewest tasks that reach the target when each task's estimate has standard deviation `sd` (for a
 * difference, the SD of per-task differences): the smallest T with 2 z(T) sd / sqrt(T) <= width, or
 * (z(T) + z_power) sd / sqrt(T) <= difference, z(T) the expanded critical value the intervals use.
 * Infinity when no number up to MAX_PLAN_TASKS does.
 */
export function tasksNeeded(sd: number, target: PlanTarget): number {
  if (!(sd > 0)) return 2;
  const zPower = 'power' in target ? normalQuantile(target.power, 0, 1) : 0;
  const reaches = (T: number) => ('width' in target ? (2 * expandedZ(T) * sd) / Math.sqrt(T) <= target.width : ((expandedZ(T) + zPower) * sd) / Math.sqrt(T) <= target.difference);
  if (!reaches(MAX_PLAN_TASKS)) return Number.POSITIVE_INFINITY;
  let lo = 2;
  let hi = MAX_PLAN_TASKS;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (reaches(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
