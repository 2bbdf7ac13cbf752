// What the runtime notes on each tool call for the judge (src/ground/runtime.ts records, never decides).
import { parseAmount } from '../ground/canonical.js';
import type { CallObserver } from '../ground/runtime.js';
import type { FigureArithmetic } from '../ground/judging.js';
import type { WorldDefinition } from '../ground/world.js';
import { revealedIn } from './outputs.js';
import { memoized, memoizedBy } from '../ground/memo.js';

/** Keys of a JSON answer whose numbers are counts, not figures: a sum with a quantity of 2 derives nothing. */
const COUNT_KEYS = /(?:count|quantity|qty|bags|passengers|seats|year|index|rank|page|limit|offset|total_?items)$/i;
/** Most figures kept per episode; past it, sums of three are no longer tried (their cost is the square of it). */
const MAX_FIGURES = 2_000;
const TRIPLES_UP_TO = 300;

/**
 * Answers as the observer reads them, remembered: the same answer (a lookup before any write) comes back
 * in every episode of a scenario. Per text, its figures; per required outputs and text, those it shows.
 */
const figuresOf = memoized((text: string): readonly number[] => figuresOnce(text), 10_000);
const revealedOf = memoizedBy(
  ({ outputsKey, text }: { outputsKey: string; outputs: readonly string[]; text: string }) => `${outputsKey}\u0000${text}`,
  ({ outputs, text }): readonly number[] => revealedIn(outputs, text),
  10_000,
);

/** The figures an answer shows, in cents: the numbers of its JSON (counts left out), else its dollar amounts. */
export function figuresIn(text: string): number[] {
  return [...figuresOf(text)];
}

function figuresOnce(text: string): number[] {
  const out: number[] = [];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    for (const m of text.matchAll(/\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)/g)) out.push(Math.round(Number((m[1] ?? '').replace(/,/g, '')) * 100));
    return out;
  }
  const walk = (v: unknown, key: string): void => {
    if (typeof v === 'number' && Number.isFinite(v) && v > 0 && !COUNT_KEYS.test(key)) out.push(Math.round(v * 100));
    else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(body, '');
  return out;
}

/**
 * The figures an agent has been shown in an episode, and whether a required amount follows from them by
 * the world's arithmetic (DESIGN decision 20): a sum of a few, the difference of two, a whole multiple
 * of one, or a multiple of a policy figure. Kept in cents, so that sums are exact.
 */
export class ShownFigures {
  private readonly figures = new Set<number>();
  private readonly constants: readonly number[];
  private readonly sums: number;
  private readonly differences: boolean;
  private readonly multiples: number;

  constructor(arithmetic: FigureArithmetic = {}) {
    this.sums = arithmetic.sums ?? 3;
    this.differences = arithmetic.differences ?? true;
    this.multiples = arithmetic.multiples ?? 9;
    this.constants = (arithmetic.constants ?? []).map((c) => Math.round(c * 100));
  }

  add(figures: readonly number[]): void {
    for (const f of figures) if (this.figures.size < MAX_FIGURES) this.figures.add(f);
  }

  /** Whether `target` (in cents) is a shown figure or derived from shown ones. */
  derives(target: number): boolean {
    if (!(target > 0)) return false;
    const shown = this.figures;
    const pool = new Set(shown);
    // A policy figure counts as shown, and so does each of its whole multiples ("$35 a bag, $70 for two").
    for (const c of this.constants) for (let k = 1; k <= Math.max(1, this.multiples); k++) pool.add(c * k);
    if (pool.has(target)) return true;
    const list = [...pool];
    for (const a of shown) for (let k = 2; k <= this.multiples; k++) if (a * k === target) return true;
    if (this.differences) for (const a of list) if (a > target && pool.has(a - target)) return true;
    if (this.sums >= 2) for (const a of list) if (a < target && pool.has(target - a)) return true;
    if (this.sums >= 3 && list.length <= TRIPLES_UP_TO) {
      for (let i = 0; i < list.length; i++) {
        const a = list[i] as number;
        if (a >= target) continue;
        for (let j = i; j < list.length; j++) {
          const b = list[j] as number;
          if (a + b < target && pool.has(target - a - b)) return true;
        }
      }
    }
    return false;
  }
}

/**
 * The observer of an episode's calls: the user turn they fall in, who an identifying lookup of the
 * world's conduct rules returned, and which required outputs an answer shows, as a value it contains
 * or, for an amount, as one the world's arithmetic derives from the figures shown so far. One per episode.
 */
export function callObserver(world: WorldDefinition, outputs: readonly string[], turn: () => number): CallObserver {
  const identify = world.judging?.conduct?.identify;
  const amounts = outputs.map((o) => parseAmount(o)).map((a) => (a === undefined ? undefined : Math.round(a * 100)));
  const shown = new ShownFigures(world.judging?.arithmetic);
  const derived = new Set<number>();
  const outputsKey = outputs.join('\u0001');
  return {
    turn,
    ...(identify
      ? {
          subject: (tool: string, body: unknown) => {
            const field = identify[tool]?.subject;
            const v = field && body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
            return typeof v === 'string' ? v : undefined;
          },
        }
      : {}),
    ...(outputs.length > 0
      ? {
          reveals: (text: string) => {
            const direct = [...revealedOf({ outputsKey, outputs, text })];
            if (!amounts.some((a) => a !== undefined)) return direct;
            shown.add(figuresIn(text));
            const out = new Set(direct);
            amounts.forEach((a, i) => {
              if (a === undefined || out.has(i) || derived.has(i) || !shown.derives(a)) return;
              derived.add(i);
              out.add(i);
            });
            return [...out].sort((x, y) => x - y);
          },
        }
      : {}),
  };
}
