/**
 * The fields the grid needs, read out of an episode record's line without parsing its conversation and
 * trace: the record's small fields with `JSON.parse`, each message's perturbation families and each trace
 * entry's tool read in place, everything else skipped.
 *
 * The walk reads the line's UTF-8 bytes where the log reader found them, so a line is never decoded
 * whole, and skips strings byte by byte (a `"` or `\` never occurs inside a multi-byte character) rather
 * than with two `String.prototype.indexOf` calls per key: reading and walking the bench's million records
 * went from 14.3 s to 11.8 s. The few strings it keeps (families, outcomes, failure classes) come from a
 * small table of the ones already seen. Whatever it cannot read whole (a torn line, a key written
 * with escapes, a member that does not parse) gives undefined, for the caller to parse the line whole, so
 * a line it reads gives exactly what `JSON.parse` would.
 */
import type { EpisodeRecord } from '../ground/record.js';
import { signedEnd } from './mac.js';

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
  /** The perturbation families of the messages, each once, in the order first met (the grid counts an episode once per family). */
  readonly families: string[];
  /** Whether the simulated user was confused at least once. */
  readonly confused: boolean;
  /** Calls that named a tool. */
  readonly calls: number;
  /** The stability facts (ground/stability.ts), when the record carries them. */
  readonly stateKey?: string;
  readonly pathKey?: string;
  readonly turns?: number;
  readonly simulatedMs?: number;
}

/** A record's small fields, as a line holds them. */
type SmallFields = Pick<EpisodeRecord, 'key' | 'outcome' | 'failure' | 'usage' | 'userUsage' | 'faults' | 'stateKey' | 'pathKey' | 'turns'> & { readonly costUsd?: number; readonly userCostUsd?: number; readonly simulatedMs?: number };

/** The aggregation fields from a record's small fields and what its messages, confusions and trace come to. */
function fieldsOf(r: SmallFields, families: string[], confused: boolean, calls: number): AggregationFields {
  // Assigned one by one rather than spread: this runs once per record of a million.
  const out: { -readonly [K in keyof AggregationFields]: AggregationFields[K] } = { key: r.key, outcome: r.outcome, faults: r.faults, families, confused, calls };
  if (r.failure) out.failure = r.failure;
  if (r.usage) out.usage = r.usage;
  if (r.costUsd !== undefined) out.costUsd = r.costUsd;
  if (r.userUsage) out.userUsage = r.userUsage;
  if (r.userCostUsd !== undefined) out.userCostUsd = r.userCostUsd;
  if (typeof r.stateKey === 'string') out.stateKey = r.stateKey;
  if (typeof r.pathKey === 'string') out.pathKey = r.pathKey;
  if (typeof r.turns === 'number') out.turns = r.turns;
  if (typeof r.simulatedMs === 'number') out.simulatedMs = r.simulatedMs;
  return out;
}

/** The aggregation fields of a parsed record. */
export function fieldsOfRecord(r: EpisodeRecord & { costUsd?: number; userCostUsd?: number }): AggregationFields {
  return fieldsOf(
    r,
    [...new Set(r.messages.flatMap((m) => m.perturbations ?? []))],
    (r.confusions?.length ?? 0) > 0,
    r.trace.filter((t) => t.tool !== null).length,
  );
}

/**
 * The members the grid reads, in the order a line writes them first (`gridFirst`): a reader finds them, and the record's
 * `tally`, in the line's first few hundred bytes, and parses nothing of the rest.
 */
const GRID_MEMBERS = ['key', 'outcome', 'failure', 'faults', 'usage', 'userUsage', 'costUsd', 'userCostUsd', 'stateKey', 'pathKey', 'turns', 'simulatedMs'] as const;

/** What the grid counts of a record's messages, confusions and trace, written in its line after the members it reads. */
export interface RecordTally {
  readonly calls: number;
  readonly families: readonly string[];
  readonly confused: boolean;
}

/**
 * A record as its line lays it out: the members the grid reads first, then its `tally` (what its messages, confusions and trace
 * come to), then every other member in the record's own order. The same members and values as the record, and one more; readers
 * that parse the line whole drop the tally (`parseRecord`), and one that does not need the rest stops after it
 * (`aggregationFieldsOfBytes`).
 */
