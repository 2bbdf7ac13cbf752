/**
 * The smallest difference a run can detect (80% power, 5% level) between every two agents under test, in
 * pass^1 and pass^4, over the cells: the figure issue "enough tasks to see a regression" asks for
 * (docs/statistics.md, "Task families"). Read from a finished run:
 *
 *   npx shakedown sweep --out runs/hand                   # the hand-written tasks (default sweep)
 *   npx shakedown sweep --tasks all --out runs/release    # every validated task
 *   npx tsx bench/detectable.ts runs/hand runs/release
 */
import { readFileSync } from 'node:fs';
import { BASELINE_IDS } from '../src/agents/baselines.js';
import type { Grid } from '../src/report/grid.js';
import { ResampleBank } from '../src/stats/bootstrap.js';
import { compareCells } from '../src/stats/compare.js';

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

if (process.argv.length < 3) {
  console.error('usage: npx tsx bench/detectable.ts RUN...');
  process.exit(2);
}
for (const dir of process.argv.slice(2)) {
  console.log(`\n${dir}`);
  const grid = JSON.parse(readFileSync(`${dir}/grid.json`, 'utf8')) as Grid;
  const agents = grid.agents.filter((a) => !(BASELINE_IDS as readonly string[]).includes(a.agent));
  for (const k of [1, 4]) {
    const all: number[] = [];
    const rows: string[] = [];
    for (let i = 0; i < agents.length; i++) for (let j = i + 1; j < agents.length; j++) {
      const [a, b] = [agents[i], agents[j]] as [(typeof agents)[number], (typeof agents)[number]];
      const rs = compareCells(a.cells, b.cells, k, new ResampleBank(grid.seed), grid.seed);
      const m = rs.map((r) => r.minDetectable).filter((x): x is number => x !== null);
      all.push(...m);
      rows.push(`  ${a.agent} vs ${b.agent}: median ${median(m).toFixed(3)}, max ${Math.max(...m).toFixed(3)}${rs[0]?.families ? `, families ${rs[0].families}, effective tasks ${Math.min(...rs.map((r) => r.effectiveTasks ?? 0))}-${Math.max(...rs.map((r) => r.effectiveTasks ?? 0))} of ${rs[0].tasks}` : `, tasks ${rs[0]?.tasks}`}`);
    }
    console.log(`pass^${k}: over every pair and cell: median ${median(all).toFixed(3)}, max ${Math.max(...all).toFixed(3)}`);
    for (const r of rows) console.log(r);
  }
}
