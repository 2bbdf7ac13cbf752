/**
 * An episode's database as an overlay on the scenario's initial one. A world database is mostly
 * collections (records of entries: users, orders, ...) of which an episode reads a handful; copying and
 * comparing all of them per episode was most of an episode's cost. Here each collection is a proxy that
 * copies an entry the first time it is read, so entries never read stay shared with the initial database
 * (which nothing can reach to change) and need no comparison: they are still the initial entries.
 */

/** An episode's database and what it may have changed. */
export interface OverlayDb {
  /** The database handed to the world's handlers; it reads and writes as a plain object. */
  readonly db: Record<string, unknown>;
  /**
   * Per top-level field, the entry keys that may differ from the initial database (read, written,
   * added or deleted), or `undefined` where the whole field must be compared: a field that is not a
   * collection, or one that was replaced.
   */
  touched(field: string): ReadonlySet<string> | undefined;
  /**
   * The database as it is now, as a plain object nothing later changes: entries never copied are the
   * initial ones (shared, never written), entries copied are copied again. For a tool that answers from
   * the past (a stale read).
   */
  freeze(): Record<string, unknown>;
  /**
   * The database as it is at the end, for reading only: entries never copied are the initial ones, the
   * others the episode's own, and nothing is copied or counted as touched. The judge reads the final
   * state through it once no handler can run, where reading through the collections would copy every
   * entry a check walks (every user, for the disclosure check).
   */
  settled(): Record<string, unknown>;
}

/** How `findEntry` asks a collection for the first entry that passes a test without copying the others. */
const FIND = Symbol('shakedown.findEntry');

/**
 * The first entry of a collection (in key order) that passes `test`, as `Object.values(collection).find(test)`
 * gives it. On an episode's database, where reading an entry copies it, only the entry found is read:
 * the test sees the others as they are, and must not change them. A world's handlers use it for a lookup
 * that scans a collection (a user by e-mail), so that a scan costs no copy of every entry.
 */
export function findEntry<T>(collection: Readonly<Record<string, T>>, test: (entry: T) => boolean): T | undefined {
  const find = (collection as { [FIND]?: (test: (entry: unknown) => boolean) => string | undefined })[FIND];
  if (typeof find !== 'function') return Object.values(collection).find(test);
  const key = find(test as (entry: unknown) => boolean);
  return key === undefined ? undefined : collection[key];
}

/**
 * A shallow copy of a base collection, made once: spreading a frozen object (the initial database is
 * frozen) takes the engine's slow path, spreading its unfrozen copy the fast one.
 */
const shallow = new WeakMap<object, Record<string, unknown>>();
function shallowOf(base: Record<string, unknown>): Record<string, unknown> {
  let copy = shallow.get(base);
  if (!copy) shallow.set(base, (copy = { ...base }));
  return copy;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/**
 * Wraps `initial` (a plain object) for one episode: the fields named in `collections` that hold plain
 * objects become copy-on-read collections; every other field is copied at once with `clone`.
 */
export function overlayDb(initial: Record<string, unknown>, collections: ReadonlySet<string>, clone: <T>(value: T) => T): OverlayDb {
  const db: Record<string, unknown> = {};
  const proxies = new Map<string, Collection>();
  for (const field of Object.keys(initial)) {
    const value = initial[field];
    if (collections.has(field) && isRecord(value)) {
      const c = collection(value, clone);
      proxies.set(field, c);
      db[field] = c.proxy;
    } else {
      db[field] = clone(value);
    }
  }
  /** The database now as a plain object, the episode's own values passed through `copy`. */
  const snapshot = (copy: <T>(value: T) => T): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const field of Object.keys(db)) {
      const c = proxies.get(field);
      out[field] = c && db[field] === c.proxy ? c.snapshot(copy) : copy(db[field]);
    }
    return out;
  };
  return {
    db,
    touched(field) {
      const c = proxies.get(field);
      // A handler that replaced a whole collection left nothing to track.
      return c && db[field] === c.proxy ? c.touched : undefined;
    },
    freeze: () => snapshot(clone),
    settled: () => snapshot((value) => value),
  };
}

