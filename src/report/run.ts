// A run read from its directory for the commands and reports: its grid, recomputed from the log (the
// run's truth), the failing episodes to drill into, and what a reader must know before its figures.
import { versionMismatch } from '../judge/version.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseRecord, readLastLineBytes } from '../store/log-lines.js';
import { aggregationFieldsOfBytes, fieldsOfRecord, type AggregationFields } from '../store/record-walk.js';
import { ResampleBank } from '../stats/bootstrap.js';
import { ShakedownError } from '../ground/errors.js';
import { keyString, type EpisodeRecord } from '../ground/record.js';
import { Tally, type EpisodeFacts } from '../stats/stats.js';
import { buildGrid, type Grid } from './grid.js';
import { episodeView, type EpisodeView } from './html.js';
import { readManifest } from '../store/rundir.js';
import { completenessOf, tornCounter, type Completeness } from '../store/read.js';

export interface LoadedRun {
  readonly dir: string;
  readonly grid: Grid;
  /** Pass or not per episode key. */
  readonly outcomes: Map<string, boolean>;
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
  return facts;
}

/** Reads a run directory: its manifest and its episode log, streamed (a torn last line is skipped). */
export async function loadRun(dir: string, theta: number): Promise<LoadedRun> {
  const logPath = join(dir, 'episodes.jsonl');
  const manifest = readManifest(dir, `read run \`${dir}\``);
  if (!existsSync(logPath)) throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to read run \`${dir}\`: it has run.json but no episodes.jsonl. Give the directory a sweep wrote, or run the sweep.`);
  const tally = new Tally();
  const outcomes = new Map<string, boolean>();
  const failing: EpisodeView[] = [];
  const failingKeys: EpisodeRecord['key'][] = [];
  const perCell = new Map<string, number>();
  const torn = tornCounter();
  // Each record's line is read for the grid's fields alone (record-walk.ts); a failing episode kept for
  // drill-down, and any line that walk does not read, is parsed whole.
  const { duplicates } = await readLastLineBytes(logPath, (buf, start, end, lineNo) => {
    let f = aggregationFieldsOfBytes(buf, start, end);
    let record: EpisodeRecord | undefined;
    if (!f) {
      record = parseRecord(buf.toString('utf8', start, end));
      if (!record) return torn.add(lineNo);
      f = fieldsOfRecord(record);
    }
    tally.add(f.key, f.outcome, factsOf(f));
    outcomes.set(keyString(f.key), f.outcome === 'pass');
    if (f.outcome !== 'pass') {
      failingKeys.push(f.key);
      const cell = `${f.key.agent}|${f.key.eps}|${f.key.lambda}`;
      const n = perCell.get(cell) ?? 0;
      if (n < FAILING_PER_CELL) failing.push(episodeView(record ?? (JSON.parse(buf.toString('utf8', start, end)) as EpisodeRecord)));
      perCell.set(cell, n + 1);
    }
  });
  const { torn: tornCount, tornLines } = torn.counts();
  const c = manifest.config;
  const grid = buildGrid({ world: manifest.world, seed: manifest.seed, profile: c.profile, fixedTrials: c.fixedTrials, eps: c.eps, lambda: c.lambda, trials: c.trials, ...(c.adaptiveFirstTrials !== undefined ? { adaptiveFirstTrials: c.adaptiveFirstTrials } : {}), agents: manifest.agents.map((a) => a.id) }, tally, new ResampleBank(manifest.seed), theta);
  return { dir, grid, outcomes, failing, failingKeys, torn: tornCount, tornLines, duplicates, completeness: completenessOf(manifest, outcomes.size) };
}

/** What a reader of a run must know before its figures: incomplete, records logged twice, unreadable lines. */
export function integrityLines(run: LoadedRun): string[] {
  const lines: string[] = [];
  if (!run.completeness.complete) lines.push(`shakedown: ${run.dir} is an incomplete run: ${run.completeness.reason}; its figures cover only what ran. Finish it with \`shakedown sweep --resume --out ${run.dir}\`.`);
  if (run.duplicates > 0) lines.push(`shakedown: ${run.dir}/episodes.jsonl logs ${run.duplicates} episode(s) more than once; the last record of each counts.`);
  if (run.torn > 0) lines.push(`shakedown: ${run.dir}/episodes.jsonl has ${run.torn} unreadable line(s) (line ${run.tornLines.join(', ')}${run.torn > run.tornLines.length ? ', ...' : ''}), left out.`);
  return lines;
}
