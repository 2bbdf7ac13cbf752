import { z } from 'zod';
import { ShakedownError, unknownId } from './errors.js';
import { deriveSeed, makeRng, type Rng } from './seeds.js';
import { escapeRegExp, regex } from './regex.js';
import type { EntityFormat, UserLanguage } from './world.js';

/**
 * A piece of a user message. Protected pieces carry an entity the goal depends on (an order id, an
 * e-mail, a name, an item, an address); families change them only through their entity format, and the
 * engine checks after every family that each one can still be recovered.
 */
export interface Segment {
  readonly text: string;
  /** An entity the goal depends on. */
  readonly protected?: boolean;
  /** The slot a protected segment fills (`order`, `email`, `items`), which names its entity format. */
  readonly slot?: string;
  /** The entity's value as the user meant it; `text` may be a reformatted form of it. @default text */
  readonly value?: string;
  /** Which part of the message this is (`request`, `identity`, `slot:order`, `confirm`, `aside`); families move and drop whole parts. */
  readonly part?: string;
  /** Text the user takes back in the same message ("W9000440, sorry, I mean W9000404"); no careful reader acts on it. */
  readonly retracted?: boolean;
}

/** What a message is about, as the user simulator knows it; families read it, never the agent. */
export interface MessageAbout {
  /** The intent of the request the message belongs to. */
  readonly intent?: string;
  /** The request's slot values. */
  readonly slots: Readonly<Record<string, string>>;
  /** Whether the message states the request (an opening or a restatement) rather than answering a question. */
  readonly states: boolean;
  /** Slots the user will give when asked; a family that declares `defers` may hold these back. */
  readonly deferrable: readonly string[];
}

export type { EntityFormat } from './world.js';

/** What a family touches; the engine reads these flags and never switches on a family's id. */
export type PerturbationTouch = 'wording' | 'letters' | 'structure' | 'entity-format' | 'dialogue';

/** What a family is given for one message. */
export interface PerturbationContext {
  readonly eps: number;
  /** The family's strength at this ε: 0 up to its onset, rising linearly to 1 at ε = 1. */
  readonly level: number;
  readonly rng: Rng;
  readonly about: MessageAbout;
  readonly language: UserLanguage;
}

/** A family of meaning-preserving changes to the user's wording. */
export interface PerturbationFamily<P extends z.ZodObject = z.ZodObject> {
  readonly id: string;
  readonly description: string;
  readonly touches: readonly PerturbationTouch[];
  /** The ε above which the family switches on (see the ladder in docs/perturbations.md). */
  readonly onset: number;
  /** The family may move entities out of a message that states the request; the user gives them when asked. */
  readonly defers?: boolean;
  readonly params: P;
  /** Returns its input unchanged at level 0. */
  apply(segments: readonly Segment[], ctx: PerturbationContext, params: z.output<P>): Segment[];
}

/** A family with its parameters validated once. */
export interface ResolvedFamily {
  readonly family: PerturbationFamily;
  readonly params: Readonly<Record<string, unknown>>;
}

/** The result of perturbing one message. */
export interface Perturbed {
  readonly segments: Segment[];
  /** Families that changed the message, in the order they applied. */
  readonly applied: string[];
  /** Families whose output lost or confused an entity: discarded, never used. */
  readonly rejected: string[];
}

/** The text of a message from its segments. */
export const joinSegments = (segments: readonly Segment[]): string => segments.map((s) => s.text).join('');

/** The text a careful reader acts on: everything but retracted pieces. */
export const standingText = (segments: readonly Segment[]): string =>
  segments
    .filter((s) => !s.retracted)
    .map((s) => s.text)
    .join('');

/** A family's strength at ε. */
export const familyLevel = (eps: number, onset: number): number => (eps <= onset ? 0 : Math.min(1, (eps - onset) / (1 - onset)));

/**
 * Selects families by id (all of them, in ladder order, when `ids` is undefined) and validates their
 * parameters; an unknown id or a bad parameter fails with the path to fix.
 */
