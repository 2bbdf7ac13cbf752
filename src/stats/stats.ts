import { ShakedownError } from '../ground/errors.js';
import type { EpisodeOutcome } from '../ground/record.js';
import { clusteredMeanInterval, clusteredSe, clustersOf, expandedZ, taskMeanInterval, taskMeanIntervals, wilson, type Clusters, type ResampleBank, type Resamples } from './bootstrap.js';
import { familyOf } from '../ground/family-id.js';

export { FAILURE_CLASSES, type FailureClass } from '../ground/findings.js';
import { cellStability, type CellStability, type TrialFacts } from './stability.js';
import { HARNESS_CLASSES, type FailureClass } from '../ground/findings.js';

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

/**
 * An estimate from a two-stage (adaptive) design: n1 trials for every task, then up to n for the tasks
 * whose first n1 were mixed (0 < c1 < n1). A task that was not extended gives `stage1(c, n1)`; one that
 * was gives its Rao-Blackwellisation, E[stage1(c1) | c, 0 < c1 < n1], where c1 given the total c is
 * hypergeometric whatever the pass rate. Unbiased whenever `stage1` is, and never more variable.
 */
export function adaptiveEstimate(n1: number, n: number, c: number, stage1: (c1: number) => number): number {
  if (n <= n1) return stage1(c);
  const n2 = n - n1;
  let num = 0;
  let den = 0;
  for (let c1 = 1; c1 <= n1 - 1; c1++) {
    const c2 = c - c1;
    if (c2 < 0 || c2 > n2) continue;
    const w = binomial(n1, c1) * binomial(n2, c2);
    num += w * stage1(c1);
    den += w;
  }
  if (den === 0) throw new ShakedownError('SHAKEDOWN_ESTIMATOR', `Failed to estimate from an adaptive design: ${c} successes in ${n} trials cannot follow a mixed first round of ${n1}.`);
  return num / den;
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
  /** Failures of this task by class. */
  readonly failures?: Readonly<Partial<Record<FailureClass, number>>>;
}

export interface KEstimate {
  readonly k: number;
  readonly value: number;
  /** Standard error over tasks. */
  readonly se: number;
  /**
   * 95% interval over tasks (`taskMeanInterval`): the expanded percentile bootstrap over tasks with the
   * run's resamples when given (the same for every cell and agent), widened to the Wilson score interval
   * over tasks; without resamples, Wilson alone. Never of zero width.
   */
  readonly ci95: readonly [number, number];
}

const clip = (x: number) => Math.min(1, Math.max(0, x));
const estimate = (k: number, values: readonly number[], resamples?: Resamples, families?: { clusters: Clusters; resamples?: Resamples }, interval?: { low: number; high: number }): KEstimate => {
  if (families) {
    // Tasks in families: the family is the unit of the interval and of the SE.
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    if (!families.resamples || families.clusters.count < 2) {
      const w = wilson(clip(mean), families.clusters.count, families.clusters.count < 2 ? 1.96 : expandedZ(families.clusters.count));
      return { k, value: mean, se: clusteredSe(values, families.clusters), ci95: [w.low, w.high] };
    }
    const b = clusteredMeanInterval(values, families.clusters, families.resamples);
    return { k, value: mean, se: b.se, ci95: [b.low, b.high] };
  }
  const { mean, se } = meanSe(values);
  if (!resamples || values.length < 2) {
    const w = wilson(clip(mean), values.length, values.length < 2 ? 1.96 : expandedZ(values.length));
    return { k, value: mean, se, ci95: [w.low, w.high] };
  }
  const b = interval ?? taskMeanInterval(values, resamples);
  return { k, value: mean, se, ci95: [b.low, b.high] };
};

