import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shakedownIn } from '../cli-run.js';
import { startLlmStub, type LlmStub } from '../llm-stub.js';
import { cohensKappa, parseLabels } from '../../src/judge/calibrate.js';
import { parseLabel } from '../../src/judge/llm.js';

const SECRET = 'sk-judge-7e1f-never-in-files';
let stub: LlmStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** Runs the CLI with the judge's key in its environment. */
const run = async (...args: string[]) => {
  process.env.SHAKEDOWN_TEST_JUDGE_KEY = SECRET;
  try {
    return await shakedownIn(undefined, ...args, '--llm-base-url', stub?.baseUrl ?? '', '--llm-api-key-env', 'SHAKEDOWN_TEST_JUDGE_KEY');
  } finally {
    delete process.env.SHAKEDOWN_TEST_JUDGE_KEY;
  }
};

describe("Cohen's kappa and labels", () => {
  it('computes kappa for several categories as the textbook does', () => {
    // Two raters, 10 items, 3 categories: po = 0.7, pe = 0.4 * 0.4 + 0.4 * 0.4 + 0.2 * 0.2 = 0.36.
    const a = ['s', 's', 's', 'f', 'f', 'f', 'p', 'p', 's', 'f'];
    const b = ['s', 's', 'f', 'f', 'f', 'p', 'p', 's', 's', 'f'];
    expect(cohensKappa(a, b)).toBeCloseTo((0.7 - 0.36) / 0.64, 10);
    expect(cohensKappa(a, a)).toBe(1);
  });

  it('shows the tune split\'s misreadings one by one and never a held-out item', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'shakedown-labels-')), 'labels.jsonl');
    writeFileSync(file, ['{"text":"Zebra crossing ahead.","label":"success","split":"tune"}', '{"text":"Quokka sighting noted.","label":"success","split":"held-out"}', '{"text":"Your order has been cancelled.","label":"success","split":"tune"}', '{"text":"I could not cancel it.","label":"failure","split":"held-out"}'].join('\n'));
    const r = await shakedownIn(undefined, 'calibrate', '--labels', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/held-out +2 items/);
    expect(r.stdout).toContain('tune split only');
    expect(r.stdout).toContain('Zebra crossing');
    expect(r.stdout).not.toContain('Quokka');
  });

  it('names the line of a bad label and reads a model answer into a label', () => {
    expect(() => parseLabels('{"text":"ok","label":"success"}\n{"text":"x","label":"maybe"}\n', 'l.jsonl')).toThrow(/l\.jsonl:2/);
    expect(parseLabel('Failure.')).toBe('failure');
    expect(parseLabel('I think it is unclear')).toBe('none');
  });
});

describe('an LLM judge (`--judge llm:MODEL`) against a local OpenAI-compatible stub', () => {
  it('is calibrated on the shipped labels; a sweep takes it when kappa reaches the threshold and records it', async () => {
    stub = await startLlmStub({ judge: 'good' });
    const cal = await run('calibrate', '--judge', 'llm:judge-model');
    expect(cal.code).toBe(0);
    expect(cal.stdout).toMatch(/^Claim reader llm:judge-model against \d+ hand labels/);
    // The stub reads with the wording reader: at least the 0.8 the sweep asks for.
    expect(cal.stdout).toMatch(/^all +\d+ items +agreement [\d.]+% +kappa (?:0\.[89]\d\d|1\.000) \[/m);
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-judge-')), 'run');
    const r = await run('sweep', '--out', out, '--judge', 'llm:judge-model', '--agent', 'reference:none', '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0,1', '--profile', 'timeout-after-commit', '--trials', '1', '--quiet');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/judge llm:judge-model: Cohen's kappa [01]\.\d+ \[/);
    const manifest = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(manifest.judge).toMatchObject({ reader: 'llm:judge-model', threshold: 0.8 });
    expect(manifest.judge.kappa).toBeGreaterThanOrEqual(0.8);
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((x) => x.outcome)).toEqual(['pass', 'pass']);
    // The stub saw the judge's questions with the key, and the key is in no file of the run.
    expect(stub.requests.some((q) => q.authorization === `Bearer ${SECRET}`)).toBe(true);
    for (const f of readdirSync(out, { recursive: true }) as string[]) {
      if (/\.(json|jsonl|md|html|csv|svg)$/.test(f)) expect(readFileSync(join(out, f), 'utf8')).not.toContain(SECRET);
    }
  }, 120_000);

  it('refuses a judge whose kappa is below the threshold, naming the figure and the fix', async () => {
    stub = await startLlmStub({ judge: 'bad' });
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-judge-')), 'run');
    const r = await run('sweep', '--out', out, '--judge', 'llm:lazy-model', '--agent', 'reference:none', '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0', '--trials', '1', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Failed to use the judge `llm:lazy-model`: its Cohen's kappa is 0\.000 .* below the threshold 0\.8\. See where it disagrees with `shakedown calibrate --judge llm:lazy-model --world retail`/);
    const bad = await run('sweep', '--judge', 'gpt', '--quiet');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/judge/);
  }, 120_000);
});
