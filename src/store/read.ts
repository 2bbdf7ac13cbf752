// Reading a run's log: the last record of every key, checked against the run's key (mac.ts) and plan
// (plan.ts); the lines that are not records, that do not verify or that the run did not plan, counted
// and named; and what run.json and the log together say about whether the run is complete.

import { existsSync } from 'node:fs';
import { parseRecord, readLastLineBytes } from './log-lines.js';
import { aggregationFieldsOfBytes, fieldsOfRecord, type AggregationFields } from './record-walk.js';
import { keyString, type EpisodeRecord } from '../ground/record.js';
import { isRunKey, LineSigner } from './mac.js';
import { planOf, type RunPlan } from './plan.js';
import { type RunManifest } from './rundir.js';

/** How complete a run is: every planned episode logged, or what is missing and why. */
export interface Completeness {
  readonly complete: boolean;
  /** Distinct planned episodes in the log whose records verify. */
  readonly found: number;
  /** Episodes the run planned (for an adaptive run, the most it could run). */
  readonly planned?: number;
  /** Why it is incomplete, in words. */
  readonly reason?: string;
}

/** What the log holds besides the planned episodes it counts, for `completenessOf`. */
export interface LogCounts {
  /** The run's plan (plan.ts): how many episodes it planned, and its adaptive first round. */
  readonly plan?: RunPlan;
  /** For an adaptive run, the episodes of its first round that the log holds. */
  readonly firstRoundFound?: number;
  /** Whether a merge into the run directory began and did not finish (merge.ts). */
  readonly unfinishedMerge?: boolean;
}

/**
 * What run.json and the log say about completeness. A log that holds fewer planned episodes than the
 * plan is incomplete whatever run.json's `complete` says (a log cut short or edited after the sweep).
 */
export function completenessOf(manifest: RunManifest, found: number, counts: LogCounts = {}): Completeness {
  const planned = counts.plan?.planned ?? manifest.episodes;
  const adaptive = manifest.config.adaptiveFirstTrials !== undefined;
  const base = { complete: false, found, ...(planned !== undefined ? { planned } : {}) };
  const of = planned === undefined ? `${found} episodes` : `${found} of ${adaptive ? 'up to ' : ''}${planned} episodes`;
  if (counts.unfinishedMerge) return { ...base, reason: `a merge into it did not finish: ${of}` };
  if (manifest.complete === false) return { ...base, reason: `the sweep stopped early (${manifest.stopped ?? 'stopped'}): ${of}` };
  const firstRound = counts.plan?.firstRound;
  if (adaptive) {
    // An adaptive run ends with fewer than its most; every task and cell runs its first round, though.
    const short = firstRound !== undefined && (counts.firstRoundFound ?? 0) < firstRound;
    if (manifest.complete === true && !short) return { ...base, complete: true };
    if (manifest.complete === true) return { ...base, reason: `run.json says the run is complete, but its log holds only ${counts.firstRoundFound ?? 0} of the ${firstRound} episodes of its first round (cut short or edited since)` };
    return { ...base, reason: `the sweep has not finished (still running, or killed): ${of}` };
  }
  if (planned === undefined) return manifest.complete === true ? { ...base, complete: true } : { ...base, reason: `the sweep has not finished (still running, or killed): ${of}` };
  // No word from the sweep (it still runs, or it was killed): a log with every planned episode is complete anyway.
  if (found >= planned) return { ...base, complete: true };
  if (manifest.complete === true) return { ...base, reason: `run.json says the run is complete, but its log holds only ${found} of the ${planned} planned episodes (cut short or edited since)` };
  return { ...base, reason: `the sweep has not finished (still running, or killed): ${of}` };
}

/** Lines of a log counted, the first few kept by number (with a word on each, where there is one). */
export function lineCounter<T = undefined>() {
  let count = 0;
  const first: { lineNo: number; why: T }[] = [];
  return {
    add(lineNo: number, why?: T) {
      count++;
      if (first.length < 5) first.push({ lineNo, why: why as T });
    },
    get count() {
      return count;
    },
    get first() {
      return first;
    },
  };
}

/** What a log holds besides the records a reader counts: unreadable lines, records that do not verify, records outside the plan. */
export interface LogProblems {
  /** Lines that are not records (a torn last line, as a killed writer leaves), and the first few by number. */
  readonly torn: number;
  readonly tornLines: readonly number[];
  /** Records whose MAC does not verify under the run's key (edited by hand, or written by another program). */
  readonly unverified: number;
  readonly unverifiedLines: readonly number[];
  /** Records whose key the run did not plan, the first few with why. */
  readonly outside: number;
  readonly outsideLines: readonly { readonly lineNo: number; readonly why: string }[];
  /** Whether the run has a key, so that its records could be checked at all. */
  readonly signed: boolean;
}

/**
 * The checks every reader of a log makes of a key's last line: a record (else torn), of a key the run
 * planned (else outside the plan), signed under the run's key (else it does not verify; a run without a
 * key is read unchecked). `check` answers with the line's aggregation fields, or undefined when it
 * does not count, and counts why.
 */