export interface CellSummary {
  readonly eps: number;
  readonly lambda: number;
  readonly tasks: number;
  /** Families the tasks come from, when some family has more than one (generated variants): the unit of the intervals. */
  readonly families?: number;
  /** Trials per task (the smallest, if a partial run left them unequal). */
  readonly trials: number;
  readonly episodes: number;
  readonly passHatK: readonly KEstimate[];
  readonly passAtK: readonly KEstimate[];
  readonly perTask: readonly TaskCount[];
  /** Episodes that did not pass, by failure class. */
  readonly failures: Readonly<Partial<Record<FailureClass, number>>>;
  /** Of the episodes that did not pass, how many met each fault kind. */
  readonly failuresByFault: Readonly<Record<string, number>>;
  /** Of the episodes that did not pass, how many had their wording changed by each perturbation family. */
  readonly failuresByFamily: Readonly<Record<string, number>>;
  /**
   * LLM tokens and cost summed over the cell, when its agent reported usage: `costUsd` only when every
   * such episode had a price; otherwise `unpriced` counts those without one and the cost is unknown, never $0.
   */
  readonly usage?: UsageSummary;
  /** The same for the LLM user simulator's tokens, when one played the user. */
  readonly userUsage?: UsageSummary;
  /** Whether the trials of a task end in the same state, by the same path, at the same cost (stability.ts); absent for runs whose records carry no stability keys. */
  readonly stability?: CellStability;
  /**
   * Episodes the harness failed (the simulated user, the world, the judge), by class: left out of every
   * estimate above and counted here, never against the agent. Absent when none.
   */
  readonly harness?: Readonly<Partial<Record<FailureClass, number>>>;
  /** Of the cell's episodes (harness failures included), the share in which the simulated user could not place a message. */
  readonly confusionRate?: number;
  /**
   * The faults that actually fired in the cell: tool calls made, transient faults struck on them (per
   * call: λ times the profile's transient weight, as realised), and every fired fault by kind, so that a
   * reader sees the stated intensity was met. Absent for runs whose records carry no trace.
   */
  readonly faultsFired?: { readonly calls: number; readonly transient: number; readonly rate: number; readonly byKind: Readonly<Record<string, number>> };
  /**
   * What the agent's calling cost the API, per episode: tool calls, calls made inside a window an earlier
   * fault opened (a Retry-After or an outage: each refused, each a fault the agent provoked), the share of
   * the faults it met that it provoked so, and the episodes in which it was blocked for hammering. Absent
   * for runs whose records carry no trace.
   */
  readonly load?: { readonly callsPerEpisode: number; readonly inWindowPerEpisode: number; readonly provokedShare: number; readonly blockedEpisodes: number };
}

/** Tokens summed over a cell's episodes and what they cost: `costUsd` when every episode had a price, else `unpriced` episodes. */
export interface UsageSummary {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd?: number;
  readonly unpriced?: number;
}

type UsageSum = { promptTokens: number; completionTokens: number; costUsd: number; unpriced: number };

const addUsage = (sum: UsageSum | undefined, u: { readonly promptTokens: number; readonly completionTokens: number; readonly costUsd?: number }): UsageSum => {
  const t = sum ?? { promptTokens: 0, completionTokens: 0, costUsd: 0, unpriced: 0 };
  t.promptTokens += u.promptTokens;
  t.completionTokens += u.completionTokens;
  if (u.costUsd === undefined) t.unpriced++;
  else t.costUsd = Math.round((t.costUsd + u.costUsd) * 1e6) / 1e6;
  return t;
};

const usageSummary = (u: UsageSum): UsageSummary => ({ promptTokens: u.promptTokens, completionTokens: u.completionTokens, ...(u.unpriced === 0 ? { costUsd: u.costUsd } : { unpriced: u.unpriced }) });

/** What an episode adds to a cell beyond its outcome. */
export interface EpisodeFacts {
  /** Tokens an LLM agent used, and their cost where a price is known. */
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number; readonly costUsd?: number };
  /** Tokens the LLM user spent, and their cost where a price is known. */
  readonly userUsage?: { readonly promptTokens: number; readonly completionTokens: number; readonly costUsd?: number };
  readonly failure?: FailureClass;
  readonly faults?: readonly string[];
  readonly families?: readonly string[];
  /** Whether the simulated user could not place one of the agent's messages in this episode. */
  readonly confused?: boolean;
  /** Tool calls the episode made, and the faults that fired in it (kind and scope), for the realised fault rate. */
  readonly calls?: number;
  readonly fired?: readonly { readonly kind: string; readonly scope: string; readonly window?: boolean; readonly detail?: Readonly<Record<string, unknown>> }[];
  /** The stability facts of the record (ground/stability.ts), when it carries them. */
  readonly stateKey?: string;
  readonly pathKey?: string;
  readonly turns?: number;
  readonly simulatedMs?: number;
}

