/** `shakedown merge DIR... --out OUT`: shards (or any parts of one run) into one run directory. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ShakedownError } from '../core/errors.js';
import { DEFAULT_THETA } from '../core/surface.js';
import { loadRun } from './analyze.js';
import type { Flags, Io } from './options.js';
import { scenarioTitles, writeReport } from './report.js';
import { createRunDir, readFinished, runFiles, writeJson } from './rundir.js';

interface Manifest {
  readonly configHash?: string;
  readonly shard?: string;
  readonly episodes?: number;
  readonly [key: string]: unknown;
}

export async function mergeCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  if (dirs.length < 1 || !flags.out) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to merge: give the run directories and `--out DIR`, e.g. `shakedown merge runs/shard-1 runs/shard-2 --out runs/merged`.');
  const manifests = dirs.map((dir): Manifest => {
    const path = runFiles(dir).manifest;
    if (!existsSync(path)) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: ${dir} has no run.json. Give directories a sweep wrote.`);
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  });
  const hashes = new Set(manifests.map((m) => m.configHash));
  if (hashes.size !== 1) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: the runs were made with different configurations (${dirs.map((d, i) => `${d}: ${manifests[i]?.configHash ?? 'no hash'}`).join(', ')}). Merge only shards of one sweep.`);
  }
  createRunDir(flags.out);
  const out = runFiles(flags.out);
  const seen = new Map<string, boolean>();
  const lines: string[] = [];
  let conflicts = 0;
  for (const dir of dirs) {
    const path = runFiles(dir).episodes;
    const { keys, outcomes } = readFinished(path);
    if (keys.size === 0) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let key: string;
      try {
        const r = JSON.parse(line) as { key: { scenario: string; agent: string; eps: number; lambda: number; trial: number } };
        key = `${r.key.scenario}|${r.key.agent}|${r.key.eps}|${r.key.lambda}|${r.key.trial}`;
      } catch {
        continue;
      }
      if (seen.has(key)) {
        if (seen.get(key) !== outcomes.get(key)) conflicts++;
        continue;
      }
      seen.set(key, outcomes.get(key) ?? false);
      lines.push(line);
    }
  }
  writeFileSync(out.episodes, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  const first = manifests[0] as Manifest;
  const { shard: _shard, ...base } = first;
  const planned = manifests.reduce((s, m) => s + (m.episodes ?? 0), 0);
  writeJson(out.manifest, { ...base, episodes: planned, mergedFrom: dirs.map((d, i) => ({ dir: d, shard: manifests[i]?.shard ?? null })) });
  const run = await loadRun(flags.out, DEFAULT_THETA);
  writeJson(out.grid, run.grid);
  writeReport(run.grid, basename(resolve(flags.out)), join(flags.out, 'report'), undefined, undefined, undefined, run.failing, await scenarioTitles(flags.out, run.grid.world));
  io.out(`merged ${lines.length} episodes from ${dirs.length} run(s) into ${flags.out}${lines.length < planned ? ` (${planned - lines.length} planned episodes are missing: resume the shards that stopped early)` : ''}\n`);
  if (conflicts > 0) io.err(`shakedown: ${conflicts} episode(s) appear in more than one run with different outcomes; the first was kept\n`);
  return 0;
}
