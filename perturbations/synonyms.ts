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

/** Words and phrases replaced by alternatives that mean the same in this world (the world's lexicon). */
export const synonyms: PerturbationFamily<typeof params> = {
  id: 'synonyms',
  description: "synonym substitution from the world's lexicon (cancel -> call off, order -> purchase)",
  touches: ['wording'],
  onset: 0,
  params,
  apply(segments, { level, rng, language }, p) {
    const lexicon = language.perturbation?.lexicon ?? {};
    const keys = Object.keys(lexicon);
    const re = phraseRegex(keys);
    if (level === 0 || !re) return [...segments];
    const byKey = new Map(keys.map((k) => [k.toLowerCase(), lexicon[k] ?? []]));
    return mapUnprotected(segments, (text) =>
      text.replace(re, (found) => {
        const alternatives = byKey.get(found.toLowerCase().replace(/\s+/g, ' ')) ?? [];
        if (alternatives.length === 0 || !chance(rng, level * p.rate)) return found;
        return likeCase(found, pick(rng, alternatives));
      }),
    );
  },
};
