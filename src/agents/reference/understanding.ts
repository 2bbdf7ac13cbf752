/**
 * How a scripted reference agent reads the user's words, in two modes:
 *
 * - `strict`: exact keywords (case aside) and canonical entity formats (`#W9000404`), as a rule-based
 *   bot written against the happy path reads.
 * - `tolerant`: Unicode and case normalisation, common chat abbreviations, the world's synonym lexicon,
 *   one typo per longer word, and entities in any common format (`w 9000404`, `# W9000404`).
 *
 * Both are general-purpose readers: neither knows how Shakedown's perturbation families work.
 */
import { escapeRegExp } from '../../ground/regex.js';
import { editDistance } from './text.js';
import { memoized, memoizedBy } from '../../ground/memo.js';

export type UnderstandingMode = 'strict' | 'tolerant';

/** How an agent reads words, ids and phrases in one mode. */
export interface Understanding {
  readonly mode: UnderstandingMode;
  /** Lower-case word tokens of a text as this mode reads it. */
  tokens(text: string): string[];
  /** Whether a token is the word. */
  wordMatches(token: string, word: string): boolean;
  /** Whether the token list contains any of the phrases (space-separated words). */
  hasAny(toks: readonly string[], phrases: readonly string[]): boolean;
  /** Order-style ids (letter prefix and digits, e.g. `W9000404`) in the text, in order, upper case without `#`. */
  ids(text: string, prefix: string, digits: number): string[];
  /** The text with the ids `ids` finds blanked out. */
  withoutIds(text: string, prefix: string, digits: number): string;
}

/** Common English chat abbreviations and missing apostrophes, as a tolerant reader expands them. */
const CHAT: Readonly<Record<string, string>> = {
  u: 'you',
  ur: 'your',
  r: 'are',
  pls: 'please',
  plz: 'please',
  pleas: 'please',
  thx: 'thanks',
  thnx: 'thanks',
  tnx: 'thanks',
  ty: 'thank you',
  wanna: 'want to',
  gonna: 'going to',
  gotta: 'got to',
  bc: 'because',
  cuz: 'because',
  coz: 'because',
  b4: 'before',
  smth: 'something',
  sth: 'something',
  idk: "i don't know",
  im: "i'm",
  ive: "i've",
  dont: "don't",
  didnt: "didn't",
  doesnt: "doesn't",
  isnt: "isn't",
  cant: "can't",
  wasnt: "wasn't",
  havent: "haven't",
  hasnt: "hasn't",
  thats: "that's",
  whats: "what's",
  k: 'okay',
  ok: 'okay',
  kk: 'okay',
  rn: 'right now',
  tmrw: 'tomorrow',
  btw: 'by the way',
  tbh: 'to be honest',
  asap: 'as soon as possible',
  nr: 'number',
  yea: 'yes',
  ya: 'yes',
  yup: 'yes',
};


function baseTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/(\w)-(\w)/g, '$1$2')
    .split(/[^a-z0-9']+/)
    .filter(Boolean);
}

/**
 * A pure test of a token against a word, remembered per pair: by word, then by token, so that no key
 * joining the two is built and hashed on every test. Forgets everything past `limit` pairs.
 */
function memoizedPair(f: (t: string, w: string) => boolean, limit = 20_000): (t: string, w: string) => boolean {
  const byWord = new Map<string, Map<string, boolean>>();
  let size = 0;
  return (t, w) => {
    let byToken = byWord.get(w);
    if (!byToken) byWord.set(w, (byToken = new Map()));
    let value = byToken.get(t);
    if (value === undefined) {
      if (size >= limit) {
        byWord.clear();
        byWord.set(w, (byToken = new Map()));
        size = 0;
      }
      value = f(t, w);
      byToken.set(t, value);
      size++;
    }
    return value;
  };
}

/**
 * `hasAny`, remembered per phrase list and tokens: the same message is read with the same cue lists in
 * every episode that shares it (each λ and every agent of a sweep). Forgets everything past 20,000 entries.
 */
function rememberedAny(test: (toks: readonly string[], phrases: readonly string[]) => boolean): (toks: readonly string[], phrases: readonly string[]) => boolean {
  const remembered = memoizedBy(
    ({ toks, phrases }: { toks: readonly string[]; phrases: readonly string[] }) => `${phrases.join('\u0001')}\u0000${toks.join('\u0001')}`,
    ({ toks, phrases }) => test(toks, phrases),
  );
  return (toks, phrases) => remembered({ toks, phrases });
}

/** A cue phrase's words: the phrases are the agents' own constants, so this stays small. */
const phraseWords = memoized(baseTokens);

function phraseIn(toks: readonly string[], phrase: string, matches: (t: string, w: string) => boolean): boolean {
  const words = phraseWords(phrase);
  outer: for (let i = 0; i + words.length <= toks.length; i++) {
    for (let j = 0; j < words.length; j++) if (!matches(toks[i + j] ?? '', words[j] ?? '')) continue outer;
    return true;
  }
  return false;
}

/**
 * Exact keywords, canonical formats. `idMark` is what the world's canonical ids start with (`#` for
 * retail orders, `#W9000404`; nothing for travel reservations, `R900101`).
 * @param idMark @default '#'
 */
export function strictUnderstanding(idMark = '#'): Understanding {
  const wordMatches = (t: string, w: string) => t === w;
  const mark = escapeRegExp(idMark);
  // A bare id must not be the tail of a longer word or of a marked id.
  const before = idMark === '' ? '(?<![A-Za-z0-9#])' : '';
  const idPattern = (prefix: string, digits: number) => new RegExp(`${before}${mark}${escapeRegExp(prefix)}(\\d{${digits}})\\b`, 'g');
  const readOnce = memoized(baseTokens, 2_000);
  return {
    mode: 'strict',
    tokens: (text) => readOnce(text).slice(),
    wordMatches,
    hasAny: rememberedAny((toks, phrases) => phrases.some((p) => phraseIn(toks, p, wordMatches))),
    ids: (text, prefix, digits) => [...text.matchAll(idPattern(prefix, digits))].map((m) => `${prefix}${m[1] ?? ''}`),
    withoutIds: (text, prefix, digits) => text.replace(idPattern(prefix, digits), ' '),
  };
}

/**
 * Normalised, typo-tolerant reading with the world's synonym lexicon (`{ canonical: [alternatives] }`):
 * an alternative reads as its canonical word.
 */
export function tolerantUnderstanding(lexicon: Readonly<Record<string, readonly string[]>> = {}): Understanding {
  const canonicalOf = new Map<string, string>();
  for (const [canonical, alternatives] of Object.entries(lexicon)) for (const a of alternatives) if (!canonicalOf.has(baseTokens(a).join(' '))) canonicalOf.set(baseTokens(a).join(' '), baseTokens(canonical).join(' '));
  // Alternatives by their first word, longest first, so that reading a token looks at a handful of phrases only.
  const byFirstWord = new Map<string, string[][]>();
  for (const alt of [...canonicalOf.keys()].sort((a, b) => b.split(' ').length - a.split(' ').length)) {
    const words = alt.split(' ');
    byFirstWord.set(words[0] ?? '', [...(byFirstWord.get(words[0] ?? '') ?? []), words]);
  }
  const looselyMatches = (t: string, w: string): boolean => {
    // Two slips in a long word, but not a shorter word inside it ("change" is no "exchange").
    if (w.length >= 8 && t[0] === w[0] && Math.abs(t.length - w.length) <= 1) return editDistance(t, w, 2) <= 2;
    if (w.length >= 5) return editDistance(t, w, 1) <= 1;
    // Four letters: a swapped pair only ("crad" for "card"), since one changed letter makes another word too often.
    return w.length === 4 && t.length === 4 && editDistance(t, w, 1) <= 1 && [...t].sort().join('') === [...w].sort().join('');
  };
  // Token and word, remembered: the same pairs come back in every message of a sweep.
  const remembered = memoizedPair(looselyMatches);
  const wordMatches = (t: string, w: string): boolean => {
    if (t === w) return true;
    // Lengths too far apart never match: no need to remember them.
    if (Math.abs(t.length - w.length) > 2 || w.length < 4) return false;
    return remembered(t, w);
  };
  const slip4 = memoizedPair((t, w) => editDistance(t, w, 1) <= 1);
  /** A four-letter word with any one slip, inside a specific phrase. */
  const oneSlip = (t: string, w: string): boolean => w.length === 4 && Math.abs(t.length - 4) <= 1 && slip4(t, w);
  const readText = (text: string): string[] => {
    const raw = baseTokens(text.normalize('NFKC').replace(/[‘’ʼ`]/g, "'"));
    const expanded = raw.flatMap((t) => baseTokens(CHAT[t] ?? t));
    // "id like to" is "I'd like to"; "order id" stays an id.
    for (let i = 0; i < expanded.length; i++) if (expanded[i] === 'id' && expanded[i + 1] === 'like') expanded[i] = "i'd";
    // Lexicon alternatives read as their canonical words, longest phrases first.
    const out: string[] = [];
    for (let i = 0; i < expanded.length; ) {
      const token = expanded[i] ?? '';
      // An alternative with a typo in it still reads as its canonical word ("peogress" is "status").
      const starts = byFirstWord.get(token) ?? (token.length >= 5 ? [...byFirstWord].filter(([first]) => wordMatches(token, first)).flatMap(([, alts]) => alts) : []);
      const hit = starts.find((words) => words.every((w, j) => (j === 0 ? true : wordMatches(expanded[i + j] ?? '', w))));
      if (hit) {
        out.push(...(canonicalOf.get(hit.join(' ')) ?? '').split(' '));
        i += hit.length;
      } else {
        out.push(expanded[i] ?? '');
        i++;
      }
    }
    return out;
  };
  // A message is read many times over (intent, items, options, confirmations): read it once.
  const readOnce = memoized(readText, 2_000);
  const tokens = (text: string): string[] => readOnce(text).slice();
  // Inside a phrase with two words of three letters or more, a four-letter word may carry any one
  // slip ("gidt card", "cal off"): the other word makes the match specific. "ship to" is too short for it.
  const phraseInfo = memoized((p) => ({ specific: p.split(' ').filter((w) => w.length >= 3).length >= 2, bare: p.replace(/'/g, '') }));
  const specificMatches = (t: string, w: string) => wordMatches(t, w) || oneSlip(t, w);
  const idPattern = (prefix: string, digits: number) => new RegExp(`#?\\s?(?<![A-Za-z0-9])${escapeRegExp(prefix)}[\\s-]?(\\d{${digits}})\\b`, 'gi');
  return {
    mode: 'tolerant',
    tokens,
    wordMatches,
    hasAny: rememberedAny((toks, phrases) =>
      phrases.some((p) => {
        const { specific, bare } = phraseInfo(p);
        const matches = specific ? specificMatches : wordMatches;
        return phraseIn(toks, p, matches) || phraseIn(toks, bare, matches);
      }),
    ),
    ids: (text, prefix, digits) => [...text.normalize('NFKC').matchAll(idPattern(prefix, digits))].map((m) => `${prefix.toUpperCase()}${m[1] ?? ''}`),
    withoutIds: (text, prefix, digits) => text.normalize('NFKC').replace(idPattern(prefix, digits), ' '),
  };
}
