/**
 * Stability beyond pass^k (docs/statistics.md, "Stability"): whether an agent's repeated trials of a task
 * end in the same state, by the same path, at the same cost. Per cell: the share of tasks whose trials all
 * end in one final state, and of tasks with two or more failing trials whether those converge on one wrong
 * state or scatter; the share of tasks whose trials take one path (equivalent paths set together,
 * ground/stability.ts); and the spread of tool calls, turns, tokens, cost and simulated time per episode,
 * over the cell and within tasks. Shares carry the same interval as pass^k (the run's task resamples,
 * widened to Wilson); means the percentile bootstrap over tasks. Agents are compared task by task on the
 * same resamples, with the same sign-flip test and Holm adjustment as pass^k.
 */
import { bootstrapMean, quantile, taskMeanInterval, wilson, type Resamples } from './bootstrap.js';

/** What one trial contributes. */
export interface TrialFacts {
  /** The trial's number, for naming which trials ended alike. */
  readonly trial?: number;
  readonly pass: boolean;
  readonly state: string;
  readonly path: string;
  readonly calls: number;
  readonly turns: number;
  readonly tokens?: number;
  readonly costUsd?: number;
  readonly simulatedMs: number;
}

/** A share over tasks with its 95% interval. */
export interface Share {
  readonly value: number;
  readonly ci95: readonly [number, number];
}

/** How a per-episode quantity spreads: over the cell's episodes, and within each task's trials. */
export interface Spread {
  readonly mean: number;
  /** 95% interval of the mean (percentile bootstrap over tasks). */
  readonly ci95: readonly [number, number];
  /** Standard deviation over the cell's episodes. */
  readonly sd: number;
  /** Coefficient of variation, sd / mean; null when the mean is 0. */
  readonly cv: number | null;
  readonly p95: number;
  /** The mean over tasks of the standard deviation of the task's trials. */
  readonly withinTaskSd: number;
  /** The mean over tasks (of non-zero mean) of the coefficient of variation of the task's trials; null when none. */
  readonly withinTaskCv: number | null;
}

export interface CellStability {
  /** Tasks with two trials or more: the ones the figures below are over. */
  readonly tasks: number;
  readonly states: {
    /** Share of tasks whose trials all end in one state. */
    readonly oneState: Share;
    /** Mean over tasks of the number of distinct final states. */
    readonly distinctMean: number;
    /** Tasks with two failing trials or more. */
    readonly failingTasks: number;
    /** Of those, the share whose failing trials all end in one (wrong) state; null when there are none. */
    readonly failingConverge: Share | null;
  };
  readonly paths: { readonly onePath: Share; readonly distinctMean: number };
  readonly resources: {
    readonly calls: Spread;
    readonly turns: Spread;
    readonly tokens?: Spread;
    readonly costUsd?: Spread;
    readonly simulatedMs: Spread;
  };
  /** The tasks least consistent first (most distinct states, then paths, then the spread of calls): at most 5. */
  readonly leastConsistent: readonly { readonly scenario: string; readonly trials: number; readonly states: number; readonly paths: number; readonly callsSd: number; readonly byState: readonly { readonly trials: readonly number[]; readonly pass: boolean }[] }[];
}

export const round = (x: number, digits = 4): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
export const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
/** What the comparisons read of one task's trials, worked out once per trials list (a task meets every pair it is in). */
const summaries = new WeakMap<readonly TrialFacts[], { oneState: number; onePath: number; calls: number }>();
export function taskSummary(trials: readonly TrialFacts[]): { oneState: number; onePath: number; calls: number } {
  let s = summaries.get(trials);
  if (!s) {
    let calls = 0;
    let sameState = true;
    let samePath = true;
    for (const t of trials) {
      calls += t.calls;
      sameState &&= t.state === trials[0]?.state;
      samePath &&= t.path === trials[0]?.path;
    }
    summaries.set(trials, (s = { oneState: sameState ? 1 : 0, onePath: samePath ? 1 : 0, calls: trials.length === 0 ? 0 : calls / trials.length }));
  }
  return s;
}

/** Sample standard deviation (n - 1); 0 for fewer than two values. */
export function sampleSd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
}
const distinct = (xs: readonly string[]): number => new Set(xs).size;

/** The trials of a task grouped by the state they ended in (trials in the order given, in trial order from the tally; groups in order of their first trial). */
function byState(trials: readonly TrialFacts[]): { trials: number[]; pass: boolean }[] {
  const groups = new Map<string, { trials: number[]; pass: boolean }>();
  for (const [i, t] of trials.entries()) {
    // A group passed only when every trial of it did: a conduct failure can end in the goal state too.
    const g = groups.get(t.state) ?? { trials: [], pass: true };
    g.trials.push(t.trial ?? i);
    g.pass &&= t.pass;
    groups.set(t.state, g);
  }
  return [...groups.values()];
}

/**
 * Past this many tasks the intervals and tests are the normal approximations the bootstrap and the
 * sign-flip test converge to (Wilson for shares, the mean plus or minus 1.96 standard errors, a z test):
 * at 25,000 tasks a cell, resampling them 2,000 times for every figure of every cell and pair cost more
 * than the rest of a million-record aggregation together.
 */
