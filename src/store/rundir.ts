import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ShakedownError } from '../ground/errors.js';
import { packagePath } from '../ground/package-root.js';
import type { EpisodeRecord } from '../ground/record.js';
import { stableJson } from '../ground/canonical.js';
import { hash53 } from '../ground/seeds.js';
import { agentLimitsSchema } from '../ground/config.js';
import { isRunKey, type LineSigner } from './mac.js';
import { gridFirst } from './record-walk.js';
import { checkOutDir, refuseLinks } from './out-dir.js';

const DEFAULT_LIMITS = agentLimitsSchema.parse({});

/**
 * A hash of everything in a config that decides what a run's episodes are and how they come out
 * (not how many run at once or how much budget a session has, nor which shard this process runs), stored in run.json: a run resumes or
 * merges only with the same hash.
 */
export function configHash(config: Readonly<Record<string, unknown>>): string {
  // Budgets, concurrency, workers and the LLM cache decide how much runs, how fast and what it costs, never how an episode comes out.
  const { concurrency: _c, workers: _w, workerMaxMemoryMb: _wm, maxEpisodes: _m, timeLimitS: _t, maxCostUsd: _u, llmCache: _l, ...rest } = config;
  // Keys added since runs were first hashed leave the hash alone at their defaults, so that older runs still resume.
  // The environment agents get decides nothing about outcomes the config can see (as an API key); the limits do when they differ from the defaults.
  const { tasks, llm, anthropic, env: _env, sandbox: _sandbox, limits, ...kept } = rest as Record<string, unknown> & { tasks?: unknown; llm?: Record<string, unknown>; anthropic?: Record<string, unknown>; env?: unknown; sandbox?: unknown; limits?: Record<string, unknown> };
  const withoutTools = (section: Record<string, unknown> | undefined) => {
    if (!section || section.tools !== 'http') return section;
    const { tools: _tools, ...other } = section;
    return other;
  };
  const changedLimits = limits ? Object.fromEntries(Object.entries(limits).filter(([k, v]) => (DEFAULT_LIMITS as Record<string, unknown>)[k] !== v)) : {};
  const hashed = { ...kept, ...(Object.keys(changedLimits).length > 0 ? { limits: changedLimits } : {}), ...(tasks !== undefined && tasks !== 'hand' ? { tasks } : {}), ...(llm ? { llm: withoutTools(llm) } : {}), ...(anthropic ? { anthropic: withoutTools(anthropic) } : {}) };
  return hash53(stableJson(hashed)).toString(36);
}

export const RUN_SCHEMA_VERSION = 1;

export const runFiles = (dir: string) => ({
  manifest: join(dir, 'run.json'),
  episodes: join(dir, 'episodes.jsonl'),
  grid: join(dir, 'grid.json'),
});

/** The default run directory, named after the wall-clock start (`runs/2026-11-30T09-00-00-000Z-suffix`). */
export const defaultRunDir = (suffix = ''): string => join('runs', `${new Date().toISOString().replace(/[:.]/g, '-')}${suffix}`); // clock: a directory name only; no outcome depends on it

/**
 * Creates a run directory for `doing` (completing "Failed to ..."); refuses an `--out` that is no
 * directory of its own, a directory, run.json or episodes.jsonl that is a symbolic link, and (unless
 * `existing` says what to do with one) a directory that already holds episodes, so no finished episode is
 * lost. `existing` is `resume` for a sweep's `--resume`, `merge` for a merge (which checks what it finds itself).
 */
export function createRunDir(dir: string, doing = 'start the sweep', existing?: 'resume' | 'merge'): void {
  checkOutDir(dir, doing);
  refuseLinks(dir, doing);
  const files = runFiles(dir);
  if (existsSync(files.episodes) && existing === undefined) {
    const what = doing === 'start the sweep' ? 'Resume it with `--resume`, choose' : 'Choose';
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to ${doing}: ${dir} already holds episodes.jsonl. ${what} another \`--out\` directory, or move that run away.`);
  }
  try {
    makeDirs(dir);
  } catch (error) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to create the run directory ${dir}: ${(error as Error).message}. Choose a writable \`--out\`.`, { cause: error });
  }
}

