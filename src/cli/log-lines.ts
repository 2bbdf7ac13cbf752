/**
 * Reading an episode log fast: its lines straight from the file's bytes, each key's last record, and the
 * fields the grid needs read out of a record's line without parsing its conversation and trace.
 *
 * A million-record log is gigabytes; `readline` plus a `JSON.parse` of every record spent most of an
 * aggregation on splitting lines and on the garbage of whole parsed records. Here lines are found with
 * `Buffer.indexOf`, duplicates are told by their key alone, and `aggregationFields` reads a record's
 * small fields with `JSON.parse` and walks its messages and trace only as far as the grid needs (strings
 * are skipped with `indexOf`, never decoded). Whatever it cannot read falls back to a whole parse, so a
 * line it reads gives exactly what `JSON.parse` would.
 */
import { createReadStream } from 'node:fs';
import type { EpisodeRecord } from '../core/episode.js';

const NEWLINE = 10;
/** `{"key":`, the start of every record line. */
const KEY_START = Buffer.from('{"key":');
const CLOSE_BRACE = 125;

/**
 * Calls `each` with every line of the file (its bytes: `buf[start, end)`, without the newline) and its
 * 1-based number. A line that spans two reads is joined first. `each` may return a promise: the next line
 * waits for it.
 */
export async function forEachLine(path: string, each: (buf: Buffer, start: number, end: number, lineNo: number) => void | Promise<void>): Promise<void> {
  let carry: Buffer | undefined;
  let lineNo = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const buf = carry ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE, start); nl >= 0; nl = buf.indexOf(NEWLINE, start)) {
      const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
      const pending = each(buf, start, end, ++lineNo);
      if (pending) await pending;
      start = nl + 1;
    }
    carry = start < buf.length ? buf.subarray(start) : undefined;
  }
  if (carry && carry.length > 0) {
    const pending = each(carry, 0, carry.length, ++lineNo);
    if (pending) await pending;
  }
}

/** The episode key of a record line (the JSON text of `key`, which every record begins with), read from its bytes. */
export function keyOfBytes(buf: Buffer, start: number, end: number): string | undefined {
  if (end - start < KEY_START.length || buf.compare(KEY_START, 0, KEY_START.length, start, start + KEY_START.length) !== 0) return undefined;
  const close = buf.indexOf(CLOSE_BRACE, start + KEY_START.length);
  return close < 0 || close >= end ? undefined : buf.toString('utf8', start + KEY_START.length, close + 1);
}

/**
 * Hands `each` the text of the last line of every key, in log order (a key logged twice counts once: its
 * last line), and the lines without a key (torn or foreign, for the caller to judge). Returns how many
 * earlier lines of a key were passed over. Two reads of the file: the first finds each key's last line
 * from the keys alone.
 */
export async function readLastLines(logPath: string, each: (line: string, lineNo: number) => void | Promise<void>): Promise<{ duplicates: number }> {
  const last = new Map<string, number>();
  await forEachLine(logPath, (buf, start, end, lineNo) => {
    const k = keyOfBytes(buf, start, end);
    if (k !== undefined) last.set(k, lineNo);
  });
  let duplicates = 0;
  await forEachLine(logPath, (buf, start, end, lineNo) => {
    const k = keyOfBytes(buf, start, end);
    if (k !== undefined && last.get(k) !== lineNo) {
      duplicates++;
      return;
    }
    const line = buf.toString('utf8', start, end);
    if (!line.trim()) return;
    return each(line, lineNo);
  });
  return { duplicates };
}

/** A log line parsed whole, or undefined when it is not an episode record (what the log's readers call torn). */
export function parseRecord(line: string): EpisodeRecord | undefined {
  try {
    const x = JSON.parse(line) as Partial<EpisodeRecord> | null;
    return !!x && typeof x === 'object' && !!x.key && typeof x.outcome === 'string' && Array.isArray(x.faults) && Array.isArray(x.messages) ? (x as EpisodeRecord) : undefined;
  } catch {
    return undefined;
  }
}

// --- Walking JSON text without building it -------------------------------------------------------------

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

