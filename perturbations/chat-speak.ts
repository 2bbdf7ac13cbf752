import { z } from 'zod';
import { mapUnprotected, type PerturbationFamily } from '../src/ground/perturb.js';
import { pick } from '../src/ground/seeds.js';
import { chance, phraseRegex } from './util.js';

/** Common English chat abbreviations; the same in every world. */
const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  please: ['pls', 'plz'],
  you: ['u'],
  your: ['ur'],
  "you're": ['ur'],
  thanks: ['thx', 'thnx'],
  'thank you': ['ty', 'thx'],
  because: ['bc', 'cuz'],
  'want to': ['wanna'],
  'going to': ['gonna'],
  'got to': ['gotta'],
  with: ['w/'],
  are: ['r'],
  okay: ['ok', 'k'],
  'right now': ['rn'],
  'by the way': ['btw'],
  'to be honest': ['tbh'],
  'as soon as possible': ['asap'],
  'I don\'t know': ['idk'],
  something: ['smth', 'sth'],
  before: ['b4'],
  number: ['no.', 'nr'],
  'I am': ['im', "i'm"],
  "I'm": ['im'],
  "I'd": ['id'],
  'see you': ['cya'],
  tomorrow: ['tmrw'],
};

const params = z
  .object({
    /** Probability that a word with a chat abbreviation is abbreviated, at full strength. @default 0.6 */
    rate: z.number().min(0).max(1).default(0.6),
  })
  .strict();

const RE = phraseRegex(Object.keys(ABBREVIATIONS)) as RegExp;
const BY_KEY = new Map(Object.entries(ABBREVIATIONS).map(([k, v]) => [k.toLowerCase(), v]));

/** Abbreviations and chat-speak in the user's own words ("pls", "u", "thx", "wanna"). */
export const chatSpeak: PerturbationFamily<typeof params> = {
  id: 'chat-speak',
  description: 'abbreviations and chat-speak (please -> pls, you -> u, want to -> wanna)',
  touches: ['wording'],
  onset: 0.2,
  params,
  apply(segments, { level, rng }, p) {
    if (level === 0) return [...segments];
    return mapUnprotected(segments, (text) =>
      text.replace(RE, (found) => {
        const alternatives = BY_KEY.get(found.toLowerCase().replace(/\s+/g, ' ')) ?? [];
        return alternatives.length > 0 && chance(rng, level * p.rate) ? pick(rng, alternatives) : found;
      }),
    );
  },
};
