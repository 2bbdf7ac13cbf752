/** `shakedown stats` and `shakedown compare`: statistics recomputed from run directories' episode logs. */
import { stabilityLines } from '../report/stability-view.js';
import { ResampleBank } from '../stats/bootstrap.js';
import { cohensKappa, compareCells, type Adjustment, type CellComparison } from '../stats/compare.js';
import { ShakedownError } from '../ground/errors.js';
import { DEFAULT_THETA, unstableTasks } from '../stats/surface.js';
import { agentLoad } from '../stats/stats.js';
import { parseNumberList, parseInteger, type Flags, type Io } from './options.js';
import { checkSameJudging, integrityLines, loadRun } from '../report/run.js';

/** The chance that two different trials of a task with c passes in n disagree. */
export const flipRate = (n: number, c: number): number => (n < 2 ? 0 : (2 * c * (n - c)) / (n * (n - 1)));

const f3 = (x: number | null) => (x === null || !Number.isFinite(x) ? '-' : x.toFixed(3));

function thetaFlag(flags: Flags): number {
  if (flags.theta === undefined) return DEFAULT_THETA;
  const [t] = parseNumberList('theta', flags.theta);
  if (t === undefined || t < 0 || t > 1) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--theta\`: ${flags.theta} is not in [0, 1].`);
  return t;
}

