import { deepFreeze } from './freeze.js';
import type { z } from 'zod';
import { volatileFields } from './world.js';
import { escapeRegExp, regex } from './regex.js';

/** One difference between the final and the gold database. */
export interface DiffEntry {
  /** Dotted path, e.g. `orders.W9000001.status`. */
  readonly path: string;
  readonly kind: 'changed' | 'missing' | 'unexpected' | 'duplicated';
  readonly expected?: unknown;
  readonly actual?: unknown;
  /** A sentence a person can read, e.g. `orders.W9000001.status: "pending" != "cancelled"`. */
  readonly message: string;
}

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    if (volatileFields.has(s)) return s;
    const def = defOf(s);
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'readonly' || def.type === 'catch' || def.type === 'prefault') {
      s = def.innerType as z.ZodType;
    } else if (def.type === 'pipe') {
      s = def.in as z.ZodType;
    } else if (def.type === 'lazy') {
      s = (def.getter as () => z.ZodType)();
    } else {
      return s;
    }
  }
}

/**
 * Canonical forms of frozen entries, by walker: an entry of the initial database that scenarios share
 * (frozen, so it cannot change) is walked once, and every canonical database holding it holds the same
 * canonical entry, which `deepEqual` then finds equal at once. Canonical forms are only read.
 */
const frozenWalks = new WeakMap<Walker, WeakMap<object, unknown>>();
function frozenWalk(w: Walker, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return w.walk(value);
  let memo = frozenWalks.get(w);
  if (!memo) frozenWalks.set(w, (memo = new WeakMap()));
  if (memo.has(value)) return memo.get(value);
  const c = deepFreeze(w.walk(value));
  memo.set(value, c);
  return c;
}

/** A schema compiled once into a walker: the comparator runs on every episode's whole database. */
interface Walker {
  readonly walk: (value: unknown) => unknown;
  /** No volatile field below: the walk is the identity and can share the value. */
  readonly pure: boolean;
}
const compiled = new WeakMap<z.ZodType, Walker>();
const IDENTITY: Walker = { walk: (v) => v, pure: true };

function compile(schema: z.ZodType, depth = 0): Walker {
  const cached = compiled.get(schema);
  if (cached) return cached;
  if (depth > 64) return IDENTITY; // a recursive (lazy) schema: deeper levels are compared as they are
  const s = unwrap(schema);
  const def = defOf(s);
  let walker: Walker = IDENTITY;
  if (volatileFields.has(s)) {
    walker = { walk: () => undefined, pure: false };
  } else if (def.type === 'object') {
    const fields = Object.entries(def.shape as Record<string, z.ZodType>).map(([k, f]) => [k, compile(f, depth + 1)] as const);
    const impure = fields.filter(([, w]) => !w.pure);
    if (impure.length > 0) {
      walker = {
        pure: false,
        walk: (value) => {
          if (value === null || typeof value !== 'object') return value;
          const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
          for (const [k, w] of impure) {
            if (!(k in out)) continue;
            const v = w.walk(out[k]);
            if (v === undefined) delete out[k];
            else out[k] = v;
          }
          return out;
        },
      };
    }
  } else if (def.type === 'record' || def.type === 'array') {
    const inner = compile((def.type === 'record' ? def.valueType : def.element) as z.ZodType, depth + 1);
    if (!inner.pure) {
      walker = {
        pure: false,
        walk:
          def.type === 'array'
            ? (value) => (Array.isArray(value) ? value.map(inner.walk) : value)
            : (value) => {
                if (value === null || typeof value !== 'object') return value;
                const out: Record<string, unknown> = {};
                for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
                  const c = frozenWalk(inner, v);
                  if (c !== undefined) out[k] = c;
                }
                return out;
              },
      };
    }
  } else if (def.type === 'union') {
    const options = (def.options as z.ZodType[]).map((o) => ({ schema: o, w: compile(o, depth + 1), tags: literalFields(o) }));
    if (options.some((o) => !o.w.pure)) {
      // Variants may declare different volatile fields; the variant the value parses as decides. A variant
      // whose required literal field (a discriminator) the value does not carry cannot parse it, so it is
      // passed over without a parse: most of a union's cost, on every episode's touched entries.
      walker = {
        pure: false,
        walk: (value) => {
          for (const o of options) if (admits(o.tags, value) && o.schema.safeParse(value).success) return o.w.walk(value);
          return value;
        },
      };
    }
  }
  compiled.set(schema, walker);
  return walker;
}

