/** Small helpers the perturbation families share. */
import type { Segment } from '../src/ground/perturb.js';
import { pick, type Rng } from '../src/ground/seeds.js';

/** True with probability p. */
export const chance = (rng: Rng, p: number): boolean => p > 0 && rng() < p;

/** One element of a non-empty list, or undefined for an empty one. */
export const maybePick = <T>(rng: Rng, items: readonly T[]): T | undefined => (items.length === 0 ? undefined : pick(rng, items));

/** `replacement` with the first letter upper-cased when `original` starts with a capital. */
export const likeCase = (original: string, replacement: string): string =>
  /^[A-Z]/.test(original) && /^[a-z]/.test(replacement) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;

/** A regex matching any of the phrases as whole words, longest first, case-insensitive. */
export function phraseRegex(phrases: readonly string[]): RegExp | undefined {
  if (phrases.length === 0) return undefined;
  const sorted = [...phrases].sort((a, b) => b.length - a.length).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  return new RegExp(`(?<![\\w'])(?:${sorted.join('|')})(?![\\w'])`, 'gi');
}

/** The slot of each protected segment in a run of segments. */
export const slotsIn = (segments: readonly Segment[]): string[] => segments.filter((s) => s.protected && s.slot).map((s) => s.slot as string);

/** Whether two lists hold the same strings, ignoring order. */
export const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

/** The part with its first letter made small when it starts an ordinary word ("Please" but not "I" or a protected name). */
export function lowerFirst(part: readonly Segment[]): Segment[] {
  const [first, ...rest] = part;
  if (!first || first.protected || !/^[A-Z][a-z]/.test(first.text)) return [...part];
  return [{ ...first, text: first.text.charAt(0).toLowerCase() + first.text.slice(1) }, ...rest];
}

/** The part with its first letter made capital, as at the start of a sentence. */
export function upperFirst(part: readonly Segment[]): Segment[] {
  const [first, ...rest] = part;
  if (!first || first.protected || !/^[a-z]/.test(first.text)) return [...part];
  return [{ ...first, text: first.text.charAt(0).toUpperCase() + first.text.slice(1) }, ...rest];
}
