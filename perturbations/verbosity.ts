import { z } from 'zod';
import { joinParts, mapUnprotected, partsOf, type PerturbationFamily, type Segment } from '../src/ground/perturb.js';
import { pick, randInt } from '../src/ground/seeds.js';
import { lowerFirst } from './util.js';

/** Lead-ins a terse writer leaves out; none of them carries what the user wants. */
const LEAD_INS: readonly RegExp[] = [
  /\b(?:hi|hello|hey)( there)?[,!.]?\s*/gi,
  /\b(?:I'd|I would) like to\s+/gi,
  /\b(?:I want to|I need to|I'd like|I would like)\s+/gi,
  /\b(?:can|could|would) you( please)?\s+/gi,
  /\bcan I\s+/gi,
  /,?\s*please\b/gi,
  /\bplease\s+/gi,
  /\b(?:thanks|thank you)( so much| in advance)?[.!]?/gi,
];

function terse(segments: readonly Segment[]): Segment[] {
  let first = true;
  return mapUnprotected(segments, (text) => {
    let t = text;
    for (const re of LEAD_INS) t = t.replace(re, '');
    t = t.replace(/\s{2,}/g, ' ').replace(/\s+([?.!,])/g, '$1').replace(/[.](?=\s|$)/g, '');
    if (first && t.trim()) {
      // The message now starts where the first lead-in ended: no stray comma, and a small letter.
      t = t.replace(/^[\s,;:]+/, '').replace(/^([A-Z])(?=[a-z])/, (c) => c.toLowerCase());
      first = false;
    }
    return t;
  });
}

const params = z
  .object({
    /** Probability that a message stating the request comes with a back-story, at full strength. @default 0.5 */
    story: z.number().min(0).max(1).default(0.5),
    /** Probability that a message is cut to its bare words, at full strength. @default 0.3 */
    terse: z.number().min(0).max(1).default(0.3),
  })
  .strict();

/** Verbosity: a long back-story before the request, or the opposite, a terse message of bare words. */
export const verbosity: PerturbationFamily<typeof params> = {
  id: 'verbosity',
  description: 'verbosity and terseness: a long back-story before the request, or bare words ("cancel order #W9000404")',
  touches: ['structure', 'wording'],
  onset: 0.4,
  params,
  apply(segments, { level, rng, about, language }, p) {
    if (level === 0) return [...segments];
    const u = rng();
    const stories = [...(language.perturbation?.stories[about.intent ?? ''] ?? []), ...(language.perturbation?.stories['*'] ?? [])];
    if (u < level * p.story && about.states && stories.length > 0) {
      const parts = partsOf(segments);
      const at = Math.max(0, parts.findIndex((part) => part[0]?.part === 'request'));
      const told = new Set<string>();
      const n = 1 + randInt(rng, 3);
      for (let i = 0; i < n; i++) told.add(pick(rng, stories));
      const story: Segment[] = [{ text: [...told].join(' '), part: 'aside' }];
      const anyway: Segment[] = [{ text: pick(rng, ['Anyway,', 'So, long story short,', 'Anyway, the reason I am writing:']), part: 'aside' }];
      const [next, ...after] = parts.slice(at);
      return joinParts([...parts.slice(0, at), story, anyway, ...(next ? [lowerFirst(next)] : []), ...after]);
    }
    if (u < level * (p.story + p.terse)) return terse(segments);
    return [...segments];
  },
};