export const LARGE = 200;

function share(values: readonly number[], resamples: Resamples | undefined): Share {
  const value = mean(values);
  if (values.length >= LARGE) {
    const w = wilson(Math.min(1, Math.max(0, value)), values.length, 1.96);
    return { value: round(value), ci95: [round(Math.min(value, w.low)), round(Math.max(value, w.high))] };
  }
  if (!resamples || values.length === 0) return { value: round(value), ci95: [round(value), round(value)] };
  const ci = taskMeanInterval(values, resamples);
  return { value: round(value), ci95: [round(Math.max(0, ci.low)), round(Math.min(1, ci.high))] };
}

function spread(perTask: readonly (readonly number[])[], resamples: Resamples | undefined, digits = 4): Spread {
  const all = perTask.flat();
  const m = mean(all);
  const sd = sampleSd(all);
  const taskMeans = perTask.map(mean);
  const se = taskMeans.length >= LARGE ? sampleSd(taskMeans) / Math.sqrt(taskMeans.length) : 0;
  const ci = taskMeans.length >= LARGE ? { low: mean(taskMeans) - 1.96 * se, high: mean(taskMeans) + 1.96 * se } : resamples && taskMeans.length > 0 ? bootstrapMean(taskMeans, resamples) : { low: m, high: m };
  const cvs = perTask.filter((xs) => mean(xs) > 0).map((xs) => sampleSd(xs) / mean(xs));
  const r = (x: number) => round(x, digits);
  return {
    mean: r(m),
    ci95: [r(ci.low), r(ci.high)],
    sd: r(sd),
    cv: m === 0 ? null : round(sd / m),
    p95: r(quantile(Float64Array.from(all).sort(), 0.95)),
    withinTaskSd: r(mean(perTask.map(sampleSd))),
    withinTaskCv: cvs.length === 0 ? null : round(mean(cvs)),
  };
}

/**
 * The stability of one cell from its tasks' trials (tasks in a fixed order: the resamples index them). Tasks
 * with fewer than two trials say nothing of consistency and are left out. `resamples` are the run's for
 * this many tasks; without them the intervals have no width.
 */
export function cellStability(tasks: readonly { readonly scenario: string; readonly trials: readonly TrialFacts[] }[], resamplesFor?: (n: number) => Resamples): CellStability | undefined {
  const used = tasks.filter((t) => t.trials.length >= 2);
  if (used.length === 0) return undefined;
  // Past LARGE tasks the figures take the normal approximation: no resamples are drawn for them.
  const resamplesOf = (n: number) => (n < LARGE ? resamplesFor?.(n) : undefined);
  const resamples = resamplesOf(used.length);
  const states = used.map((t) => distinct(t.trials.map((x) => x.state)));
  const paths = used.map((t) => distinct(t.trials.map((x) => x.path)));
  const failing = used.map((t) => t.trials.filter((x) => !x.pass)).filter((f) => f.length >= 2);
  const failingConverge = failing.map((f) => (distinct(f.map((x) => x.state)) === 1 ? 1 : 0));
  const of = (pick: (x: TrialFacts) => number | undefined) => used.map((t) => t.trials.map(pick).filter((v): v is number => v !== undefined));
  const tokens = used.every((t) => t.trials.every((x) => x.tokens !== undefined)) ? of((x) => x.tokens) : undefined;
  const cost = used.every((t) => t.trials.every((x) => x.costUsd !== undefined)) ? of((x) => x.costUsd) : undefined;
  const calls = of((x) => x.calls);
  const least = used
    .flatMap((t, i) => ((states[i] as number) > 1 || (paths[i] as number) > 1 ? [{ task: t, scenario: t.scenario, trials: t.trials.length, states: states[i] as number, paths: paths[i] as number, callsSd: round(sampleSd(calls[i] as number[])) }] : []))
    .sort((a, b) => b.states - a.states || b.paths - a.paths || b.callsSd - a.callsSd || (a.scenario < b.scenario ? -1 : 1))
    .slice(0, 5)
    .map(({ task, ...rest }) => ({ ...rest, byState: byState(task.trials) }));
  return {
    tasks: used.length,
    states: {
      oneState: share(states.map((n) => (n === 1 ? 1 : 0)), resamples),
      distinctMean: round(mean(states)),
      failingTasks: failing.length,
      // Over the tasks that have failing trials: their own resamples.
      failingConverge: failing.length === 0 ? null : share(failingConverge, resamplesOf(failing.length)),
    },
    paths: { onePath: share(paths.map((n) => (n === 1 ? 1 : 0)), resamples), distinctMean: round(mean(paths)) },
    resources: {
      calls: spread(calls, resamples),
      turns: spread(of((x) => x.turns), resamples),
      ...(tokens ? { tokens: spread(tokens, resamples) } : {}),
      // Dollars to the millionth: an episode's cost is often a fraction of a cent.
      ...(cost ? { costUsd: spread(cost, resamples, 7) } : {}),
      simulatedMs: spread(of((x) => x.simulatedMs), resamples),
    },
    leastConsistent: least,
  };
}

