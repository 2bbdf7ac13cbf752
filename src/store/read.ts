// Reading a run's log: the last record of every key, the lines that are not records, and what run.json and
// the log say about whether the run is complete.

import { parseRecord, readLastLines } from './log-lines.js';
import { type EpisodeRecord } from '../ground/record.js';
import { type RunManifest } from './rundir.js';

/** How complete a run is: every planned episode logged, or what is missing and why. */
export interface Completeness {
  readonly complete: boolean;
  /** Distinct episodes in the log. */
  readonly found: number;
  /** Episodes the run planned (for an adaptive run, the most it could run). */
  readonly planned?: number;
  /** Why it is incomplete, in words. */
  readonly reason?: string;
}

/** What run.json and the log say about completeness. */
export function completenessOf(manifest: RunManifest, found: number): Completeness {
  const planned = manifest.episodes;
  const adaptive = manifest.config.adaptiveFirstTrials !== undefined;
  if (manifest.complete === true) return { complete: true, found, ...(planned !== undefined ? { planned } : {}) };
  const of = planned === undefined ? `${found} episodes` : `${found} of ${adaptive ? 'up to ' : ''}${planned} episodes`;
  if (manifest.complete === false) return { complete: false, found, ...(planned !== undefined ? { planned } : {}), reason: `the sweep stopped early (${manifest.stopped ?? 'stopped'}): ${of}` };
  // No word from the sweep: it still runs, or it was killed; a log with every planned episode is complete anyway.
  if (!adaptive && planned !== undefined && found >= planned) return { complete: true, found, planned };
  return { complete: false, found, ...(planned !== undefined ? { planned } : {}), reason: `the sweep has not finished (still running, or killed): ${of}` };
}

/**
 * Streams a run's log, handing `each` the last record of every key in log order (a key logged twice counts
 * once: its last complete record), and counts the earlier records of a key (`duplicates`) and the lines
 * that are not records (`torn`, the first few by number). `each` may return a promise: the next record
 * waits for it.
 */
export async function readLastRecords(logPath: string, each: (record: EpisodeRecord) => void | Promise<void>): Promise<{ torn: number; tornLines: number[]; duplicates: number }> {
  const torn = tornCounter();
  const { duplicates } = await readLastLines(logPath, (line, lineNo) => {
    const r = parseRecord(line);
    return r ? each(r) : torn.add(lineNo);
  });
  return { ...torn.counts(), duplicates };
}

/** Counts the lines of a log that are not records, keeping the first few line numbers. */
export function tornCounter() {
  let torn = 0;
  const tornLines: number[] = [];
  return {
    add(lineNo: number) {
      torn++;
      if (tornLines.length < 5) tornLines.push(lineNo);
    },
    counts: () => ({ torn, tornLines }),
  };
}
