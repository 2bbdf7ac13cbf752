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
  it('reads few failures as successes and few successes as failures (test/judge/probes/claims.jsonl)', async () => {
    const items = parseLabels(readFileSync(new URL('./probes/claims.jsonl', import.meta.url), 'utf8'), 'test/judge/probes/claims.jsonl');
    expect(items.filter((x) => x.label === 'failure').length).toBeGreaterThanOrEqual(100);
    const { c, n, sf, fs } = await misreadings(items);
    console.log(`probes, claims: ${c.n} items, agreement ${(c.agreement * 100).toFixed(1)}%, kappa ${c.kappa.toFixed(3)}; success read as failure ${sf} of ${n('success')}, failure read as success ${fs} of ${n('failure')}`);
    expect(fs).toBeLessThanOrEqual(2);
    expect(sf).toBeLessThanOrEqual(4);
    expect(c.kappa).toBeGreaterThanOrEqual(0.7);
  });

  it('holds on a second set, of ordinary and hard replies, written afterwards by another reader (test/judge/probes/claims2.jsonl)', async () => {
    const items = parseLabels(readFileSync(new URL('./probes/claims2.jsonl', import.meta.url), 'utf8'), 'test/judge/probes/claims2.jsonl');
    expect(items.length).toBeGreaterThanOrEqual(150);
    const { c, n, sf, fs } = await misreadings(items);
    console.log(`probes, claims (second set): ${c.n} items, agreement ${(c.agreement * 100).toFixed(1)}%, kappa ${c.kappa.toFixed(3)}; success read as failure ${sf} of ${n('success')}, failure read as success ${fs} of ${n('failure')}`);
    expect(fs).toBe(0);
    expect(sf).toBeLessThanOrEqual(3);
    expect(c.kappa).toBeGreaterThanOrEqual(0.85);
  });

  it('holds on a third set, written afterwards in the manner of the models agents are most often built on (test/judge/probes/claims3.jsonl)', async () => {
    const items = parseLabels(readFileSync(new URL('./probes/claims3.jsonl', import.meta.url), 'utf8'), 'test/judge/probes/claims3.jsonl');
    expect(items.length).toBeGreaterThanOrEqual(150);
    const { c, n, sf, fs } = await misreadings(items);
    console.log(`probes, claims (third set): ${c.n} items, agreement ${(c.agreement * 100).toFixed(1)}%, kappa ${c.kappa.toFixed(3)}; success read as failure ${sf} of ${n('success')}, failure read as success ${fs} of ${n('failure')}`);
    // Read first as the reader stood: kappa 0.743, 4 of 73 and 3 of 71 (docs/judging.md).
    expect(fs).toBeLessThanOrEqual(1);
    expect(sf).toBeLessThanOrEqual(3);
    expect(c.kappa).toBeGreaterThanOrEqual(0.9);
  });

  it('holds on a fourth set, written by a fourth reader after the third set was mended and read first then (test/judge/probes/claims4.jsonl)', async () => {
    const items = parseLabels(readFileSync(new URL('./probes/claims4.jsonl', import.meta.url), 'utf8'), 'test/judge/probes/claims4.jsonl');
    expect(items.length).toBeGreaterThanOrEqual(150);
    const { c, n, sf, fs } = await misreadings(items);
    console.log(`probes, claims (fourth set): ${c.n} items, agreement ${(c.agreement * 100).toFixed(1)}%, kappa ${c.kappa.toFixed(3)}; success read as failure ${sf} of ${n('success')}, failure read as success ${fs} of ${n('failure')}`);
    // Read first after the third set's changes: kappa 0.857, 1 of 75 and 0 of 60 (docs/judging.md).
    expect(fs).toBe(0);
    expect(sf).toBeLessThanOrEqual(1);
    expect(c.kappa).toBeGreaterThanOrEqual(0.9);
  });
});

