import { z } from 'zod';
import { joinParts, partsOf, type PerturbationFamily, type Segment } from '../src/ground/perturb.js';
import { slotsOf } from '../src/ground/scenario.js';
import { pick } from '../src/ground/seeds.js';
import { renderTemplate } from '../src/ground/simulator.js';
import { chance, slotsIn } from './util.js';

const params = z
  .object({
    /** Probability that a message stating the request holds details back, at full strength. @default 0.6 */
    rate: z.number().min(0).max(1).default(0.6),
  })
  .strict();

/**
 * Information spread across turns: a user stating a request holds back the details the agent can ask
 * for (who they are, which order, which items) and gives each only when asked.
 */
export const spread: PerturbationFamily<typeof params> = {
  id: 'spread',
  description: 'information spread across turns: the user holds details back until the agent asks for them',
  touches: ['dialogue'],
  onset: 0.6,
  defers: true,
  params,
  apply(segments, { level, rng, about, language }, p) {
    if (level === 0 || !about.states || about.deferrable.length === 0 || !chance(rng, level * p.rate)) return [...segments];
    const deferrable = new Set(about.deferrable);
    const held = (part: readonly Segment[]) => {
      const slots = slotsIn(part);
      return slots.length > 0 && slots.every((s) => deferrable.has(s));
    };
    const parts = partsOf(segments)
      .filter((part) => {
        const tag = part[0]?.part ?? '';
        return !((tag === 'identity' || tag.startsWith('slot:')) && held(part));
      })
      .map((part) => {
        if (part[0]?.part !== 'request' || !about.intent) return part;
        // The request itself in fewer words: a phrasing of the same intent that names fewer details.
        const used = slotsIn(part);
        const fewer = (language.intents[about.intent] ?? []).filter((t) => {
          const slots = slotsOf(t);
          return slots.length < used.length && slots.every((s) => used.includes(s)) && used.filter((s) => !slots.includes(s)).every((s) => deferrable.has(s));
        });
        return fewer.length === 0 ? part : renderTemplate(pick(rng, fewer), about.slots, 'request');
      });
    return joinParts(parts);
  },
};