/** `shakedown stats RUN`: surface summaries, failures by class, fault kind and family, unstable tasks. */
export async function statsCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  if (dirs.length !== 1) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to show statistics: give one run directory, e.g. `shakedown stats runs/2026-11-30T09-00-00`.');
  const run = await loadRun(dirs[0] as string, thetaFlag(flags));
  for (const line of integrityLines(run)) io.err(`${line}\n`);
  const unstable = unstableTasks(run.grid.agents);
  if (flags.json) {
    io.out(`${JSON.stringify({ agents: run.grid.agents.map((a) => ({ agent: a.agent, surfaces: a.surfaces, cells: a.cells.map((c) => ({ eps: c.eps, lambda: c.lambda, failures: c.failures, failuresByFault: c.failuresByFault, failuresByFamily: c.failuresByFamily, ...(c.faultsFired ? { faultsFired: c.faultsFired } : {}), ...(c.stability ? { stability: c.stability } : {}) })) })), unstable: unstable.map((u) => ({ ...u, flipRate: flipRate(u.trials, u.successes) })), ...(run.grid.stabilityComparisons ? { stabilityComparisons: run.grid.stabilityComparisons } : {}) }, null, 2)}\n`);
    return 0;
  }
  for (const a of run.grid.agents) {
    io.out(`${a.agent}\n  k  volume  slope ε  slope λ  critical ε  critical λ  (θ = ${a.surfaces[0]?.theta ?? DEFAULT_THETA})\n`);
    for (const s of a.surfaces) io.out(`  ${String(s.k).padStart(1)}  ${f3(s.volume)}   ${f3(s.slopeEps).padStart(6)}   ${f3(s.slopeLambda).padStart(6)}   ${String(s.criticalEps ?? 'none').padStart(9)}   ${String(s.criticalLambda ?? 'none').padStart(9)}\n`);
    for (const c of a.cells) {
      const failed = Object.values(c.failures).reduce((s, v) => s + (v ?? 0), 0);
      if (failed === 0) continue;
      const share = (o: Readonly<Record<string, number>>) => Object.entries(o).sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${((100 * v) / failed).toFixed(0)}%`).join(', ') || '-';
      io.out(`  ε ${c.eps}, λ ${c.lambda}: ${failed} did not pass — ${Object.entries(c.failures).map(([k, v]) => `${k} ${v}`).join(', ')}; with faults: ${share(c.failuresByFault)}; reworded by: ${share(c.failuresByFamily)}\n`);
    }
    const stable = stabilityLines(a.cells);
    if (stable.length > 0) io.out(`  stability (docs/statistics.md): one final state, failing trials converging, one path (shares of tasks), and the spread per episode\n${stable.join('\n')}\n`);
    io.out('\n');
  }
  // The faults that fired, per λ over every agent: a reader checks the stated intensity was met.
  const byLambda = new Map<number, { calls: number; transient: number; kinds: Record<string, number> }>();
  for (const a of run.grid.agents) {
    for (const c of a.cells) {
      if (!c.faultsFired) continue;
      const l = byLambda.get(c.lambda) ?? { calls: 0, transient: 0, kinds: {} };
      l.calls += c.faultsFired.calls;
      l.transient += c.faultsFired.transient;
      for (const [k, v] of Object.entries(c.faultsFired.byKind)) l.kinds[k] = (l.kinds[k] ?? 0) + v;
      byLambda.set(c.lambda, l);
    }
  }
  const loads = run.grid.agents.map((a) => ({ agent: a.agent, load: agentLoad(a.cells) })).filter((x) => x.load !== undefined);
  if (loads.length > 0) {
    io.out('what the calls cost, per episode: tool calls, calls inside a window an earlier fault opened (each a fault provoked), episodes blocked for hammering\n');
    for (const { agent, load } of loads) io.out(`  ${agent}: ${load?.callsPerEpisode.toFixed(2)} calls, ${load?.inWindowPerEpisode.toFixed(3)} inside a window, ${load?.blockedEpisodes} blocked\n`);
    io.out('\n');
  }
  if (byLambda.size > 0) {
    io.out('faults fired per λ (every agent): tool calls, transient faults per call as realised, fired faults by kind\n');
    for (const [lambda, l] of [...byLambda.entries()].sort((x, y) => x[0] - y[0])) io.out(`  λ ${lambda}: ${l.calls} calls, ${l.transient} transient faults (${f3(l.calls > 0 ? l.transient / l.calls : 0)} per call); ${Object.entries(l.kinds).sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}\n`);
    io.out('\n');
  }
  io.out(`unstable tasks (0 < successes < trials), most unstable first: ${unstable.length}\n`);
  io.out('  agent  ε  λ  task  trials  successes  pass^1  pass^n  flip rate  dominant failure\n');
  for (const u of unstable.slice(0, flags.calls === undefined ? 20 : parseInteger('calls', flags.calls))) io.out(`  ${u.agent}  ${u.eps}  ${u.lambda}  ${u.scenario}  ${u.trials}  ${u.successes}  ${f3(u.pass1)}  ${f3(u.passN)}  ${f3(flipRate(u.trials, u.successes))}  ${u.dominantFailure}\n`);
  io.out('  (flip rate: the chance that two of the task\'s trials disagree, 2c(n - c) / (n(n - 1)))\n');
  return 0;
}

/**
 * Why a row's interval and its verdict seem to say different things, in one sentence, or nothing when they
 * agree: the verdict is the adjusted test's; the interval is the unadjusted bootstrap's.
 */
export function disagreement(r: Pick<CellComparison, 'ci95' | 'verdict' | 'p' | 'pAdjusted'>, cells: number, adj: string): string | undefined {
  const excludesZero = r.ci95[0] > 0 || r.ci95[1] < 0;
  const significant = r.verdict !== 'no detectable difference';
  if (excludesZero && !significant) {
    return r.p < 0.05
      ? `the interval leaves out 0 and p = ${r.p.toFixed(4)} on this cell alone, but across the ${cells} cells compared the adjusted ${adj} = ${r.pAdjusted.toFixed(4)} is not below 0.05: no difference is claimed here`
      : `the interval leaves out 0, but the test on the changed tasks does not reach 0.05 (p = ${r.p.toFixed(4)}): with so few tasks that changed, the test decides, and no difference is claimed`;
  }
  if (!excludesZero && significant) return `the test finds a difference (${adj} = ${r.pAdjusted.toFixed(4)}) while the interval touches 0: the sign-flip test and the bootstrap interval are different methods, and the test decides`;
  return undefined;
}

function printComparison(io: Io, title: string, rows: readonly CellComparison[], kappa: number, pairs: number, adjustment: Adjustment = 'holm'): void {
  const adj = adjustment === 'bh' ? 'BH p' : 'Holm p';
  io.out(`${title}\n`);
  // What a reviewer acts on first: tasks one side passed every time and the other never.
  const flipped = rows.flatMap((r) => r.flipped.map((f) => ({ ...f, eps: r.eps, lambda: r.lambda })));
  if (flipped.length > 0) {
    io.out(`  tasks that changed in every trial (A / B passes):\n`);
    for (const f of flipped.slice(0, 20)) io.out(`    ε ${f.eps}, λ ${f.lambda}: ${f.scenario}  ${f.a} / ${f.b}\n`);
    if (flipped.length > 20) io.out(`    ... and ${flipped.length - 20} more\n`);
  }
  io.out(`  ε     λ     k  tasks  difference  95% interval        p       ${adj.padEnd(8)} smallest detectable  verdict\n`);
  for (const r of rows) {
    // A test on few changed tasks cannot reach the level at all: said, so that "no difference" is not read as evidence of none.
    const unreachable = r.changed === 0 ? ' (the same on every task)' : r.minP >= 0.05 ? ` (cannot reach p < 0.05: ${r.changed} changed task${r.changed === 1 ? '' : 's'}, smallest p ${r.minP.toFixed(3)})` : '';
    const detectable = r.minDetectable === null ? '     -' : r.minDetectable.toFixed(3).padStart(6);
    io.out(`  ${String(r.eps).padEnd(5)} ${String(r.lambda).padEnd(5)} ${r.k}  ${String(r.tasks).padStart(5)}  ${(r.difference >= 0 ? '+' : '') + r.difference.toFixed(3)}      [${f3(r.ci95[0])}, ${f3(r.ci95[1])}]  ${r.p.toFixed(4)}  ${r.pAdjusted.toFixed(4)}   ${detectable}               ${r.verdict}${unreachable}\n`);
    const why = disagreement(r, rows.length, adj);
    if (why) io.out(`        ${why}\n`);
  }
  io.out(`  the verdict is the adjusted test's (${adj} < 0.05 across the ${rows.length} cells); the interval describes the difference and is not adjusted\n`);
  const clustered = rows.filter((r) => r.families !== undefined);
  if (clustered.length > 0) {
    const eff = clustered.map((r) => r.effectiveTasks ?? r.tasks);
    io.out(`  tasks come in families (${clustered[0]?.families} families of ${clustered[0]?.tasks} tasks): the test flips, the interval resamples and the smallest detectable difference counts whole families; effective independent tasks ${Math.min(...eff)} to ${Math.max(...eff)} (docs/statistics.md, "Task families")\n`);
  }
  io.out(`  agreement of per-episode outcomes on ${pairs} shared keys: Cohen's kappa ${Number.isFinite(kappa) ? kappa.toFixed(3) : '-'}\n\n`);
}

/**
 * The k to compare at: `--k`, or the largest the runs support. A k beyond the trials every task has (or,
 * in an adaptive run, beyond its first round) has no unbiased estimate and is refused with the reason.
 */
function kFor(k: number | undefined, n: number, adaptiveFirst: number | undefined): number {
  if (!Number.isFinite(n) || n < 1) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to compare: the runs have no cell in common with trials to compare.');
  if (k === undefined) return n;
  if (k < 1 || k > n) {
    const why = adaptiveFirst !== undefined && n === adaptiveFirst ? `this adaptive run estimates pass^k without bias only up to its first round of ${adaptiveFirst} trials` : `every task has only ${n} trials here`;
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to compare: \`--k ${k}\` is out of range: ${why}. Give --k 1 to ${n}.`);
  }
  return k;
}

