/**
 * `shakedown rejudge RUN`: the current judge applied to a finished run without its agents. Under an
 * unchanged judge it reproduces the run exactly (every built-in agent on every scenario at the default
 * sweep's corner cells, record for record and its grid.json byte for byte); what the judge reads (the conversation, the calls) is what decides the new verdicts;
 * an episode that no longer replays as recorded keeps its verdict and is named; runs judged differently
 * are not read together unless forced.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';
import { readRecords, writeRecords } from '../run-dir.js';

const base = mkdtempSync(join(tmpdir(), 'shakedown-rejudge-'));
const small = join(base, 'small');
const SMALL = ['--agent', 'reference:none', '--agent', 'reference:robust', '--scenario', 'cancel-pending-mistake', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--quiet'];

type Rec = { key: Record<string, unknown>; outcome: string; failure?: string; messages: { role: string; text: string }[]; trace: { tool: string | null; status: number }[] };
const records = (dir: string): Rec[] => readRecords<Rec>(dir);
const byKey = (rs: readonly Rec[]) => new Map(rs.map((r) => [JSON.stringify(r.key), r]));
const copy = (name: string) => {
  const dir = join(base, name);
  cpSync(small, dir, { recursive: true });
  return dir;
};

beforeAll(async () => {
  const r = await shakedown('sweep', '--out', small, ...SMALL);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

describe('rejudge', () => {
  it('reproduces a sweep of every built-in agent and scenario under an unchanged judge: every record, and grid.json byte for byte', async () => {
    const run = join(base, 'default');
    // The default sweep's agents and scenarios at its corner cells (no wording change, most wording and
    // most faults, and both at once): every kind of record the default sweep writes, in a ninth of its episodes.
    const swept = await shakedown('sweep', '--out', run, '--eps', '0,1', '--lambda', '0,0.3', '--trials', '1', '--quiet');
    expect(swept.code, swept.stderr).toBe(0);
    const r = await shakedown('rejudge', run);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^rejudged \d+ episodes of .* with judge wording \(version [0-9a-f]{12}\): no outcome changed\. Run directory: .*-rejudged/);
    expect(r.stderr).not.toMatch(/no longer replay/);
    expect(readFileSync(join(`${run}-rejudged`, 'grid.json'), 'utf8')).toBe(readFileSync(join(run, 'grid.json'), 'utf8'));
    const before = byKey(records(run));
    const after = records(`${run}-rejudged`);
    expect(after.length).toBe(before.size);
    expect(after.length).toBe(7 * 4 * 40);
    for (const a of after) expect(a).toEqual(before.get(JSON.stringify(a.key)));
    const manifest = JSON.parse(readFileSync(join(`${run}-rejudged`, 'run.json'), 'utf8')) as { judge: { version: string }; rejudged: { episodes: number; changed: number; diverged: number } };
    expect(manifest.rejudged).toMatchObject({ episodes: after.length, changed: 0, diverged: 0 });
    expect(manifest.judge.version).toMatch(/^[0-9a-f]{12}$/);
  }, 600_000);

  it('judges what was recorded: a reply that denies a cancellation that happened now fails as a false failure claim', async () => {
    const dir = copy('denied');
    const rs = records(dir);
    const target = rs.find((r) => r.key.scenario === 'cancel-pending-mistake' && r.key.lambda === 0 && r.outcome === 'pass');
    expect(target).toBeDefined();
    const last = (target as Rec).messages.findLast((m) => m.role === 'agent') as { text: string };
    last.text = 'I could not cancel order #W9000201: the system refused the cancellation.';
    writeRecords(dir, rs);
    const r = await shakedown('rejudge', dir, '--out', join(base, 'denied-out'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/outcomes changed: 1 pass -> fail\./);
    const after = byKey(records(join(base, 'denied-out'))).get(JSON.stringify((target as Rec).key));
    expect(after).toMatchObject({ outcome: 'fail', failure: 'false-failure-claim' });
  });

  it('names an episode whose calls no longer replay as recorded, and keeps its verdict', async () => {
    const dir = copy('diverged');
    const rs = records(dir);
    const target = rs.find((r) => r.trace.some((t) => t.tool === 'get_order' && t.status === 200)) as Rec;
    const call = target.trace.find((t) => t.tool === 'get_order' && t.status === 200) as { status: number };
    call.status = 503;
    writeRecords(dir, rs);
    const r = await shakedown('rejudge', dir, '--out', join(base, 'diverged-out'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 episode\(s\) no longer replay as recorded .* they keep their recorded verdict:\n {2}reference:\S+ \S+ ε 0 λ [\d.]+ trial \d: call \d+ \(GET get_order\) answered 200 on replay, 503 when recorded\n/);
    expect(byKey(records(join(base, 'diverged-out'))).get(JSON.stringify(target.key))).toEqual(target);
  });

  it('refuses to read together runs judged differently, unless forced', async () => {
    const other = copy('other-judge');
    const manifest = JSON.parse(readFileSync(join(other, 'run.json'), 'utf8')) as { judge: { version: string } };
    manifest.judge.version = '000000000000';
    writeFileSync(join(other, 'run.json'), JSON.stringify(manifest));
    const compared = await shakedown('compare', small, other);
    expect(compared.code).toBe(2);
    expect(compared.stderr).toMatch(/Failed to compare: .* were judged differently \(judge [0-9a-f]{12} against 000000000000\), so their verdicts are not comparable\. Rejudge the older run .*`shakedown rejudge RUN`.*`--force`/);
    const gated = await shakedown('gate', small, '--baseline', other, '--max-regression', '0.1');
    expect(gated.code).toBe(2);
    expect(gated.stderr).toMatch(/Failed to gate against the baseline: .* judged differently/);
    const forced = await shakedown('compare', small, other, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/judged differently .*; read together because of --force/);
    // Rejudging the other run with the current judge makes them comparable again.
    const rejudged = await shakedown('rejudge', other, '--out', join(base, 'other-rejudged'));
    expect(rejudged.code, rejudged.stderr).toBe(0);
    expect((await shakedown('compare', small, join(base, 'other-rejudged'))).code).toBe(0);
  });

  it('leaves out a record that does not verify, and signs the rejudged run with a key of its own', async () => {
    const dir = copy('forged');
    const lines = readFileSync(join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n');
    lines[0] = (lines[0] as string).replace('"outcome":"', '"outcome":"x');
    writeFileSync(join(dir, 'episodes.jsonl'), `${lines.join('\n')}\n`);
    const out = join(base, 'forged-out');
    const r = await shakedown('rejudge', dir, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 record\(s\) of .*forged\/episodes\.jsonl do not verify \(edited by hand or written by another program\) and were left out/);
    expect(records(out)).toHaveLength(lines.length - 1);
    const keyOf = (d: string) => (JSON.parse(readFileSync(join(d, 'run.json'), 'utf8')) as { key: string }).key;
    expect(keyOf(out)).toMatch(/^[0-9a-f]{64}$/);
    expect(keyOf(out)).not.toBe(keyOf(dir));
    const stats = await shakedown('stats', out);
    expect(stats.stderr).not.toMatch(/do not verify/);
    expect(stats.stderr).toContain(`is an incomplete run: run.json says the run is complete, but its log holds only ${lines.length - 1} of the ${lines.length} planned episodes`);
  });

  it('refuses to write over the run it reads, or to read what is not a run', async () => {
    const self = await shakedown('rejudge', small, '--out', small);
    expect(self.code).toBe(2);
    expect(self.stderr).toMatch(/Failed to rejudge .*: `--out` names the run itself/);
    const none = await shakedown('rejudge', join(base, 'no-such-run'));
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^shakedown: Failed to rejudge/m);
    expect(none.stderr).not.toMatch(/\n\s+at /);
  });
});
