// The simulated user reads a real agent's message the same after rewrites that keep its meaning (docs/user.md,
// "Rewrites that keep the meaning"): the tune parts of the real-text corpora, each message rewritten one way at a time, and
// none that it read right before is read the costly way wrong after (closed while it asks, an ask it can answer missed, a
// proposal of another change accepted, its own declined). Only the tune parts are read.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { measureUser, realTurns, type RealTurn } from './real-text.js';
import { AMERICAN, appliesTo, GREETING, JSON_MESSAGE, NUMBERED, SPACED_HYPHEN, TYPOGRAPHIC_QUOTES, type Rewrite } from '../rewrites.js';

const REWRITES: readonly Rewrite[] = [
  TYPOGRAPHIC_QUOTES,
  SPACED_HYPHEN,
  GREETING,
  AMERICAN,
  ['"Kindly confirm" for "Please confirm"', (s) => s.replace(/\bPlease confirm\b/g, 'Kindly confirm').replace(/\bplease confirm\b/g, 'kindly confirm')],
  ['"Do you want me to" for "Would you like me to"', (s) => s.replace(/\bWould you like me to\b/g, 'Do you want me to')],
  JSON_MESSAGE,
  NUMBERED,
  ['a bulleted list for a numbered one', (s) => s.replace(/^(\s*)\d{1,2}[.)]\s+/gm, '$1- ')],
];

/** What the user gets wrong on one message, the costly ways. */
function wrongOn(t: RealTurn): { closed: boolean; unanswered: boolean; unsolicited: boolean; refused: boolean } {
  const m = measureUser([t]);
  return { closed: m.closedWhileAsking.rate > 0, unanswered: m.answerable.of > 0 && m.answerable.rate < 1, unsolicited: m.unsolicitedAccepted.rate > 0, refused: m.wantedDeclined.rate > 0 };
}

const tune = readdirSync(new URL('../../corpora/', import.meta.url))
  .filter((f) => /^turns\..+\.jsonl$/.test(f))
  .flatMap((f) => realTurns(f))
  .filter((x) => x.split === 'tune');

describe('the simulated user under rewrites that keep a message\'s meaning', () => {
  it('reads no tune message the costly way wrong after any of them', () => {
    expect(tune.length).toBeGreaterThanOrEqual(2000);
    const before = tune.map(wrongOn);
    const flips: string[] = [];
    let rewritten = 0;
    for (const r of REWRITES) {
      const [name, rewrite] = r;
      tune.forEach((t, i) => {
        if (!appliesTo(r, t.text)) return;
        const text = rewrite(t.text);
        if (text === t.text) return;
        rewritten++;
        const after = wrongOn({ ...t, text });
        for (const k of ['closed', 'unanswered', 'unsolicited', 'refused'] as const) if (after[k] && !before[i]?.[k]) flips.push(`${name}: ${k}: ${t.text.slice(0, 160)}`);
      });
    }
    console.log(`rewrites: ${REWRITES.length} kinds, ${rewritten} rewritten messages read, ${flips.length} read the costly way wrong`);
    expect(rewritten).toBeGreaterThan(REWRITES.length * 50);
    expect(flips).toEqual([]);
  });
});
