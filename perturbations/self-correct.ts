import { z } from 'zod';
import type { PerturbationFamily, Segment } from '../src/ground/perturb.js';
import { pick, randInt, type Rng } from '../src/ground/seeds.js';
import { chance } from './util.js';

/** How a person takes back what they just wrote: text before and after the right value. */
const CORRECTIONS: readonly (readonly [string, string])[] = [
  [', sorry, I mean ', ''],
  [' (sorry, typo: ', ')'],
  [', no wait, make that ', ''],
  [', oops, I meant ', ''],
];

/** A near miss of an id: one digit changed. */
function wrongId(value: string, rng: Rng): string | undefined {
  const digits = [...value].map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i >= 0);
  if (digits.length === 0) return undefined;
  const i = pick(rng, digits);
  const d = Number(value[i]);
  const other = (d + 1 + randInt(rng, 9)) % 10;
  return value.slice(0, i) + String(other) + value.slice(i + 1);
}

/** A near miss of an e-mail: two neighbouring letters of the local part swapped. */
function wrongEmail(value: string, rng: Rng): string | undefined {
  const at = value.indexOf('@');
  const spots = [...value.slice(0, at)].map((c, i) => (/[a-z]/i.test(c) && /[a-z]/i.test(value[i + 1] ?? '') && c !== value[i + 1] ? i : -1)).filter((i) => i >= 0 && i + 1 < at);
  if (spots.length === 0) return undefined;
  const i = pick(rng, spots);
  return value.slice(0, i) + (value[i + 1] ?? '') + (value[i] ?? '') + value.slice(i + 2);
}

const params = z
  .object({
    /** Probability that a message with an id or e-mail gets a wrong value taken back at once, at full strength. @default 0.5 */
    rate: z.number().min(0).max(1).default(0.5),
  })
  .strict();

/**
 * A self-correction: the user first writes a near miss of an id or e-mail and takes it back in the same
 * message ("#W9000440, sorry, I mean #W9000404"); the end result is the original goal.
 */
export const selfCorrect: PerturbationFamily<typeof params> = {
  id: 'self-correct',
  description: "a self-correction: a near-miss id or e-mail taken back at once ('W9000440, sorry, I mean W9000404')",
  touches: ['dialogue', 'entity-format'],
  onset: 0.6,
  params,
  apply(segments, { level, rng, language }, p) {
    if (level === 0) return [...segments];
    const formats = language.perturbation?.entityFormats ?? {};
    const targets = segments
      .map((s, i) => ({ s, i, format: s.slot ? formats[s.slot] : undefined }))
      .filter(({ s, format }) => s.protected && !s.retracted && (format === 'id' || format === 'email'));
    if (targets.length === 0 || !chance(rng, level * p.rate)) return [...segments];
    const { s, i, format } = pick(rng, targets);
    const wrong = format === 'id' ? wrongId(s.text, rng) : wrongEmail(s.text, rng);
    if (wrong === undefined || wrong === s.text) return [...segments];
    const [before, after] = pick(rng, CORRECTIONS);
    const tag = s.part === undefined ? {} : { part: s.part };
    const corrected: Segment[] = [{ text: wrong, retracted: true, slot: s.slot as string, ...tag }, { text: before, ...tag }, s, ...(after ? [{ text: after, ...tag }] : [])];
    return [...segments.slice(0, i), ...corrected, ...segments.slice(i + 1)];
  },
};
