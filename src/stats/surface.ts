/** Summaries of one agent's reliability surface R(k, ε, λ): volume, slopes and critical thresholds. */
import { passHatK, type CellSummary } from './stats.js';

export interface SurfaceSummary {
  readonly k: number;
  /** Mean of pass^k over every cell of the grid. */
  readonly volume: number;
  /** Change of pass^k per unit of ε (least squares over the grid, λ held in the fit); null with one ε. */
  readonly slopeEps: number | null;
  /** Change of pass^k per unit of λ; null with one λ. */
  readonly slopeLambda: number | null;
  /** The level the thresholds use. */
  readonly theta: number;
  /** The largest ε at which pass^k stays at or above θ for every ε up to it, at the smallest λ; null if even the smallest fails. */
  readonly criticalEps: number | null;
  /** The largest λ at which pass^k stays at or above θ for every λ up to it, at the smallest ε. */
  readonly criticalLambda: number | null;
}

/** The default θ for critical thresholds. */
export const DEFAULT_THETA = 0.8;

function solve3(m: number[][], v: number[]): number[] | null {
  // Gaussian elimination with partial pivoting on a 3x3 system.
  const a = m.map((row, i) => [...row, v[i] as number]);
  for (let c = 0; c < 3; c++) {
    let p = c;
    for (let r = c + 1; r < 3; r++) if (Math.abs(a[r]?.[c] ?? 0) > Math.abs(a[p]?.[c] ?? 0)) p = r;
    if (Math.abs(a[p]?.[c] ?? 0) < 1e-12) return null;
    [a[c], a[p]] = [a[p] as number[], a[c] as number[]];
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = (a[r]?.[c] ?? 0) / (a[c]?.[c] ?? 1);
      for (let j = c; j < 4; j++) (a[r] as number[])[j] = (a[r]?.[j] ?? 0) - f * (a[c]?.[j] ?? 0);
    }
  }
  return [0, 1, 2].map((i) => (a[i]?.[3] ?? 0) / (a[i]?.[i] ?? 1));
}

const threshold = (points: { x: number; y: number }[], theta: number): number | null => {
  let best: number | null = null;
  for (const p of [...points].sort((a, b) => a.x - b.x)) {
    if (p.y < theta) break;
    best = p.x;
  }
  return best;
};

/** The surface summary of one agent's cells for pass^k. */
export function surfaceSummary(cells: readonly CellSummary[], k: number, theta: number = DEFAULT_THETA): SurfaceSummary {
  const points = cells.filter((c) => c.passHatK.length >= k).map((c) => ({ eps: c.eps, lambda: c.lambda, y: c.passHatK[k - 1]?.value ?? Number.NaN }));
  const volume = points.reduce((s, p) => s + p.y, 0) / Math.max(1, points.length);
  const epsValues = new Set(points.map((p) => p.eps));
  const lambdaValues = new Set(points.map((p) => p.lambda));
  let slopeEps: number | null = null;
  let slopeLambda: number | null = null;
  if (points.length >= 2) {
    // y = a + b ε + c λ by least squares; a predictor with one value drops out.
    const useEps = epsValues.size > 1;
    const useLambda = lambdaValues.size > 1;
    const rows = points.map((p) => [1, useEps ? p.eps : 0, useLambda ? p.lambda : 0]);
    const xtx = [0, 1, 2].map((i) => [0, 1, 2].map((j) => rows.reduce((s, r) => s + (r[i] as number) * (r[j] as number), 0)));
    const xty = [0, 1, 2].map((i) => rows.reduce((s, r, n) => s + (r[i] as number) * (points[n]?.y ?? 0), 0));
    if (!useEps) (xtx[1] as number[])[1] = 1;
    if (!useLambda) (xtx[2] as number[])[2] = 1;
    const beta = solve3(xtx, xty);
    if (beta) {
      slopeEps = useEps ? (beta[1] ?? null) : null;
      slopeLambda = useLambda ? (beta[2] ?? null) : null;
    }
  }
  const minLambda = Math.min(...lambdaValues);
  const minEps = Math.min(...epsValues);
  return {
    k,
    volume,
    slopeEps,
    slopeLambda,
    theta,
    criticalEps: threshold(points.filter((p) => p.lambda === minLambda).map((p) => ({ x: p.eps, y: p.y })), theta),
    criticalLambda: threshold(points.filter((p) => p.eps === minEps).map((p) => ({ x: p.lambda, y: p.y })), theta),
  };
}

/** One task that neither always passes nor always fails in a cell. */
export interface UnstableTask {
  readonly agent: string;
  readonly eps: number;
  readonly lambda: number;
  readonly scenario: string;
  readonly trials: number;
  readonly successes: number;
  readonly pass1: number;
  readonly passN: number;
  /** The most frequent failure class of its failing episodes. */
  readonly dominantFailure: string;
}

/** Tasks with 0 < c < n, most unstable (closest to half) first. */
export function unstableTasks(agents: readonly { agent: string; cells: readonly CellSummary[] }[]): UnstableTask[] {
  const out: UnstableTask[] = [];
  for (const { agent, cells } of agents) {
    for (const cell of cells) {
      for (const t of cell.perTask) {
        if (t.c === 0 || t.c === t.n) continue;
        const failures = Object.entries(t.failures ?? {}).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0) || (a[0] < b[0] ? -1 : 1));
        out.push({ agent, eps: cell.eps, lambda: cell.lambda, scenario: t.scenario, trials: t.n, successes: t.c, pass1: passHatK(t.n, t.c, 1), passN: passHatK(t.n, t.c, t.n), dominantFailure: failures[0]?.[0] ?? 'unknown' });
      }
    }
  }
  return out.sort((a, b) => Math.abs(a.pass1 - 0.5) - Math.abs(b.pass1 - 0.5) || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0) || a.eps - b.eps || a.lambda - b.lambda || (a.scenario < b.scenario ? -1 : 1));
}