/**
 * Summarises one cell: per-task estimates first, then their mean over tasks (the task is the
 * statistical unit, DESIGN decision 13). k runs from 1 to the smallest trial count of any task.
 */
export function summarizeCell(
  eps: number,
  lambda: number,
  perTask: readonly TaskCount[],
  resamples?: Resamples,
  extra: Pick<CellSummary, 'failures' | 'failuresByFault' | 'failuresByFamily'> = { failures: {}, failuresByFault: {}, failuresByFamily: {} },
  adaptiveFirst?: number,
  familyResamples?: (families: number) => Resamples,
): CellSummary {
  const tasks = [...perTask].sort((a, b) => (a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : 0));
  // Generated variants of one template are clustered by family; a run of hand-written tasks has none.
  const clusters = clustersOf(tasks.map((t) => t.scenario), familyOf);
  const families = clusters ? { clusters, ...(familyResamples && clusters.count >= 2 ? { resamples: familyResamples(clusters.count) } : {}) } : undefined;
  // An adaptive design estimates pass^k without bias only up to its first round, whichever tasks were extended.
  const least = tasks.length === 0 ? 0 : Math.min(...tasks.map((t) => t.n));
  const n = adaptiveFirst === undefined ? least : Math.min(least, adaptiveFirst);
  const hat: KEstimate[] = [];
  const at: KEstimate[] = [];
  // In an adaptive run a task has either the first-round trials or all of them; k never exceeds the first round.
  const hatOf = (t: TaskCount, k: number) => (adaptiveFirst === undefined ? passHatK(t.n, t.c, k) : adaptiveEstimate(adaptiveFirst, t.n, t.c, (c1) => passHatK(adaptiveFirst, c1, k)));
  const atOf = (t: TaskCount, k: number) => (adaptiveFirst === undefined ? passAtK(t.n, t.c, k) : adaptiveEstimate(adaptiveFirst, t.n, t.c, (c1) => passAtK(adaptiveFirst, c1, k)));
  const lists: number[][] = [];
  for (let k = 1; k <= n; k++) lists.push(tasks.map((t) => hatOf(t, k)), tasks.map((t) => atOf(t, k)));
  // Every k's interval over tasks in one pass over the resamples (the same intervals as one at a time).
  const intervals = !families && resamples && tasks.length >= 2 && lists.length > 0 ? taskMeanIntervals(lists, resamples) : undefined;
  for (let k = 1; k <= n; k++) {
    hat.push(estimate(k, lists[2 * k - 2] as number[], resamples, families, intervals?.[2 * k - 2]));
    at.push(estimate(k, lists[2 * k - 1] as number[], resamples, families, intervals?.[2 * k - 1]));
  }
  return { eps, lambda, tasks: tasks.length, ...(clusters ? { families: clusters.count } : {}), trials: n, episodes: tasks.reduce((s, t) => s + t.n, 0), passHatK: hat, passAtK: at, perTask: tasks, ...extra };
}

interface CellCounts {
  readonly byTask: Map<string, { n: number; c: number; errors: number; failures: Partial<Record<FailureClass, number>>; trials?: TrialFacts[]; unkeyed?: boolean }>;
  readonly failures: Partial<Record<FailureClass, number>>;
  readonly harness: Partial<Record<FailureClass, number>>;
  episodes: number;
  confused: number;
  calls: number;
  transient: number;
  fired: number;
  inWindow: number;
  blocked: number;
  readonly firedByKind: Record<string, number>;
  readonly byFault: Record<string, number>;
  readonly byFamily: Record<string, number>;
  usage?: UsageSum;
  userUsage?: UsageSum;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

const sortedKeys = <T extends Readonly<Partial<Record<string, number>>>>(o: T): T => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as T;

const bump = <K extends string>(o: Partial<Record<K, number>>, k: K) => {
  o[k] = (o[k] ?? 0) + 1;
};

/** Accumulates episode outcomes into per-agent, per-cell, per-task counts, one record at a time. */
export class Tally {
  private readonly counts = new Map<string, Map<string, CellCounts>>();
  /** Each agent's cells' tasks with their trials in order, made once after the last add (stability reads them per cell and per pair). */
  private readonly trialsMade = new Map<string, ReturnType<Tally['makeTrials']>>();

