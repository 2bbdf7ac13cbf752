import { ShakedownError } from './errors.js';
import type { EpisodeOutcome } from './episode.js';

/** C(n, k) as a float; exact for the sizes used here (n ≤ a few hundred trials). */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  const kk = Math.min(k, n - k);
  for (let i = 1; i <= kk; i++) r = (r * (n - kk + i)) / i;
  return r;
}

/**
 * The unbiased estimator of pass^k for one task with c successes in n trials: C(c,k)/C(n,k), the
 * probability that k trials drawn without replacement all pass. k > n is an error, not a number.
 */
export function passHatK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 1 || c < 0 || c > n || k < 1) {
    throw new ShakedownError('SHAKEDOWN_ESTIMATOR', `Failed to estimate pass^k: need integers n ≥ 1, 0 ≤ c ≤ n, k ≥ 1 (got n=${n}, c=${c}, k=${k}).`);
  }
  if (k > n) {
    throw new ShakedownError('SHAKEDOWN_ESTIMATOR', `Failed to estimate pass^${k}: only ${n} trials per task. Run at least ${k} trials (\`--trials ${k}\`) or ask for k ≤ ${n}.`);
  }
  return binomial(c, k) / binomial(n, k);
}

/** The unbiased estimator of pass@k: 1 - C(n-c,k)/C(n,k), the chance that at least one of k trials passes. */
export function passAtK(n: number, c: number, k: number): number {
  passHatK(n, c, k);
  return 1 - binomial(n - c, k) / binomial(n, k);
}

/** Mean and standard error of the mean (sample sd / √T); se is 0 for fewer than two values. */
export function meanSe(values: readonly number[]): { mean: number; se: number } {
  const T = values.length;
  if (T === 0) return { mean: Number.NaN, se: Number.NaN };
  const mean = values.reduce((s, v) => s + v, 0) / T;
  if (T < 2) return { mean, se: 0 };
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (T - 1);
  return { mean, se: Math.sqrt(variance / T) };
}

/** One task's tally in one cell. */
export interface TaskCount {
  readonly scenario: string;
  readonly n: number;
  readonly c: number;
  readonly errors: number;
}

export interface KEstimate {
  readonly k: number;
  readonly value: number;
  /** Standard error over tasks. */
  readonly se: number;
  /**
   * 95% interval over tasks by the normal approximation (value ± 1.96 se, clipped to [0, 1]). With few
   * tasks or values near 0 and 1 it is rough; treat it as a first guide.
   */
  readonly ci95: readonly [number, number];
}

const clip = (x: number) => Math.min(1, Math.max(0, x));
const estimate = (k: number, { mean, se }: { mean: number; se: number }): KEstimate => ({ k, value: mean, se, ci95: [clip(mean - 1.96 * se), clip(mean + 1.96 * se)] });

export interface CellSummary {
  readonly eps: number;
  readonly lambda: number;
  readonly tasks: number;
  /** Trials per task (the smallest, if a partial run left them unequal). */
  readonly trials: number;
  readonly episodes: number;
  readonly passHatK: readonly KEstimate[];
  readonly passAtK: readonly KEstimate[];
  readonly perTask: readonly TaskCount[];
}

/**
 * Summarises one cell: per-task estimates first, then their mean over tasks (the task is the
 * statistical unit, DESIGN decision 13). k runs from 1 to the smallest trial count of any task.
 */
export function summarizeCell(eps: number, lambda: number, perTask: readonly TaskCount[]): CellSummary {
  const tasks = [...perTask].sort((a, b) => (a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : 0));
  const n = tasks.length === 0 ? 0 : Math.min(...tasks.map((t) => t.n));
  const hat: KEstimate[] = [];
  const at: KEstimate[] = [];
  for (let k = 1; k <= n; k++) {
    hat.push(estimate(k, meanSe(tasks.map((t) => passHatK(t.n, t.c, k)))));
    at.push(estimate(k, meanSe(tasks.map((t) => passAtK(t.n, t.c, k)))));
  }
  return { eps, lambda, tasks: tasks.length, trials: n, episodes: tasks.reduce((s, t) => s + t.n, 0), passHatK: hat, passAtK: at, perTask: tasks };
}

/** Accumulates episode outcomes into per-agent, per-cell, per-task counts, one record at a time. */
export class Tally {
  private readonly counts = new Map<string, Map<string, Map<string, { n: number; c: number; errors: number }>>>();

  add(key: { agent: string; eps: number; lambda: number; scenario: string }, outcome: EpisodeOutcome): void {
    let byCell = this.counts.get(key.agent);
    if (!byCell) this.counts.set(key.agent, (byCell = new Map()));
    const cellKey = `${key.eps}|${key.lambda}`;
    let byTask = byCell.get(cellKey);
    if (!byTask) byCell.set(cellKey, (byTask = new Map()));
    const t = byTask.get(key.scenario) ?? { n: 0, c: 0, errors: 0 };
    t.n++;
    if (outcome === 'pass') t.c++;
    if (outcome === 'error') t.errors++;
    byTask.set(key.scenario, t);
  }

  agents(): string[] {
    return [...this.counts.keys()];
  }

  cells(agent: string): CellSummary[] {
    const byCell = this.counts.get(agent);
    if (!byCell) return [];
    return [...byCell.entries()]
      .map(([cellKey, byTask]) => {
        const [eps, lambda] = cellKey.split('|').map(Number) as [number, number];
        return summarizeCell(eps, lambda, [...byTask.entries()].map(([scenario, t]) => ({ scenario, ...t })));
      })
      .sort((a, b) => a.eps - b.eps || a.lambda - b.lambda);
  }
}
