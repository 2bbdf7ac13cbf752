// Merging run directories (shards of one sweep, or parts of one run) into one: the parts are checked to be
// one partition of one configuration, then their logs are streamed into one, each key once, every record
// verified under its part's key and signed again under the merged run's, and the manifest says what the
// merged run holds and lacks. A merge that is stopped or killed can be run again to the same directory.
import { closeSync, constants, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hostname } from 'node:os';
import { ShakedownError } from '../ground/errors.js';
import { keyString } from '../ground/record.js';
import { readLastLineBytes } from './log-lines.js';
import { isRunKey, LineSigner, newRunKey, unsigned } from './mac.js';
import { logChecks } from './read.js';
import { readManifest, runFiles, writeJson, type RunManifest } from './rundir.js';

type Manifest = RunManifest & { readonly configHash?: string; readonly [key: string]: unknown };

/**
 * The file a merge writes into its directory before anything else and deletes once run.json is written:
 * while it is there, the directory holds a merge that did not finish, which readers call incomplete and
 * the same merge, run again, redoes.
 */
export const MERGE_MARKER = '.merging';

/** Whether a merge into `dir` began and did not finish. */
export const mergeUnfinished = (dir: string): boolean => existsSync(join(dir, MERGE_MARKER));

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
  const manifests = dirs.map((dir): Manifest => readManifest(dir, 'merge') as Manifest);
  const hashes = new Set(manifests.map((m) => m.configHash));
  if (hashes.size !== 1) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: the runs were made with different configurations (${dirs.map((d, i) => `${d}: ${manifests[i]?.configHash ?? 'no hash'}`).join(', ')}). Merge only shards of one sweep.`);
  }
  // The shard set must be a whole partition: every part of 1..n, once each.
  const parts = manifests.map((m) => (typeof m.shard === 'string' ? /^(\d+)\/(\d+)$/.exec(m.shard.trim()) : null));
  const counts = new Set(parts.map((p) => p?.[2] ?? null));
  if (counts.size > 1) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: the runs are parts of different partitions (${dirs.map((d, i) => `${d}: shard ${manifests[i]?.shard ?? 'none'}`).join(', ')}). Merge the shards of one \`--shard I/N\` plan.`);
  const n = parts[0]?.[2] ? Number(parts[0][2]) : undefined;
  const have = new Set(parts.map((p) => (p ? Number(p[1]) : 0)));
  const missingShards = n === undefined ? [] : Array.from({ length: n }, (_, i) => i + 1).filter((i) => !have.has(i));
  if (n !== undefined && have.size < parts.length) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge: a shard is given twice (${dirs.map((d, i) => `${d}: ${manifests[i]?.shard}`).join(', ')}). Give each part once.`);
  const incompleteParts = dirs.filter((_, i) => manifests[i]?.complete !== true);
  return { dirs, manifests, missingShards, ...(n !== undefined ? { shardCount: n } : {}), incompleteParts };
}

/** What the marker says of the merge that wrote it. */
interface MarkerContent {
  readonly parts: readonly string[];
  readonly configHash: string | null;
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

/**
 * Makes `outDir` ready for the merge (the caller holds its lock), or refuses it: an `--out` that is one of
 * the parts, or that holds another run (a sweep's, a merge of another configuration, a log no merge
 * wrote). A merge that did not finish there (its marker), or a finished merge of the same configuration,
 * is done again: the merge writes only its own files (episodes.jsonl, run.json, grid.json, report/) and
 * deletes no directory. Returns what it found, for the caller to say: `fresh`, `again` or `replace`.
 */
export function prepareMergeOut(plan: MergePlan, outDir: string): 'fresh' | 'again' | 'replace' {
  const hash = plan.manifests[0]?.configHash ?? null;
  if (plan.dirs.some((d) => resolve(d) === resolve(outDir))) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to merge: \`--out ${outDir}\` is one of the runs to merge. Write the merged run to a directory of its own.`);
  const marker = join(outDir, MERGE_MARKER);
  const files = runFiles(outDir);
  let found: 'fresh' | 'again' | 'replace' = 'fresh';
  if (existsSync(marker)) {
    let before: Partial<MarkerContent> = {};
    try {
      before = JSON.parse(readFileSync(marker, 'utf8')) as Partial<MarkerContent>;
    } catch {
      // A marker torn as it was written: its merge wrote nothing else yet.
    }
    if (before.configHash !== undefined && before.configHash !== hash) {
      throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge into ${outDir}: it holds a merge of runs of another configuration that did not finish (of ${(before.parts ?? []).join(', ') || 'unknown runs'}). Merge those runs again to finish it, or choose another \`--out\`.`);
    }
    found = 'again';
  } else if (existsSync(files.manifest)) {
    const there = readManifest(outDir, `merge into ${outDir}`) as Manifest;
    if (!there.mergedFrom || there.configHash !== hash) {
      throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge into ${outDir}: it holds another run (${there.mergedFrom ? 'a merge of another configuration' : 'a sweep, not a merge'}), which a merge does not replace. Choose another \`--out\`, or move that run away.`);
    }
    found = 'replace';
  } else if (existsSync(files.episodes)) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to merge into ${outDir}: it holds an episodes.jsonl without run.json, which no merge wrote. Choose another \`--out\`, or move that log away.`);
  }
  const content: MarkerContent = { parts: plan.dirs.map((d) => resolve(d)), configHash: hash, pid: process.pid, host: hostname(), startedAt: new Date().toISOString() }; // clock: for people reading the marker; no outcome depends on it
  writeJson(marker, content);
  return found;
}

