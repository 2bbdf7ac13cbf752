/**
 * Two agents' stability compared cell by cell, task by task, on the run's resamples with the sign-flip
 * test and Holm's adjustment of pass^k (docs/statistics.md, "Stability").
 */
import { bootstrapMean, quantile, type Resamples } from './bootstrap.js';
import { holm, signFlipTest } from './compare.js';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { LARGE, mean, round, sampleSd, taskSummary, type TrialFacts } from './stability.js';

/** Two agents' stability in one cell, task by task. */
export interface StabilityComparison {
  readonly eps: number;
  readonly lambda: number;
  /** Tasks both ran with two trials or more. */
  readonly tasks: number;
  /** Share of tasks in one state, A minus B: per-task differences, their mean, interval, sign-flip p and Holm-adjusted p. */
  readonly oneState: { readonly difference: number; readonly ci95: readonly [number, number]; readonly p: number; readonly pAdjusted: number };
  readonly onePath: { readonly difference: number; readonly ci95: readonly [number, number]; readonly p: number; readonly pAdjusted: number };
  /** Mean tool calls per episode, A over B, with the per-task difference of means tested the same way. */
  readonly calls: { readonly ratio: number | null; readonly difference: number; readonly ci95: readonly [number, number]; readonly p: number; readonly pAdjusted: number };
  /** p95 of tool calls per episode, A over B. */
  readonly callsP95Ratio: number | null;
  /** Mean cost per episode, A over B, when both have prices. */
  readonly costRatio?: number | null;
  /** What a reviewer should hear: one sentence per finding (as stable but costlier, less consistent, ...). */
  readonly notes: readonly string[];
}

const ratio = (a: number, b: number): number | null => (b === 0 ? (a === 0 ? 1 : null) : round(a / b, 3));

/**
 * Over every trial of the tasks, task by task and trial by trial: the mean calls, their p95, and the mean
 * cost when every trial has one. Summed in that order, as a list of them all would be, without making it
 * (a cell of thousands of tasks meets every pair its agent is in).
 */
function trialFigures(tasks: readonly (readonly TrialFacts[])[]): { meanCalls: number; p95Calls: number; meanCost: number | undefined } {
  let n = 0;
  for (const trials of tasks) n += trials.length;
  const calls = new Float64Array(n);
  let callSum = 0;
  let costSum = 0;
  let priced = true;
  let i = 0;
  for (const trials of tasks)
    for (const t of trials) {
      calls[i++] = t.calls;
      callSum += t.calls;
      if (t.costUsd === undefined) priced = false;
      else costSum += t.costUsd;
    }
  // Sorted as a typed array: the native numeric sort, the same order as a comparator's.
  calls.sort();
  return { meanCalls: n === 0 ? 0 : callSum / n, p95Calls: quantile(calls, 0.95), meanCost: priced ? (n === 0 ? 0 : costSum / n) : undefined };
}

function paired(diffs: readonly number[], resamples: Resamples | undefined, seed: string): { difference: number; ci95: readonly [number, number]; p: number } {
  const d = mean(diffs);
  if (diffs.length >= LARGE) {
    // The normal approximation the bootstrap and the sign-flip test converge to (stability.ts, LARGE).
    const se = sampleSd(diffs) / Math.sqrt(diffs.length);
    const p = se === 0 ? (d === 0 ? 1 : 0) : 2 * (1 - normalCdf(Math.abs(d) / se, 0, 1));
    return { difference: round(d), ci95: [round(d - 1.96 * se), round(d + 1.96 * se)], p: round(p, 6) };
  }
  const ci = resamples ? bootstrapMean(diffs, resamples) : { low: d, high: d };
  return { difference: round(d), ci95: [round(ci.low), round(ci.high)], p: round(signFlipTest(diffs, seed), 6) };
}

/**
 * A against B in every cell both have, task by task (the tasks both ran with two trials or more), the p
 * values Holm-adjusted across every test of the pair. `passDifferent(eps, lambda)` says whether pass^k
 * already differs there: a cost or consistency gap is named when it does not.
 */
