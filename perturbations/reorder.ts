import { z } from 'zod';
import { joinParts, partsOf, type PerturbationFamily } from '../src/ground/perturb.js';
import { pick } from '../src/ground/seeds.js';
import { chance } from './util.js';

const params = z
  .object({
    /** Probability that a message of several parts is said in another order, at full strength. @default 0.6 */
    rate: z.number().min(0).max(1).default(0.6),
  })
  .strict();

/** Clause reordering: the details before the request ("My e-mail is ... I'd like to cancel ..."), or answers in another order. */
export const reorder: PerturbationFamily<typeof params> = {
  id: 'reorder',
  description: 'clause reordering: details before the request, answers in another order',
  touches: ['structure'],
  onset: 0.2,
  params,
  apply(segments, { level, rng }, p) {
    if (level === 0) return [...segments];
    const parts = partsOf(segments);
    // An aside ("Sorry, I'm not sure what you're asking.") stays where it is; content parts move.
    const movable = parts.map((part, i) => ({ part, i })).filter(({ part, i }) => i > 0 && part[0]?.part !== undefined && part[0]?.part !== 'aside');
    if (movable.length === 0 || !chance(rng, level * p.rate)) return [...segments];
    const { i } = pick(rng, movable);
    const first = parts.findIndex((part) => part[0]?.part !== 'aside');
    if (first < 0 || first >= i) return [...segments];
    const moved = parts[i] ?? [];
    const rest = parts.filter((_, j) => j !== i);
    return joinParts([...rest.slice(0, first), moved, ...rest.slice(first)]);
  },
};
