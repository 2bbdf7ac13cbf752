import { z } from 'zod';
import { mapUnprotected, type PerturbationFamily, type Segment } from '../src/ground/perturb.js';
import { chance } from './util.js';

const params = z
  .object({
    /** Probability of each kind of noise (all lower case, dropped apostrophes, dropped or doubled end marks, dropped commas, one shouted word), at full strength. @default 0.5 */
    rate: z.number().min(0).max(1).default(0.5),
  })
  .strict();

/** Casing and punctuation noise in the user's own words; entities keep their form. */
export const casing: PerturbationFamily<typeof params> = {
  id: 'casing',
  description: 'casing and punctuation noise: lower case, missing apostrophes and commas, dropped or doubled end marks',
  touches: ['letters'],
  onset: 0,
  params,
  apply(segments, { level, rng }, p) {
    if (level === 0) return [...segments];
    const q = level * p.rate;
    let out: Segment[] = [...segments];
    if (chance(rng, q)) out = mapUnprotected(out, (t) => t.toLowerCase());
    if (chance(rng, q)) out = mapUnprotected(out, (t) => t.replace(/(\w)['’](\w)/g, '$1$2'));
    if (chance(rng, q)) out = mapUnprotected(out, (t) => t.replace(/,(?=\s)/g, ''));
    if (chance(rng, q)) {
      const doubled = chance(rng, 0.5);
      // End marks only: a period inside an amount or an e-mail sits in a protected segment anyway.
      out = mapUnprotected(out, (t) => (doubled ? t.replace(/([?!])(?=\s|$)/g, '$1$1') : t.replace(/[.!](?=\s|$)/g, '')));
    }
    if (chance(rng, q)) {
      let shouted = false;
      out = mapUnprotected(out, (t) =>
        t.replace(/\b[a-z]{4,}\b/g, (w) => {
          if (shouted || !chance(rng, 0.3)) return w;
          shouted = true;
          return w.toUpperCase();
        }),
      );
    }
    return out;
  },
};