/**
 * A record whose entries are copied from `base` when first read. Key order follows a plain object's:
 * the base's keys, then keys added (or deleted and added again) in the order they were added.
 */
/** One collection of an overlay: its proxy, the keys it may have changed, and its entries now. */
interface Collection {
  readonly proxy: object;
  readonly touched: Set<string>;
  /** The entries now as a plain object: those never copied are the base's, the episode's own go through `copy`. */
  snapshot(copy: <T>(value: T) => T): Record<string, unknown>;
}

function collection(base: Record<string, unknown>, clone: <T>(value: T) => T): Collection {
  const own = new Map<string, unknown>();
  const deleted = new Set<string>();
  /** Keys not in base's order any more: new, or deleted and set again. */
  const appended: string[] = [];
  const touched = new Set<string>();
  const inBase = (key: string) => Object.hasOwn(base, key);
  const has = (key: string) => own.has(key) || (inBase(key) && !deleted.has(key));
  const read = (key: string): unknown => {
    if (own.has(key)) return own.get(key);
    if (deleted.has(key) || !inBase(key)) return undefined;
    const copy = clone(base[key]);
    own.set(key, copy);
    touched.add(key);
    return copy;
  };
  const write = (key: string, value: unknown) => {
    if (!has(key) || (deleted.has(key) && inBase(key))) {
      const i = appended.indexOf(key);
      if (i >= 0) appended.splice(i, 1);
      appended.push(key);
    }
    own.set(key, value);
    touched.add(key);
  };
  const remove = (key: string) => {
    own.delete(key);
    if (inBase(key)) deleted.add(key);
    const i = appended.indexOf(key);
    if (i >= 0) appended.splice(i, 1);
    touched.add(key);
  };
  const keys = (): string[] => {
    if (deleted.size === 0 && appended.length === 0) return Object.keys(base);
    const out = Object.keys(base).filter((k) => !deleted.has(k) && !appended.includes(k));
    if (appended.length === 0) return out;
    // A plain object lists integer-like keys first, in numeric order: let one order the keys.
    const order: Record<string, true> = {};
    for (const k of out) order[k] = true;
    for (const k of appended) order[k] = true;
    return Object.keys(order);
  };
  const find = (test: (entry: unknown) => boolean): string | undefined => keys().find((key) => test(own.has(key) ? own.get(key) : base[key]));
  const proxy = new Proxy({} as Record<string, unknown>, {
    get(_target, key) {
      if (key === FIND) return find;
      if (typeof key === 'symbol') return Reflect.get(base, key);
      return has(key) ? read(key) : Reflect.get(Object.prototype, key);
    },
    set(_target, key, value) {
      if (typeof key === 'symbol') return false;
      write(key, value);
      return true;
    },
    defineProperty(_target, key, descriptor) {
      if (typeof key === 'symbol' || !('value' in descriptor)) return false;
      write(key, descriptor.value);
      return true;
    },
    deleteProperty(_target, key) {
      if (typeof key !== 'symbol') remove(key);
      return true;
    },
    has(_target, key) {
      return typeof key === 'symbol' ? key in base : has(key) || key in Object.prototype;
    },
    ownKeys() {
      return keys();
    },
    getOwnPropertyDescriptor(_target, key) {
      if (typeof key === 'symbol' || !has(key)) return undefined;
      // An accessor, so that listing keys (Object.keys asks for each descriptor) copies no entry.
      return { get: () => read(key), set: (value: unknown) => write(key, value), enumerable: true, configurable: true };
    },
  });
  const snapshot = (copy: <T>(value: T) => T): Record<string, unknown> => {
    if (deleted.size === 0 && appended.length === 0) {
      // The base's keys in its order, with the entries the episode holds in place of the initial ones.
      const out = { ...shallowOf(base) };
      for (const [key, value] of own) out[key] = copy(value);
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const key of keys()) out[key] = own.has(key) ? copy(own.get(key)) : base[key];
    return out;
  };
  return { proxy, touched, snapshot };
}