export function gridFirst(record: EpisodeRecord): Record<string, unknown> {
  const r = record as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of GRID_MEMBERS) if (r[k] !== undefined) out[k] = r[k];
  const f = fieldsOfRecord(record);
  const tally: RecordTally = { calls: f.calls, families: f.families, confused: f.confused };
  out.tally = tally;
  for (const k of Object.keys(r)) if (!(k in out)) out[k] = r[k];
  return out;
}

/** `,"tally":{`: where a line written by `gridFirst` ends the members the grid reads. */
const TALLY_AT = Buffer.from(',"tally":{');
/** How every record's JSON opens: a second one in a line is a torn line with another record after it. */
const RECORD_OPEN = Buffer.from('{"key":');
/** A line of `gridFirst`'s opens with its key, an object, and its outcome follows. */
const KEY_FIRST = Buffer.from('{"key":{');
const OUTCOME_NEXT = Buffer.from(',"outcome":');

/**
 * The aggregation fields of a line written by `gridFirst` and signed, read from the members before its tally and the tally
 * itself with one `JSON.parse` of those bytes; undefined for any other line. Only for a caller that checks the line's MAC
 * (inline or on the other thread): that check, not this read, vouches that the rest of the line is the record the tally
 * tallies. A line that ends with a MAC field and holds a second record's opening (a torn line, a record after it) is left to
 * the walk, which reads it as torn, as a whole parse would.
 */
