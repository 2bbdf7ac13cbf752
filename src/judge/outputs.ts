// Required outputs, checked in order: an output counts only when said after the tool result it depends
// on, and a later statement of another amount for the same thing contradicts it.
import { normalizeText, outputMatches, parseAmount } from '../ground/canonical.js';
import type { TraceEntry } from '../ground/runtime.js';
import type { Finding } from '../ground/findings.js';
import type { TurnMessage } from './claim-checks.js';
import { amountsIn, sentencesOf, topicsOf } from './text.js';
import { globalOf } from '../ground/regex.js';

/** Every number and string of a database, to tell an output that is data (an amount, a status) from a phrase of the policy. */
export interface DataValues {
  readonly numbers: ReadonlySet<number>;
  readonly strings: readonly string[];
}

/** The numbers and normalised strings a frozen value holds, gathered once: scenarios share most entries of their databases. */
const frozenValues = new WeakMap<object, { readonly numbers: readonly number[]; readonly strings: readonly string[] }>();

/** Collects the numbers (to the cent) and the distinct strings of some JSON values. */
export function dataValues(...roots: unknown[]): DataValues {
  const numbers = new Set<number>();
  const strings = new Set<string>();
  const walk = (v: unknown, nums: { add(n: number): unknown }, strs: { add(s: string): unknown }): void => {
    if (typeof v === 'number') nums.add(Math.round(v * 100));
    else if (typeof v === 'string') strs.add(normalizeText(v).replace(/_/g, ' '));
    else if (v && typeof v === 'object') {
      if (Object.isFrozen(v)) {
        let found = frozenValues.get(v);
        if (!found) {
          const n = new Set<number>();
          const s = new Set<string>();
          for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, n, s);
          frozenValues.set(v, (found = { numbers: [...n], strings: [...s] }));
        }
        for (const n of found.numbers) nums.add(n);
        for (const s of found.strings) strs.add(s);
      } else for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, nums, strs);
    }
  };
  for (const r of roots) walk(r, numbers, strings);
  return { numbers, strings: [...strings] };
}

/**
 * Whether an output is a fact of the world's data that the agent can only know from a tool result (an
 * amount or a status in the database), rather than a phrase of the policy ("not eligible").
 */
export function isData(output: string, data: DataValues): boolean {
  const amount = parseAmount(output);
  if (amount !== undefined) return data.numbers.has(Math.round(amount * 100));
  return data.strings.some((s) => outputMatches(output, s));
}

/** Indices of the outputs a text shows (for the runtime to note on each answer). */
export function revealedIn(outputs: readonly string[], text: string): number[] {
  const out: number[] = [];
  // Field names and the JSON punctuation between values would read as words; keep the values.
  const values = text.replace(/"[A-Za-z_]+":/g, ' ').replace(/[{}[\]",]/g, ' ').replace(/_/g, ' ');
  outputs.forEach((o, i) => {
    if (outputMatches(o, values)) out.push(i);
  });
  return out;
}


/** Whose figure a sentence states: the judge's reading of a sentence about a record, for the outputs. */
export interface OutputSaying {
  /** Whether a saying of output `index` in this sentence of the reply at `turn` counts. */
  counts(index: number, turn: number, sentence: string, reply: string): boolean;
}

/**
 * Checks the required outputs in order. An output counts when said in a reply at or after the turn of
 * the first answer that showed it; an output that is data but no answer showed counts nowhere (the agent
 * could not know it); a phrase of the policy counts wherever it is said. With `saying`, a sentence that
 * states the output about another record than its own, or recites it among other records' figures,
 * does not count. After an amount is said, a sentence with the same topic and another amount (for the
 * same record, and not another required output) contradicts it.
 */
export function judgeOutputs(input: {
  readonly outputs: readonly string[];
  readonly data: readonly boolean[];
  readonly replies: readonly TurnMessage[];
  readonly trace: readonly TraceEntry[];
  readonly topics: readonly string[];
  readonly entityPattern?: RegExp;
  /** Details of other users' records that the agent must never tell. */
  readonly undisclosed?: readonly string[];
  readonly saying?: OutputSaying;
}): { missing: string[]; findings: Finding[] } {
  const { outputs, replies, trace } = input;
  const missing: string[] = [];
  const findings: Finding[] = [];
  const ids = (s: string): Set<string> => {
    if (!input.entityPattern) return new Set();
    const p = globalOf(input.entityPattern);
    return new Set([...s.matchAll(p)].map((m) => m[0].replace(/^#/, '').toUpperCase()));
  };
  const otherAmounts = new Set(outputs.map(parseAmount).filter((a): a is number => a !== undefined).map((a) => Math.round(a * 100)));
  outputs.forEach((output, i) => {
    const revealedAt = Math.min(...trace.filter((e) => e.reveals?.includes(i)).map((e) => e.turn ?? 0));
    const from = Number.isFinite(revealedAt) ? revealedAt : input.data[i] ? Infinity : -1;
    /** The sentence of a reply that says the output so that it counts, if any. */
    const sayingIn = (r: TurnMessage): string | undefined => {
      if (r.turn < from || !outputMatches(output, r.text)) return undefined;
      const sentences = sentencesOf(r.text).filter((s) => outputMatches(output, s));
      // An output split across sentences (a figure over a line break) is read as the reply says it.
      if (sentences.length === 0) return input.saying && !input.saying.counts(i, r.turn, r.text, r.text) ? undefined : r.text;
      return sentences.find((s) => !input.saying || input.saying.counts(i, r.turn, s, r.text));
    };
    let sayingIndex = -1;
    let first = '';
    for (const [k, r] of replies.entries()) {
      const s = sayingIn(r);
      if (s !== undefined) {
        sayingIndex = k;
        first = s;
        break;
      }
    }
    const saying = replies[sayingIndex];
    if (!saying) {
      missing.push(output);
      return;
    }
    const amount = parseAmount(output);
    if (amount === undefined) return;
    const topic = topicsOf(first, input.topics);
    if (topic.size === 0) return;
    const records = ids(first);
    // The rest of the reply after the first statement, then every later reply.
    const rest = [saying.text.slice(saying.text.indexOf(first) + first.length), ...replies.slice(sayingIndex + 1).map((r) => r.text)];
    for (const s of rest.flatMap(sentencesOf)) {
      if (/\?\s*$/.test(s)) continue;
      const amounts = amountsIn(s);
      if (amounts.length === 0 || amounts.some((a) => Math.abs(a - amount) < 0.005)) continue;
      if (amounts.some((a) => otherAmounts.has(Math.round(a * 100)))) continue;
      if (![...topicsOf(s, input.topics)].some((t) => topic.has(t))) continue;
      const theirs = ids(s);
      if (records.size > 0 && theirs.size > 0 && ![...theirs].some((x) => records.has(x))) continue;
      findings.push({ class: 'contradicted-output', turn: saying.turn, message: `said ${output} for the ${[...topic].join('/')}, then "${s.length > 120 ? `${s.slice(0, 117)}...` : s}"` });
      break;
    }
  });
  for (const secret of input.undisclosed ?? []) {
    const told = replies.find((r) => outputMatches(secret, r.text));
    if (told) findings.push({ class: 'foreign-record', turn: told.turn, message: `told the user "${secret}", a detail of a record of another user` });
  }
  return { missing, findings };
}
