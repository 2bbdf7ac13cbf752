// The claim reader on replies of real LLM agents after their writes (corpora/claims.real.jsonl): the figures
// docs/judging.md reports, held so that they cannot quietly get worse. The held-out split was fixed by a hash
// of each item's id before the wording was tuned (corpora/raw/scripts/sample.py).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrate, parseLabels, type LabelledClaim } from '../../src/judge/calibrate.js';
import { wordingReader } from '../../src/judge/claims.js';
import { shakedownIn } from '../cli-run.js';

/**
 * Each split of a batch read by the wording, printed, and held to its floors: kappa at least, a success read
 * as a failure and a failure read as a success at most (floors a little under what was measured, docs/judging.md).
 */
async function holdsSplits(items: readonly LabelledClaim[], name: string, floors: readonly (readonly ['tune' | 'held-out', number, number, number])[]) {
  for (const [split, kappa, sfCeiling, fsCeiling] of floors) {
    const c = await calibrate(wordingReader(), items.filter((x) => x.split === split));
    const n = (from: string) => Object.values(c.confusion[from] ?? {}).reduce((a, b) => a + (b ?? 0), 0);
    // A part with no item of a label misreads none of it.
    const sf = n('success') === 0 ? 0 : (c.confusion.success?.failure ?? 0) / n('success');
    const fs = n('failure') === 0 ? 0 : (c.confusion.failure?.success ?? 0) / n('failure');
    console.log(`real claims, ${name} ${split}: ${c.n} items, agreement ${(c.agreement * 100).toFixed(1)}%, kappa ${c.kappa.toFixed(3)} [${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}]; success read as failure ${(sf * 100).toFixed(1)}% of ${n('success')}, failure read as success ${(fs * 100).toFixed(1)}% of ${n('failure')}`);
    expect(c.kappa).toBeGreaterThanOrEqual(kappa);
    expect(sf).toBeLessThanOrEqual(sfCeiling);
    expect(fs).toBeLessThanOrEqual(fsCeiling);
  }
}

const url = new URL('../../corpora/claims.real.jsonl', import.meta.url);
const items = parseLabels(readFileSync(url, 'utf8'), 'corpora/claims.real.jsonl');