/**
 * `shakedown compare RUN_A RUN_B` (each agent both runs have), or `shakedown compare RUN --agents A,B`
 * (two agents of one run, paired on the same wording and faults).
 */
export async function compareCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  const k = flags.k === undefined ? undefined : parseInteger('k', flags.k);
  const adjustment = flags.adjust === undefined ? 'holm' : flags.adjust;
  if (adjustment !== 'holm' && adjustment !== 'bh') throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to compare: \`--adjust ${adjustment}\` is not a method. Give \`holm\` (family-wise error, the default) or \`bh\` (Benjamini-Hochberg, false discovery rate).`);
  if (dirs.length === 1 && flags.agents) {
    const [a, b] = flags.agents.split(',').map((s) => s.trim());
    if (!a || !b) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to compare: `--agents` takes two agent ids, e.g. `--agents reference:robust,reference:none`.');
    const run = await loadRun(dirs[0] as string, DEFAULT_THETA);
    const cellsOf = (id: string) => run.grid.agents.find((x) => x.agent === id)?.cells ?? (() => { throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to compare: run ${run.dir} has no agent \`${id}\`. Agents: ${run.grid.agents.map((x) => x.agent).join(', ')}.`); })();
    const ca = cellsOf(a);
    const cb = cellsOf(b);
    const kk = kFor(k, Math.min(...ca.map((c) => c.trials), ...cb.map((c) => c.trials)), run.grid.adaptiveFirstTrials);
    const pairs: [boolean, boolean][] = [];
    for (const [key, pass] of run.outcomes) {
      const [scenario, agent, ...rest] = key.split('|');
      if (agent !== a) continue;
      const other = run.outcomes.get([scenario, b, ...rest].join('|'));
      if (other !== undefined) pairs.push([pass, other]);
    }
    printComparison(io, `${a} against ${b} in ${run.dir} (pass^${kk}; paired by task, same wording and faults)`, compareCells(ca, cb, kk, new ResampleBank(run.grid.seed), run.grid.seed, 0.05, run.grid.adaptiveFirstTrials, adjustment), cohensKappa(pairs), pairs.length, adjustment);
    printLoad(io, [a, agentLoad(ca)], [b, agentLoad(cb)]);
    return 0;
  }
  if (dirs.length !== 2) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to compare: give two run directories (`shakedown compare RUN_A RUN_B`), or one with `--agents A,B`.');
  checkSameJudging(dirs[0] as string, dirs[1] as string, flags.force, 'compare', (l) => io.err(l));
  const [ra, rb] = [await loadRun(dirs[0] as string, DEFAULT_THETA), await loadRun(dirs[1] as string, DEFAULT_THETA)];
  for (const line of [...integrityLines(ra), ...integrityLines(rb)]) io.err(`${line}\n`);
  if (ra.grid.adaptiveFirstTrials !== rb.grid.adaptiveFirstTrials) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to compare: the runs have different designs (${[ra, rb].map((r) => `${r.dir}: ${r.grid.adaptiveFirstTrials === undefined ? 'uniform trials' : `adaptive, ${r.grid.adaptiveFirstTrials} trials first`}`).join('; ')}), so their per-task estimates differ in kind. Compare runs of one design.`);
  }
  const common = ra.grid.agents.map((x) => x.agent).filter((id) => rb.grid.agents.some((y) => y.agent === id) && (flags.agent === undefined || flags.agent.includes(id)));
  if (common.length === 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to compare: the runs share no agent${flags.agent ? ` named ${flags.agent.join(', ')}` : ''}. ${ra.dir}: ${ra.grid.agents.map((x) => x.agent).join(', ')}; ${rb.dir}: ${rb.grid.agents.map((x) => x.agent).join(', ')}.`);
  for (const id of common) {
    const ca = ra.grid.agents.find((x) => x.agent === id)?.cells ?? [];
    const cb = rb.grid.agents.find((x) => x.agent === id)?.cells ?? [];
    const kk = kFor(k, Math.min(...ca.map((c) => c.trials), ...cb.map((c) => c.trials)), ra.grid.adaptiveFirstTrials);
    const pairs: [boolean, boolean][] = [];
    for (const [key, pass] of ra.outcomes) {
      if (key.split('|')[1] !== id) continue;
      const other = rb.outcomes.get(key);
      if (other !== undefined) pairs.push([pass, other]);
    }
    printComparison(io, `${id}: ${ra.dir} (A) against ${rb.dir} (B), pass^${kk}`, compareCells(ca, cb, kk, new ResampleBank(ra.grid.seed), ra.grid.seed, 0.05, ra.grid.adaptiveFirstTrials, adjustment), cohensKappa(pairs), pairs.length, adjustment);
    printLoad(io, ['A', agentLoad(ca)], ['B', agentLoad(cb)]);
  }
  return 0;
}

/** What two sides' calling cost the API, per episode, when both runs have traces. */
function printLoad(io: Io, ...sides: readonly [string, ReturnType<typeof agentLoad>][]): void {
  if (sides.some(([, l]) => l === undefined)) return;
  io.out(`calls per episode (inside a window; episodes blocked): ${sides.map(([who, l]) => `${who} ${l?.callsPerEpisode.toFixed(2)} (${l?.inWindowPerEpisode.toFixed(3)}; ${l?.blockedEpisodes})`).join(', ')}\n`);
}

