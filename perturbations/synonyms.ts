import { z } from 'zod';
import { mapUnprotected, type PerturbationFamily } from '../src/ground/perturb.js';
import { pick } from '../src/ground/seeds.js';
import { chance, likeCase, phraseRegex } from './util.js';

const params = z
  .object({
    /** Probability that a word with synonyms in the world's lexicon is replaced, at full strength. @default 0.6 */
    rate: z.number().min(0).max(1).default(0.6),
  })
  .strict();

const NO_LEXICON: Readonly<Record<string, readonly string[]>> = {};

/** A lexicon's pattern and alternatives, built once per lexicon rather than per message (the pattern is used with `replace` only). */
const lexicons = new WeakMap<object, { re: RegExp | undefined; byKey: Map<string, readonly string[]> }>();
function lexiconOf(lexicon: Readonly<Record<string, readonly string[]>>): { re: RegExp | undefined; byKey: Map<string, readonly string[]> } {
  let found = lexicons.get(lexicon);
  if (!found) {
    const keys = Object.keys(lexicon);
    found = { re: phraseRegex(keys), byKey: new Map(keys.map((k) => [k.toLowerCase(), lexicon[k] ?? []])) };
    lexicons.set(lexicon, found);
  }
  return found;
}

/** Words and phrases replaced by alternatives that mean the same in this world (the world's lexicon). */
export const synonyms: PerturbationFamily<typeof params> = {
  id: 'synonyms',
  description: "synonym substitution from the world's lexicon (cancel -> call off, order -> purchase)",
  touches: ['wording'],
  onset: 0,
  params,
  apply(segments, { level, rng, language }, p) {
    const { re, byKey } = lexiconOf(language.perturbation?.lexicon ?? NO_LEXICON);
    if (level === 0 || !re) return [...segments];
    return mapUnprotected(segments, (text) =>
      text.replace(re, (found) => {
        const alternatives = byKey.get(found.toLowerCase().replace(/\s+/g, ' ')) ?? [];
        if (alternatives.length === 0 || !chance(rng, level * p.rate)) return found;
        return likeCase(found, pick(rng, alternatives));
      }),
    );
  },
};