describe('the claim reader on real agents\' replies (corpora/claims.real.jsonl)', () => {
  it('holds 1,000+ hand-labelled replies of several models and two domains', () => {
    expect(items.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(items.map((x) => x.model)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(items.map((x) => x.domain))).toEqual(expect.objectContaining(new Set(['retail', 'airline'])));
  });

  it('agrees with the hand labels on the held-out split at least as well as when it was measured', async () => {
    const reader = wordingReader();
    for (const [split, floor] of [['tune', 0.88], ['held-out', 0.77]] as const) {
      const c = await calibrate(reader, items.filter((x) => x.split === split));
      const n = (from: string) => Object.values(c.confusion[from] ?? {}).reduce((a, b) => a + (b ?? 0), 0);
      const sf = (c.confusion.success?.failure ?? 0) / n('success');
      const fs = (c.confusion.failure?.success ?? 0) / n('failure');
      console.log(`real claims, ${split}: ${c.n} items, agreement ${(c.agreement * 100).toFixed(1)}%, kappa ${c.kappa.toFixed(3)} [${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}]; success read as failure ${(sf * 100).toFixed(1)}%, failure read as success ${(fs * 100).toFixed(1)}%`);
      expect(c.kappa).toBeGreaterThanOrEqual(floor);
    }
  });

  it('agrees with the hand labels of a second held-out set, drawn after the tuning (corpora/claims.fresh.jsonl)', async () => {
    const fresh = parseLabels(readFileSync(new URL('../../corpora/claims.fresh.jsonl', import.meta.url), 'utf8'), 'corpora/claims.fresh.jsonl');
    expect(fresh.length).toBeGreaterThanOrEqual(200);
    expect(fresh.every((x) => x.split === 'held-out')).toBe(true);
    const c = await calibrate(wordingReader(), fresh);
    const n = (from: string) => Object.values(c.confusion[from] ?? {}).reduce((a, b) => a + (b ?? 0), 0);
    const fs = (c.confusion.failure?.success ?? 0) / n('failure');
    console.log(`real claims, fresh held-out: ${c.n} items, agreement ${(c.agreement * 100).toFixed(1)}%, kappa ${c.kappa.toFixed(3)} [${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}]; success read as failure ${(((c.confusion.success?.failure ?? 0) / n('success')) * 100).toFixed(1)}%, failure read as success ${(fs * 100).toFixed(1)}%`);
    // A floor a little under what was measured (docs/judging.md).
    expect(c.kappa).toBeGreaterThanOrEqual(0.83);
  });

  it('agrees with the hand labels of the second batch (corpora/claims.more.jsonl), whose held-out part no tuning read', async () => {
    const more = parseLabels(readFileSync(new URL('../../corpora/claims.more.jsonl', import.meta.url), 'utf8'), 'corpora/claims.more.jsonl');
    expect(more.length).toBeGreaterThanOrEqual(250);
    // Drawn to hold many failures: the costlier misreading.
    expect(more.filter((x) => x.label === 'failure').length).toBeGreaterThanOrEqual(100);
    for (const [split, floor] of [['tune', 0.9], ['held-out', 0.8]] as const) {
      const c = await calibrate(wordingReader(), more.filter((x) => x.split === split));
      const n = (from: string) => Object.values(c.confusion[from] ?? {}).reduce((a, b) => a + (b ?? 0), 0);
      const fs = (c.confusion.failure?.success ?? 0) / n('failure');
      console.log(`real claims, second batch ${split}: ${c.n} items, agreement ${(c.agreement * 100).toFixed(1)}%, kappa ${c.kappa.toFixed(3)} [${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}]; success read as failure ${(((c.confusion.success?.failure ?? 0) / n('success')) * 100).toFixed(1)}%, failure read as success ${(fs * 100).toFixed(1)}% of ${n('failure')}`);
      // Floors a little under what was measured (docs/judging.md); no failure of these read as a success.
      expect(c.kappa).toBeGreaterThanOrEqual(floor);
      expect(fs).toBeLessThanOrEqual(0.02);
    }
  });

  it('agrees with the hand labels of the third batch (corpora/claims.third.jsonl), drawn for its failures', async () => {
    const third = parseLabels(readFileSync(new URL('../../corpora/claims.third.jsonl', import.meta.url), 'utf8'), 'corpora/claims.third.jsonl');
    expect(third.length).toBeGreaterThanOrEqual(300);
    expect(third.filter((x) => x.label === 'failure').length).toBeGreaterThanOrEqual(100);
    // Floors a little under what was measured (docs/judging.md). On the held-out part 3 of 48 failures are
    // read as successes, as before the tuning: the bar of 1% is not met there, and this holds it from rising.
    await holdsSplits(third, 'third batch', [['tune', 0.88, 0.02, 0.02], ['held-out', 0.83, 0.02, 0.07]]);
  });

  it('agrees with the hand labels of the fourth batch (corpora/claims.fourth.jsonl), read first as it stood', async () => {
    const fourth = parseLabels(readFileSync(new URL('../../corpora/claims.fourth.jsonl', import.meta.url), 'utf8'), 'corpora/claims.fourth.jsonl');
    expect(fourth.length).toBeGreaterThanOrEqual(150);
    // Floors a little under what was measured (docs/judging.md); no failure of the held-out part read as a success.
    await holdsSplits(fourth, 'fourth batch', [['tune', 0.8, 0.04, 0.04], ['held-out', 0.85, 0.03, 0]]);
  });

  it('agrees with the hand labels of the fifth batch (corpora/claims.fifth.jsonl), read first after the probes weighted to GPT-4o and Claude', async () => {
    const fifth = parseLabels(readFileSync(new URL('../../corpora/claims.fifth.jsonl', import.meta.url), 'utf8'), 'corpora/claims.fifth.jsonl');
    expect(fifth.length).toBeGreaterThanOrEqual(200);
    // Floors a little under what was measured (docs/judging.md). Its held-out part reads 3 of 15 failures as
    // successes, as it did before the tuning on its tune part: far from the bar of 1%; this holds it from rising.
    await holdsSplits(fifth, 'fifth batch', [['tune', 0.9, 0.01, 0.03], ['held-out', 0.7, 0.02, 0.2]]);
  });

  it('agrees with the hand labels of the sixth batch (corpora/claims.sixth.jsonl), drawn mostly after writes that failed', async () => {
    const sixth = parseLabels(readFileSync(new URL('../../corpora/claims.sixth.jsonl', import.meta.url), 'utf8'), 'corpora/claims.sixth.jsonl');
    expect(sixth.length).toBeGreaterThanOrEqual(230);
    // Drawn for the costlier misreading: most of its replies report a failure.
    expect(sixth.filter((x) => x.label === 'failure').length).toBeGreaterThanOrEqual(130);
    // Floors a little under what was measured (docs/judging.md). Its held-out part reads 1 of 56 failures as a
    // success and 2 of 39 successes as failures, as it did before the tuning on its tune part.
    await holdsSplits(sixth, 'sixth batch', [['tune', 0.78, 0.01, 0.03], ['held-out', 0.75, 0.06, 0.02]]);
  });

  // The batches drawn last, each read first as the reader stood, then tuned on its tune part. Floors a little
  // under what was measured (docs/judging.md): read first, the held-out parts gave kappa 0.935 (seventh, no
  // harmful misreading), 0.905 (eighth, 1 of 51 failures read as a success) and 0.851 (ninth, 2 of 28); after
  // the tuning, 0.935, 0.951 (none) and 0.876 (1 of 28).
  const later = [
    ['seventh', 210, 80, [['tune', 0.93, 0.01, 0.01], ['held-out', 0.9, 0.01, 0.01]]],
    ['eighth', 200, 110, [['tune', 0.9, 0.01, 0.01], ['held-out', 0.9, 0.01, 0.01]]],
    ['ninth', 200, 70, [['tune', 0.93, 0.02, 0.01], ['held-out', 0.83, 0.01, 0.04]]],
    // Tenth, read first: held-out kappa 0.867, a success read as a failure 1 of 40, a failure read as a success 1 of
    // 18; its tune part's mends (0.919 to 0.979) did not move it.
    ['tenth', 160, 45, [['tune', 0.95, 0.01, 0.01], ['held-out', 0.84, 0.03, 0.06]]],
    // Eleventh: held-out 0.916 (one success read as none), neither misreading; tune 0.884 to 1.000.
    ['eleventh', 170, 15, [['tune', 0.95, 0.01, 0.01], ['held-out', 0.88, 0.01, 0.01]]],
    // Twelfth, nearly all successes (the replies after an error-looking write were all drawn): held-out, every one of
    // 49 successes read right and its one failure as saying nothing; tune 3 of 79 successes read as failures, none after.
    ['twelfth', 130, 1, [['tune', 0.9, 0.01, 0.01], ['held-out', 0.7, 0.01, 0.01]]],
    // Thirteenth, of two models no earlier batch holds (gpt-4.1-nano and gemini-3.1-flash-lite, τ²-bench retail): read first,
    // held-out 0.830 with neither misreading (8 of 34 failures read as saying nothing), tune 0.847 (1 of 40 failures read as a
    // success); after its tune part's mends, held-out 0.846 and tune 0.938, neither misreading in either.
    ['thirteenth', 230, 70, [['tune', 0.9, 0.01, 0.01], ['held-out', 0.8, 0.01, 0.01]]],
    // Fourteenth, of gpt-oss-20b and gpt-oss-120b (τ-bench retail), nearly all successes: read first, held-out 0.823 with
    // neither misreading (one success read as saying nothing), tune 0.680 (a success read as a failure 1 of 56, a failure read
    // as a success 1 of 4); after its tune part's mends, tune 1.000, held-out as before.
    ['fourteenth', 100, 7, [['tune', 0.95, 0.01, 0.01], ['held-out', 0.75, 0.01, 0.01]]],
    // Fifteenth, of Qwen3-32B and Qwen3-1.7B (τ-bench retail, a third source read without a snapshot): read first, held-out
    // 0.739 with no failure read as a success (3 of 10 failures read as saying nothing) and 1 of 36 successes read as a
    // failure; tune 0.966 (1 of 78 successes read as a failure), 1.000 after its tune part's mend. After a review narrowed the
    // round's mends, held-out 0.690 (4 of 10 failures read as saying nothing, none as a success).
    ['fifteenth', 140, 20, [['tune', 0.95, 0.01, 0.01], ['held-out', 0.65, 0.03, 0.01]]],
    // Sixteenth, weighted to failures (replies after error-looking writes and from episodes scored 0) over seven sources and
    // eleven models: read first, held-out 0.855 with no failure of 20 read as a success and 2 of 58 successes read as failures;
    // tune 0.807 (4 of 123 successes read as failures), 0.866 after its tune part's mends (1 of 123); held-out as before.
    ['sixteenth', 220, 35, [['tune', 0.84, 0.01, 0.01], ['held-out', 0.83, 0.04, 0.01]]],
    // Seventeenth, what was left of episodes scored 0: every reply a success or none (the agents did the wrong change and told it
    // done). Read first: held-out, a success read as a failure 1 of 67; tune none of 100. Kappa says little with one label.
    ['seventeenth', 170, 0, [['tune', 0.4, 0.01, 0.01], ['held-out', 0.4, 0.02, 0.01]]],
    // Eighteenth, the second survey's sources (gpt-4o, grok-3, gpt-4.1-mini and gpt-4.1, on τ²-bench airline and retail), weighted
    // to failures: read first, held-out 0.773 (1 of 30 failures read as a success, 1 of 56 successes read as a failure), tune
    // 0.840; after its tune part's mends, tune 0.927 and held-out 0.792 (1 of 30, 1 of 56).
    ['eighteenth', 190, 70, [['tune', 0.9, 0.01, 0.01], ['held-out', 0.77, 0.02, 0.034]]],
  ] as const;
  for (const [batch, least, failures, floors] of later) {
    it(`agrees with the hand labels of the ${batch} batch (corpora/claims.${batch}.jsonl), read first as it stood`, async () => {
      const items = parseLabels(readFileSync(new URL(`../../corpora/claims.${batch}.jsonl`, import.meta.url), 'utf8'), `corpora/claims.${batch}.jsonl`);
      expect(items.length).toBeGreaterThanOrEqual(least);
      expect(items.filter((x) => x.label === 'failure').length).toBeGreaterThanOrEqual(failures);
      await holdsSplits(items, `${batch} batch`, floors);
    });
  }

  it('is read by `shakedown calibrate --labels real:BATCH`, per source and split, its held-out items never shown', async () => {
    const r = await shakedownIn(undefined, 'calibrate', '--labels', 'real:thirteenth');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('corpora/claims.thirteenth.jsonl');
    expect(r.stdout).toMatch(/hagverdiyevr\/tau-bench-judge-audit held-out +101 items/);
    expect(r.stdout).toMatch(/gpt-4\.1-nano tune +104 items/);
    const heldOut = parseLabels(readFileSync(new URL('../../corpora/claims.thirteenth.jsonl', import.meta.url), 'utf8'), 'thirteenth').filter((x) => x.split === 'held-out');
    for (const x of heldOut) expect(r.stdout).not.toContain(x.text.replace(/\s+/g, ' ').slice(0, 100));
    const bad = await shakedownIn(undefined, 'calibrate', '--labels', 'real:no-such-batch');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/no shipped batch of that name\. Give `real` \(every batch\) or one of: .*real:thirteenth/);
    const bare = await shakedownIn(undefined, 'calibrate', '--labels', 'real:');
    expect(bare.code).not.toBe(0);
    expect(bare.stderr).toMatch(/give a batch's name after `real:`, one of: .*thirteenth.*; or `real` for every batch/);
  });

  it('meets the bar for kappa on every held-out part together, and holds both misreadings where they stand', async () => {
    const all = ['real', 'fresh', 'more', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth'].flatMap((f) =>
      parseLabels(readFileSync(new URL(`../../corpora/claims.${f}.jsonl`, import.meta.url), 'utf8'), `corpora/claims.${f}.jsonl`).filter((x) => x.split === 'held-out'),
    );
    expect(all.length).toBeGreaterThanOrEqual(1990);
    // The bars are kappa 0.85 and 1% each way: kappa (0.888) and success read as failure (0.86%, 12 of 1,400) meet theirs, the
    // latter held where it stands; failure read as success (2.1%, 11 of 516) is above its bar, and held where it stands
    // (docs/judging.md). Without the eighteenth batch: 0.891, 11 of 1,344, 10 of 486.
    await holdsSplits(all, 'every held-out part', [['held-out', 0.85, 0.0086, 0.0214]]);
  });
});

