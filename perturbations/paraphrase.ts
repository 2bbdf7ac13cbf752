import { z } from 'zod';
import { joinParts, partsOf, type PerturbationFamily, type Segment } from '../src/ground/perturb.js';
import { slotsOf } from '../src/ground/scenario.js';
import { pick } from '../src/ground/seeds.js';
import { renderTemplate } from '../src/ground/simulator.js';
import { chance, sameSet, slotsIn } from './util.js';

const params = z
  .object({
    /** Probability that the request is said another way, at full strength. @default 0.7 */
    rate: z.number().min(0).max(1).default(0.7),
  })
  .strict();

/**
 * The whole request said another way, from the world's per-intent templates, direct or indirect ("I
 * don't need the desk lamp any more; can I get my money back?"). A template is used only when it names
 * exactly the details the original phrasing named.
 */
export const paraphrase: PerturbationFamily<typeof params> = {
  id: 'paraphrase',
  description: "whole-request paraphrase from the world's per-intent templates, including indirect requests",
  touches: ['wording'],
  onset: 0.4,
  params,
  apply(segments, { level, rng, about, language }, p) {
    const templates = about.intent ? (language.perturbation?.paraphrases[about.intent] ?? []) : [];
    if (level === 0 || !about.states || templates.length === 0) return [...segments];
    const parts = partsOf(segments);
    const at = parts.findIndex((part) => part[0]?.part === 'request');
    const request = parts[at];
    if (!request) return [...segments];
    const used = slotsIn(request);
    const fitting = templates.filter((t) => sameSet(slotsOf(t), used));
    if (fitting.length === 0 || !chance(rng, level * p.rate)) return [...segments];
    // Keep the original entity segments (their values and any format) in the new sentence.
    const bySlot = new Map(request.filter((s) => s.protected && s.slot).map((s) => [s.slot as string, s]));
    const rendered: Segment[] = renderTemplate(pick(rng, fitting), about.slots, 'request').map((s) => (s.protected && s.slot ? (bySlot.get(s.slot) ?? s) : s));
    return joinParts([...parts.slice(0, at), rendered, ...parts.slice(at + 1)]);
  },
};
