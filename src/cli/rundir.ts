import { appendFileSync, closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ShakedownError } from '../core/errors.js';
import type { EpisodeRecord } from '../core/episode.js';
import { keyString } from '../core/episode.js';
import { stableJson } from '../core/canonical.js';
import { hash53 } from '../core/seeds.js';

/**
 * A hash of everything in a config that decides what a run's episodes are and how they come out
 * (not how many run at once or how much budget a session has, nor which shard this process runs), stored in run.json: a run resumes or
 * merges only with the same hash.
 */
export function configHash(config: Readonly<Record<string, unknown>>): string {
  // Budgets, concurrency and workers decide how much runs and how fast, never how an episode comes out.
  const { concurrency: _c, workers: _w, workerMaxMemoryMb: _wm, maxEpisodes: _m, timeLimitS: _t, maxCostUsd: _u, ...rest } = config;
  return hash53(stableJson(rest)).toString(36);
}

/**
 * The episodes a run directory already holds: their keys and outcomes. A torn last line, as a killed
 * writer leaves, is cut off the file (when `repair`) so that new lines start clean.
 */
export function readFinished(path: string, repair = false): { keys: Set<string>; outcomes: Map<string, boolean>; torn: number } {
  const keys = new Set<string>();
  const outcomes = new Map<string, boolean>();
  if (!existsSync(path)) return { keys, outcomes, torn: 0 };
  const text = readFileSync(path, 'utf8');
  let torn = 0;
  let goodBytes = 0;
  let offset = 0;
  const size = Buffer.byteLength(text);
  for (const line of text.split('\n')) {
    const end = offset + Buffer.byteLength(line) + 1;
    const complete = end <= size;
    if (line.trim()) {
      try {
        if (!complete) throw new Error('no newline');
        const r = JSON.parse(line) as EpisodeRecord;
        keys.add(keyString(r.key));
        outcomes.set(keyString(r.key), r.outcome === 'pass');
        goodBytes = end;
      } catch {
        torn++;
      }
    } else if (complete) goodBytes = end;
    offset = end;
  }
  if (repair && torn > 0) {
    const fd = openSync(path, 'r+');
    try {
      ftruncateSync(fd, goodBytes);
    } finally {
      closeSync(fd);
    }
  }
  return { keys, outcomes, torn };
}

export const RUN_SCHEMA_VERSION = 1;

export const runFiles = (dir: string) => ({
  manifest: join(dir, 'run.json'),
  episodes: join(dir, 'episodes.jsonl'),
  grid: join(dir, 'grid.json'),
});

/** The default run directory, named after the wall-clock start (`runs/2026-11-30T09-00-00-000Z-suffix`). */
export const defaultRunDir = (suffix = ''): string => join('runs', `${new Date().toISOString().replace(/[:.]/g, '-')}${suffix}`); // clock: a directory name only; no outcome depends on it

/** Creates a run directory; refuses one that already holds episodes (unless resuming), so no finished episode is lost. */
export function createRunDir(dir: string, resume = false): void {
  const files = runFiles(dir);
  if (existsSync(files.episodes) && !resume) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to start the sweep: ${dir} already holds episodes.jsonl. Resume it with \`--resume\`, choose another \`--out\` directory, or move that run away.`);
  }
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to create the run directory ${dir}: ${(error as Error).message}. Choose a writable \`--out\`.`, { cause: error });
  }
}

export function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Appends one episode as a line, synchronously, so that a killed sweep keeps every finished episode. */
export function appendEpisode(path: string, record: EpisodeRecord & { readonly replay?: string }): void {
  appendFileSync(path, `${JSON.stringify(record)}\n`);
}

/** The current git commit of the working directory, or null outside a checkout. */
export function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
