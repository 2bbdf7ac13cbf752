// A run read from its directory for the commands and reports: its grid, recomputed from the log (the
// run's truth), the failing episodes to drill into, and what a reader must know before its figures.
import { versionMismatch } from '../judge/version.js';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseRecord, readLastLineBytes } from '../store/log-lines.js';
import { type AggregationFields } from '../store/record-walk.js';
import { mergeUnfinished } from '../store/merge.js';
import { ResampleBank } from '../stats/bootstrap.js';
import { ShakedownError } from '../ground/errors.js';
import { type EpisodeRecord } from '../ground/record.js';
import { EpisodeOutcomes } from '../ground/outcomes.js';
import { Tally, type EpisodeFacts } from '../stats/stats.js';
import { buildGrid, type Grid } from './grid.js';
import { releaseRoles } from './roles.js';
import { episodeView, type EpisodeView } from './html.js';
import { readManifest, type RunManifest } from '../store/rundir.js';
import { isRunKey } from '../store/mac.js';
import { checkMacsOffThread, OFF_THREAD_BYTES } from '../store/mac-check.js';
import { completenessOf, logChecks, type Completeness, type LogProblems } from '../store/read.js';

export interface LoadedRun {
  readonly dir: string;
  readonly grid: Grid;
  /** Pass or not per episode key (`keyString`), read as a map. */
  readonly outcomes: EpisodeOutcomes;
  /** Failing episodes to drill into, at most `FAILING_PER_CELL` per agent and cell. */
  readonly failing: EpisodeView[];
  /** Keys of every episode that did not pass, in log order. */
  readonly failingKeys: EpisodeRecord['key'][];
  /** Lines that could not be read (a torn last line, as a killed writer leaves). */
  readonly torn: number;
  /** Line numbers (1-based) of the unreadable lines, the first few. */
  readonly tornLines: readonly number[];
  /** Records of a key logged before its last record (two writers, or a rerun): the last complete one counts. */
  readonly duplicates: number;
  /** Whether the log holds every episode the run planned, from run.json and the log. */
  readonly completeness: Completeness;
  /** Records left out of the grid because they do not verify or lie outside the run's plan, and whether the run could be checked at all. */
  readonly problems: LogProblems;
}

/**
 * Refuses to read two runs together when they were judged or simulated differently (their verdicts mean
 * different things), unless `force`; `doing` completes "Failed to ...".
 */
export function checkSameJudging(dirA: string, dirB: string, force: boolean | undefined, doing: string, warn: (line: string) => void): void {
  const [a, b] = [readManifest(dirA, doing), readManifest(dirB, doing)] as { judge?: { version?: string }; simulator?: { version?: string } }[];
  const why = versionMismatch(a ?? {}, b ?? {});
  if (!why) return;
  if (!force) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to ${doing}: ${dirA} and ${dirB} were ${why}, so their verdicts are not comparable. Rejudge the older run with the current judge (\`shakedown rejudge RUN\`), or add \`--force\` to read them together knowingly.`);
  warn(`shakedown: ${dirA} and ${dirB} were ${why}; read together because of --force\n`);
}

/** How many failing episodes of one agent and cell a report keeps for drill-down. */
export const FAILING_PER_CELL = 25;

/** What the tally counts of one record's aggregation fields (built plainly: this runs once per record of a million). */
function factsOf(f: AggregationFields): EpisodeFacts {
  const faults = new Array<string>(f.faults.length);
  for (let i = 0; i < faults.length; i++) faults[i] = (f.faults[i] as EpisodeRecord['faults'][number]).kind;
  const facts: { -readonly [K in keyof EpisodeFacts]: EpisodeFacts[K] } = { faults, families: f.families, confused: f.confused, calls: f.calls, fired: f.faults };
  if (f.failure) facts.failure = f.failure;
  if (f.usage) facts.usage = f.costUsd !== undefined ? { ...f.usage, costUsd: f.costUsd } : f.usage;
  if (f.userUsage) facts.userUsage = f.userCostUsd !== undefined ? { ...f.userUsage, costUsd: f.userCostUsd } : f.userUsage;
  if (f.stateKey !== undefined) facts.stateKey = f.stateKey;
  if (f.pathKey !== undefined) facts.pathKey = f.pathKey;
  if (f.turns !== undefined) facts.turns = f.turns;
  if (f.simulatedMs !== undefined) facts.simulatedMs = f.simulatedMs;
  return facts;
}

