/**
 * Reading an episode log fast: its lines straight from the file's bytes, and each key's last record.
 *
 * A million-record log is gigabytes; `readline` plus a `JSON.parse` of every record spent most of an
 * aggregation on splitting lines and on the garbage of whole parsed records. Here lines are found with
 * `Buffer.indexOf` in one reused buffer, duplicates are told by their key alone, and a reader that only
 * needs some fields gets a line's bytes (record-walk.ts reads the grid's fields from them).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { EpisodeRecord } from '../ground/record.js';

const NEWLINE = 10;
/** `{"key":`, the start of every record line. */
const KEY_START = Buffer.from('{"key":');
const CLOSE_BRACE = 125;

/** Bytes read at a time; a longer line grows the buffer. */
const READ_BYTES = 1 << 22;

/**
 * Calls `each` with every line of the file (its bytes: `buf[start, end)`, without the newline) and its
 * 1-based number. `buf` is reused for the next read: `each` copies what it keeps. `each` may return a
 * promise: the next line waits for it.
 *
 * The file is read with `readSync` into one buffer, the unfinished last line moved to its front before
 * the next read: a stream's fresh buffer per read (and a join per line that spans two) cost page faults,
 * copies and idle waits between reads; both passes over the bench's 2.5 GB log went from 3.3 s to 2.2 s.
 */
