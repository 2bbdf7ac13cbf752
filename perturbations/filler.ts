import { z } from 'zod';
import type { PerturbationFamily, Segment } from '../src/ground/perturb.js';
import { pick } from '../src/ground/seeds.js';
import { chance, lowerFirst, upperFirst } from './util.js';

const OPENERS = ['Hi there!', 'Hello,', 'Hey, um,', 'Good morning.', 'Sorry to bother you, but', 'Hi, hope you are well.', 'So, basically,'];
const CLOSERS = ['Thanks so much!', 'Thank you.', 'Appreciate the help.', 'Hope that makes sense.', 'Thanks in advance!', 'Cheers.'];
const HEDGES = ['I think', 'if possible,', 'honestly,', 'just wondering,', 'if that is okay,'];

const params = z
  .object({
    /** Probability of a greeting at the start, at full strength. @default 0.8 */
    opener: z.number().min(0).max(1).default(0.8),
    /** Probability of a thank-you at the end, at full strength. @default 0.8 */
    closer: z.number().min(0).max(1).default(0.8),
    /** Probability of a hedge before the message, at full strength. @default 0.4 */
    hedge: z.number().min(0).max(1).default(0.4),
  })
  .strict();

/** Greetings, hedges and thanks around the message; adds words, never changes the request. */
export const filler: PerturbationFamily<typeof params> = {
  id: 'filler',
  description: 'greetings, hedging and politeness around the message',
  touches: ['wording'],
  onset: 0,
  params,
  apply(segments, { level, rng }, p) {
    if (level === 0 || segments.length === 0) return [...segments];
    let out: Segment[] = [...segments];
    if (chance(rng, level * p.hedge)) {
      // The hedge goes before the request ("I think can I return ..."), never before a detail, where it
      // would sound unsure of it; "I" and protected names keep their capital.
      const at = Math.max(0, out.findIndex((x) => x.part === 'request'));
      const part = out[at]?.part;
      // A part starts a sentence, so the hedge takes the capital.
      out = [...out.slice(0, at), ...upperFirst([{ text: `${pick(rng, HEDGES)} `, ...(part ? { part } : {}) }]), ...lowerFirst(out.slice(at))];
    }
    if (chance(rng, level * p.opener)) {
      const opener = pick(rng, OPENERS);
      // "So, basically, please ..." runs on: after an opener that ends in a comma the message starts small.
      out = [{ text: opener, part: 'aside' }, { text: ' ' }, ...(opener.endsWith(',') ? lowerFirst(out) : upperFirst(out))];
    }
    if (chance(rng, level * p.closer)) out.push({ text: ' ' }, { text: pick(rng, CLOSERS), part: 'aside' });
    return out;
  },
};
