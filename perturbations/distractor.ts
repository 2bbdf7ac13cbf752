import { z } from 'zod';
import { joinParts, partsOf, type PerturbationFamily } from '../src/ground/perturb.js';
import { randInt } from '../src/ground/seeds.js';
import { chance } from './util.js';

const params = z
  .object({
    /** Probability of an irrelevant aside in a message, at full strength. @default 0.5 */
    rate: z.number().min(0).max(1).default(0.5),
    /** Most asides in one message. @default 2 */
    max: z.number().int().min(1).max(5).default(2),
  })
  .strict();

/** Distractor context: plausible, irrelevant sentences from the world's list; they name no entity. */
export const distractor: PerturbationFamily<typeof params> = {
  id: 'distractor',
  description: "distractor context: plausible, irrelevant sentences from the world's list that name no entity",
  touches: ['structure'],
  onset: 0.4,
  params,
  apply(segments, { level, rng, language }, p) {
    const pool = language.perturbation?.distractors ?? [];
    if (level === 0 || pool.length === 0 || !chance(rng, level * p.rate)) return [...segments];
    const parts = partsOf(segments);
    const count = 1 + randInt(rng, Math.max(1, Math.round(p.max * level)));
    const unused = [...pool];
    for (let n = 0; n < count && unused.length > 0; n++) {
      const [aside] = unused.splice(randInt(rng, unused.length), 1);
      parts.splice(randInt(rng, parts.length + 1), 0, [{ text: aside as string, part: 'aside' }]);
    }
    return joinParts(parts);
  },
};