export function logChecks(manifest: RunManifest, options: { readonly deferMacs?: boolean } = {}) {
  const signer = isRunKey(manifest.key) ? new LineSigner(manifest.key) : undefined;
  const plan = planOf(manifest);
  const torn = lineCounter();
  const unverified = lineCounter();
  const outside = lineCounter<string>();
  // With the MACs checked elsewhere (mac-check.ts), the lines counted unchecked, one bit each.
  const deferred = signer !== undefined && options.deferMacs === true;
  let countedLines = new Uint8Array(deferred ? 1 << 16 : 0);
  const markCounted = (lineNo: number) => {
    if (lineNo >> 3 >= countedLines.length) {
      const bigger = new Uint8Array(Math.max(countedLines.length * 2, (lineNo >> 3) + 1));
      bigger.set(countedLines);
      countedLines = bigger;
    }
    countedLines[lineNo >> 3] = (countedLines[lineNo >> 3] as number) | (1 << (lineNo & 7));
  };
  return {
    plan,
    /**
     * With `deferMacs`: whether one of the lines counted is among `failing` (the lines that do not verify),
     * so that the log must be read again with each line checked here.
     */
    countedAny(failing: readonly number[]): boolean {
      return failing.some((lineNo) => lineNo >> 3 < countedLines.length && ((countedLines[lineNo >> 3] as number) & (1 << (lineNo & 7))) !== 0);
    },
    /**
     * The fields of the line `buf[start, end)` when it counts; `record` holds the record when the line had
     * to be parsed whole. Verified on the bytes as read, before anything else is made of them.
     */
    check(buf: Buffer, start: number, end: number, lineNo: number): { fields: AggregationFields; record?: EpisodeRecord } | undefined {
      let fields = aggregationFieldsOfBytes(buf, start, end, signer !== undefined);
      let record: EpisodeRecord | undefined;
      if (!fields) {
        record = parseRecord(buf.toString('utf8', start, end));
        if (!record) return void torn.add(lineNo);
        fields = fieldsOfRecord(record);
      }
      // Outside the plan first: what a record claims to be says more than that it does not verify.
      const why = plan.outside(fields.key);
      if (why !== undefined) return void outside.add(lineNo, why);
      if (deferred) markCounted(lineNo);
      else if (signer && !signer.verify(buf, start, end)) return void unverified.add(lineNo);
      return record ? { fields, record } : { fields };
    },
    problems(): LogProblems {
      const lines = (c: { first: { lineNo: number }[] }) => c.first.map((x) => x.lineNo);
      return { torn: torn.count, tornLines: lines(torn), unverified: unverified.count, unverifiedLines: lines(unverified), outside: outside.count, outsideLines: outside.first, signed: signer !== undefined };
    },
  };
}

/**
 * Streams a run's log, handing `each` the last record of every key in log order (a key logged twice counts
 * once: its last record) when it counts (see `logChecks`), and counts the earlier records of a key
 * (`duplicates`) and the lines that do not count. `each` may return a promise: the next record waits for it.
 */
export async function readLastRecords(logPath: string, manifest: RunManifest, each: (record: EpisodeRecord) => void | Promise<void>, signal?: AbortSignal): Promise<LogProblems & { duplicates: number }> {
  const checks = logChecks(manifest);
  const { duplicates } = await readLastLineBytes(
    logPath,
    (buf, start, end, lineNo) => {
      const counted = checks.check(buf, start, end, lineNo);
      if (!counted) return;
      return each(counted.record ?? (parseRecord(buf.toString('utf8', start, end)) as EpisodeRecord));
    },
    signal,
  );
  return { ...checks.problems(), duplicates };
}

/**
 * The episodes a run's log already holds, for a sweep that resumes it: the keys and outcomes of the last
 * record of each key that verifies under the run's key (`manifest`, undefined for a run without one).
 * Nothing is cut off: a torn line stays, counted in `torn`; a record that does not verify stays too, and
 * its episode runs again (its new record, later in the log, is the key's last).
 */
export async function readFinished(path: string, manifest: RunManifest | undefined): Promise<{ keys: Set<string>; outcomes: Map<string, boolean>; torn: number; unverified: number }> {
  const keys = new Set<string>();
  const outcomes = new Map<string, boolean>();
  const signer = isRunKey(manifest?.key) ? new LineSigner(manifest.key) : undefined;
  let torn = 0;
  let unverified = 0;
  if (!existsSync(path)) return { keys, outcomes, torn, unverified };
  await readLastLineBytes(path, (buf, start, end) => {
    const fields = aggregationFieldsOfBytes(buf, start, end, signer !== undefined) ?? (() => {
      const r = parseRecord(buf.toString('utf8', start, end));
      return r ? { key: r.key, outcome: r.outcome } : undefined;
    })();
    if (!fields) torn++;
    else if (signer && !signer.verify(buf, start, end)) unverified++;
    else {
      const k = keyString(fields.key);
      keys.add(k);
      outcomes.set(k, fields.outcome === 'pass');
    }
  });
  return { keys, outcomes, torn, unverified };
}