export function resolveFamilies(
  all: readonly PerturbationFamily[],
  ids?: readonly string[],
  params: Readonly<Record<string, unknown>> = {},
): ResolvedFamily[] {
  for (const id of Object.keys(params)) if (!all.some((f) => f.id === id)) throw unknownId('perturbation family', id, all.map((f) => f.id));
  const chosen = ids === undefined ? all : ids.map((id) => all.find((f) => f.id === id) ?? (() => { throw unknownId('perturbation family', id, all.map((f) => f.id)); })());
  // Ladder order, whatever order the ids came in: wording before letters before formats.
  const ordered = all.filter((f) => chosen.includes(f));
  return ordered.map((family) => {
    const parsed = family.params.safeParse(params[family.id] ?? {});
    if (!parsed.success) {
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to configure perturbation family \`${family.id}\`:\n${z.prettifyError(parsed.error)}\nFix \`perturbationParams.${family.id}\`.`);
    }
    return { family, params: parsed.data };
  });
}

/**
 * Applies the families at intensity ε, each from its own stream keyed by the message, so that adding a
 * family or a message changes no other draw. After each family the engine checks that every entity of
 * the message can still be recovered and that no competing entity appeared; an output that fails is
 * discarded (and reported in `rejected`).
 */
export function perturb(
  segments: readonly Segment[],
  eps: number,
  families: readonly ResolvedFamily[],
  seed: string,
  messageIndex: number,
  about: MessageAbout,
  language: UserLanguage,
): Perturbed {
  if (!(eps >= 0 && eps <= 1)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to perturb a message: ε must be in [0, 1], got ${eps}. Fix \`eps\`.`);
  if (eps === 0) return { segments: [...segments], applied: [], rejected: [] };
  // The same message perturbed with the same seed gives the same result: the perturbation's seed does not
  // depend on the agent or λ, so a sweep perturbs each user message once for all of them, not once per episode.
  const memo = memoOf(families, language);
  const key = `${seed}\u0000${messageIndex}\u0000${eps}\u0000${JSON.stringify(segments)}\u0000${JSON.stringify(about)}`;
  const known = memo.get(key);
  if (known) return { segments: [...known.segments], applied: [...known.applied], rejected: [...known.rejected] };
  const result = perturbOnce(segments, eps, families, seed, messageIndex, about, language);
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(key, { segments: [...result.segments], applied: [...result.applied], rejected: [...result.rejected] });
  return result;
}

/** Entries a perturbation memo holds before it starts again: a scenario's messages in a sweep are some hundreds (a few MB). */
const MEMO_SIZE = 5_000;
const memos = new WeakMap<readonly ResolvedFamily[], WeakMap<UserLanguage, Map<string, Perturbed>>>();
function memoOf(families: readonly ResolvedFamily[], language: UserLanguage): Map<string, Perturbed> {
  let byLanguage = memos.get(families);
  if (!byLanguage) memos.set(families, (byLanguage = new WeakMap()));
  let memo = byLanguage.get(language);
  if (!memo) byLanguage.set(language, (memo = new Map()));
  return memo;
}

/** `perturb` itself, without its memo. */
function perturbOnce(
  segments: readonly Segment[],
  eps: number,
  families: readonly ResolvedFamily[],
  seed: string,
  messageIndex: number,
  about: MessageAbout,
  language: UserLanguage,
): Perturbed {
  let current: Segment[] = [...segments];
  let currentMentions = mentions(standingText(current), language);
  const applied: string[] = [];
  const rejected: string[] = [];
  for (const { family, params } of families) {
    const level = familyLevel(eps, family.onset);
    if (level === 0) continue;
    const rng = makeRng(deriveSeed(seed, family.id, messageIndex));
    const next = family.apply(current, { eps, level, rng, about, language }, params);
    if (joinSegments(next) === joinSegments(current)) continue;
    const checked = meaningChecked(current, next, language, family.defers ? about.deferrable : [], currentMentions);
    if (checked.problem !== undefined) {
      rejected.push(family.id);
      continue;
    }
    applied.push(family.id);
    current = next;
    // The mentions of the text just accepted, as the check counted them.
    currentMentions = checked.mentions;
  }
  return { segments: current, applied, rejected };
}

/**
 * Why `after` no longer says what `before` said, or undefined when it does: every entity of `before`
 * is recoverable from the standing text of `after` (unless it belongs to a slot the user gives when
 * asked and may hold back), and no entity or competing term appears more often than before.
 */
export function checkMeaning(before: readonly Segment[], after: readonly Segment[], language: UserLanguage, deferrable: readonly string[] = []): string | undefined {
  return meaningChecked(before, after, language, deferrable, mentions(standingText(before), language)).problem;
}

