/** The sweep's last lines: a verdict per agent under test. */
import { BASELINE_IDS } from '../agents/baselines.js';
import { evaluateGate, type GateRule } from '../stats/gate.js';
import type { Grid } from './grid.js';
import type { CellSummary } from '../stats/stats.js';

/**
 * One line per agent under test: pass^n where nothing is perturbed or faulty, at the worst cell, the
 * surface volume, and GO / NO-GO under the config's gate rules when it has them.
 */
export function verdictLines(grid: Grid, rules: readonly GateRule[], lower: boolean, complete: boolean): string[] {
  const tested = grid.agents.filter((a) => !BASELINE_IDS.includes(a.agent));
  const shown = tested.length > 0 ? tested : grid.agents;
  const k = Math.min(...shown.map((a) => a.surfaces.length));
  if (!Number.isFinite(k) || k < 1) return [];
  const width = Math.max(...shown.map((a) => a.agent.length));
  const lines = [`verdict (pass^${k}${rules.length > 0 ? `; gate: ${rules.map((r) => r.text).join('; ')}${lower ? ' on the lower bounds' : ''}` : ''}${complete ? '' : '; on an incomplete run'}):`];
  for (const a of shown) {
    const at = (c: CellSummary | undefined) => c?.passHatK[k - 1]?.value;
    const first = [...a.cells].sort((x, y) => x.eps + x.lambda - (y.eps + y.lambda))[0];
    const worst = [...a.cells].sort((x, y) => (at(x) ?? 1) - (at(y) ?? 1))[0];
    const s = a.surfaces[k - 1];
    let verdict = '';
    if (rules.length > 0 && grid.candidates !== undefined && !grid.candidates.includes(a.agent)) {
      verdict = 'comparator, not gated';
    } else if (rules.length > 0) {
      try {
        const failed = evaluateGate(a.agent, a.cells, rules, { lower }).filter((c) => !c.passed);
        verdict = failed.length === 0 ? 'GO' : `NO-GO (${failed[0]?.message}${failed.length > 1 ? `, and ${failed.length - 1} more` : ''})`;
      } catch (error) {
        verdict = `gate not applied: ${(error as Error).message}`;
      }
    }
    lines.push(`  ${a.agent.padEnd(width)}  ${(at(first) ?? Number.NaN).toFixed(3)} at ε ${first?.eps}, λ ${first?.lambda}; worst ${(at(worst) ?? Number.NaN).toFixed(3)} at ε ${worst?.eps}, λ ${worst?.lambda}; volume ${s ? s.volume.toFixed(3) : '-'}${verdict ? `  ${verdict}` : ''}`);
  }
  return lines;
}
