// Merging run directories (shards of one sweep, or parts of one run) into one: the parts are checked to be
// one partition of one configuration, then the logs are concatenated, each key once, and the manifest
// says what the merged run holds and lacks.
import { readFileSync } from 'node:fs';
import { ShakedownError } from '../ground/errors.js';
import { keyString, type EpisodeKey } from '../ground/record.js';
import { readFinished, readManifest, runFiles, writeFileAtomic, writeJson } from './rundir.js';

interface Manifest {
  readonly configHash?: string;
  readonly shard?: string;
  readonly episodes?: number;
  readonly complete?: boolean;
  readonly [key: string]: unknown;
}

/** The parts to merge, read and checked: one configuration, each shard of one `--shard I/N` plan once. */
export interface MergePlan {
  readonly dirs: readonly string[];
  readonly manifests: readonly Manifest[];
  /** Shards of the plan that no part holds. */
  readonly missingShards: readonly number[];
  /** N of the parts' `--shard I/N`, when they are shards. */
  readonly shardCount?: number;
  /** Parts whose sweep did not finish. */
  readonly incompleteParts: readonly string[];
}

/** Reads the parts' manifests and refuses parts that are not one partition of one sweep. */
export function planMerge(dirs: readonly string[]): MergePlan {
  const manifests = dirs.map((dir): Manifest => readManifest(dir, 'merge') as unknown as Manifest);
  const hashes = new Set(manifests.map((m) => m.configHash));
  if (hashes.size !== 1) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: the runs were made with different configurations (${dirs.map((d, i) => `${d}: ${manifests[i]?.configHash ?? 'no hash'}`).join(', ')}). Merge only shards of one sweep.`);
  }
  // The shard set must be a whole partition: every part of 1..n, once each.
  const parts = manifests.map((m) => (typeof m.shard === 'string' ? /^(\d+)\/(\d+)$/.exec(m.shard) : null));
  const counts = new Set(parts.map((p) => p?.[2] ?? null));
  if (counts.size > 1) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: the runs are parts of different partitions (${dirs.map((d, i) => `${d}: shard ${manifests[i]?.shard ?? 'none'}`).join(', ')}). Merge the shards of one \`--shard I/N\` plan.`);
  const n = parts[0]?.[2] ? Number(parts[0][2]) : undefined;
  const have = new Set(parts.map((p) => (p ? Number(p[1]) : 0)));
  const missingShards = n === undefined ? [] : Array.from({ length: n }, (_, i) => i + 1).filter((i) => !have.has(i));
  if (n !== undefined && have.size < parts.length) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: a shard is given twice (${dirs.map((d, i) => `${d}: ${manifests[i]?.shard}`).join(', ')}). Give each part once.`);
  const incompleteParts = dirs.filter((_, i) => manifests[i]?.complete !== true);
  return { dirs, manifests, missingShards, ...(n !== undefined ? { shardCount: n } : {}), incompleteParts };
}

/** What a merge wrote: the episodes, what the merged run lacks, and keys logged by two parts with different outcomes. */
export interface MergeResult {
  readonly episodes: number;
  readonly gaps: readonly string[];
  readonly conflicts: number;
}

/** Writes the merged log (each key once, the first part's record) and manifest into `outDir`. */
export function mergeLogs(plan: MergePlan, outDir: string): MergeResult {
  const out = runFiles(outDir);
  const seen = new Map<string, boolean>();
  const lines: string[] = [];
  let conflicts = 0;
  for (const dir of plan.dirs) {
    const path = runFiles(dir).episodes;
    const { keys, outcomes } = readFinished(path);
    if (keys.size === 0) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let key: string;
      try {
        key = keyString((JSON.parse(line) as { key: EpisodeKey }).key);
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
  const { shard: _shard, complete: _complete, stopped: _stopped, ...base } = plan.manifests[0] as Manifest;
  const planned = plan.manifests.reduce((s, m) => s + (m.episodes ?? 0), 0);
  const { missingShards, shardCount: n, incompleteParts } = plan;
  const gaps = [
    ...(missingShards.length > 0 ? [`shard${missingShards.length > 1 ? 's' : ''} ${missingShards.map((i) => `${i}/${n}`).join(', ')} missing`] : []),
    ...(incompleteParts.length > 0 ? [`${incompleteParts.join(', ')} did not finish`] : []),
    ...(lines.length < planned ? [`${planned - lines.length} planned episodes of the given runs missing`] : []),
  ];
  writeJson(out.manifest, { ...base, episodes: planned, complete: gaps.length === 0, ...(gaps.length > 0 ? { stopped: gaps.join('; ') } : {}), mergedFrom: plan.dirs.map((d, i) => ({ dir: d, shard: plan.manifests[i]?.shard ?? null })) });
  return { episodes: lines.length, gaps, conflicts };
}