/**
 * `mkdir -p`, one level at a time. Node's recursive mkdirSync never returns under some special file
 * systems (`/proc/x` spins forever); creating each missing level in turn fails there at once instead.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  let at = resolvePath(dir);
  while (!existsSync(at)) {
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const d of missing) mkdirSync(d);
}

/** Writes a file whole or not at all: a temporary file beside it, then a rename, so no kill leaves it torn. */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

export function writeJson(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** What run.json holds, as far as the commands that read a run need it. */
export interface RunManifest {
  readonly schemaVersion?: number;
  readonly config: Record<string, unknown> & { readonly world?: string; readonly profile: string; readonly fixedTrials: boolean; readonly eps: number[]; readonly lambda: number[]; readonly trials: number; readonly adaptiveFirstTrials?: number; readonly agents?: string[] };
  readonly configHash?: string;
  readonly shard?: string;
  readonly world: string;
  readonly seed: string;
  readonly agents: readonly { readonly id: string; readonly description?: string }[];
  /** Episodes the run (or its shard) plans; for an adaptive run, the most it may run. */
  readonly episodes?: number;
  /** Whether the sweep ran every planned episode; false (with why) when it stopped early; absent while it runs or if it was killed. */
  readonly complete?: boolean;
  readonly stopped?: string;
  readonly mergedFrom?: readonly { readonly dir: string; readonly shard: string | null }[];
  /** The tasks' titles by id (absent in runs written before they were kept). */
  readonly titles?: Readonly<Record<string, string>>;
  /** The grid the sweep planned; `scenarios` lists the tasks (absent in runs written before they were kept). */
  readonly grid?: { readonly scenarios?: readonly string[] };
  /** The run's key (hex), under which every record line is signed (mac.ts); absent in runs written before records were signed. */
  readonly key?: string;
}

/**
 * Reads a run's run.json, or says exactly what is wrong with it: missing, torn (a sweep killed while
 * writing it, before writes were atomic) or not a Shakedown manifest.
 */
export function readManifest(dir: string, doing: string): RunManifest {
  const path = join(dir, 'run.json');
  if (!existsSync(path)) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to ${doing}: ${dir} has no run.json. Give the directory a sweep wrote (its \`--out\`).`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to ${doing}: ${path} is not valid JSON (${(error as Error).message}); it may have been cut short when a sweep was killed. Start the sweep again with the same options and \`--resume --force\` to rewrite it (finished episodes are kept), or restore it from a copy.`, { cause: error });
  }
  const m = parsed as Partial<RunManifest> | null;
  const c = m?.config as Partial<RunManifest['config']> | undefined;
  const problems = [
    typeof m !== 'object' || m === null ? 'it is not an object' : '',
    typeof m?.seed !== 'string' ? '`seed` is missing' : '',
    typeof m?.world !== 'string' ? '`world` is missing' : '',
    !Array.isArray(m?.agents) ? '`agents` is missing' : '',
    !c || !Array.isArray(c.eps) || !Array.isArray(c.lambda) || c.trials === undefined || typeof c.profile !== 'string' ? '`config` lacks eps, lambda, trials or profile' : '',
    ...planProblems(m),
  ].filter(Boolean);
  if (problems.length > 0) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to ${doing}: ${path} is not a Shakedown run manifest (${problems.join('; ')}). Give the directory a sweep wrote, or start the sweep again with \`--resume --force\` to rewrite it.`);
  return m as RunManifest;
}

/** A value read from run.json as a message shows it: JSON, cut short, so that no markup or control character comes through raw. */
const shown = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/**
 * What is wrong with the plan a manifest states: every value a reader counts or draws with must be of its
 * type (a number in [0, 1] for ε and λ, a whole number of trials, strings for ids), never text in a
 * number's place, so that no value from a hand-edited run.json reaches a report as anything but what it is.
 */