function gridFirstFields(b: Uint8Array, start: number, end: number): AggregationFields | undefined {
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  // The record's key, then its outcome, as `gridFirst` writes them: a line laid out otherwise (the walk's, as every run written
  // before the tally) is left at once, after a search of its key's few bytes.
  const keyEnd = buf.indexOf(CLOSE_BRACE, start + KEY_FIRST.length);
  if (keyEnd < 0 || keyEnd + 1 + OUTCOME_NEXT.length > end || buf.compare(KEY_FIRST, 0, KEY_FIRST.length, start, start + KEY_FIRST.length) !== 0 || buf.compare(OUTCOME_NEXT, 0, OUTCOME_NEXT.length, keyEnd + 1, keyEnd + 1 + OUTCOME_NEXT.length) !== 0) return undefined;
  if (signedEnd(buf, start, end) < 0) return undefined;
  // Searched within the line alone: the reader's buffer holds megabytes of lines after it.
  const line = buf.subarray(start, end);
  const at = line.indexOf(TALLY_AT);
  if (at < 0) return undefined;
  const close = line.indexOf(CLOSE_BRACE, at + TALLY_AT.length);
  if (close < 0 || line.indexOf(RECORD_OPEN, 1) >= 0) return undefined;
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(`${line.toString('utf8', 0, close + 1)}}`) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const t = r.tally as Partial<RecordTally> | undefined;
  if (!r.key || typeof r.key !== 'object' || typeof r.outcome !== 'string' || !Array.isArray(r.faults) || !t || typeof t.calls !== 'number' || typeof t.confused !== 'boolean' || !Array.isArray(t.families) || !t.families.every((x) => typeof x === 'string')) return undefined;
  return fieldsOf(r as unknown as SmallFields, t.families as string[], t.confused, t.calls);
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** The top-level members read with JSON.parse, in the order of their extents in `RecordWalk.at`. */
const TOP_LEVEL = ['key', 'outcome', 'faults', 'failure', 'usage', 'userUsage', 'costUsd', 'userCostUsd', 'confusions', 'stateKey', 'pathKey', 'turns', 'simulatedMs'] as const;
const [KEY, OUTCOME, FAULTS, FAILURE, USAGE, USER_USAGE, COST, USER_COST, CONFUSIONS, STATE_KEY, PATH_KEY, TURNS, SIMULATED_MS] = TOP_LEVEL.map((_, i) => i) as number[] as [number, number, number, number, number, number, number, number, number, number, number, number, number];
/** Member indices past TOP_LEVEL: the two arrays walked element by element. */
const MESSAGES = TOP_LEVEL.length;
const TRACE = MESSAGES + 1;
const NAMES = [...TOP_LEVEL, 'messages', 'trace'].map((name) => Buffer.from(name));
/** The indices in NAMES of the names of each length. */
const BY_LENGTH: number[][] = [];
NAMES.forEach((name, i) => (BY_LENGTH[name.length] ??= []).push(i));
const PERTURBATIONS = Buffer.from('perturbations');
const TOOL = Buffer.from('tool');
const NULL = Buffer.from('null');
/** A member whose text did not parse: the line goes to the whole parse. */
const UNREADABLE = Symbol('unreadable');
/** Kept strings past this many: the table starts over (families, outcomes and failure classes are a few dozen). */
const MAX_KEPT = 4096;
/** Strings longer than this are not kept (no family, outcome or failure class is). */
const MAX_KEPT_LENGTH = 64;

/**
 * One walk over a record's bytes: the top level's members found by name, each message's `perturbations`
 * and each trace entry's `tool` read, everything else skipped. Methods on one reused object rather than
 * closures or an object per line: at a million lines, either cost more than the walk.
 */
class RecordWalk {
  /** Extents of the top-level members read with JSON.parse ([start, end) per TOP_LEVEL name), -1 when absent. */
  readonly at = new Int32Array(TOP_LEVEL.length * 2);
  families: string[] = [];
  calls = 0;
  sawMessages = false;
  sawTrace = false;
  /** Whether the trace entry being walked has `"tool":null`. */
  private toolIsNull = false;
  /** The plain strings of the list `plainList` is reading. */
  private strings: string[] = [];
  private b: Uint8Array = new Uint8Array(0);
  private n = 0;
  /** Plain ASCII strings already seen, by a hash of their bytes. */
  private readonly kept = new Map<number, string>();

  /** Walks `b[start, end)`; false when it is not plainly one record object. */
  walk(b: Uint8Array, start: number, end: number): boolean {
    this.b = b;
    this.n = end;
    this.at.fill(-1);
    this.families = [];
    this.calls = 0;
    this.sawMessages = false;
    this.sawTrace = false;
    return this.top(start);
  }

  private space(i: number): number {
    const { b, n } = this;
    while (i < n && isSpace(b[i] as number)) i++;
    return i;
  }

  /**
   * The index just past the string starting at `i` (a `"`), or -1 if it does not end before the line does.
   * The next quote is found by the typed array's own search (a native scan, several times a byte loop's
   * speed over a message's text); it ends the string unless an odd run of backslashes stands before it.
   */
  private string(i: number): number {
    const { b, n } = this;
    for (let j = i + 1; ; ) {
      const q = b.indexOf(QUOTE, j);
      if (q < 0 || q >= n) return -1;
      let k = q - 1;
      while (k > i && b[k] === BACKSLASH) k--;
      if (((q - 1 - k) & 1) === 0) return q + 1;
      j = q + 1;
    }
  }

  /** The key at `i`: its end past the closing quote, or -1 (not a string, cut short, or escaped: left to JSON.parse). */
  private key(i: number): number {
    const { b, n } = this;
    if (b[i] !== QUOTE) return -1;
    for (let j = i + 1; j < n; j++) {
      const c = b[j] as number;
      if (c === QUOTE) return j + 1;
      if (c === BACKSLASH) return -1;
    }
    return -1;
  }

  /** The index just past the JSON value starting at `i`, or -1 if it is cut short. */
  private value(i: number): number {
    const { b, n } = this;
    const c = b[i] as number;
    if (c === QUOTE) return this.string(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      let depth = 0;
      for (let j = i; j < n; j++) {
        const d = b[j] as number;
        if (d === QUOTE) {
          j = this.string(j) - 1;
          if (j < 0) return -1;
        } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
        else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
          depth--;
          if (depth === 0) return j + 1;
        }
      }
      return -1;
    }
    // A number, true, false or null: up to the next delimiter.
    let j = i;
    while (j < n) {
      const d = b[j] as number;
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
      j++;
    }
    return j > i ? j : -1;
  }

  /** Whether the bytes `b[start, end)` are `name`'s. */
  private bytesAre(start: number, end: number, name: Uint8Array): boolean {
    if (end - start !== name.length) return false;
    const { b } = this;
    for (let j = 0; j < name.length; j++) if (b[start + j] !== name[j]) return false;
    return true;
  }

  /** Whether the key `b[start, end)` (its quotes included) is `name`. */
  private is(start: number, end: number, name: Uint8Array): boolean {
    return this.bytesAre(start + 1, end - 1, name);
  }

  /**
   * The items of the object or array at `i` (`open` a `{` or a `[`), separated by commas; `item` reads
   * one and returns its end. An object's member is read up to its value first: `item` gets the key's start
   * and end and the value's start; an array's element gets its start (and -1, and its start again). The
   * list's end, or -1 when it is not one.
   */
  private sequence(i: number, open: number, close: number, item: (this: RecordWalk, start: number, keyEnd: number, valueStart: number) => number): number {
    const { b } = this;
    if (b[i] !== open) return -1;
    i = this.space(i + 1);
    if (b[i] === close) return i + 1;
    const keyed = open === OPEN_BRACE;
    for (;;) {
      let end: number;
      if (keyed) {
        const ke = this.key(i);
        if (ke < 0) return -1;
        const colon = this.space(ke);
        if (b[colon] !== COLON) return -1;
        end = item.call(this, i, ke, this.space(colon + 1));
      } else end = item.call(this, i, -1, i);
      if (end < 0) return -1;
      i = this.space(end);
      if (b[i] === close) return i + 1;
      if (b[i] !== COMMA) return -1;
      i = this.space(i + 1);
    }
  }

  /** The members of the object at `i`, each handed to `member` with its key's and value's starts; `member` returns the value's end. */
  private members(i: number, member: (this: RecordWalk, keyStart: number, keyEnd: number, valueStart: number) => number): number {
    return this.sequence(i, OPEN_BRACE, CLOSE_BRACE, member);
  }

  /** The whole line as a record object; false if it is not one. */
  private top(start: number): boolean {
    const end = this.members(this.space(start), this.topMember);
    return end >= 0 && this.space(end) === this.n;
  }

  private topMember(ks: number, ke: number, vs: number): number {
    let m = -1;
    // Only the names of the key's length are compared (one to three of them): 6% of the walk.
    const candidates = BY_LENGTH[ke - ks - 2];
    if (candidates !== undefined) for (let j = 0; j < candidates.length && m < 0; j++) if (this.is(ks, ke, NAMES[candidates[j] as number] as Buffer)) m = candidates[j] as number;
    if (m === MESSAGES) {
      this.sawMessages = true;
      return this.array(vs, this.message);
    }
    if (m === TRACE) {
      this.sawTrace = true;
      return this.array(vs, this.traceEntry);
    }
    const ve = this.value(vs);
    if (m >= 0 && ve >= 0) {
      this.at[2 * m] = vs;
      this.at[2 * m + 1] = ve;
    }
    return ve;
  }

  /** The array at `i` whose elements `element` reads (returning each one's end); its end, or -1. */
  private array(i: number, element: (this: RecordWalk, at: number) => number): number {
    return this.sequence(i, OPEN_BRACKET, CLOSE_BRACKET, element);
  }

  private message(i: number): number {
    return this.members(i, this.messageMember);
  }

  private messageMember(ks: number, ke: number, vs: number): number {
    const ve = this.value(vs);
    if (ve >= 0 && this.is(ks, ke, PERTURBATIONS)) {
      const list = this.parsed(vs, ve);
      if (!Array.isArray(list)) return -1;
      for (const f of list) if (!this.families.includes(f as string)) this.families.push(f as string);
    }
    return ve;
  }

  private traceEntry(i: number): number {
    this.toolIsNull = false;
    const end = this.members(i, this.traceMember);
    // A call counts unless its tool is null (as `t.tool !== null` reads it, a missing tool counts).
    if (end >= 0 && !this.toolIsNull) this.calls++;
    return end;
  }

  private traceMember(ks: number, ke: number, vs: number): number {
    const ve = this.value(vs);
    if (ve >= 0 && this.is(ks, ke, TOOL)) this.toolIsNull = this.bytesAre(vs, ve, NULL);
    return ve;
  }

  /**
   * The JSON value `b[start, end)`, UNREADABLE if it does not parse. The common shapes are read without
   * JSON.parse: an empty list, a string of plain ASCII (none escaped, none below a space, which JSON.parse
   * would refuse), and a list of such strings.
   */
  parsed(start: number, end: number): unknown {
    const { b } = this;
    const c = b[start] as number;
    if (c === QUOTE) {
      const s = this.plain(start, end);
      if (s !== undefined) return s;
    } else if (c === OPEN_BRACKET) {
      const list = this.plainList(start, end);
      if (list) return list;
    }
    try {
      return JSON.parse(Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('utf8')) as unknown;
    } catch {
      return UNREADABLE;
    }
  }

  /** The string `b[start, end)` (quotes included) when its bytes are plain ASCII, from the table of those seen. */
  private plain(start: number, end: number): string | undefined {
    const { b } = this;
    let hash = 0x811c9dc5;
    for (let j = start + 1; j < end - 1; j++) {
      const c = b[j] as number;
      if (c < 32 || c === BACKSLASH || c > 126) return undefined;
      hash = Math.imul(hash ^ c, 0x01000193);
    }
    hash = Math.imul(hash ^ (end - start), 0x01000193);
    const seen = this.kept.get(hash);
    if (seen !== undefined && seen.length === end - start - 2) {
      let same = true;
      for (let j = 0; j < seen.length && same; j++) same = seen.charCodeAt(j) === b[start + 1 + j];
      if (same) return seen;
    }
    const s = Buffer.from(b.buffer, b.byteOffset + start + 1, end - start - 2).toString('latin1');
    if (s.length > MAX_KEPT_LENGTH) return s;
    if (this.kept.size >= MAX_KEPT) this.kept.clear();
    this.kept.set(hash, s);
    return s;
  }

  /** The list `b[start, end)` when it holds only plain strings (`["typos","casing"]`), else undefined. */
  private plainList(start: number, end: number): string[] | undefined {
    this.strings = [];
    return this.sequence(start, OPEN_BRACKET, CLOSE_BRACKET, this.plainItem) === end ? this.strings : undefined;
  }

  /** A plain string at `i`, added to `strings`; its end, or -1 when it is not one. */
  private plainItem(i: number): number {
    if (this.b[i] !== QUOTE) return -1;
    const end = this.string(i);
    const s = end < 0 ? undefined : this.plain(i, end);
    if (s === undefined) return -1;
    this.strings.push(s);
    return end;
  }

  /** The top-level member `m` parsed, undefined when absent, UNREADABLE when it does not parse. */
  member(m: number): unknown {
    const a = this.at[2 * m] as number;
    return a < 0 ? undefined : this.parsed(a, this.at[2 * m + 1] as number);
  }

  /** Whether the top-level member `m` is absent or an empty list. */
  absentOrEmpty(m: number): boolean {
    const a = this.at[2 * m] as number;
    return a < 0 || (this.at[2 * m + 1] === a + 2 && this.b[a] === OPEN_BRACKET && this.b[a + 1] === CLOSE_BRACKET);
  }
}