  add(key: { agent: string; eps: number; lambda: number; scenario: string }, outcome: EpisodeOutcome, facts: EpisodeFacts = {}): void {
    if (this.trialsMade.size > 0) this.trialsMade.clear();
    let byCell = this.counts.get(key.agent);
    if (!byCell) this.counts.set(key.agent, (byCell = new Map()));
    const cellKey = `${key.eps}|${key.lambda}`;
    let cell = byCell.get(cellKey);
    if (!cell) byCell.set(cellKey, (cell = { byTask: new Map(), failures: {}, harness: {}, episodes: 0, confused: 0, calls: 0, transient: 0, fired: 0, inWindow: 0, blocked: 0, firedByKind: {}, byFault: {}, byFamily: {} }));
    cell.episodes++;
    if (facts.confused) cell.confused++;
    // Faults fired count wherever the episode ends: they are the world's doing, not the agent's.
    cell.calls += facts.calls ?? 0;
    let blocked = false;
    for (const f of facts.fired ?? []) {
      if (f.scope === 'transient') cell.transient++;
      cell.fired++;
      if (f.window) cell.inWindow++;
      if (f.detail?.blocked === true) blocked = true;
      bump(cell.firedByKind, f.kind);
    }
    if (blocked) cell.blocked++;
    // The harness's failures are never the agent's: counted apart, left out of the task's trials.
    if (outcome === 'error' && facts.failure && HARNESS_CLASSES.has(facts.failure)) {
      bump(cell.harness, facts.failure);
      return;
    }
    const t = cell.byTask.get(key.scenario) ?? { n: 0, c: 0, errors: 0, failures: {} };
    t.n++;
    if (outcome === 'pass') t.c++;
    if (outcome === 'error') t.errors++;
    if (outcome !== 'pass') {
      const failure = facts.failure ?? (outcome === 'error' ? 'agent-error' : outcome === 'escalated' ? 'escalated' : 'missing-write');
      bump(t.failures, failure);
      bump(cell.failures, failure);
      for (const kind of new Set(facts.faults ?? [])) bump(cell.byFault, kind);
      for (const family of new Set(facts.families ?? [])) bump(cell.byFamily, family);
    }
    // The trial's stability facts; a task with a trial written before records kept them has none.
    if (facts.stateKey !== undefined && facts.pathKey !== undefined && !t.unkeyed) {
      // Filled one field at a time: at a million records, spreading would make several objects per trial.
      const trial: { -readonly [K in keyof TrialFacts]: TrialFacts[K] } = { pass: outcome === 'pass', state: facts.stateKey, path: facts.pathKey, calls: facts.calls ?? 0, turns: facts.turns ?? 0, simulatedMs: facts.simulatedMs ?? 0 };
      const number = (key as { trial?: unknown }).trial;
      if (typeof number === 'number') trial.trial = number;
      if (facts.usage) {
        trial.tokens = facts.usage.promptTokens + facts.usage.completionTokens;
        if (facts.usage.costUsd !== undefined) trial.costUsd = facts.usage.costUsd;
      }
      (t.trials ??= []).push(trial);
    } else {
      t.unkeyed = true;
      delete t.trials;
    }
    cell.byTask.set(key.scenario, t);
    if (facts.usage) cell.usage = addUsage(cell.usage, facts.usage);
    if (facts.userUsage) cell.userUsage = addUsage(cell.userUsage, facts.userUsage);
  }

  agents(): string[] {
    return [...this.counts.keys()];
  }

  /** A cell's tasks with their trials' stability facts, tasks in id order (the resamples index them). */
  private tasksOf(cell: CellCounts): { scenario: string; trials: TrialFacts[] }[] {
    // A cell with a trial written before records kept stability keys has no stability at all: a subset of its tasks would be a biased one.
    if ([...cell.byTask.values()].some((t) => t.trials === undefined)) return [];
    // Trials in trial order, tasks in id order: every sum over them is the same whatever order the log holds.
    return [...cell.byTask.entries()]
      .map(([scenario, t]) => ({ scenario, trials: [...(t.trials as TrialFacts[])].sort((a, b) => (a.trial ?? 0) - (b.trial ?? 0)) }))
      .sort((a, b) => (a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : 0));
  }

  /** Every cell of an agent with its tasks' stability facts, for comparing agents (stability.ts). */
  trialsOf(agent: string): { eps: number; lambda: number; tasks: { scenario: string; trials: TrialFacts[] }[] }[] {
    let made = this.trialsMade.get(agent);
    if (!made) this.trialsMade.set(agent, (made = this.makeTrials(agent)));
    return made;
  }