/** What a merge wrote: the episodes, what the merged run lacks, keys logged by two parts with different outcomes, and what it left out. */
export interface MergeResult {
  readonly episodes: number;
  readonly gaps: readonly string[];
  readonly conflicts: number;
  /** Records of the parts left out (they do not verify, or lie outside their part's plan), in words per part. */
  readonly leftOut: readonly string[];
  /** Parts without a key, whose records could not be verified: the merged run is not signed either. */
  readonly unsignedParts: readonly string[];
}

/** Writes go out in pieces of about this many bytes. */
const FLUSH_BYTES = 1 << 20;

/**
 * Streams the merged log (each key once: the last record of the key in the first part that holds it)
 * into `outDir`, then its manifest, then deletes the marker. `signal` stops it between reads; what it
 * wrote stays beside the marker, for the same merge run again to redo.
 */
export async function mergeLogs(plan: MergePlan, outDir: string, signal?: AbortSignal): Promise<MergeResult> {
  const out = runFiles(outDir);
  const unsignedParts = plan.dirs.filter((_, i) => !isRunKey(plan.manifests[i]?.key));
  // Records no part could vouch for are not vouched for by the merge: with an unsigned part, the merged run is unsigned.
  const key = unsignedParts.length === 0 ? newRunKey() : undefined;
  const signer = key ? new LineSigner(key) : undefined;
  const seen = new Map<string, boolean>();
  const leftOut: string[] = [];
  let conflicts = 0;
  let episodes = 0;
  const partial = `${out.episodes}.merging`;
  const fd = openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o666);
  try {
    let pending = '';
    for (const [i, dir] of plan.dirs.entries()) {
      const path = runFiles(dir).episodes;
      if (!existsSync(path)) continue;
      const checks = logChecks(plan.manifests[i] as Manifest);
      await readLastLineBytes(
        path,
        (buf, start, end, lineNo) => {
          const counted = checks.check(buf, start, end, lineNo);
          if (!counted) return;
          const k = keyString(counted.fields.key);
          const pass = counted.fields.outcome === 'pass';
          if (seen.has(k)) {
            if (seen.get(k) !== pass) conflicts++;
            return;
          }
          seen.set(k, pass);
          pending += `${signer ? signer.resign(buf, start, end) : unsigned(buf, start, end)}\n`;
          episodes++;
          if (pending.length >= FLUSH_BYTES) {
            writeSync(fd, pending);
            pending = '';
          }
        },
        signal,
      );
      const p = checks.problems();
      if (p.unverified > 0) leftOut.push(`${p.unverified} record(s) of ${dir} do not verify (edited by hand or written by another program)`);
      if (p.outside > 0) leftOut.push(`${p.outside} record(s) of ${dir} lie outside its plan (${p.outsideLines[0]?.why ?? ''}${p.outside > 1 ? ', ...' : ''})`);
    }
    writeSync(fd, pending);
  } finally {
    closeSync(fd);
  }
  signal?.throwIfAborted();
  renameSync(partial, out.episodes);
  const { shard: _shard, complete: _complete, stopped: _stopped, key: _key, ...base } = plan.manifests[0] as Manifest;
  const planned = plan.manifests.reduce((s, m) => s + (m.episodes ?? 0), 0);
  const { missingShards, shardCount: n, incompleteParts } = plan;
  const gaps = [
    ...(missingShards.length > 0 ? [`shard${missingShards.length > 1 ? 's' : ''} ${missingShards.map((i) => `${i}/${n}`).join(', ')} missing`] : []),
    ...(incompleteParts.length > 0 ? [`${incompleteParts.join(', ')} did not finish`] : []),
    ...(episodes < planned ? [`${planned - episodes} planned episodes of the given runs missing`] : []),
  ];
  writeJson(out.manifest, { ...base, ...(key ? { key } : {}), episodes: planned, complete: gaps.length === 0, ...(gaps.length > 0 ? { stopped: gaps.join('; ') } : {}), mergedFrom: plan.dirs.map((d, i) => ({ dir: d, shard: plan.manifests[i]?.shard ?? null })) });
  rmSync(join(outDir, MERGE_MARKER), { force: true });
  return { episodes, gaps, conflicts, leftOut, unsignedParts };
}