/**
 * An object schema's required fields whose schema is a bare literal, with the values each accepts: a
 * value lacking one of them, or holding another value there, fails the schema whatever its other fields.
 */
function literalFields(schema: z.ZodType): readonly (readonly [string, ReadonlySet<unknown>])[] {
  if (volatileFields.has(schema)) return [];
  const def = defOf(schema);
  if (def.type !== 'object') return [];
  const out: [string, ReadonlySet<unknown>][] = [];
  for (const [k, f] of Object.entries(def.shape as Record<string, z.ZodType>)) {
    const fd = defOf(f);
    if (fd.type === 'literal' && Array.isArray(fd.values)) out.push([k, new Set(fd.values as unknown[])]);
  }
  return out;
}

/** Whether a value carries every literal field a variant requires, each with a value it accepts. */
function admits(tags: readonly (readonly [string, ReadonlySet<unknown>])[], value: unknown): boolean {
  if (tags.length === 0) return true;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  // Read as the object schema reads a field (a missing one is undefined, which only a literal undefined accepts).
  for (const [k, accepted] of tags) if (!accepted.has((value as Record<string, unknown>)[k])) return false;
  return true;
}

/**
 * The canonical form of a value under its schema: volatile fields removed. Objects and records compare
 * by key and arrays as multisets (see `diffCanonical`), so no order needs fixing here.
 */
export function canonicalize(schema: z.ZodType, value: unknown): unknown {
  return compile(schema).walk(value);
}

/** Structural equality of JSON-shaped values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  for (const k of ak) if (!(k in bo) || !deepEqual(ao[k], bo[k])) return false;
  return true;
}

/** A deep copy of JSON-shaped data; several times faster than structuredClone on a world database. */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const k in value as Record<string, unknown>) out[k] = cloneJson((value as Record<string, unknown>)[k]);
  return out as T;
}

/** JSON with sorted keys, so equal values give equal strings. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .filter((k) => obj[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`)
    .join(',')}}`;
}

function short(value: unknown, max = 140): string {
  const text = stableJson(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Compares two canonical values and names every difference. Records compare by key; arrays compare as
 * multisets, and an unexpected element equal to an expected one is reported as a duplicate.
 */
export function diffCanonical(expected: unknown, actual: unknown, path = ''): DiffEntry[] {
  if (deepEqual(expected, actual)) return [];
  const here = path || '(root)';
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const key = keyField(expected, actual);
    return key ? diffKeyed(expected as Record<string, unknown>[], actual as Record<string, unknown>[], key, path) : diffMultiset(expected, actual, here);
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const out: DiffEntry[] = [];
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    for (const key of keys) out.push(...diffAt(path ? `${path}.${key}` : key, key in expected, expected[key], key in actual, actual[key]));
    return out;
  }
  return [{ path: here, kind: 'changed', expected, actual, message: `${here}: ${short(actual)} != ${short(expected)} (actual != expected)` }];
}

/** The difference at one key of an object, present on either side or both. */
function diffAt(p: string, inExpected: boolean, expected: unknown, inActual: boolean, actual: unknown): DiffEntry[] {
  if (!inActual) return [{ path: p, kind: 'missing', expected, message: `${p}: missing (expected ${short(expected)})` }];
  if (!inExpected) return [{ path: p, kind: 'unexpected', actual, message: `${p}: unexpected ${short(actual)}` }];
  return diffCanonical(expected, actual, p);
}

/**
 * The top-level fields of a database schema that are collections (records of entries), with the schema
 * of their entries; empty when the schema is not an object.
 */