/** How `loadRun` reads. */
export interface LoadOptions {
  /** Stops the read (SIGINT, SIGTERM). */
  readonly signal?: AbortSignal;
  /** Logs at least this large have their MACs checked on a worker thread (store/mac-check.ts). @default OFF_THREAD_BYTES */
  readonly offThreadBytes?: number;
}

/**
 * Reads a run directory: its manifest and its episode log, streamed. Each key's last line counts when it
 * is a record, lies in the run's plan and verifies under the run's key (store/read.ts); the others are
 * left out of the grid and counted, for `integrityLines` to name. A large log's MACs are checked on a
 * worker thread while this one aggregates; should a line it counted fail there, the log is read again
 * with every line checked here.
 */
export async function loadRun(dir: string, theta: number, options: LoadOptions = {}): Promise<LoadedRun> {
  const logPath = join(dir, 'episodes.jsonl');
  const manifest = readManifest(dir, `read run \`${dir}\``);
  if (!existsSync(logPath)) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to read run \`${dir}\`: it has run.json but no episodes.jsonl. Give the directory a sweep wrote, or run the sweep.`);
  const offThread = isRunKey(manifest.key) && statSync(logPath).size >= (options.offThreadBytes ?? OFF_THREAD_BYTES);
  const macs = offThread ? checkMacsOffThread(logPath, manifest.key as string, options.signal) : undefined;
  // A failed thread is not a failed check: the log is then read again with the MACs checked here.
  const failing = macs?.catch(() => undefined);
  const first = await aggregate(dir, manifest, theta, macs !== undefined, options.signal);
  if (!failing) return first;
  const answer = await failing;
  return answer && !first.checks.countedAny(answer) ? first : aggregate(dir, manifest, theta, false, options.signal);
}

/** One read of the log into the grid; `deferMacs` counts records unchecked, for a thread that checks their MACs. */
async function aggregate(dir: string, manifest: RunManifest, theta: number, deferMacs: boolean, signal: AbortSignal | undefined): Promise<LoadedRun & { checks: ReturnType<typeof logChecks> }> {
  const logPath = join(dir, 'episodes.jsonl');
  const tally = new Tally();
  const outcomes = new EpisodeOutcomes();
  const failing: EpisodeView[] = [];
  const failingKeys: EpisodeRecord['key'][] = [];
  const perCell = new Map<string, number>();
  const checks = logChecks(manifest, { deferMacs });
  const firstTrials = checks.plan.firstTrials;
  let firstRoundFound = 0;
  let sameKey = 0;
  // Each record's line is read for the grid's fields alone (record-walk.ts); a failing episode kept for
  // drill-down, and any line that walk does not read, is parsed whole.
  const { duplicates } = await readLastLineBytes(
    logPath,
    (buf, start, end, lineNo) => {
      const counted = checks.check(buf, start, end, lineNo);
      if (!counted) return;
      const f = counted.fields;
      // One episode written as two keys (its fields in another order): counted once, as a duplicate.
      if (!outcomes.add(f.key, f.outcome === 'pass')) return void sameKey++;
      tally.add(f.key, f.outcome, factsOf(f));
      if (firstTrials !== undefined && f.key.trial < firstTrials) firstRoundFound++;
      if (f.outcome !== 'pass') {
        failingKeys.push(f.key);
        const cell = `${f.key.agent}|${f.key.eps}|${f.key.lambda}`;
        const n = perCell.get(cell) ?? 0;
        // A line read from its grid's members alone that does not parse whole does not verify either: the MAC check reads the log
        // again, and it is left out then.
        if (n < FAILING_PER_CELL) {
          const record = counted.record ?? parseRecord(buf.toString('utf8', start, end));
          if (record) failing.push(episodeView(record));
        }
        perCell.set(cell, n + 1);
      }
    },
    signal,
  );
  const problems = checks.problems();
  const c = manifest.config;
  const grid = buildGrid({ world: manifest.world, seed: manifest.seed, profile: c.profile, fixedTrials: c.fixedTrials, eps: c.eps, lambda: c.lambda, trials: c.trials, ...(c.adaptiveFirstTrials !== undefined ? { adaptiveFirstTrials: c.adaptiveFirstTrials } : {}), agents: manifest.agents.map((a) => a.id), ...rolesOf(manifest) }, tally, new ResampleBank(manifest.seed), theta);
  const completeness = completenessOf(manifest, outcomes.size, { plan: checks.plan, firstRoundFound, unfinishedMerge: mergeUnfinished(dir) });
  return { dir, grid, outcomes, failing, failingKeys, torn: problems.torn, tornLines: problems.tornLines, duplicates: duplicates + sameKey, completeness, problems, checks };
}

