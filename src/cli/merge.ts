/** `shakedown merge DIR... --out OUT`: shards (or any parts of one run) into one run directory. */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ShakedownError } from '../core/errors.js';
import { DEFAULT_THETA } from '../stats/surface.js';
import { checkSameJudging, integrityLines, loadRun } from './analyze.js';
import type { Flags, Io } from './options.js';
import { scenarioTitles, writeReport } from './report.js';
import { createRunDir, lockRunDir, readFinished, readManifest, runFiles, writeFileAtomic, writeJson } from './rundir.js';

interface Manifest {
  readonly configHash?: string;
  readonly shard?: string;
  readonly episodes?: number;
  readonly [key: string]: unknown;
}

export async function mergeCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  if (dirs.length < 1 || !flags.out) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to merge: give the run directories and `--out DIR`, e.g. `shakedown merge runs/shard-1 runs/shard-2 --out runs/merged`.');
  const manifests = dirs.map((dir): Manifest => readManifest(dir, 'merge') as unknown as Manifest);
  const hashes = new Set(manifests.map((m) => m.configHash));
  if (hashes.size !== 1) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: the runs were made with different configurations (${dirs.map((d, i) => `${d}: ${manifests[i]?.configHash ?? 'no hash'}`).join(', ')}). Merge only shards of one sweep.`);
  }
  for (const d of dirs.slice(1)) checkSameJudging(dirs[0] as string, d, flags.force, 'merge', (l) => io.err(l));
  // The shard set must be a whole partition: every part of 1..n, once each.
  const parts = manifests.map((m) => (typeof m.shard === 'string' ? /^(\d+)\/(\d+)$/.exec(m.shard) : null));
  const counts = new Set(parts.map((p) => p?.[2] ?? null));
  if (counts.size > 1) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: the runs are parts of different partitions (${dirs.map((d, i) => `${d}: shard ${manifests[i]?.shard ?? 'none'}`).join(', ')}). Merge the shards of one \`--shard I/N\` plan.`);
  const n = parts[0]?.[2] ? Number(parts[0][2]) : undefined;
  const have = new Set(parts.map((p) => (p ? Number(p[1]) : 0)));
  const missingShards = n === undefined ? [] : Array.from({ length: n }, (_, i) => i + 1).filter((i) => !have.has(i));
  if (n !== undefined && have.size < parts.length) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: a shard is given twice (${dirs.map((d, i) => `${d}: ${manifests[i]?.shard}`).join(', ')}). Give each part once.`);
  const incompleteParts = dirs.filter((_, i) => (manifests[i] as { complete?: boolean }).complete !== true);
  createRunDir(flags.out);
  const lock = lockRunDir(flags.out, `shakedown merge ${dirs.join(' ')}`, (line) => io.err(line));
  try {
    return await mergeInto(dirs, manifests, flags.out, io, missingShards, n, incompleteParts);
  } finally {
    lock.release();
  }
}

async function mergeInto(dirs: readonly string[], manifests: readonly Manifest[], outDir: string, io: Io, missingShards: readonly number[], n: number | undefined, incompleteParts: readonly string[]): Promise<number> {
  const out = runFiles(outDir);
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
  writeFileAtomic(out.episodes, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  const first = manifests[0] as Manifest;
  const { shard: _shard, complete: _complete, stopped: _stopped, ...base } = first;
  const planned = manifests.reduce((s, m) => s + (m.episodes ?? 0), 0);
  const gaps = [
    ...(missingShards.length > 0 ? [`shard${missingShards.length > 1 ? 's' : ''} ${missingShards.map((i) => `${i}/${n}`).join(', ')} missing`] : []),
    ...(incompleteParts.length > 0 ? [`${incompleteParts.join(', ')} did not finish`] : []),
    ...(lines.length < planned ? [`${planned - lines.length} planned episodes of the given runs missing`] : []),
  ];
  writeJson(out.manifest, { ...base, episodes: planned, complete: gaps.length === 0, ...(gaps.length > 0 ? { stopped: gaps.join('; ') } : {}), mergedFrom: dirs.map((d, i) => ({ dir: d, shard: manifests[i]?.shard ?? null })) });
  const run = await loadRun(outDir, DEFAULT_THETA);
  writeJson(out.grid, run.grid);
  writeReport(run.grid, basename(resolve(outDir)), join(outDir, 'report'), undefined, undefined, undefined, run.failing, await scenarioTitles(outDir, run.grid.world), integrityLines(run));
  io.out(`merged ${lines.length} episodes from ${dirs.length} run(s) into ${outDir}\n`);
  if (gaps.length > 0) io.err(`shakedown: the merged run is incomplete: ${gaps.join('; ')}. Run or resume the missing parts and merge again; \`gate\` refuses it until then.\n`);
  if (conflicts > 0) io.err(`shakedown: ${conflicts} episode(s) appear in more than one run with different outcomes; the first was kept\n`);
  return 0;
}
