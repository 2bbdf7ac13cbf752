// Reading helpers the judge's parts share: sentences, names in text, and the write attempts of a trace.
import { normalizeText, outputMatches } from '../ground/canonical.js';
import type { TraceEntry } from '../ground/runtime.js';
import { regex } from '../ground/regex.js';
import { memoized } from '../ground/memo.js';

/** A message split into sentences (and lines), trimmed, without empty ones. */
export function sentencesOf(text: string): string[] {
  return [...splitOnce(text)];
}
// Each part of the judge splits the same replies: each text is split once (and an agent's fixed wording
// once for every episode that repeats it).
const splitOnce = memoized(
  (text: string): readonly string[] =>
    text
      .split(/(?<=[.?!]["'\u201d\u2019)\]]?)(?<!\b(?:Mr|Mrs|Ms|Dr|Prof)\.)\s+(?=[^a-z0-9])|\n+|(?<=[;:])\s+(?=[A-Z])(?![A-Z]{1,3}\d{4,}\b)/)
      .map((s) => s.replace(/^[\s*#>-]+|\s+$/g, '').replace(/\*\*/g, ''))
      .filter((s) => s.length > 0),
  10_000,
);

const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/**
 * Whether a text names a value: amounts and counts numerically (a count up to ten also as a word),
 * anything else as a phrase, case- and space-insensitive, a leading `#` optional.
 */
export function mentions(text: string, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  const s = String(value).trim();
  if (s.length === 0) return true;
  if (outputMatches(s, text)) return true;
  const n = Number(s);
  if (Number.isInteger(n) && n >= 0 && n <= 10) return regex(`\\b${SMALL[n]}\\b`, 'i').test(text);
  return outputMatches(s.replace(/^#/, ''), text.replace(/#/g, ' '));
}

/** Whether a text names every value. */
export const mentionsAll = (text: string, values: readonly unknown[]): boolean => values.every((v) => mentions(text, v));

export { squash } from '../ground/canonical.js';

/** One call of a write tool, with what the judge needs to talk about it. */
export interface WriteAttempt {
  /** Index in the trace. */
  readonly index: number;
  readonly entry: TraceEntry;
  readonly turn: number;
  /** The tool and the record it writes: the calls of one tool on one record. */
  readonly key: string;
  /** The key and the arguments: calls with the same attempt are one write tried again (a second change of the record is another). */
  readonly attempt: string;
  /** In words: `cancel_order on #W9000201`. */
  readonly action: string;
  /** The values a sentence about it names: the record id first, then the key values. */
  readonly names: readonly string[];
  /** What the agent was answered: `answered 200`, `no response (timeout)`. */
  readonly outcome: string;
  /** Whether another call reads the same record (or the same user's profile). */
  sameRecord(e: TraceEntry): boolean;
}

/** What the agent was answered, in words. */
export function outcomeOf(e: TraceEntry): string {
  const fault = e.fault ? ` (${e.fault})` : '';
  if (e.status === 0) return `no response${fault}`;
  if (e.unreadable) return `answered ${e.status} with an unreadable body${fault}`;
  return `answered ${e.status}${fault}${e.replayed ? ', an idempotent replay' : ''}`;
}

/** Words that say what an amount is for; a sentence's topic is the set of these it uses. */
export const DEFAULT_AMOUNT_TOPICS: readonly string[] = ['refund', 'total', 'balance', 'difference', 'fee', 'charge', 'compensation', 'cost', 'price', 'paid', 'certificate', 'top-up'];

const FORMS: Readonly<Record<string, string>> = { refunded: 'refund', refunds: 'refund', reimbursed: 'refund', charged: 'charge', charges: 'charge', fees: 'fee', costs: 'cost', balances: 'balance', prices: 'price', 'topped up': 'top-up', 'top up': 'top-up' };

/** The topics of a sentence: which of the words of what an amount is for it uses, in their base forms. */
export const topicsOf = (sentence: string, topics: readonly string[]): Set<string> => {
  const s = normalizeText(sentence);
  const found = new Set<string>();
  for (const [form, base] of Object.entries(FORMS)) if (regex(`\\b${form}\\b`).test(s)) found.add(base);
  for (const t of topics) if (regex(`\\b${t.replace(/[-]/g, '[- ]?')}\\b`).test(s)) found.add(t);
  return found;
};

/** Dollar amounts as text writes them ("$1,070.50", "$ 35"), not digits that are part of an id. */
const AMOUNTS = /(?<![\w.])\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?!\d)/g;

/** The dollar amounts a text states, in order. */
export const amountsIn = (text: string): number[] => [...text.matchAll(AMOUNTS)].map((m) => Number((m[1] ?? '').replace(/,/g, '')));

/** A pattern without the global and sticky flags, so that `test()` carries no `lastIndex` from one text to the next. */
export const once = (re: RegExp): RegExp => (/[gy]/.test(re.flags) ? regex(re.source, re.flags.replace(/[gy]/g, '')) : re);