export async function forEachLine(path: string, each: (buf: Buffer, start: number, end: number, lineNo: number) => void | Promise<void>, signal?: AbortSignal): Promise<void> {
  const fd = openSync(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(READ_BYTES);
    let filled = 0;
    let lineNo = 0;
    for (;;) {
      if (filled === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const got = readSync(fd, buf, filled, buf.length - filled, null);
      if (got === 0) break;
      filled += got;
      const view = buf.subarray(0, filled);
      let start = 0;
      for (let nl = view.indexOf(NEWLINE, start); nl >= 0; nl = view.indexOf(NEWLINE, start)) {
        const end = nl > start && view[nl - 1] === 13 ? nl - 1 : nl;
        const pending = each(view, start, end, ++lineNo);
        if (pending) await pending;
        start = nl + 1;
      }
      buf.copyWithin(0, start, filled);
      filled -= start;
      // Reads are synchronous; between two, timers and signals get their turn, as they did with a stream.
      await new Promise<void>((resolve) => setImmediate(resolve));
      // A reader stopped (SIGINT, SIGTERM) ends at the next read.
      signal?.throwIfAborted();
    }
    if (filled > 0) {
      const pending = each(buf.subarray(0, filled), 0, filled, ++lineNo);
      if (pending) await pending;
    }
  } finally {
    closeSync(fd);
  }
}

/** The episode key of a record line (the JSON text of `key`, which every record begins with), read from its bytes. */
export function keyOfBytes(buf: Buffer, start: number, end: number): string | undefined {
  const close = keyEnd(buf, start, end);
  return close < 0 ? undefined : buf.toString('utf8', start + KEY_START.length, close + 1);
}

/**
 * Hands `each` the bytes (`buf[start, end)`, `buf` reused after `each` returns or settles) of the last
 * line of every key, in log order (a key logged twice counts once: its last line), and the lines without
 * a key (torn or foreign, for the caller to judge); blank lines are passed over. Returns how many earlier
 * lines of a key were passed over. Two reads of the file: the first finds whether any key is logged twice,
 * and which line of each is the last.
 *
 * The first read hashes each key's bytes into a table of 64-bit hashes (`KeyHashes`): keys whose hashes all
 * differ all differ, so a log without a key logged twice (nearly every log) is known to be one without a
 * string made or kept per record, and its second read hands on every line. A hash seen twice (a key logged
 * twice, or two keys that share a hash) sends the log to the exact read by key text.
 */
export async function readLastLineBytes(logPath: string, each: (buf: Buffer, start: number, end: number, lineNo: number) => void | Promise<void>, signal?: AbortSignal): Promise<{ duplicates: number }> {
  const hashes = new KeyHashes();
  let shared = false;
  await forEachLine(
    logPath,
    (buf, start, end) => {
      const close = keyEnd(buf, start, end);
      if (close >= 0 && !hashes.add(buf, start + KEY_START.length, close + 1)) shared = true;
    },
    signal,
  );
  const last = shared ? await lastLineOfEachKey(logPath, signal) : undefined;
  let duplicates = 0;
  await forEachLine(logPath, (buf, start, end, lineNo) => {
    if (last) {
      const k = keyOfBytes(buf, start, end);
      if (k !== undefined && last.get(k) !== lineNo) {
        duplicates++;
        return;
      }
    }
    if (blank(buf, start, end)) return;
    return each(buf, start, end, lineNo);
  }, signal);
  return { duplicates };
}

/** Each key's last line, by the key's text: the exact read for a log in which some key hash was seen twice. */
async function lastLineOfEachKey(logPath: string, signal?: AbortSignal): Promise<Map<string, number>> {
  const last = new Map<string, number>();
  await forEachLine(
    logPath,
    (buf, start, end, lineNo) => {
      const k = keyOfBytes(buf, start, end);
      if (k !== undefined) last.set(k, lineNo);
    },
    signal,
  );
  return last;
}

/** Where a record line's key ends (the index of its closing brace), or -1 for a line that does not begin as a record; `keyOfBytes` reads the same span. */
function keyEnd(buf: Buffer, start: number, end: number): number {
  if (end - start < KEY_START.length || buf.compare(KEY_START, 0, KEY_START.length, start, start + KEY_START.length) !== 0) return -1;
  const close = buf.indexOf(CLOSE_BRACE, start + KEY_START.length);
  return close < 0 || close >= end ? -1 : close;
}

/**
 * A set of 64-bit hashes of byte strings (two 32-bit FNV-1a hashes of different offsets), open addressing
 * over typed arrays: no object per entry. `add` says whether the hash was new. Equal strings always share
 * a hash; a hash shared by two different strings is possible, and only sends its reader to an exact read.
 */
export class KeyHashes {
  private low = new Int32Array(1 << 16);
  private high = new Int32Array(1 << 16);
  private size = 0;

  add(buf: Uint8Array, start: number, end: number): boolean {
    let a = 0x811c9dc5 | 0;
    let b = 0x050c5d1f | 0;
    for (let i = start; i < end; i++) {
      const c = buf[i] as number;
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
    }
    // 0 marks an empty slot in `low`.
    a = a === 0 ? 1 : a;
    if ((this.size + 1) * 2 > this.low.length) this.grow();
    return this.insert(a, b);
  }

  private insert(a: number, b: number): boolean {
    const mask = this.low.length - 1;
    for (let slot = (a ^ Math.imul(b, 0x9e3779b1)) & mask; ; slot = (slot + 1) & mask) {
      const at = this.low[slot] as number;
      if (at === 0) {
        this.low[slot] = a;
        this.high[slot] = b;
        this.size++;
        return true;
      }
      if (at === a && this.high[slot] === b) return false;
    }
  }

  private grow(): void {
    const [low, high] = [this.low, this.high];
    this.low = new Int32Array(low.length * 2);
    this.high = new Int32Array(high.length * 2);
    this.size = 0;
    for (let i = 0; i < low.length; i++) if (low[i] !== 0) this.insert(low[i] as number, high[i] as number);
  }
}

/** Whether a line holds only whitespace (as `String.prototype.trim` reads it). */
function blank(buf: Buffer, start: number, end: number): boolean {
  let i = start;
  while (i < end && (buf[i] === 32 || buf[i] === 9 || buf[i] === 13 || buf[i] === 11 || buf[i] === 12)) i++;
  // Past ASCII, trim knows more spaces (a no-break space, a byte-order mark): ask it.
  return i === end || ((buf[i] as number) >= 0x80 && buf.toString('utf8', i, end).trim() === '');
}

/** `readLastLineBytes` with each line as text. */
export async function readLastLines(logPath: string, each: (line: string, lineNo: number) => void | Promise<void>): Promise<{ duplicates: number }> {
  return readLastLineBytes(logPath, (buf, start, end, lineNo) => each(buf.toString('utf8', start, end), lineNo));
}

/**
 * A log line parsed whole, or undefined when it is not an episode record (what the log's readers call
 * torn). Its `mac` (mac.ts) and its `tally` (record-walk.ts) belong to the line, not to the episode: they are left out.
 */
export function parseRecord(line: string): EpisodeRecord | undefined {
  try {
    const x = JSON.parse(line) as (Partial<EpisodeRecord> & { mac?: unknown; tally?: unknown }) | null;
    if (x && typeof x === 'object') {
      delete x.mac;
      // What the line's writer tallied for the grid (record-walk.ts, `gridFirst`): the record's messages and trace say it.
      delete x.tally;
    }
    return !!x && typeof x === 'object' && !!x.key && typeof x.outcome === 'string' && Array.isArray(x.faults) && Array.isArray(x.messages) ? (x as EpisodeRecord) : undefined;
  } catch {
    return undefined;
  }
}