/**
 * `checkMeaning` with the mentions of `before` already counted (perturb() carries them from step to
 * step). With no problem, the mentions of `after` it counted, which the next step starts from.
 */
function meaningChecked(before: readonly Segment[], after: readonly Segment[], language: UserLanguage, deferrable: readonly string[], beforeMentions: ReadonlyMap<string, number>): { problem: string } | { problem?: undefined; mentions: Map<string, number> } {
  const text = standingText(after);
  const formats = language.perturbation?.entityFormats ?? {};
  for (const s of before) {
    if (!s.protected || s.retracted) continue;
    const value = s.value ?? s.text;
    const format = formats[s.slot ?? ''] ?? 'verbatim';
    if (recoverable(format, value, text)) continue;
    if (s.slot && deferrable.includes(s.slot)) continue;
    return { problem: `entity \`${s.slot ?? '?'}\` (${value}) is no longer recoverable` };
  }
  const found = mentions(text, language);
  for (const [name, n] of found) {
    if (n > (beforeMentions.get(name) ?? 0)) return { problem: `a competing ${name === ID || name === EMAIL ? name : `mention of "${name}"`} appeared` };
  }
  return { mentions: found };
}

const ID = 'id';
const EMAIL = 'email';
const EMAIL_G = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** Per language, one regex for its ids and one for all its competing terms (built once; perturb() runs per message). */
const mentionPatterns = new WeakMap<UserLanguage, { id: RegExp; terms?: RegExp }>();

/** How often each entity kind and competing term is mentioned in a text. */
function mentions(text: string, language: UserLanguage): Map<string, number> {
  let patterns = mentionPatterns.get(language);
  if (!patterns) {
    const terms = language.perturbation?.competing ?? [];
    patterns = {
      id: new RegExp(language.entityPattern.source, `${language.entityPattern.flags.replace(/[gi]/g, '')}gi`),
      ...(terms.length > 0 ? { terms: new RegExp(`\\b(?:${[...terms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})\\b`, 'gi') } : {}),
    };
    mentionPatterns.set(language, patterns);
  }
  const counts = new Map<string, number>([
    [ID, countMatches(patterns.id, looseIds(text))],
    [EMAIL, countMatches(EMAIL_G, text)],
  ]);
  if (patterns.terms) {
    patterns.terms.lastIndex = 0;
    for (const m of text.matchAll(patterns.terms)) {
      const term = m[0].toLowerCase();
      counts.set(term, (counts.get(term) ?? 0) + 1);
    }
  }
  return counts;
}


function countMatches(re: RegExp, text: string): number {
  re.lastIndex = 0;
  return [...text.matchAll(re)].length;
}

/** Joins ids a family spaced out ("# W 9000404") so that the world's id pattern finds them. */
const looseIds = (text: string): string => text.replace(/#\s+/g, '#').replace(/\b([A-Za-z]{1,3})[\s-](\d{3,})\b/g, '$1$2');

/** Whether an entity, in the given format, can be recovered from text. */
export function recoverable(format: EntityFormat, value: string, text: string): boolean {
  switch (format) {
    case 'id': {
      const core = value.replace(/[^A-Za-z0-9]/g, '');
      if (!core) return text.includes(value);
      const pattern = [...core].map(escapeRegExp).join('[\\s#-]?');
      return regex(`(?<![A-Za-z0-9])${pattern}(?![A-Za-z0-9])`, 'i').test(text);
    }
    case 'email':
    case 'name':
      return regex(`(?<![\\w.+-])${escapeRegExp(value)}(?![\\w-])`, 'i').test(text);
    case 'text': {
      const words = value.trim().split(/\s+/).map(escapeRegExp).join('\\s+');
      return regex(`(?<![\\w])${words}(?![\\w])`, 'i').test(text);
    }
    case 'amount': {
      const want = parseAmount(value);
      return want !== undefined && amountsIn(text).some((a) => Math.abs(a - want) < 0.005);
    }
    case 'date': {
      const want = parseDate(value);
      return want !== undefined && datesIn(text).includes(want);
    }
    case 'digits':
    case 'verbatim':
      return regex(`(?<![\\w])${escapeRegExp(value)}(?![\\w])`).test(text) || (format === 'verbatim' && text.includes(value));
  }
}

/** A money amount in a string such as `$1,234.50`, `12.5 dollars` or `USD 12.50`. */
export function parseAmount(text: string): number | undefined {
  const m = /-?\d[\d,]*(?:\.\d+)?/.exec(text);
  if (!m) return undefined;
  const n = Number(m[0].replace(/,/g, ''));
  return Number.isFinite(n) ? n : undefined;
}

/** Every amount written in a text: with a currency sign or word, or a bare decimal. */
export function amountsIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(?:\$|USD\s?)\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(?:dollars?|USD|bucks)\b|\b(\d[\d,]*\.\d{1,2})\b/gi)) {
    const n = Number((m[1] ?? m[2] ?? m[3] ?? '').replace(/,/g, ''));
    if (Number.isFinite(n)) out.push(n);
  }
  return out;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const isoDay = (y: number, m: number, d: number): string | undefined =>
  m >= 1 && m <= 12 && d >= 1 && d <= 31 ? `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}` : undefined;

