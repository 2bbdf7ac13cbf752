import type { Grid } from './grid.js';

const fmt = (x: number, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : '  -  ');

/**
 * The terminal table: per agent, one row per (ε, λ) cell and one column per k, each value with its
 * standard error over tasks.
 */
export function renderTable(grid: Grid): string {
  const lines: string[] = [];
  for (const { agent, cells } of grid.agents) {
    const first = cells[0];
    if (!first) continue;
    const maxK = Math.max(...cells.map((c) => c.passHatK.length));
    lines.push(`${agent}  (${first.tasks} tasks x ${first.trials} trials per cell; ± is the standard error over tasks)`);
    const header = ['   ε', '    λ', ...Array.from({ length: maxK }, (_, i) => `pass^${i + 1}`.padStart(13))];
    lines.push(header.join('  '));
    for (const c of cells) {
      const values = Array.from({ length: maxK }, (_, i) => {
        const e = c.passHatK[i];
        return (e ? `${fmt(e.value)}±${fmt(e.se)}` : '-').padStart(13);
      });
      lines.push([fmt(c.eps, 2).padStart(4), fmt(c.lambda, 2).padStart(5), ...values].join('  '));
    }
    lines.push('');
  }
  return lines.join('\n');
}
