/**
 * A run directory as the tests read and edit it: records without their MAC (each run signs with a key of
 * its own, so two runs' records compare without it), and a log rewritten by a test signed again with the
 * run's key, as any program that reads run.json could.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineSigner } from '../src/store/mac.js';

/** A run's records in log order, parsed, without `mac`; lines that do not parse are passed over. */
export function readRecords<T = Record<string, unknown>>(dir: string): T[] {
  return readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        const { mac: _mac, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return [rest as T];
      } catch {
        return [];
      }
    });
}

/** The line of a record signed with the run's key (or unsigned, for a run without one). */
export function signedLine(dir: string, record: unknown): string {
  const { key } = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { key?: string };
  const { mac: _mac, ...rest } = record as Record<string, unknown>;
  return key ? new LineSigner(key).sign(JSON.stringify(rest)) : JSON.stringify(rest);
}

/** Writes `records` as the run's log, each line signed with the run's key. */
export function writeRecords(dir: string, records: readonly unknown[]): void {
  writeFileSync(join(dir, 'episodes.jsonl'), records.map((r) => `${signedLine(dir, r)}\n`).join(''));
}
