import type { ResampleBank } from '../stats/bootstrap.js';
import type { CellSummary, Tally } from '../stats/stats.js';
import { surfaceSummary, unstableTasks, type SurfaceSummary, type UnstableTask } from '../stats/surface.js';
import { adjustTogether, compareCells, type CellComparison } from '../stats/compare.js';
import { compareStability, type StabilityComparison } from '../stats/stability-compare.js';

import { BASELINE_IDS } from '../agents/baselines.js';

/** The contents of `grid.json`: per agent and cell, pass^k and pass@k with per-task counts. */
export interface Grid {
  readonly schemaVersion: 1;
  readonly world: string;
  readonly seed: string;
  readonly profile: string;
  readonly fixedTrials: boolean;
  readonly eps: readonly number[];
  readonly lambda: readonly number[];
  readonly trials: number;
  /** Adaptive runs: the first-round trials every task got; mixed tasks got up to `trials`. */
  readonly adaptiveFirstTrials?: number;
  readonly agents: readonly { readonly agent: string; readonly cells: readonly CellSummary[]; readonly surfaces: readonly SurfaceSummary[] }[];
  /** Tasks with 0 < c < n in some cell, most unstable first. */
  readonly unstable?: readonly UnstableTask[];
  /** Every pair of agents under test (baselines aside), and each candidate against the baseline agent, per cell, for pass^n. */
  readonly comparisons?: readonly { readonly a: string; readonly b: string; readonly cells: readonly CellComparison[] }[];
  /** The same pairs on stability (stats/stability.ts): state, path and cost consistency per cell. */
  readonly stabilityComparisons?: readonly { readonly a: string; readonly b: string; readonly cells: readonly StabilityComparison[] }[];
  /** The agents the run is for (report/roles.ts): the ones a gate judges; the rest are comparators. */
  readonly candidates?: readonly string[];
  /** The comparator each candidate is measured against first, when the config names one. */
  readonly baselineAgent?: string;
}

export type GridMeta = Omit<Grid, 'schemaVersion' | 'agents'> & {
  /** Agent order of the run, so that the grid does not depend on completion order. */
  readonly agents: readonly string[];
};

/**
 * Builds the grid from a tally of episode outcomes, with bootstrap intervals from the run's resamples
 * and each agent's surface summaries for k = 1..n. Deterministic: it holds no timing fields.
 */
export function buildGrid(meta: GridMeta, tally: Tally, bank?: ResampleBank, theta?: number): Grid {
  const seen = new Set(tally.agents());
  const order = [...meta.agents.filter((a) => seen.has(a)), ...[...seen].filter((a) => !meta.agents.includes(a)).sort()];
  const agents = order.map((agent) => {
    const cells = tally.cells(agent, bank, meta.adaptiveFirstTrials);
    const n = Math.min(...cells.map((c) => c.trials));
    return { agent, cells, surfaces: Array.from({ length: Number.isFinite(n) ? n : 0 }, (_, i) => surfaceSummary(cells, i + 1, theta)) };
  });
  const tested = agents.filter((a) => !BASELINE_IDS.includes(a.agent));
  // Every pair of agents under test, and each candidate against the baseline agent (a baseline such as
  // oracle included), candidate first.
  type Row = (typeof agents)[number];
  const pairs: [Row, Row][] = tested.flatMap((a, i) => tested.slice(i + 1).map((b): [Row, Row] => (meta.candidates?.includes(b.agent) && a.agent === meta.baselineAgent ? [b, a] : [a, b])));
  const base = agents.find((a) => a.agent === meta.baselineAgent);
  if (base) for (const c of agents.filter((a) => meta.candidates?.includes(a.agent))) if (!pairs.some(([x, y]) => x === c && y === base)) pairs.push([c, base]);
  const perPair = bank
    ? pairs.map(([a, b]) => {
        const k = Math.min(...a.cells.map((c) => c.trials), ...b.cells.map((c) => c.trials));
        return { a: a.agent, b: b.agent, cells: Number.isFinite(k) && k >= 1 ? compareCells(a.cells, b.cells, k, bank, meta.seed, 0.05, meta.adaptiveFirstTrials) : [] };
      })
    : [];
  // Holm across every cell of every pair: more agents, more comparisons, one family.
  const together = adjustTogether(perPair.flatMap((p) => p.cells));
  let at = 0;
  const comparisons = perPair.map((p) => ({ ...p, cells: p.cells.map(() => together[at++] as (typeof p.cells)[number]) }));
  // The same pairs on stability: state, path and cost consistency, named where pass^n does not tell them apart.
  const stabilityComparisons = bank
    ? pairs
        .map(([a, b], i) => {
          const passes = comparisons[i]?.cells ?? [];
          const differs = (eps: number, lambda: number) => passes.some((c) => c.eps === eps && c.lambda === lambda && c.verdict !== 'no detectable difference');
          return { a: a.agent, b: b.agent, cells: compareStability(tally.trialsOf(a.agent), tally.trialsOf(b.agent), { a: a.agent, b: b.agent }, meta.seed, (n) => bank.for(n), differs).sort((x, y) => x.eps - y.eps || x.lambda - y.lambda) };
        })
        .filter((c) => c.cells.length > 0)
    : [];
  return { schemaVersion: 1, ...meta, agents, unstable: unstableTasks(agents), comparisons, ...(stabilityComparisons.length > 0 ? { stabilityComparisons } : {}) };
}