  private makeTrials(agent: string): { eps: number; lambda: number; tasks: { scenario: string; trials: TrialFacts[] }[] }[] {
    return [...(this.counts.get(agent)?.entries() ?? [])].map(([cellKey, cell]) => {
      const [eps, lambda] = cellKey.split('|').map(Number) as [number, number];
      return { eps, lambda, tasks: this.tasksOf(cell) };
    });
  }

  /** The agent's cells, with bootstrap intervals when a resample bank is given; `adaptiveFirst` for an adaptive run's first round. */
  cells(agent: string, bank?: ResampleBank, adaptiveFirst?: number): CellSummary[] {
    const byCell = this.counts.get(agent);
    if (!byCell) return [];
    return [...byCell.entries()]
      .map(([cellKey, cell]) => {
        const [eps, lambda] = cellKey.split('|').map(Number) as [number, number];
        // Keys sorted, so that the grid does not depend on the order episodes finished in.
        const perTask = [...cell.byTask.entries()].map(([scenario, t]) => ({ scenario, n: t.n, c: t.c, errors: t.errors, ...(t.n > t.c ? { failures: sortedKeys(t.failures) } : {}) }));
        const summary = summarizeCell(eps, lambda, perTask, bank?.for(perTask.length), { failures: sortedKeys(cell.failures), failuresByFault: sortedKeys(cell.byFault), failuresByFamily: sortedKeys(cell.byFamily) }, adaptiveFirst, bank ? (f) => bank.for(f) : undefined);
        const tasks = this.trialsOf(agent).find((c) => c.eps === eps && c.lambda === lambda)?.tasks ?? [];
        const stability = tasks.length > 0 ? cellStability(tasks, bank ? (n) => bank.for(n) : undefined) : undefined;
        return {
          ...summary,
          ...(stability ? { stability } : {}),
          ...(cell.usage ? { usage: usageSummary(cell.usage) } : {}),
          ...(cell.userUsage ? { userUsage: usageSummary(cell.userUsage) } : {}),
          ...(Object.keys(cell.harness).length > 0 ? { harness: sortedKeys(cell.harness) } : {}),
          confusionRate: cell.episodes === 0 ? 0 : Math.round((cell.confused / cell.episodes) * 10_000) / 10_000,
          ...(cell.calls > 0 ? { faultsFired: { calls: cell.calls, transient: cell.transient, rate: Math.round((cell.transient / cell.calls) * 10_000) / 10_000, byKind: sortedKeys(cell.firedByKind) } } : {}),
          ...(cell.calls > 0 && cell.episodes > 0
            ? { load: { callsPerEpisode: round3(cell.calls / cell.episodes), inWindowPerEpisode: round3(cell.inWindow / cell.episodes), provokedShare: cell.fired === 0 ? 0 : round3(cell.inWindow / cell.fired), blockedEpisodes: cell.blocked } }
            : {}),
        };
      })
      .sort((a, b) => a.eps - b.eps || a.lambda - b.lambda);
  }
}

/** What an agent's calling cost the API over a set of cells: the per-episode means over them, and the episodes it was blocked in. */
export interface AgentLoad {
  readonly callsPerEpisode: number;
  readonly inWindowPerEpisode: number;
  readonly blockedEpisodes: number;
}

/** An agent's load over its cells (those with a trace), each cell weighing by its episodes; undefined when none has one. */
export function agentLoad(cells: readonly Pick<CellSummary, 'load' | 'trials' | 'tasks'>[]): AgentLoad | undefined {
  let episodes = 0;
  let calls = 0;
  let inWindow = 0;
  let blocked = 0;
  for (const c of cells) {
    if (!c.load) continue;
    const n = c.tasks * c.trials;
    episodes += n;
    calls += c.load.callsPerEpisode * n;
    inWindow += c.load.inWindowPerEpisode * n;
    blocked += c.load.blockedEpisodes;
  }
  if (episodes === 0) return undefined;
  return { callsPerEpisode: Math.round((calls / episodes) * 100) / 100, inWindowPerEpisode: Math.round((inWindow / episodes) * 1000) / 1000, blockedEpisodes: blocked };
}

