import type { z } from 'zod';
import { deriveSeed, makeRng, type Rng } from './seeds.js';

/**
 * A piece of a user message. Protected pieces are entities the goal depends on (ids, e-mails, names,
 * zip codes, amounts, addresses): perturbation families leave them alone.
 */
export interface Segment {
  readonly text: string;
  readonly protected?: boolean;
}

/** What a family touches; the engine reads these flags and never switches on a family's id. */
export type PerturbationTouch = 'user-text';

export interface PerturbationContext {
  readonly eps: number;
  readonly rng: Rng;
}

/** A family of meaning-preserving changes to the user's wording. */
export interface PerturbationFamily<P extends z.ZodObject = z.ZodObject> {
  readonly id: string;
  readonly description: string;
  readonly touches: readonly PerturbationTouch[];
  readonly params: P;
  /** Must return its input unchanged at ε = 0. Never changes a protected segment. */
  apply(segments: readonly Segment[], ctx: PerturbationContext, params: z.output<P>): Segment[];
}

/** The text of a message from its segments. */
export const joinSegments = (segments: readonly Segment[]): string => segments.map((s) => s.text).join('');

/**
 * Applies every family at intensity ε, each from its own stream keyed by the message, so that adding a
 * family or a message changes no other draw. Protected segments are verified to survive verbatim.
 */
export function perturb(
  segments: readonly Segment[],
  eps: number,
  families: readonly PerturbationFamily[],
  seed: string,
  messageIndex: number,
  params: Readonly<Record<string, unknown>> = {},
): { segments: Segment[]; applied: string[] } {
  if (!(eps >= 0 && eps <= 1)) throw new RangeError(`ε must be in [0, 1], got ${eps}`);
  if (eps === 0) return { segments: [...segments], applied: [] };
  let current: Segment[] = [...segments];
  const applied: string[] = [];
  for (const family of families) {
    const rng = makeRng(deriveSeed(seed, family.id, messageIndex));
    const next = family.apply(current, { eps, rng }, family.params.parse(params[family.id] ?? {}));
    if (!protectedSurvive(current, next)) continue;
    if (joinSegments(next) !== joinSegments(current)) applied.push(family.id);
    current = next;
  }
  return { segments: current, applied };
}

function protectedSurvive(before: readonly Segment[], after: readonly Segment[]): boolean {
  const a = before.filter((s) => s.protected).map((s) => s.text);
  const b = after.filter((s) => s.protected).map((s) => s.text);
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/** Maps every unprotected segment's text through `f`, leaving protected ones as they are. */
export function mapUnprotected(segments: readonly Segment[], f: (text: string) => string): Segment[] {
  return segments.map((s) => (s.protected ? s : { text: f(s.text) }));
}
