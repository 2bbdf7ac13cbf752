import type { Grid } from './grid.js';

const fmt = (x: number, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : '  -  ');

/**
 * The terminal table: per agent, one row per (ε, λ) cell and one column per k, each value with its
 * standard error over tasks, then the surface summary and the failures by class.
 */
export function renderTable(grid: Grid): string {
  const lines: string[] = [];
  for (const { agent, cells } of grid.agents) {
    const first = cells[0];
    if (!first) continue;
    const maxK = Math.max(...cells.map((c) => c.passHatK.length));
    lines.push(first.families === undefined ? `${agent}  (${first.tasks} tasks x ${first.trials} trials per cell; ± is the standard error over tasks)` : `${agent}  (${first.tasks} tasks in ${first.families} families x ${first.trials} trials per cell; ± is the standard error over families)`);
    const header = ['   ε', '    λ', ...Array.from({ length: maxK }, (_, i) => `pass^${i + 1}`.padStart(13))];
    lines.push(header.join('  '));
    for (const c of cells) {
      const values = Array.from({ length: maxK }, (_, i) => {
        const e = c.passHatK[i];
        return (e ? `${fmt(e.value)}±${fmt(e.se)}` : '-').padStart(13);
      });
      lines.push([fmt(c.eps, 2).padStart(4), fmt(c.lambda, 2).padStart(5), ...values].join('  '));
    }
    const surface = grid.agents.find((a) => a.agent === agent)?.surfaces;
    const one = surface?.[0];
    const last = surface?.at(-1);
    if (one && last) {
      const at = (x: number | null) => (x === null ? 'nowhere' : String(x));
      lines.push(`  surface: volume ${fmt(one.volume)} (pass^1), ${fmt(last.volume)} (pass^${last.k}); pass^${last.k} >= ${last.theta} up to ε = ${at(last.criticalEps)} and λ = ${at(last.criticalLambda)}`);
    }
    const failures: Record<string, number> = {};
    for (const c of cells) for (const [k, v] of Object.entries(c.failures)) failures[k] = (failures[k] ?? 0) + (v ?? 0);
    const total = Object.values(failures).reduce((s, v) => s + v, 0);
    if (total > 0) lines.push(`  did not pass: ${total} (${Object.entries(failures).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')})`);
    const harness: Record<string, number> = {};
    for (const c of cells) for (const [k, v] of Object.entries(c.harness ?? {})) harness[k] = (harness[k] ?? 0) + (v ?? 0);
    const left = Object.values(harness).reduce((s, v) => s + v, 0);
    if (left > 0) lines.push(`  left out, the harness's: ${left} (${Object.entries(harness).map(([k, v]) => `${k} ${v}`).join(', ')}), in no estimate above`);
    const episodes = cells.reduce((s, c) => s + c.episodes + Object.values(c.harness ?? {}).reduce((x, v) => x + (v ?? 0), 0), 0);
    const confused = cells.reduce((s, c) => s + (c.confusionRate ?? 0) * (c.episodes + Object.values(c.harness ?? {}).reduce((x, v) => x + (v ?? 0), 0)), 0);
    if (confused > 0) lines.push(`  simulated user confused in ${Math.round(confused)} of ${episodes} episodes (${((100 * confused) / Math.max(1, episodes)).toFixed(1)}%): see each record's \`confusions\``);
    lines.push('');
  }
  if ((grid.comparisons ?? []).length > 0) {
    lines.push('paired comparisons per cell (pass^n, per-task differences, sign-flip test, Holm across cells and agent pairs):');
    const tied: string[] = [];
    for (const c of grid.comparisons ?? []) {
      const count = (v: string) => c.cells.filter((x) => x.verdict === v).length;
      const sizes = c.cells.map((x) => x.minDetectable).filter((v): v is number => v !== null && v !== undefined).sort((p, q) => p - q);
      const detect = sizes.length > 0 ? `; smallest detectable ${(sizes[Math.floor(sizes.length / 2)] as number).toFixed(2)} (median)` : '';
      const flipped = c.cells.reduce((s, x) => s + (x.flipped?.length ?? 0), 0);
      lines.push(`  ${c.a} vs ${c.b}: better in ${count('better')}, worse in ${count('worse')}, no detectable difference in ${count('no detectable difference')} of ${c.cells.length} cells${detect}${flipped > 0 ? `; ${flipped} task cell(s) changed in every trial (\`shakedown compare RUN --agents ${c.a},${c.b}\`)` : ''}`);
      if (c.cells.length > 0 && count('no detectable difference') === c.cells.length) tied.push(`${c.a} = ${c.b}`);
    }
    // Agents no cell tells apart are tied, not ranked by their point estimates.
    if (tied.length > 0) lines.push(`  tied (no cell tells them apart): ${tied.join('; ')}`);
    lines.push('');
  }
  if (grid.unstable) lines.push(`${grid.unstable.length} unstable task cells (0 < passes < trials); \`shakedown stats RUN\` lists them.`, '');
  return lines.join('\n');
}
