// Pass or not per episode of a run, as a reader of its log counts them: a million episodes are a million keys,
// and a `Map` of their key strings made, hashed and kept (and the collector walking them) took the aggregation
// of a million records from 21.2 s to 24.5 s (docs/performance.md, "The ninth round"). Kept here as columns instead: the key's scenario
// and agent as numbers of a small table, its ε, λ and trial as numbers, found again through a hash table of
// typed arrays. It reads as the `Map<string, boolean>` it replaces, keyed by `keyString`.
import { keyString, type EpisodeKey } from './record.js';

/** A table's first size: grows by doubling. */
const FIRST = 1024;

/** The bits of a number as two 32-bit halves, with 0 and -0 one number and every NaN one NaN (as `String` reads them). */
const f64 = new Float64Array(1);
const i32 = new Int32Array(f64.buffer);

function mix(h: number, x: number): number {
  f64[0] = x === 0 ? 0 : Number.isNaN(x) ? Number.NaN : x;
  h = Math.imul(h ^ (i32[0] as number), 0x01000193);
  return Math.imul(h ^ (i32[1] as number), 0x01000193);
}

/** The hash of a key's columns. */
function hashOf(scenario: number, agent: number, eps: number, lambda: number, trial: number): number {
  let h = mix(mix(mix(Math.imul(Math.imul(0x811c9dc5 ^ scenario, 0x01000193) ^ agent, 0x01000193), eps), lambda), trial);
  // The numbers' bits sit high in their words (a small whole number's low word is 0): mixed down to the
  // low bits the table reads (murmur3's finalizer).
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Two numbers that `String` writes alike. */
const same = (a: number, b: number): boolean => a === b || (a !== a && b !== b);

/**
 * Each episode's outcome, in the order first added, under its key. `add` keeps the first outcome of a key
 * and says whether it was new; `get`, `has`, `size` and iteration read as a `Map` keyed by `keyString` does.
 */
export class EpisodeOutcomes implements Iterable<[string, boolean]> {
  private readonly names = new Map<string, number>();
  private readonly nameList: string[] = [];
  private scenario = new Int32Array(FIRST);
  private agent = new Int32Array(FIRST);
  private eps = new Float64Array(FIRST);
  private lambda = new Float64Array(FIRST);
  private trial = new Float64Array(FIRST);
  private pass = new Uint8Array(FIRST);
  /** Open addressing: the index of an entry plus one, 0 where free. */
  private slots = new Int32Array(FIRST * 2);
  private n = 0;
  /**
   * Every key as its string, once a key came whose ε, λ or trial is not a number (a record written by
   * another program): from then on this map holds them all. Also built on the first `get` or `has`.
   */
  private map: Map<string, boolean> | undefined;

  get size(): number {
    return this.map?.size ?? this.n;
  }

  /** Adds an episode's outcome; false, and nothing changed, when its key is in already. */
  add(key: EpisodeKey, pass: boolean): boolean {
    if (this.map !== undefined || typeof key.eps !== 'number' || typeof key.lambda !== 'number' || typeof key.trial !== 'number') {
      const map = this.asMap();
      const k = keyString(key);
      if (map.has(k)) return false;
      map.set(k, pass);
      return true;
    }
    const s = this.nameOf(String(key.scenario));
    const a = this.nameOf(String(key.agent));
    const h = hashOf(s, a, key.eps, key.lambda, key.trial);
    const mask = this.slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const at = this.slots[i] as number;
      if (at === 0) {
        if (this.n === this.pass.length) this.grow();
        const j = this.n++;
        this.scenario[j] = s;
        this.agent[j] = a;
        this.eps[j] = key.eps;
        this.lambda[j] = key.lambda;
        this.trial[j] = key.trial;
        this.pass[j] = pass ? 1 : 0;
        if (this.n * 2 > this.slots.length) this.rehash();
        else this.slots[i] = j + 1;
        return true;
      }
      const j = at - 1;
      if (this.scenario[j] === s && this.agent[j] === a && same(this.eps[j] as number, key.eps) && same(this.lambda[j] as number, key.lambda) && same(this.trial[j] as number, key.trial)) return false;
    }
  }

  get(key: string): boolean | undefined {
    return this.asMap().get(key);
  }

  has(key: string): boolean {
    return this.asMap().has(key);
  }

  *[Symbol.iterator](): IterableIterator<[string, boolean]> {
    if (this.map !== undefined) {
      yield* this.map;
      return;
    }
    for (let j = 0; j < this.n; j++) yield [this.keyAt(j), this.pass[j] === 1];
  }

  private keyAt(j: number): string {
    return `${this.nameList[this.scenario[j] as number]}|${this.nameList[this.agent[j] as number]}|${this.eps[j]}|${this.lambda[j]}|${this.trial[j]}`;
  }

  /** The keys as strings, made once: after it, the columns are no longer read. */
  private asMap(): Map<string, boolean> {
    if (this.map === undefined) {
      const map = new Map<string, boolean>();
      for (let j = 0; j < this.n; j++) map.set(this.keyAt(j), this.pass[j] === 1);
      this.map = map;
      this.n = 0;
      this.slots = new Int32Array(0);
    }
    return this.map;
  }

  private nameOf(name: string): number {
    let id = this.names.get(name);
    if (id === undefined) {
      id = this.nameList.length;
      this.names.set(name, id);
      this.nameList.push(name);
    }
    return id;
  }

  private grow(): void {
    const size = this.pass.length * 2;
    const widen = <T extends Int32Array | Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.scenario = widen(this.scenario, (n) => new Int32Array(n));
    this.agent = widen(this.agent, (n) => new Int32Array(n));
    this.eps = widen(this.eps, (n) => new Float64Array(n));
    this.lambda = widen(this.lambda, (n) => new Float64Array(n));
    this.trial = widen(this.trial, (n) => new Float64Array(n));
    this.pass = widen(this.pass, (n) => new Uint8Array(n));
  }

  /** A table twice the size, every entry placed again. */
  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let j = 0; j < this.n; j++) {
      let i = hashOf(this.scenario[j] as number, this.agent[j] as number, this.eps[j] as number, this.lambda[j] as number, this.trial[j] as number) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = j + 1;
    }
    this.slots = slots;
  }
}