function planProblems(m: Partial<RunManifest> | null): string[] {
  const c = m?.config as Partial<RunManifest['config']> | undefined;
  if (!c || !Array.isArray(c.eps) || !Array.isArray(c.lambda) || c.trials === undefined) return [];
  const grid = m?.grid as { scenarios?: unknown } | undefined;
  const unit = (name: string, list: readonly unknown[]) => {
    const bad = list.find((v) => typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1);
    return list.length === 0 ? `\`config.${name}\` is empty` : bad !== undefined ? `\`config.${name}\` holds ${shown(bad)}, not a number in [0, 1]` : '';
  };
  return [
    unit('eps', c.eps),
    unit('lambda', c.lambda),
    !Number.isInteger(c.trials) || (c.trials as number) < 1 ? `\`config.trials\` is ${shown(c.trials)}, not a whole number of at least 1` : '',
    c.adaptiveFirstTrials !== undefined && (!Number.isInteger(c.adaptiveFirstTrials) || c.adaptiveFirstTrials < 1) ? `\`config.adaptiveFirstTrials\` is ${shown(c.adaptiveFirstTrials)}, not a whole number of at least 1` : '',
    Array.isArray(m?.agents) && m.agents.some((a) => typeof a?.id !== 'string') ? '`agents` holds an entry without a string `id`' : '',
    grid?.scenarios !== undefined && (!Array.isArray(grid.scenarios) || grid.scenarios.some((s) => typeof s !== 'string')) ? '`grid.scenarios` is not a list of task ids' : '',
    m?.shard !== undefined && (typeof m.shard !== 'string' || !/^\s*\d+\/\d+\s*$/.test(m.shard)) ? `\`shard\` is ${shown(m.shard)}, not I/N` : '',
    m?.key !== undefined && !isRunKey(m.key) ? '`key` is not 64 hex digits' : '',
    m?.episodes !== undefined && (!Number.isInteger(m.episodes) || (m.episodes as number) < 0) ? `\`episodes\` is ${shown(m.episodes)}, not a count` : '',
  ];
}

/** A run directory held by one writer: `release()` gives it up (also done when the process exits). */
export interface RunLock {
  release(): void;
}

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
  readonly command: string;
  /** When the writer's process started (ms since the epoch): a restarted container reuses its pid and host, not this. */
  readonly processStart?: number;
}

/** When this process started, to tell it from an earlier process with the same pid; no outcome depends on it. */
const processStart = Math.round(Date.now() - process.uptime() * 1000); // clock: this process's start, for its lock

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes the run directory for this process: `.lock` holds the writer's pid, host, start and command.
 * A second writer is refused with who holds it; a lock whose process is gone (same host) is stale, named
 * on stderr through `warn`, and taken over.
 */
export function lockRunDir(dir: string, command: string, warn: (line: string) => void): RunLock {
  const path = join(dir, '.lock');
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command, processStart }; // clock: who holds the lock since when, for people; no outcome depends on it
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to lock the run directory ${dir}: ${(error as Error).message}. Choose a writable \`--out\`.`, { cause: error });
      let owner: Partial<LockOwner> = {};
      try {
        owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
      } catch {
        // A lock torn as it was written: its writer died at once; treat it as stale.
      }
      const sameHost = owner.host === undefined || owner.host === hostname();
      // A pod restarted by its Job comes back with the same host name and, in a fresh container, the same
      // pid: a lock of this pid written by a process that started at another time is an earlier one's.
      const earlierSelf = sameHost && owner.pid === process.pid && typeof owner.processStart === 'number' && Math.abs(owner.processStart - processStart) > 1000;
      if (sameHost && (typeof owner.pid !== 'number' || !alive(owner.pid) || earlierSelf)) {
        warn(`shakedown: ${dir} was locked by ${owner.pid === undefined ? 'a writer' : `pid ${owner.pid}`}${owner.startedAt ? ` since ${owner.startedAt}` : ''}, which is gone: taking the stale lock over
`);
        rmSync(path, { force: true });
        continue;
      }
      throw new ShakedownError(
        'SHAKEDOWN_RUN_DIR',
        `Failed to write to ${dir}: another Shakedown process writes to it (pid ${owner.pid ?? '?'} on ${owner.host ?? '?'}, since ${owner.startedAt ?? '?'}: ${owner.command ?? '?'}). Wait for it to finish, or use another \`--out\`. If that process is gone${sameHost ? '' : ` (it ran on another host, ${owner.host}, so this one cannot tell)`}, delete ${path}.`,
      );
    }
    writeSync(fd, `${JSON.stringify(me)}\n`);
    closeSync(fd);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      process.off('exit', release);
      try {
        const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
        if (owner.pid === process.pid) unlinkSync(path);
      } catch {
        // Gone already.
      }
    };
    process.on('exit', release);
    return { release };
  }
  throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to lock the run directory ${dir}: another writer took it at the same moment. Try again, or use another \`--out\`.`);
}