/** The run's candidates and its baseline agent, as grid.json keeps them. */
function rolesOf(manifest: RunManifest): { candidates: readonly string[]; baselineAgent?: string } {
  const c = manifest.config as { candidates?: string[]; baselineAgent?: string };
  const roles = releaseRoles(manifest.agents.map((a) => a.id), manifest.config.agents ?? [], c);
  return { candidates: roles.candidates, ...(roles.baselineAgent !== undefined ? { baselineAgent: roles.baselineAgent } : {}) };
}

const lineList = (first: readonly number[], count: number) => `line${count > 1 ? 's' : ''} ${first.join(', ')}${count > first.length ? ', ...' : ''}`;

/**
 * What a reader of a run must know before its figures: incomplete, records logged twice, unreadable lines,
 * records that do not verify or lie outside the plan, and a run whose records cannot be verified at all.
 */
export function integrityLines(run: LoadedRun): string[] {
  const lines: string[] = [];
  const log = `${run.dir}/episodes.jsonl`;
  const p = run.problems;
  if (!run.completeness.complete) lines.push(`shakedown: ${run.dir} is an incomplete run: ${run.completeness.reason}; its figures cover only what ran. Finish it with \`shakedown sweep --resume --out ${run.dir}\`${/merge/.test(run.completeness.reason ?? '') ? ' (a merge: run the same merge again)' : ''}.`);
  if (run.duplicates > 0) lines.push(`shakedown: ${log} logs ${run.duplicates} episode(s) more than once; the last record of each counts.`);
  if (run.torn > 0) lines.push(`shakedown: ${log} has ${run.torn} unreadable line(s) (${lineList(run.tornLines, run.torn)}), left out.`);
  if (p.unverified > 0) lines.push(`shakedown: ${log}: ${p.unverified} record(s) do not verify (edited by hand or written by another program): ${lineList(p.unverifiedLines, p.unverified)}, left out of the grid. Run those episodes again (\`shakedown sweep --resume\`) or restore the log from a copy.`);
  if (p.outside > 0) lines.push(`shakedown: ${log}: ${p.outside} record(s) lie outside the run's plan, left out of the grid: ${p.outsideLines.map((o) => `line ${o.lineNo} (${o.why})`).join('; ')}${p.outside > p.outsideLines.length ? '; ...' : ''}.`);
  if (!p.signed) lines.push(`shakedown: ${run.dir} cannot be verified: its run.json has no \`key\` (written before records were signed), so an edited or forged record would not be noticed.`);
  return lines;
}

/** Records a gate must not judge unless forced: records that do not verify, or outside the plan. */
export const unverifiedRecords = (run: LoadedRun): number => run.problems.unverified + run.problems.outside;