export function compareStability(
  a: readonly { readonly eps: number; readonly lambda: number; readonly tasks: readonly { readonly scenario: string; readonly trials: readonly TrialFacts[] }[] }[],
  b: readonly { readonly eps: number; readonly lambda: number; readonly tasks: readonly { readonly scenario: string; readonly trials: readonly TrialFacts[] }[] }[],
  names: { readonly a: string; readonly b: string },
  seed: string,
  resamplesFor?: (n: number) => Resamples,
  passDifferent: (eps: number, lambda: number) => boolean = () => false,
): StabilityComparison[] {
  const rows: (Omit<StabilityComparison, 'oneState' | 'onePath' | 'calls' | 'notes'> & { oneState: ReturnType<typeof paired>; onePath: ReturnType<typeof paired>; calls: ReturnType<typeof paired> & { ratio: number | null } })[] = [];
  for (const ca of a) {
    const cb = b.find((x) => x.eps === ca.eps && x.lambda === ca.lambda);
    if (!cb) continue;
    const byB = new Map(cb.tasks.filter((t) => t.trials.length >= 2).map((t) => [t.scenario, t.trials]));
    const both = ca.tasks.filter((t) => t.trials.length >= 2 && byB.has(t.scenario)).sort((x, y) => (x.scenario < y.scenario ? -1 : 1));
    if (both.length === 0) continue;
    // Past LARGE tasks `paired` takes the normal approximation: no resamples are drawn for it.
    const resamples = both.length < LARGE ? resamplesFor?.(both.length) : undefined;
    const cellSeed = `${seed}|stability|${names.a}|${names.b}|${ca.eps}|${ca.lambda}`;
    const tb = (s: string) => byB.get(s) as readonly TrialFacts[];
    const sa = both.map((t) => taskSummary(t.trials));
    const sb = both.map((t) => taskSummary(tb(t.scenario)));
    const allA = trialFigures(both.map((t) => t.trials));
    const allB = trialFigures(both.map((t) => tb(t.scenario)));
    const at = (i: number) => sb[i] as ReturnType<typeof taskSummary>;
    rows.push({
      eps: ca.eps,
      lambda: ca.lambda,
      tasks: both.length,
      oneState: paired(sa.map((x, i) => x.oneState - at(i).oneState), resamples, `${cellSeed}|state`),
      onePath: paired(sa.map((x, i) => x.onePath - at(i).onePath), resamples, `${cellSeed}|path`),
      calls: { ...paired(sa.map((x, i) => x.calls - at(i).calls), resamples, `${cellSeed}|calls`), ratio: ratio(allA.meanCalls, allB.meanCalls) },
      callsP95Ratio: ratio(allA.p95Calls, allB.p95Calls),
      ...(allA.meanCost !== undefined && allB.meanCost !== undefined ? { costRatio: ratio(allA.meanCost, allB.meanCost) } : {}),
    });
  }
  const adjusted = holm(rows.flatMap((r) => [r.oneState.p, r.onePath.p, r.calls.p]));
  return rows.map((r, i) => {
    const [ps, pp, pc] = [adjusted[3 * i] as number, adjusted[3 * i + 1] as number, adjusted[3 * i + 2] as number];
    const notes: string[] = [];
    const samePass = !passDifferent(r.eps, r.lambda);
    if (ps < 0.05) notes.push(`${r.oneState.difference < 0 ? names.a : names.b} ends its trials of a task in one state less often (${Math.abs(r.oneState.difference).toFixed(2)} of tasks fewer, adjusted p ${ps.toFixed(3)})`);
    if (pp < 0.05) notes.push(`${r.onePath.difference < 0 ? names.a : names.b} takes one path through a task less often (${Math.abs(r.onePath.difference).toFixed(2)} of tasks fewer, adjusted p ${pp.toFixed(3)})`);
    if (samePass && r.calls.ratio !== null && (r.calls.ratio >= 2 || r.calls.ratio <= 0.5) && pc < 0.05) notes.push(`at a pass rate not told apart, ${r.calls.ratio >= 2 ? names.a : names.b} makes ${(r.calls.ratio >= 2 ? r.calls.ratio : 1 / r.calls.ratio).toFixed(1)}x the tool calls`);
    if (samePass && r.callsP95Ratio !== null && (r.callsP95Ratio >= 2 || r.callsP95Ratio <= 0.5)) notes.push(`the p95 of ${r.callsP95Ratio >= 2 ? names.a : names.b}'s tool calls per episode is ${(r.callsP95Ratio >= 2 ? r.callsP95Ratio : 1 / r.callsP95Ratio).toFixed(1)}x the other's`);
    if (samePass && r.costRatio !== undefined && r.costRatio !== null && (r.costRatio >= 2 || r.costRatio <= 0.5)) notes.push(`at a pass rate not told apart, ${r.costRatio >= 2 ? names.a : names.b} costs ${(r.costRatio >= 2 ? r.costRatio : 1 / r.costRatio).toFixed(1)}x as much per episode`);
    return { ...r, oneState: { ...r.oneState, pAdjusted: round(ps, 6) }, onePath: { ...r.onePath, pAdjusted: round(pp, 6) }, calls: { ...r.calls, pAdjusted: round(pc, 6) }, notes };
  });
}