/** Appending to the log, never through a symbolic link (where the platform knows O_NOFOLLOW). */
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/** Opens the log at `path` for appending; a link in the log's place is refused. */
function openLog(path: string): number {
  try {
    return openSync(path, APPEND, 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to append to ${path}: it is a symbolic link; a run's log is written only in place. Replace the link with a copy of what it points to, or choose another \`--out\`.`, { cause: error });
    throw error;
  }
}

/** Appends `text` to the log at `path`, synchronously; a link in the log's place is refused. */
function appendToLog(path: string, text: string): void {
  const fd = openLog(path);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/**
 * An episode as its log line: JSON laid out with the members the grid reads first and its tally (`gridFirst`), signed with the
 * run's key when it has one; a `mac` or a `tally` it carries from another log dropped (the tally is made again).
 */
function episodeLine(record: EpisodeRecord & { readonly replay?: string }, signer: LineSigner | undefined): string {
  const { mac: _mac, tally: _tally, ...rest } = record as EpisodeRecord & { mac?: unknown; tally?: unknown };
  const json = JSON.stringify(gridFirst(rest as EpisodeRecord));
  return `${signer ? signer.sign(json) : json}\n`;
}

/**
 * The log held open for a sweep's episodes: each is written as it ends, synchronously, as `appendEpisode`
 * writes it, without opening the file for every line. `close()` when the sweep is over.
 */
export interface EpisodeLog {
  append(record: EpisodeRecord & { readonly replay?: string }): void;
  close(): void;
}

export function openEpisodeLog(path: string, signer: LineSigner | undefined): EpisodeLog {
  let fd: number | undefined = openLog(path);
  return {
    append(record) {
      if (fd === undefined) throw new Error(`the episode log ${path} is closed`);
      writeSync(fd, episodeLine(record, signer));
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/**
 * Appends one episode as a line, synchronously, so that a killed sweep keeps every finished episode;
 * signed with the run's key when it has one (mac.ts). A `mac` the record carries from another log is dropped.
 */
export function appendEpisode(path: string, record: EpisodeRecord & { readonly replay?: string }, signer: LineSigner | undefined): void {
  appendToLog(path, episodeLine(record, signer));
}

/**
 * Ends the log with a newline when it ends in a torn line (a writer killed mid-line), so that the next
 * record starts a line of its own. The torn line is kept: the readers count it unreadable, by its number.
 */
export function endLogLine(path: string): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  let last = 10;
  try {
    const size = fstatSync(fd).size;
    if (size > 0) {
      const byte = Buffer.alloc(1);
      readSync(fd, byte, 0, 1, size - 1);
      last = byte[0] as number;
    }
  } finally {
    closeSync(fd);
  }
  if (last !== 10) appendToLog(path, '\n');
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
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** Where a run's LLM cache lives: `off` none, `run` inside the run directory, anything else a shared directory. */
export const llmCacheDir = (setting: string, runDir: string): string | undefined => (setting === 'off' ? undefined : setting === 'run' ? join(runDir, 'llm-cache') : resolvePath(setting));
