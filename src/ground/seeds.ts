import seedrandom from 'seedrandom';

/** A seeded source of uniform numbers in [0, 1). One instance per stream; never global. */
export interface Rng {
  (): number;
}

/**
 * cyrb53's two 32-bit lanes, fed text piece by piece (`absorb`) and mixed into the 53-bit result
 * (`digest`). One state for the module: every hash here starts, feeds and ends without awaiting.
 */
let lane1 = 0;
let lane2 = 0;
function start53(salt: number): void {
  lane1 = 0xdeadbeef ^ salt;
  lane2 = 0x41c6ce57 ^ salt;
}
function absorb(text: string): void {
  let h1 = lane1;
  let h2 = lane2;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  lane1 = h1;
  lane2 = h2;
}
function digest53(): number {
  let h1 = Math.imul(lane1 ^ (lane1 >>> 16), 2246822507);
  h1 ^= Math.imul(lane2 ^ (lane2 >>> 13), 3266489909);
  let h2 = Math.imul(lane2 ^ (lane2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * Hashes the parts into a 53-bit integer (cyrb53). Stable across platforms and Node versions, which
 * is what lets one seed reproduce an episode anywhere.
 */
export function hash53(text: string, salt = 0): number {
  start53(salt);
  absorb(text);
  return digest53();
}

/** A part of a seed path. Numbers are written with full precision so that 0.1 and 0.10 agree. */
export type SeedPart = string | number | boolean;

/**
 * Derives an independent seed from a path of parts, e.g. (run seed, scenario, ε, λ, trial, stream).
 * The separator cannot occur inside a number, and strings are length-prefixed, so distinct paths never
 * collide by concatenation.
 */
export function deriveSeed(...parts: readonly SeedPart[]): string {
  // `hash53` of the parts written `s<length>:<text>`, `n<number>` or `b<0|1>` and joined by `|`, fed to
  // the hash piece by piece rather than built as one string (a sweep derives several seeds a tool call).
  start53(0);
  for (let k = 0; k < parts.length; k++) {
    if (k > 0) absorb('|');
    const p = parts[k];
    if (typeof p === 'string') {
      absorb(`s${p.length}:`);
      absorb(p);
    } else if (typeof p === 'number') absorb(`n${String(p)}`);
    else absorb(p ? 'b1' : 'b0');
  }
  return base36(digest53());
}

const DIGITS = [...'0123456789abcdefghijklmnopqrstuvwxyz'].map((c) => c.charCodeAt(0));
const digits = new Array<number>(11);

/**
 * A 53-bit integer in base 36, eleven digits with leading zeros: `n.toString(36).padStart(11, '0')`,
 * which V8 writes through its general conversion of doubles at about ten times the cost (exact here:
 * every quotient of an integer below 2^53 is).
 */
function base36(n: number): string {
  for (let k = 10; k >= 0; k--) {
    const q = Math.floor(n / 36);
    digits[k] = DIGITS[n - q * 36] as number;
    n = q;
  }
  return String.fromCharCode(...digits);
}

/** A fresh seeded RNG (Alea: fast to construct, which matters at one instance per stream per episode). */
export function makeRng(seed: string): Rng {
  return seedrandom.alea(seed) as Rng;
}

/**
 * The state of the Alea generator `makeRng(seed)` starts from: the carry `c` and three fractions `s0..s2`,
 * each a multiple of 2^-32 in [0, 1). A hot loop that steps the generator inline (the sign-flip test)
 * starts here and draws exactly what `makeRng(seed)` would.
 */
export function aleaState(seed: string): { c: number; s0: number; s1: number; s2: number } {
  const { c, s0, s1, s2 } = seedrandom.alea(seed, { state: true }).state();
  return { c, s0, s1, s2 };
}

/** An integer in [0, n). */
export function randInt(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

/** One element of a non-empty list. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new RangeError('pick() needs a non-empty list');
  return items[randInt(rng, items.length)] as T;
}

/** Picks a key in proportion to its weight, from a uniform draw `u` in [0, 1); undefined when every weight is zero. */
export function pickWeighted<K extends string>(u: number, weights: Readonly<Partial<Record<K, number>>>): K | undefined {
  const entries = Object.entries(weights).filter(([, w]) => typeof w === 'number' && w > 0) as [K, number][];
  const total = entries.reduce((s, [, w]) => s + w, 0);
  if (total <= 0) return undefined;
  let x = u * total;
  for (const [k, w] of entries) {
    x -= w;
    if (x < 0) return k;
  }
  return entries[entries.length - 1]?.[0];
}