export function collectionsOf(dbSchema: z.ZodType): ReadonlyMap<string, z.ZodType> {
  // Read once per schema: the judge asks on every episode.
  const cached = collectionsCache.get(dbSchema);
  if (cached) return cached;
  const out = new Map<string, z.ZodType>();
  const def = defOf(unwrap(dbSchema));
  if (def.type === 'object') {
    for (const [field, schema] of Object.entries(def.shape as Record<string, z.ZodType>)) {
      const inner = unwrap(schema);
      const d = defOf(inner);
      if (!volatileFields.has(inner) && d.type === 'record') out.set(field, d.valueType as z.ZodType);
    }
  }
  collectionsCache.set(dbSchema, out);
  return out;
}
const collectionsCache = new WeakMap<z.ZodType, ReadonlyMap<string, z.ZodType>>();

/**
 * Per collection, the entries whose canonical forms differ between two canonical databases (or that one
 * of them lacks): with them, `diffSparse` knows which untouched entries it may skip.
 */
export function changedEntries(dbSchema: z.ZodType, a: unknown, b: unknown): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (!isPlainObject(a) || !isPlainObject(b)) return out;
  for (const field of collectionsOf(dbSchema).keys()) {
    const ca = a[field];
    const cb = b[field];
    if (!isPlainObject(ca) || !isPlainObject(cb)) continue;
    const keys = new Set<string>();
    for (const k of new Set([...Object.keys(ca), ...Object.keys(cb)])) if (!(k in ca) || !(k in cb) || !deepEqual(ca[k], cb[k])) keys.add(k);
    out.set(field, keys);
  }
  return out;
}

/**
 * `diffCanonical(expected, canonicalize(dbSchema, db))`, entry for entry, for a database whose
 * collections report which entries may differ from the initial database (`candidates`, an overlay's
 * touched entries plus those `expected` changes): every other entry is the initial one, equal in
 * `expected`, so it is neither canonicalised nor compared. A field without candidates is compared whole.
 */