function skipSpace(s: string, i: number, end: number): number {
  while (i < end && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string starting at `i` (a `"`), or -1 if it does not end before `end`. */
function skipString(s: string, i: number, end: number): number {
  let j = i;
  for (;;) {
    j = s.indexOf('"', j + 1);
    if (j < 0 || j >= end) return -1;
    // A quote ends the string unless an odd number of backslashes escapes it.
    let slashes = 0;
    while (s.charCodeAt(j - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return j + 1;
  }
}

/** The index just past the JSON value starting at `i`, or -1 if it is cut short. */
function skipValue(s: string, i: number, end: number): number {
  const c = s.charCodeAt(i);
  if (c === 34) return skipString(s, i, end);
  if (c === 123 || c === 91) {
    let depth = 0;
    let j = i;
    while (j < end) {
      const d = s.charCodeAt(j);
      if (d === 34) {
        j = skipString(s, j, end);
        if (j < 0) return -1;
        continue;
      }
      if (d === 123 || d === 91) depth++;
      else if (d === 125 || d === 93) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  while (j < end) {
    const d = s.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || isSpace(d)) break;
    j++;
  }
  return j > i ? j : -1;
}

/** What the grid counts of one episode: a record's small fields, and of its messages and trace only what it tallies. */
export interface AggregationFields {
  readonly key: EpisodeRecord['key'];
  readonly outcome: EpisodeRecord['outcome'];
  readonly failure?: EpisodeRecord['failure'];
  readonly usage?: EpisodeRecord['usage'];
  readonly costUsd?: number;
  readonly userUsage?: EpisodeRecord['userUsage'];
  readonly userCostUsd?: number;
  readonly faults: EpisodeRecord['faults'];
  /** Every perturbation family of every message, in order. */
  readonly families: string[];
  /** Whether the simulated user was confused at least once. */
  readonly confused: boolean;
  /** Calls that named a tool. */
  readonly calls: number;
}

/** A record's small fields, as a line holds them. */
type SmallFields = Pick<EpisodeRecord, 'key' | 'outcome' | 'failure' | 'usage' | 'userUsage' | 'faults'> & { readonly costUsd?: number; readonly userCostUsd?: number };

/** The aggregation fields from a record's small fields and what its messages, confusions and trace come to. */
function fieldsOf(r: SmallFields, families: string[], confused: boolean, calls: number): AggregationFields {
  return {
    key: r.key,
    outcome: r.outcome,
    ...(r.failure ? { failure: r.failure } : {}),
    ...(r.usage ? { usage: r.usage } : {}),
    ...(r.costUsd !== undefined ? { costUsd: r.costUsd } : {}),
    ...(r.userUsage ? { userUsage: r.userUsage } : {}),
    ...(r.userCostUsd !== undefined ? { userCostUsd: r.userCostUsd } : {}),
    faults: r.faults,
    families,
    confused,
    calls,
  };
}

/** The aggregation fields of a parsed record. */
export function fieldsOfRecord(r: EpisodeRecord & { costUsd?: number; userCostUsd?: number }): AggregationFields {
  return fieldsOf(
    r,
    r.messages.flatMap((m) => m.perturbations ?? []),
    (r.confusions?.length ?? 0) > 0,
    r.trace.filter((t) => t.tool !== null).length,
  );
}

/**
 * One walk over a record's line: the top level's members found by key, each message's perturbation
 * families and each trace entry's tool read in place, everything else skipped. Methods rather than
 * closures: a closure made per line costs more than the walk itself.
 */
class RecordWalk {
  /** Extents of the top-level members read with JSON.parse ([start, end) per TOP_LEVEL name), -1 when absent. */
  readonly at = new Int32Array(TOP_LEVEL.length * 2).fill(-1);
  readonly families: string[] = [];
  calls = 0;
  sawMessages = false;
  sawTrace = false;
  private readonly n: number;

  constructor(private readonly s: string) {
    this.n = s.length;
  }

  /** The key at `i` (a `"`): its end past the closing quote, or -1 (cut short, or escaped: left to JSON.parse). */
  private keyEnd(i: number): number {
    const { s, n } = this;
    if (s.charCodeAt(i) !== 34) return -1;
    const end = skipString(s, i, n);
    if (end < 0) return -1;
    for (let j = i + 1; j < end - 1; j++) if (s.charCodeAt(j) === 92) return -1;
    return end;
  }

  /** After a value ending at `i`: the next member or element's start, `-2` at the closing bracket `close`, -1 otherwise. */
  private next(i: number, close: number): number {
    const { s, n } = this;
    i = skipSpace(s, i, n);
    const c = s.charCodeAt(i);
    if (c === 44) return skipSpace(s, i + 1, n);
    return c === close ? -2 - i : -1;
  }

  /** The whole line as a record object; false if it is not one. */
  top(): boolean {
    const { s, n } = this;
    let i = skipSpace(s, 0, n);
    if (s.charCodeAt(i) !== 123) return false;
    i = skipSpace(s, i + 1, n);
    if (s.charCodeAt(i) === 125) return skipSpace(s, i + 1, n) === n;
    for (;;) {
      const ke = this.keyEnd(i);
      if (ke < 0) return false;
      const colon = skipSpace(s, ke, n);
      if (s.charCodeAt(colon) !== 58) return false;
      const vs = skipSpace(s, colon + 1, n);
      const name = s.slice(i + 1, ke - 1);
      let ve: number;
      if (name === 'messages') {
        this.sawMessages = true;
        ve = this.array(vs, 0);
      } else if (name === 'trace') {
        this.sawTrace = true;
        ve = this.array(vs, 1);
      } else {
        ve = skipValue(s, vs, n);
        const m = TOP_INDEX.get(name);
        if (m !== undefined && ve >= 0) {
          this.at[2 * m] = vs;
          this.at[2 * m + 1] = ve;
        }
      }
      if (ve < 0) return false;
      i = this.next(ve, 125);
      if (i === -1) return false;
      if (i < -1) return skipSpace(s, -2 - i + 1, n) === n;
    }
  }

  /** The array at `i` of messages (`kind` 0) or trace entries (1); its end, or -1. */
  private array(i: number, kind: 0 | 1): number {
    const { s, n } = this;
    if (s.charCodeAt(i) !== 91) return -1;
    i = skipSpace(s, i + 1, n);
    if (s.charCodeAt(i) === 93) return i + 1;
    for (;;) {
      const ve = this.element(i, kind);
      if (ve < 0) return -1;
      i = this.next(ve, 93);
      if (i === -1) return -1;
      if (i < -1) return -2 - i + 1;
    }
  }

  /** A message (its `perturbations` read) or a trace entry (whether its `tool` is null); its end, or -1. */
  private element(i: number, kind: 0 | 1): number {
    const { s, n } = this;
    if (s.charCodeAt(i) !== 123) return -1;
    i = skipSpace(s, i + 1, n);
    let toolIsNull = false;
    let end = -1;
    if (s.charCodeAt(i) === 125) end = i + 1;
    while (end < 0) {
      const ke = this.keyEnd(i);
      if (ke < 0) return -1;
      const colon = skipSpace(s, ke, n);
      if (s.charCodeAt(colon) !== 58) return -1;
      const vs = skipSpace(s, colon + 1, n);
      const ve = skipValue(s, vs, n);
      if (ve < 0) return -1;
      if (kind === 0 && ke - i === 15 && s.startsWith('"perturbations"', i)) {
        const list = JSON.parse(s.slice(vs, ve)) as unknown;
        if (!Array.isArray(list)) return -1;
        for (const f of list) this.families.push(f as string);
      } else if (kind === 1 && ke - i === 6 && s.startsWith('"tool"', i)) {
        toolIsNull = ve - vs === 4 && s.startsWith('null', vs);
      }
      i = this.next(ve, 125);
      if (i === -1) return -1;
      if (i < -1) end = -2 - i + 1;
    }
    // A call counts unless its tool is null (as `t.tool !== null` reads it, a missing tool counts).
    if (kind === 1 && !toolIsNull) this.calls++;
    return end;
  }

  value(m: number): unknown {
    const a = this.at[2 * m] as number;
    return a < 0 ? undefined : JSON.parse(this.s.slice(a, this.at[2 * m + 1]));
  }
}

/**
 * The aggregation fields of a record's line, read without parsing its messages and trace; undefined when
 * the line is not plainly a record (torn, or a shape this walk does not read), for the caller to parse whole.
 */
export function aggregationFields(line: string): AggregationFields | undefined {
  const w = new RecordWalk(line);
  if (!w.top() || !w.sawMessages || !w.sawTrace) return undefined;
  const key = w.value(KEY) as EpisodeRecord['key'] | undefined;
  const outcome = w.value(OUTCOME);
  const faults = w.value(FAULTS);
  if (!key || typeof key !== 'object' || typeof outcome !== 'string' || !Array.isArray(faults)) return undefined;
  // `confusions?.length`: an empty list is the common case, read without parsing.
  const c0 = w.at[2 * CONFUSIONS] as number;
  const confusions = c0 < 0 ? '' : line.slice(c0, w.at[2 * CONFUSIONS + 1]);
  const confused = confusions !== '' && confusions !== '[]' && ((JSON.parse(confusions) as unknown[] | null)?.length ?? 0) > 0;
  const small = {
    key,
    outcome: outcome as EpisodeRecord['outcome'],
    faults: faults as EpisodeRecord['faults'],
    failure: w.value(FAILURE) as EpisodeRecord['failure'],
    usage: w.value(USAGE) as EpisodeRecord['usage'],
    userUsage: w.value(USER_USAGE) as EpisodeRecord['userUsage'],
    costUsd: w.value(COST) as number | undefined,
    userCostUsd: w.value(USER_COST) as number | undefined,
  } as SmallFields;
  return fieldsOf(small, w.families, confused, w.calls);
}

/** The top-level members read with JSON.parse, and their indices. */
const TOP_LEVEL = ['key', 'outcome', 'faults', 'failure', 'usage', 'userUsage', 'costUsd', 'userCostUsd', 'confusions'] as const;
const TOP_INDEX = new Map<string, number>(TOP_LEVEL.map((name, i) => [name, i]));
const [KEY, OUTCOME, FAULTS, FAILURE, USAGE, USER_USAGE, COST, USER_COST, CONFUSIONS] = TOP_LEVEL.map((_, i) => i) as number[] as [number, number, number, number, number, number, number, number, number];
