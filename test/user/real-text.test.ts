// The simulated user on messages written by real LLM agents (corpora/turns.real.jsonl): the figures
// docs/user.md reports, held so that they cannot quietly get worse. The held-out split was fixed by a hash
// of each item's id before anything was tuned (corpora/raw/scripts/sample.py).
import { describe, expect, it } from 'vitest';
import { measureUser, realTurns, type RealTurn, type UserFigures } from './real-text.js';

/** The four figures of a measure, as every line below prints them. */
const figures = (m: UserFigures): string =>
  `closed while asking ${(m.closedWhileAsking.rate * 100).toFixed(1)}% of ${m.closedWhileAsking.of}; asks found ${(m.answerable.rate * 100).toFixed(1)}% of ${m.answerable.of}; proposals of another change accepted ${(m.unsolicitedAccepted.rate * 100).toFixed(1)}% of ${m.unsolicitedAccepted.of}; proposals of its own change declined ${(m.wantedDeclined.rate * 100).toFixed(1)}% of ${m.wantedDeclined.of}`;

describe('the simulated user on real agents\' messages (corpora/turns.real.jsonl)', () => {
  const items = realTurns();

  it('holds 1,000+ hand-labelled turns of several models and domains, each with its provenance', () => {
    expect(items.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(items.map((t) => t.model)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(items.map((t) => t.domain))).toEqual(expect.objectContaining(new Set(['retail', 'airline'])));
    for (const t of items) expect(t.source).toMatch(/^[\w.-]+\/[\w.-]+$/);
    expect(items.filter((t) => t.split === 'held-out').length).toBeGreaterThan(400);
  });

  it('prints the figures per domain and split, and per model (docs/user.md, per source)', () => {
    const pct = (x: { of: number; rate: number }) => (x.of === 0 ? '-' : `${(x.rate * 100).toFixed(1)}% of ${x.of}`);
    const groups = new Map<string, RealTurn[]>();
    for (const t of items) for (const key of [`${t.domain} ${t.split}`, `model ${t.model}`]) groups.set(key, [...(groups.get(key) ?? []), t]);
    const lines = [...groups].sort(([a], [b]) => a.localeCompare(b)).flatMap(([key, group]) => {
      const m = measureUser(group);
      // Domains the user does not read (telecom, mock) have no figures.
      if (m.closedWhileAsking.of === 0 && m.answerable.of === 0) return [];
      return `  ${key}: closed while asking ${pct(m.closedWhileAsking)}; asks found ${pct(m.answerable)}; another change accepted ${pct(m.unsolicitedAccepted)}; own change declined ${pct(m.wantedDeclined)}`;
    });
    console.log(`real turns per source:\n${lines.join('\n')}`);
    // Every domain the user reads appears with both splits.
    expect(lines.filter((l) => /^ {2}(?:retail|airline) (?:tune|held-out):/.test(l))).toHaveLength(4);
  });

  it('ends few requests on messages that still ask, and agrees to few proposals it did not ask for', () => {
    for (const split of ['tune', 'held-out'] as const) {
      const m = measureUser(items.filter((t) => t.split === split));
      console.log(`real turns, ${split}: ${figures(m)}; plans with another change accepted ${(m.planAccepted.rate * 100).toFixed(1)}% of ${m.planAccepted.of}`);
      // Floors a little under what was measured (docs/user.md): a change that reads real text worse fails here.
      expect(m.closedWhileAsking.rate).toBeLessThanOrEqual(0.02);
      expect(m.answerable.rate).toBeGreaterThanOrEqual(0.9);
      expect(m.unsolicitedAccepted.rate).toBeLessThanOrEqual(0.1);
      expect(m.wantedDeclined.rate).toBeLessThanOrEqual(0.05);
      expect(m.planAccepted.rate).toBeLessThanOrEqual(0.4);
    }
  });

  it('holds on a second held-out set of turns, drawn after the tuning (corpora/turns.fresh.jsonl)', () => {
    const fresh = realTurns('turns.fresh.jsonl');
    expect(fresh.length).toBeGreaterThanOrEqual(200);
    expect(fresh.every((t) => t.split === 'held-out')).toBe(true);
    const m = measureUser(fresh);
    console.log(`real turns, fresh held-out: ${figures(m)}`);
    // Floors a little under what was measured (docs/user.md).
    expect(m.closedWhileAsking.rate).toBeLessThanOrEqual(0.01);
    expect(m.answerable.rate).toBeGreaterThanOrEqual(0.93);
    expect(m.unsolicitedAccepted.rate).toBeLessThanOrEqual(0.03);
    expect(m.wantedDeclined.rate).toBeLessThanOrEqual(0.05);
  });

  // Each later batch, both splits, against floors a little under what was measured (docs/user.md).
  const holds = (file: string, name: string, floors: { closed: number; found: number; unsolicited: number; declined: number }, least = 300) => {
    const batch = realTurns(file);
    expect(batch.length).toBeGreaterThanOrEqual(least);
    for (const split of ['tune', 'held-out'] as const) {
      const m = measureUser(batch.filter((t) => t.split === split));
      console.log(`real turns, ${name} ${split}: ${figures(m)}`);
      expect(m.closedWhileAsking.rate).toBeLessThanOrEqual(floors.closed);
      expect(m.answerable.rate).toBeGreaterThanOrEqual(floors.found);
      expect(m.unsolicitedAccepted.rate).toBeLessThanOrEqual(floors.unsolicited);
      expect(m.wantedDeclined.rate).toBeLessThanOrEqual(floors.declined);
    }
  };

  it('holds on the second batch (corpora/turns.more.jsonl), whose held-out part no tuning read', () => {
    holds('turns.more.jsonl', 'second batch', { closed: 0.03, found: 0.9, unsolicited: 0.04, declined: 0.05 });
  });

  it('holds on the third batch (corpora/turns.third.jsonl), read first as it stood', () => {
    holds('turns.third.jsonl', 'third batch', { closed: 0.015, found: 0.92, unsolicited: 0.03, declined: 0.07 });
  });

  it('holds on the fourth batch (corpora/turns.fourth.jsonl), read first as it stood', () => {
    holds('turns.fourth.jsonl', 'fourth batch', { closed: 0.01, found: 0.95, unsolicited: 0.02, declined: 0.03 }, 200);
  });

  it('holds on the fifth batch (corpora/turns.fifth.jsonl), read first after the probes weighted to GPT-4o and Claude', () => {
    // Its held-out part misses two bars as it stood and now (docs/user.md): this holds it from getting worse.
    holds('turns.fifth.jsonl', 'fifth batch', { closed: 0.03, found: 0.9, unsolicited: 0.04, declined: 0.01 }, 250);
  });

  it('holds on the sixth batch (corpora/turns.sixth.jsonl), drawn mostly from go-aheads', () => {
    holds('turns.sixth.jsonl', 'sixth batch', { closed: 0.02, found: 0.94, unsolicited: 0.02, declined: 0.01 }, 200);
  });

  it('holds on the seventh batch (corpora/turns.seventh.jsonl), drawn mostly from go-aheads and read first as it stood', () => {
    holds('turns.seventh.jsonl', 'seventh batch', { closed: 0.01, found: 0.96, unsolicited: 0.025, declined: 0.01 }, 250);
  });

  it('holds on the eighth batch (corpora/turns.eighth.jsonl), drawn mostly from go-aheads and read first as it stood', () => {
    // Its held-out part accepts 2 of 42 proposals of another change, as it did when read first.
    holds('turns.eighth.jsonl', 'eighth batch', { closed: 0.01, found: 0.94, unsolicited: 0.05, declined: 0.01 }, 240);
  });

  it('holds on the ninth batch (corpora/turns.ninth.jsonl), drawn mostly from go-aheads and read first as it stood', () => {
    // Its held-out part accepts 1 of 42 proposals of another change, as it did when read first.
    holds('turns.ninth.jsonl', 'ninth batch', { closed: 0.01, found: 0.95, unsolicited: 0.03, declined: 0.04 }, 240);
  });

  it('holds on the tenth batch (corpora/turns.tenth.jsonl), drawn mostly from go-aheads and read first as it stood', () => {
    // Its held-out part, read first and again after the tuning on its tune part: 2 of 92 asking messages closed,
    // 91.8% of asks found (90.4% first), 2 of 37 proposals of another change accepted (docs/user.md).
    holds('turns.tenth.jsonl', 'tenth batch', { closed: 0.025, found: 0.9, unsolicited: 0.06, declined: 0.01 }, 240);
  });

  it('holds on the eleventh batch (corpora/turns.eleventh.jsonl), drawn mostly from go-aheads and read first as it stood', () => {
    // Its held-out part, read first and again after the tuning on its tune part: none of 84 asking messages closed,
    // 98.4% of asks found, none of 34 proposals of another change accepted (docs/user.md).
    holds('turns.eleventh.jsonl', 'eleventh batch', { closed: 0.01, found: 0.95, unsolicited: 0.02, declined: 0.01 }, 240);
  });

  it('holds on the twelfth batch (corpora/turns.twelfth.jsonl), drawn mostly from go-aheads and read first as it stood', () => {
    // Its held-out part, read first: 1 of 69 asking messages closed, 95.8% of 48 asks found, 1 of 28 proposals of another
    // change accepted (docs/user.md).
    holds('turns.twelfth.jsonl', 'twelfth batch', { closed: 0.015, found: 0.95, unsolicited: 0.04, declined: 0.01 }, 240);
  });

  it('holds on the thirteenth batch (corpora/turns.thirteenth.jsonl), every reply after a write of four models no earlier batch held', () => {
    // Read first, held-out: 5 of 42 asking messages closed (a question before "or do you need assistance with something
    // else?"), 89.3% of 28 asks found, 1 of 26 proposals of another change accepted; after its tune part's mends, 1 of 42,
    // 92.9% and 1 of 26 (docs/user.md).
    holds('turns.thirteenth.jsonl', 'thirteenth batch', { closed: 0.03, found: 0.9, unsolicited: 0.04, declined: 0.01 }, 330);
  });

  it('holds on the fourteenth batch (corpora/turns.fourteenth.jsonl), every reply after a write of Qwen3-32B and Qwen3-1.7B', () => {
    // Read first, held-out: 2 of 23 asking messages closed, 78.9% of 19 asks found, none of 16 proposals of another change
    // accepted, none of 14 of its own declined; tune: none of 35 closed, 92.6% of 27 found, none of 17 accepted, 1 of 11
    // declined (a pick between its own change and a hand-off) (docs/user.md).
    holds('turns.fourteenth.jsonl', 'fourteenth batch', { closed: 0.1, found: 0.75, unsolicited: 0.01, declined: 0.1 }, 140);
  });

  it('holds on the fifteenth batch (corpora/turns.fifteenth.jsonl), the sixteenth claim batch\'s replies that no turn batch held', () => {
    // Read first, held-out: none of 3 asking messages closed, 3 of 3 asks found, none of 2 proposals of another change accepted;
    // tune: 2 of 15 closed, 9 of 11 found, then 1 of 15 and 10 of 11 after its tune part's mend (docs/user.md). Most of these
    // replies tell a change done and ask nothing.
    holds('turns.fifteenth.jsonl', 'fifteenth batch', { closed: 0.1, found: 0.85, unsolicited: 0.01, declined: 0.01 }, 110);
  });

  it('holds on the sixteenth batch (corpora/turns.sixteenth.jsonl), the second survey\'s sources (grok-3, gpt-4o, gpt-4.1-mini, gpt-4.1)', () => {
    // Read first, held-out: none of 84 asking messages closed, 65 of 65 asks found, none of 30 proposals of another change
    // accepted, 1 of 15 of its own declined; tune: none of 118, 86 of 90, 3 of 50 accepted, then none after its tune part's mends
    // (docs/user.md).
    holds('turns.sixteenth.jsonl', 'sixteenth batch', { closed: 0.01, found: 0.95, unsolicited: 0.01, declined: 0.07 }, 240);
  });

  it('holds the three figures on every held-out part together', () => {
    const files = ['real', 'fresh', 'more', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth'];
    const m = measureUser(files.flatMap((f) => realTurns(`turns.${f}.jsonl`)).filter((t) => t.split === 'held-out'));
    console.log(`real turns, every held-out part: ${figures(m)}`);
    expect(m.closedWhileAsking.of).toBeGreaterThan(1000);
    // The bars (docs/user.md): at most 1% closed while asking, at least 95% of asks found, at most 2% of
    // proposals of another change accepted. All three met (0.70% of 1,576, 96.5% of 1,231, 1.5%, 9 of 619).
    expect(m.closedWhileAsking.rate).toBeLessThanOrEqual(0.01);
    expect(m.answerable.rate).toBeGreaterThanOrEqual(0.95);
    expect(m.unsolicitedAccepted.rate).toBeLessThanOrEqual(0.02);
  });
});