export function diffSparse(dbSchema: z.ZodType, expected: unknown, db: Record<string, unknown>, candidates: (field: string) => ReadonlySet<string> | undefined): DiffEntry[] {
  const top = defOf(unwrap(dbSchema));
  if (top.type !== 'object' || !isPlainObject(expected)) return diffCanonical(expected, canonicalize(dbSchema, db));
  const shape = top.shape as Record<string, z.ZodType>;
  const collections = collectionsOf(dbSchema);
  const out: DiffEntry[] = [];
  for (const field of [...new Set([...Object.keys(expected), ...Object.keys(db)])].sort()) {
    const entrySchema = collections.get(field);
    const keys = entrySchema ? candidates(field) : undefined;
    const exp = expected[field];
    if (entrySchema && keys && isPlainObject(exp) && field in db) {
      const walker = compile(entrySchema);
      const actual = db[field] as Record<string, unknown>;
      for (const key of [...keys].sort()) {
        // As the record walker: an impure walk that leaves nothing drops the entry.
        const canon = key in actual ? walker.walk(actual[key]) : undefined;
        const inActual = key in actual && (walker.pure || canon !== undefined);
        if (!(key in exp) && !inActual) continue;
        out.push(...diffAt(`${field}.${key}`, key in exp, exp[key], inActual, canon));
      }
      continue;
    }
    // As the object walker: fields the schema does not name stay as they are, volatile ones go. A plain
    // copy first, so that no proxy of the overlay ends up in a diff entry (records cross threads).
    const walker = shape[field] ? compile(shape[field]) : IDENTITY;
    const canon = field in db ? walker.walk(cloneJson(db[field])) : undefined;
    const inActual = field in db && (walker.pure || canon !== undefined);
    if (!(field in expected) && !inActual) continue;
    out.push(...diffAt(field, field in expected, exp, inActual, canon));
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The field that identifies array elements, if any: `id`, else the first field ending in `Id`, when
 * every element of both arrays has a distinct string value for it.
 */
function keyField(expected: unknown[], actual: unknown[]): string | undefined {
  const all = [...expected, ...actual];
  if (all.length === 0 || !all.every(isPlainObject)) return undefined;
  const first = all[0] as Record<string, unknown>;
  const candidates = ['id', ...Object.keys(first).filter((k) => k.endsWith('Id') && k !== 'id')];
  for (const k of candidates) {
    const unique = (list: unknown[]) => {
      const values = list.map((e) => (e as Record<string, unknown>)[k]);
      return values.every((v) => typeof v === 'string') && new Set(values).size === values.length;
    };
    if (unique(expected) && unique(actual)) return k;
  }
  return undefined;
}

function diffKeyed(expected: Record<string, unknown>[], actual: Record<string, unknown>[], key: string, path: string): DiffEntry[] {
  const byKey = (list: Record<string, unknown>[]) => new Map(list.map((e) => [String(e[key]), e]));
  const e = byKey(expected);
  const a = byKey(actual);
  const out: DiffEntry[] = [];
  for (const k of [...new Set([...e.keys(), ...a.keys()])].sort()) {
    const p = `${path}[${k}]`;
    if (!a.has(k)) out.push({ path: p, kind: 'missing', expected: e.get(k), message: `${p}: missing (expected ${short(e.get(k))})` });
    else if (!e.has(k)) out.push({ path: p, kind: 'unexpected', actual: a.get(k), message: `${p}: unexpected ${short(a.get(k))}` });
    else out.push(...diffCanonical(e.get(k), a.get(k), p));
  }
  return out;
}

function diffMultiset(expected: unknown[], actual: unknown[], path: string): DiffEntry[] {
  const remaining = new Map<string, number>();
  for (const e of expected) {
    const k = stableJson(e);
    remaining.set(k, (remaining.get(k) ?? 0) + 1);
  }
  const expectedKeys = new Set(remaining.keys());
  const unexpected: unknown[] = [];
  for (const a of actual) {
    const k = stableJson(a);
    const n = remaining.get(k) ?? 0;
    if (n > 0) remaining.set(k, n - 1);
    else unexpected.push(a);
  }
  const out: DiffEntry[] = [];
  for (const a of unexpected) {
    if (expectedKeys.has(stableJson(a))) {
      out.push({ path, kind: 'duplicated', actual: a, message: `${path}: ${short(a)} duplicated` });
    } else {
      out.push({ path, kind: 'unexpected', actual: a, message: `${path}: unexpected ${short(a)}` });
    }
  }
  for (const [k, n] of remaining) {
    for (let i = 0; i < n; i++) {
      const e = JSON.parse(k) as unknown;
      out.push({ path, kind: 'missing', expected: e, message: `${path}: missing ${short(e)}` });
    }
  }
  return out;
}

/** Lower-case letters, digits and `@` only, for comparing identity details and ids however they were typed. */
export const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9@]/g, '');

/** Typographic apostrophes and quotes as plain ones: "I’ll" is "I'll", “cancelled” is "cancelled". */
export const plainQuotes = (text: string): string => text.replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d]/g, '"');

/** Normalises text for output matching: case, whitespace and typographic quotes. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

const AMOUNT = /^\s*(?:\$|usd\s*)?\s*(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s*(?:\$|usd|dollars?)?\s*$/i;
const NUMBER_IN_TEXT = /(?<![\w.])\$?\s?(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)(?!\d)/g;

/** The number an amount-like string denotes ("$1,234.50", "1234.5 dollars"), or undefined. */
export function parseAmount(text: string): number | undefined {
  const m = AMOUNT.exec(text);
  if (!m?.[1]) return undefined;
  return Number(m[1].replace(/,/g, ''));
}

/**
 * Whether `text` states the required output: amounts match numerically (so "$1,234.50" matches
 * "1234.5"), anything else as a case- and space-insensitive phrase on word boundaries.
 */
export function outputMatches(required: string, text: string): boolean {
  const amount = parseAmount(required);
  if (amount !== undefined) {
    for (const m of text.matchAll(NUMBER_IN_TEXT)) {
      if (m[1] && Math.abs(Number(m[1].replace(/,/g, '')) - amount) < 0.005) return true;
    }
    return false;
  }
  const needle = normalizeText(required).replace(/^#/, '');
  const hay = normalizeText(text);
  return regex(`(?<![\\w])#?${escapeRegExp(needle)}(?![\\w])`).test(hay);
}
