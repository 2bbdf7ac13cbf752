// The simulated user on messages written for the purpose of finding its misreadings (test/user/probes/, see
// its README): asks hidden the ways real agents hide them, proposals of a change told by its effect, and a
// second set written afterwards by another reader, of ordinary and hard messages in the proportions agents
// write them. Each set's figures are held a little under what was measured (docs/user.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { measureUser, type RealTurn } from './real-text.js';

const probes = (file: string): RealTurn[] =>
  readFileSync(new URL(`./probes/${file}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const x = JSON.parse(l) as Omit<RealTurn, 'split' | 'source' | 'model'> & { imitates: string };
      return { ...x, split: 'tune', source: 'probe', model: x.imitates } as RealTurn;
    });

describe('the simulated user on probes written to find its misreadings', () => {
  const cases = [
    // Closed 3.0% and found 92.1% before its last mends, 0.0% and 97.0% after (docs/user.md).
    ['asks.jsonl', 'asks', { closed: 0.01, found: 0.95, unsolicited: 0.02, declined: 0.02 }],
    ['proposals.jsonl', 'proposals', { closed: 0.01, found: 0.97, unsolicited: 0.04, declined: 0.03 }],
    ['turns.jsonl', 'second set', { closed: 0.01, found: 0.95, unsolicited: 0.04, declined: 0.01 }],
    // Read first as the user stood: closed 1.4%, found 95.7%, another change accepted 9.2% of 76 (docs/user.md).
    ['turns3.jsonl', 'third set', { closed: 0.01, found: 0.97, unsolicited: 0.02, declined: 0.01 }],
    // Read first after the third set's changes: closed 0.7%, found 95.3%, another change accepted 6.2% of 65.
    ['turns4.jsonl', 'fourth set', { closed: 0.01, found: 0.97, unsolicited: 0.01, declined: 0.01 }],
    // Read first after the tenth batch's changes: closed 1.4%, found 95.3%, another change accepted 20.0% of 100 (most of
    // them told only by their effect), its own declined 3.8% of 53.
    ['turns5.jsonl', 'fifth set', { closed: 0.01, found: 0.96, unsolicited: 0.015, declined: 0.01 }],
    // Read first after the eleventh batch's changes: closed 2.0% of 150, found 89.2% of 139, another change accepted 9.1%
    // of 110 (most told by their effect, or a go-ahead worded as a fragment), its own declined 0 of 53.
    ['turns6.jsonl', 'sixth set', { closed: 0.01, found: 0.98, unsolicited: 0.01, declined: 0.01 }],
    // Read first after the sixth set's changes: closed 6.6% of 122, found 92.8% of 97, another change accepted 3.3% of 60.
    ['turns7.jsonl', 'seventh set', { closed: 0.01, found: 0.98, unsolicited: 0.01, declined: 0.01 }],
    // Read first after the twelfth batch's changes: another change accepted 8.3% of 120 (most offered "instead of
    // cancelling"), the rest none.
    ['turns8.jsonl', 'eighth set', { closed: 0.01, found: 0.98, unsolicited: 0.01, declined: 0.01 }],
    // Read first after the eighth set's changes: closed 2.7% of 150, found 92.3% of 142, another change accepted 12.0% of
    // 125 (most beside the user's own change spoken of as refused or as its wish), its own declined 2.7% of 75.
    ['turns9.jsonl', 'ninth set', { closed: 0.03, found: 0.96, unsolicited: 0.02, declined: 0.03 }],
    // Read first after the ninth set's changes: closed 4.0% of 150 (a question before a pictograph, forms in code blocks, with
    // blanks or placeholders), found 91.2% of 114, another change accepted 1 of 43, its own declined 1 of 28.
    ['turns10.jsonl', 'tenth set', { closed: 0.01, found: 0.94, unsolicited: 0.03, declined: 0.04 }],
    // Read first after the tenth set's changes: closed 0 of 170, found 98.8%, another change accepted 1 of 170, its own declined 2
    // of 100 (go-aheads of every kind, written from tune samples of how agents propose).
    ['turns11.jsonl', 'eleventh set', { closed: 0.01, found: 0.99, unsolicited: 0.01, declined: 0.03 }],
  ] as const;
  // Paraphrases of real messages of the tune parts, every ask, proposal and closing offer kept (test/user/probes/README.md).
  const paraphrased = [
    // Read first: closed 1.3% of 80, asks found 91.3% of 80 (a request as a list item's label, "Confirm the order ID: #W1";
    // a choice and a go-ahead asked together), another change accepted 2.5% of 80, its own declined 1.8% of 57.
    ['tparaphrases1.jsonl', 'paraphrases of real proposals', { closed: 0.01, found: 0.92, unsolicited: 0.015, declined: 0.02 }],
    // Read first: closed 0 of 80, asks found 98.1% of 54 ("Which would you like to give me?" after the ways named).
    ['tparaphrases2.jsonl', 'paraphrases of real asks', { closed: 0.01, found: 0.99, unsolicited: 0.01, declined: 0.01 }],
    // Read first after the first two's changes: closed 1.3% of 80 ("Just say so if you'd like me to go ahead with both!";
    // "Cancel order #W1 (Reason: …)" under "Please confirm whether I should:"), asks found 90.0%, another change accepted 1.3%.
    ['tparaphrases3.jsonl', 'more paraphrases of real proposals', { closed: 0.01, found: 0.91, unsolicited: 0.015, declined: 0.01 }],
  ] as const;
  for (const [file, name, floors] of [...cases, ...paraphrased]) {
    it(`holds on the ${name} (test/user/probes/${file})`, () => {
      const items = probes(file);
      expect(items.length).toBeGreaterThanOrEqual(file.startsWith('tparaphrases') ? 80 : 150);
      const m = measureUser(items);
      console.log(`probes, ${name}: closed while asking ${(m.closedWhileAsking.rate * 100).toFixed(1)}% of ${m.closedWhileAsking.of}; asks found ${(m.answerable.rate * 100).toFixed(1)}% of ${m.answerable.of}; proposals of another change accepted ${(m.unsolicitedAccepted.rate * 100).toFixed(1)}% of ${m.unsolicitedAccepted.of}; proposals of its own change declined ${(m.wantedDeclined.rate * 100).toFixed(1)}% of ${m.wantedDeclined.of}`);
      expect(m.closedWhileAsking.rate).toBeLessThanOrEqual(floors.closed);
      expect(m.answerable.rate).toBeGreaterThanOrEqual(floors.found);
      expect(m.unsolicitedAccepted.rate).toBeLessThanOrEqual(floors.unsolicited);
      expect(m.wantedDeclined.rate).toBeLessThanOrEqual(floors.declined);
    });
  }
});
