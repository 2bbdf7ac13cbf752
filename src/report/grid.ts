import type { ResampleBank } from '../core/bootstrap.js';
import type { CellSummary, Tally } from '../core/stats.js';
import { surfaceSummary, type SurfaceSummary } from '../core/surface.js';

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
  return {
    schemaVersion: 1,
    ...meta,
    agents: order.map((agent) => {
      const cells = tally.cells(agent, bank, meta.adaptiveFirstTrials);
      const n = Math.min(...cells.map((c) => c.trials));
      return { agent, cells, surfaces: Array.from({ length: Number.isFinite(n) ? n : 0 }, (_, i) => surfaceSummary(cells, i + 1, theta)) };
    }),
  };
}