/** The one walk every line reuses (a walk is synchronous, so two lines never share it at once). */
const WALK = new RecordWalk();

/**
 * The aggregation fields of the record in `b[start, end)` (a line's UTF-8 bytes), read without parsing its
 * messages and trace; undefined when the line is not plainly a record (torn, or a shape this walk does not
 * read), for the caller to parse whole. `macChecked`: the caller checks the line's MAC under the run's key, so a line laid out
 * with the grid's members first may be read from those alone (`gridFirstFields`).
 */
export function aggregationFieldsOfBytes(b: Uint8Array, start: number, end: number, macChecked = false): AggregationFields | undefined {
  // A line written with the grid's members first, where its MAC is checked: those and its tally, parsed once, and nothing of its
  // messages and trace.
  const first = macChecked ? gridFirstFields(b, start, end) : undefined;
  if (first) return first;
  const w = WALK;
  if (!w.walk(b, start, end) || !w.sawMessages || !w.sawTrace) return undefined;
  const key = w.member(KEY);
  const outcome = w.member(OUTCOME);
  const faults = w.member(FAULTS);
  if (!key || typeof key !== 'object' || typeof outcome !== 'string' || !Array.isArray(faults)) return undefined;
  // `confusions?.length`: absent or empty is the common case, read without parsing.
  const confusions = w.absentOrEmpty(CONFUSIONS) ? undefined : w.member(CONFUSIONS);
  const small = { key, outcome, faults, failure: w.member(FAILURE), usage: w.member(USAGE), userUsage: w.member(USER_USAGE), costUsd: w.member(COST), userCostUsd: w.member(USER_COST), stateKey: w.member(STATE_KEY), pathKey: w.member(PATH_KEY), turns: w.member(TURNS), simulatedMs: w.member(SIMULATED_MS) };
  if (confusions === UNREADABLE || Object.values(small).includes(UNREADABLE)) return undefined;
  return fieldsOf(small as SmallFields, w.families, ((confusions as unknown[] | null | undefined)?.length ?? 0) > 0, w.calls);
}

/** `aggregationFieldsOfBytes` of a line's text. */
export function aggregationFields(line: string, macChecked = false): AggregationFields | undefined {
  const bytes = Buffer.from(line, 'utf8');
  return aggregationFieldsOfBytes(bytes, 0, bytes.length, macChecked);
}
