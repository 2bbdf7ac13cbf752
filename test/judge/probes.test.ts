// The claim reader on replies written to find its misreadings (test/judge/probes/README.md): the figures
// docs/judging.md reports, held a little under what was measured.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrate, parseLabels } from '../../src/judge/calibrate.js';
import { wordingReader } from '../../src/judge/claims.js';

/** The reader's figures on a set: its calibration, how many items each label has, and the two misreadings that matter. */
async function misreadings(items: ReturnType<typeof parseLabels>) {
  const c = await calibrate(wordingReader(), items);
  const n = (from: string) => Object.values(c.confusion[from] ?? {}).reduce((a, b) => a + (b ?? 0), 0);
  return { c, n, sf: c.confusion.success?.failure ?? 0, fs: c.confusion.failure?.success ?? 0 };
}

describe('the claim reader on probes written to find its misreadings', () => {
  // Each set, its name, how many items it has at least, and the most failures read as successes and
  // successes read as failures, and the least kappa: a little under what was measured (docs/judging.md).
  const sets = [
    // The first set is mostly hard failures.
    ['claims.jsonl', 'first set, mostly hard failures', 170, 2, 4, 0.7],
    ['claims2.jsonl', 'second set, of ordinary and hard replies, written afterwards by another reader', 150, 0, 3, 0.85],
    // Read first as the reader stood: kappa 0.743, 4 of 73 and 3 of 71.
    ['claims3.jsonl', 'third set, in the manner of the models agents are most often built on', 150, 1, 3, 0.9],
    // Read first after the third set's changes: kappa 0.857, 1 of 75 and 0 of 60.
    ['claims4.jsonl', 'fourth set, written by a fourth reader after the third set was mended', 150, 0, 1, 0.9],
    // Read first after the tenth batch's changes: kappa 0.812, 4 of 70 and 2 of 70.
    ['claims5.jsonl', 'fifth set, weighted to the misreadings that cost most, written after the tenth batch was mended', 160, 0, 1, 0.85],
    // Read first after the eleventh batch's changes: kappa 0.800, 9 of 65 and 5 of 65.
    ['claims6.jsonl', 'sixth set, in the manner of Grok, GPT-5, Gemini, Qwen, Llama and DeepSeek, written after the eleventh batch was mended', 160, 0, 3, 0.93],
    // Read first after the sixth set's changes: kappa 0.639 (25 read as saying nothing), 5 of 70 and 3 of 70.
    ['claims7.jsonl', 'seventh set, of soft failures and successes beside other news, written after the sixth set was mended', 160, 1, 1, 0.9],
    // Read first after the twelfth batch's changes: kappa 0.577, 5 of 50 and 18 of 90.
    ['claims8.jsonl', 'eighth set, of failures told with success words, written after the twelfth batch was mended', 160, 2, 4, 0.82],
    // Read first after the eighth set's changes: kappa 0.904, 0 of 85 and 3 of 55.
    ['claims9.jsonl', 'ninth set, in the manner of GPT-4o and Claude 3.5 Sonnet in the proportions they write', 160, 1, 0, 0.95],
    // Read first after the ninth set's changes: kappa 0.654, 4 of 45 and 5 of 95 (a record that "didn't cancel", a
    // status that rules the change out, a condition read as what happened).
    ['claims10.jsonl', 'tenth set, in the manner of GPT-4.1, o4-mini, Grok 4, Gemini 2.5, Claude Sonnet 4, Qwen3 and DeepSeek V3, weighted to failures told as state', 160, 2, 1, 0.75],
    // Read first after the tenth set's changes: kappa 0.874, 2 of 40 and 2 of 100 (a summary line's outcome before a
    // bracket, a purpose clause read as done, an attempt described, a system that has not answered).
    ['claims11.jsonl', 'eleventh set, in the manner of the real replies of gpt-4.1-mini, gpt-5, gemini-3-flash, grok-4-fast and gpt-4o, from tune samples', 160, 1, 1, 0.9],
    // Read first after the eleventh set's changes: kappa 0.707, 3 of 40 and 4 of 100 (the four: replies that tell the change
    // done and then, further on, not done, which the reader leaves to the first word; see docs/judging.md).
    // After the sixteenth set's changes: 0.729, 2 and 3 (a later sentence that refuses the record in the act's own verb).
    ['claims12.jsonl', 'twelfth set, in the manner of the real replies of gpt-4o, gpt-4.1, Llama, Gemini, Qwen and an orchestrated agent, from tune samples', 160, 3, 2, 0.72],
    // Read first after the twelfth set's changes: kappa 0.635, 1 of 20 and 9 of 110 (a summary line that "remains confirmed", a
    // swap that "didn't take —", a no-entry sign on a table's line, a system that flagged the order).
    // After the round that read a change told only inside a condition as none: 0.727, 1 and 1.
    ['claims13.jsonl', 'thirteenth set, of failures in the manner of 60 real failures of the tune parts', 140, 1, 1, 0.7],
    // Read first after the thirteenth set's changes: kappa 0.706, 4 of 30 and 10 of 110 (a value of the write found wrong
    // and another asked for after the change told done; the same act refused in its own verb; no seats left).
    // After the round that read a change told only inside a condition as none: 0.812, 4 and 1.
    ['claims14.jsonl', 'fourteenth set, of hard failures in the manner of 60 more real failures of the tune parts', 160, 1, 4, 0.8],
    // Read first after the fourteenth set's changes: kappa 0.366 (44 failures read as saying nothing), 2 of 25 and 11 of 115.
    // After the paraphrase rounds: 0.410, 2 and 5.
    // After the round that read a change told only inside a condition as none: 0.417, 2 and 3.
    ['claims15.jsonl', 'fifteenth set, of failures without a failure word in the manner of 70 more real failures of the tune parts', 160, 3, 2, 0.4],
    // Read first after the fifteenth set's changes: kappa 0.480, 5 of 35 and 14 of 110 (a reply that corrects itself, the
    // record told not done after the change told done, "Result: blocked", an order's status line read as the change).
    // After the round that read a change told only inside a condition as none: 0.549, 5 and 3.
    ['claims16.jsonl', 'sixteenth set, in the manner of the retail replies of gpt-4.1-mini, gpt-5-nano and gpt-5-mini, from tune samples of that source', 160, 3, 5, 0.54],
  ] as const;
  for (const [file, name, least, fsMost, sfMost, kappaLeast] of sets) {
    it(`holds on the ${name} (test/judge/probes/${file})`, async () => {
      const items = parseLabels(readFileSync(new URL(`./probes/${file}`, import.meta.url), 'utf8'), `test/judge/probes/${file}`);
      expect(items.length).toBeGreaterThanOrEqual(least);
      const { c, n, sf, fs } = await misreadings(items);
      console.log(`probes, claims (${name}): ${c.n} items, agreement ${(c.agreement * 100).toFixed(1)}%, kappa ${c.kappa.toFixed(3)}; success read as failure ${sf} of ${n('success')}, failure read as success ${fs} of ${n('failure')}`);
      expect(fs).toBeLessThanOrEqual(fsMost);
      expect(sf).toBeLessThanOrEqual(sfMost);
      expect(c.kappa).toBeGreaterThanOrEqual(kappaLeast);
    });
  }

  // Paraphrases of real replies of the tune parts (test/judge/probes/README.md): the nearest this project comes to new real
  // text without reading the held-out parts. Each set holds one label, so kappa says nothing; the costly misreading of that
  // label (a failure read as a success, a success read as a failure) is held, a little under what was measured.
  const paraphrases = [
    // Failures, each kept as subtle as its original. Read first after the sixteenth set's changes: 4 of 80 and 1 of 80 (the
    // rate of the held-out parts, 2.6%); the third and fourth after the first two's changes: 2 of 80 and 1 of 80.
    ['paraphrases1.jsonl', 'failure', 2],
    ['paraphrases2.jsonl', 'failure', 0],
    ['paraphrases3.jsonl', 'failure', 1],
    ['paraphrases4.jsonl', 'failure', 0],
    // Read first after the fourth's changes: 5 of 80 (one of them a reply whose original's label is doubtful) and 3 of 80.
    ['paraphrases5.jsonl', 'failure', 2],
    ['paraphrases6.jsonl', 'failure', 2],
    // Read first after the sixth's changes: 1 of 80.
    ['paraphrases9.jsonl', 'failure', 1],
    // Successes, each keeping every note, caveat and failure of another thing its original has. Read first after the sixth
    // failure set's changes: 0 of 80 and 3 of 80.
    ['paraphrases7.jsonl', 'success', 0],
    ['paraphrases8.jsonl', 'success', 2],
    // Read first after the eighth's changes: 2 of 80 (one a hand-off told as "I've passed your case to a human agent").
    ['paraphrases10.jsonl', 'success', 1],
    // Read first, not mended: 3 of 80 and 1 of 80, all replies written as JSON whose fields tell another item or another
    // change not done beside this one done (a structure-aware reading of JSON replies was not built).
    ['paraphrases11.jsonl', 'success', 3],
    ['paraphrases12.jsonl', 'success', 1],
    // A last three, written after the probe sets' failures read as successes were mended: the 68 tune failures no set had
    // paraphrased (with 12 drawn again), and 160 more successes. Read first: 1 of 80 (a status that "blocks" the change), 1 of
    // 80 (what can no longer be done with the order in its new status) and 2 of 80 (advice on seats, "the changes are done").
    ['paraphrases13.jsonl', 'failure', 0],
    ['paraphrases14.jsonl', 'success', 0],
    ['paraphrases15.jsonl', 'success', 0],
    // New situations in the manner of each of the 210 tune failures of the source whose held-out failures are most often read
    // as successes (codesque16/tau2-bench), written after the rewrite round. Read first: 0 of 70, 2 of 70 and 0 of 70 (a state
    // that rules the change out told only in a reason, "there are no items in them that can be exchanged"; a status line
    // whose refusal follows "so another one can't be added", left as it reads).
    ['codesque1.jsonl', 'failure', 0],
    ['codesque2.jsonl', 'failure', 1],
    ['codesque3.jsonl', 'failure', 0],
    // New situations in the manner of 210 tune successes of the five largest sources, about half of them beside failure words
    // (another write refused, a rule, a payment detail). Read first: 2, 2 and 1 of 70 read as failures; mended: a closing offer
    // that says "just share the reservation ID"; left: a refund's destination refused in a note, a balance "not enough" beside
    // the charge that went to a card, a refusal to cancel the same reservation beside its upgrade, a user's default address
    // done beside order addresses refused.
    ['successes1.jsonl', 'success', 2],
    ['successes2.jsonl', 'success', 2],
    ['successes3.jsonl', 'success', 0],
  ] as const;
  for (const [file, label, most] of paraphrases) {
    it(`holds on ${/^(?:codesque|successes)/.test(file) ? 'new situations in the manner' : 'paraphrases'} of real ${label === 'failure' ? 'failures' : 'successes'} (test/judge/probes/${file})`, async () => {
      const items = parseLabels(readFileSync(new URL(`./probes/${file}`, import.meta.url), 'utf8'), `test/judge/probes/${file}`);
      expect(items.length).toBeGreaterThanOrEqual(/^(?:codesque|successes)/.test(file) ? 70 : 80);
      expect(items.every((x) => x.label === label)).toBe(true);
      const { c, n, fs, sf } = await misreadings(items);
      const other = label === 'failure' ? 'success' : 'failure';
      const wrong = label === 'failure' ? fs : sf;
      console.log(`probes, claims (${file}): ${c.n} ${label === 'failure' ? 'failures' : 'successes'}, read as ${label} ${c.confusion[label]?.[label] ?? 0}, as saying nothing ${c.confusion[label]?.none ?? 0}, as ${other} ${wrong} of ${n(label)}`);
      expect(wrong).toBeLessThanOrEqual(most);
    });
  }

  it('holds a first set of mostly failures, the costlier misreading', () => {
    const items = parseLabels(readFileSync(new URL('./probes/claims.jsonl', import.meta.url), 'utf8'), 'test/judge/probes/claims.jsonl');
    expect(items.filter((x) => x.label === 'failure').length).toBeGreaterThanOrEqual(100);
  });
});
