import { z } from 'zod';
import type { PerturbationFamily, Segment } from '../src/core/perturb.js';

const OPENERS = ['Hi there!', 'Hello,', 'Hey, um,', 'Good morning.', 'Sorry to bother you, but', 'Hi, hope you are well.', 'So, basically,'];
const CLOSERS = ['Thanks so much!', 'Thank you.', 'Appreciate the help.', 'Hope that makes sense.', 'Thanks in advance!', 'Cheers.'];
const HEDGES = ['I think', 'if possible,', 'honestly,', 'just wondering,', 'if that is okay,'];

const params = z.object({
  /** Probability of a greeting at the start, at ε = 1. @default 0.8 */
  opener: z.number().min(0).max(1).default(0.8),
  /** Probability of a thank-you at the end, at ε = 1. @default 0.8 */
  closer: z.number().min(0).max(1).default(0.8),
  /** Probability of a hedge before the message, at ε = 1. @default 0.4 */
  hedge: z.number().min(0).max(1).default(0.4),
});

/** Greetings, hedges and thanks around the request; adds words, never changes the request. */
export const filler: PerturbationFamily<typeof params> = {
  id: 'filler',
  description: 'greetings, hedging and politeness around the request',
  touches: ['user-text'],
  params,
  apply(segments, { eps, rng }, p) {
    if (eps === 0 || segments.length === 0) return [...segments];
    const out: Segment[] = [...segments];
    const pickFrom = (list: readonly string[]) => list[Math.floor(rng() * list.length)] ?? '';
    if (rng() < eps * p.hedge) {
      // "I think can I return ..." reads as a person writes; keep "I" and proper nouns as they are.
      const first = out[0];
      if (first && !first.protected && /^[A-Z][a-z]/.test(first.text)) out[0] = { text: first.text.charAt(0).toLowerCase() + first.text.slice(1) };
      out.unshift({ text: `${pickFrom(HEDGES)} ` });
    }
    if (rng() < eps * p.opener) out.unshift({ text: `${pickFrom(OPENERS)} ` });
    if (rng() < eps * p.closer) out.push({ text: ` ${pickFrom(CLOSERS)}` });
    return out;
  },
};
