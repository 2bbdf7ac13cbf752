/**
 * Episodes saved by adaptive trials, for the same interval width: compares an adaptive run with uniform
 * runs of m = 2..n trials, the latter read as the first m trials of one uniform n-trial run (trials are
 * independent, so a prefix is a uniform m-trial run).
 *
 *   npx shakedown sweep --trials 8 --adaptive 2 --out runs/adaptive
 *   npx shakedown sweep --trials 8 --out runs/uniform
 *   npx tsx bench/adaptive-trials.ts runs/adaptive runs/uniform
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResampleBank } from '../src/stats/bootstrap.js';
import type { EpisodeRecord } from '../src/ground/record.js';
import { Tally } from '../src/stats/stats.js';

const [adaptiveDir, uniformDir] = process.argv.slice(2);
if (!adaptiveDir || !uniformDir) {
  console.error('usage: npx tsx bench/adaptive-trials.ts ADAPTIVE_RUN UNIFORM_RUN');
  process.exit(2);
}
const records = (dir: string) =>
  readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as EpisodeRecord);
const manifest = JSON.parse(readFileSync(join(adaptiveDir, 'run.json'), 'utf8')) as { seed: string; config: { adaptiveFirstTrials: number; trials: number } };
const first = manifest.config.adaptiveFirstTrials;

/** Mean 95% interval width of pass^k over every agent and cell. */
function width(rs: readonly EpisodeRecord[], k: number, adaptive?: number): number {
  const t = new Tally();
  for (const r of rs) t.add(r.key, r.outcome);
  const bank = new ResampleBank(manifest.seed);
  const widths = t.agents().flatMap((a) => t.cells(a, bank, adaptive).map((c) => (c.passHatK[k - 1]?.ci95[1] ?? 0) - (c.passHatK[k - 1]?.ci95[0] ?? 0)));
  return widths.reduce((s, w) => s + w, 0) / widths.length;
}

const adaptive = records(adaptiveDir);
const uniform = records(uniformDir);
const n = Math.max(...uniform.map((r) => r.key.trial)) + 1;
for (let k = 1; k <= first; k++) {
  const target = width(adaptive, k, first);
  console.log(`pass^${k}: adaptive (first round ${first}, up to ${manifest.config.trials}) ${adaptive.length} episodes, mean 95% interval width ${target.toFixed(4)}`);
  let match: { m: number; episodes: number; w: number } | undefined;
  for (let m = Math.max(k, 2); m <= n; m++) {
    const prefix = uniform.filter((r) => r.key.trial < m);
    const w = width(prefix, k);
    console.log(`  uniform ${m} trials: ${prefix.length} episodes, width ${w.toFixed(4)}`);
    if (!match && w <= target) match = { m, episodes: prefix.length, w };
  }
  console.log(match ? `  uniform trials need ${match.m} per task (${match.episodes} episodes) for the same width: adaptive saves ${match.episodes - adaptive.length} episodes (${((100 * (match.episodes - adaptive.length)) / match.episodes).toFixed(0)}%)` : `  no uniform run up to ${n} trials is as narrow: adaptive saves at least ${uniform.length - adaptive.length} episodes`);
}