const monthOf = (name: string): number => MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3))) + 1;

const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';

/** The ways of writing a day that `datesIn` reads, each with how a match becomes `YYYY-MM-DD`. */
const DATE_FORMS: readonly { readonly pattern: RegExp; readonly day: (m: RegExpMatchArray) => string | undefined }[] = [
  { pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/g, day: (m) => isoDay(+(m[1] ?? 0), +(m[2] ?? 0), +(m[3] ?? 0)) },
  { pattern: new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'), day: (m) => isoDay(+(m[3] ?? 0), monthOf(m[1] ?? ''), +(m[2] ?? 0)) },
  { pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\s+(\\d{4})\\b`, 'gi'), day: (m) => isoDay(+(m[3] ?? 0), monthOf(m[2] ?? ''), +(m[1] ?? 0)) },
  { pattern: /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g, day: (m) => isoDay(+(m[3] ?? 0), +(m[1] ?? 0), +(m[2] ?? 0)) },
];

/** Every calendar day written in a text, as `YYYY-MM-DD`: ISO, `January 10, 2026`, `10 Jan 2026`, US `1/10/2026`. */
export function datesIn(text: string): string[] {
  const out: string[] = [];
  for (const { pattern, day } of DATE_FORMS) for (const m of text.matchAll(pattern)) out.push(day(m) ?? '');
  return out.filter(Boolean);
}

/** The text with every day `datesIn` reads blanked out, so that their digits are not read as anything else. */
export function withoutDates(text: string): string {
  let out = text;
  for (const { pattern } of DATE_FORMS) out = out.replace(pattern, ' ');
  return out;
}

/** A calendar day from any format `datesIn` reads. */
export const parseDate = (text: string): string | undefined => datesIn(text)[0];

/** Maps every unprotected segment's text through `f`, leaving protected and retracted ones as they are. */
export function mapUnprotected(segments: readonly Segment[], f: (text: string) => string): Segment[] {
  return segments.map((s) => (s.protected || s.retracted ? s : { ...s, text: f(s.text) }));
}

/** The message's parts in order: runs of segments with the same `part`; whitespace-only glue between parts is dropped. */
export function partsOf(segments: readonly Segment[]): Segment[][] {
  const parts: Segment[][] = [];
  let last: string | undefined;
  for (const s of segments) {
    if (s.part === undefined && s.text.trim() === '') {
      // Glue ends a part: two asides side by side stay two parts.
      last = undefined;
      continue;
    }
    if (parts.length > 0 && s.part !== undefined && s.part === last) parts.at(-1)?.push(s);
    else parts.push([s]);
    last = s.part;
  }
  return parts;
}

/** Joins parts into one message with a space between parts. */
export const joinParts = (parts: readonly (readonly Segment[])[]): Segment[] => parts.flatMap((p, i) => (i === 0 ? [...p] : [{ text: ' ' }, ...p]));

/** Words of a text for distance: lower-case runs of letters, digits, apostrophes and the dots inside e-mails. */
const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}'@#-]+(?:\.[\p{L}\p{N}]+)*/gu) ?? [];

/**
 * Normalised token edit distance between two texts: Levenshtein distance over words, divided by the
 * longer word count (0 = same words, 1 = nothing in common).
 */
export function tokenDistance(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  const n = Math.max(x.length, y.length);
  if (n === 0) return 0;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return (prev[y.length] ?? n) / n;
}
