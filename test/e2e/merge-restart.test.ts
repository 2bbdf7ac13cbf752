/**
 * Commands that hold a run directory's lock let it go when they are stopped, and a merge stopped or killed
 * mid-way can be run again to the same directory and then gives what an uninterrupted merge gives: the
 * merged grid byte for byte and the same records (each merge signs with a key of its own). A merge never
 * deletes what it did not write, and refuses a directory that holds an unrelated run.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, recordsOf, shakedown } from '../cli-run.js';
import { readRecords } from '../run-dir.js';
import { LineSigner } from '../../src/store/mac.js';

const base = mkdtempSync(join(tmpdir(), 'shakedown-merge-restart-'));
const SWEEP = ['--agent', 'reference:none', '--scenario', 'read-order-status', '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--quiet'];
const shards = [join(base, 's1'), join(base, 's2')];
const merged = join(base, 'merged');
/** A part large enough that merging or rejudging it takes seconds: the small run's records under 3,750 copies of its tasks. */
const big = join(base, 'big');
const bigMerged = join(base, 'big-merged');

beforeAll(async () => {
  for (const [i, dir] of shards.entries()) expect((await shakedown('sweep', '--out', dir, ...SWEEP, '--shard', `${i + 1}/2`)).code).toBe(0);
  const r = await shakedown('merge', ...shards, '--out', merged);
  expect(r.code, r.stderr).toBe(0);
  const small = join(base, 'small');
  expect((await shakedown('sweep', '--out', small, ...SWEEP)).code).toBe(0);
  cpSync(small, big, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(big, 'run.json'), 'utf8')) as { key: string; grid: { scenarios: string[] }; episodes: number; titles?: unknown };
  const signer = new LineSigner(manifest.key);
  const records = readRecords<{ key: { scenario: string } }>(small);
  const copies = 3750;
  const tasks = manifest.grid.scenarios;
  manifest.grid.scenarios = Array.from({ length: copies }, (_, c) => tasks.map((s) => `c${c}-${s}`)).flat();
  manifest.episodes = copies * records.length;
  delete manifest.titles;
  writeFileSync(join(big, 'run.json'), JSON.stringify(manifest));
  const lines: string[] = [];
  for (let c = 0; c < copies; c++) for (const rec of records) lines.push(signer.sign(JSON.stringify({ ...rec, key: { ...rec.key, scenario: `c${c}-${rec.key.scenario}` } })));
  writeFileSync(join(big, 'episodes.jsonl'), `${lines.join('\n')}\n`);
  const whole = await shakedown('merge', big, '--out', bigMerged);
  expect(whole.code, whole.stderr).toBe(0);
}, 240_000);

/** Starts the compiled CLI. */
function start(args: readonly string[]) {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, CI: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

/** Resolves once `condition` holds, checking it as the command writes (the test's timeout bounds the wait). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10)); // wait: a poll of the run directory, not a guess at how long start-up takes
}

describe('a stopped command lets its lock go', () => {
  it('rejudge stopped with SIGTERM while it runs ends with 143, releases .lock and leaves a run that says it is incomplete', async () => {
    const out = join(base, 'big-rejudged');
    const p = start(['rejudge', big, '--out', out]);
    await until(() => existsSync(join(out, '.lock')) && existsSync(join(out, 'episodes.jsonl')));
    p.child.kill('SIGTERM');
    expect(await p.exit, p.stderr()).toBe(143);
    expect(p.stderr()).toMatch(/interrupted \(SIGTERM\): stopping the rejudge\./);
    expect(existsSync(join(out, '.lock'))).toBe(false);
    const stats = await shakedown('stats', out);
    expect(stats.stderr).toMatch(/is an incomplete run: the sweep has not finished/);
  }, 120_000);

  it('merge stopped with SIGTERM mid-way ends with 143 and releases .lock; merged again, it gives the uninterrupted merge', async () => {
    const out = join(base, 'big-sigterm');
    const p = start(['merge', big, '--out', out]);
    await until(() => existsSync(join(out, '.merging')));
    p.child.kill('SIGTERM');
    expect(await p.exit, p.stderr()).toBe(143);
    expect(p.stderr()).toMatch(/interrupted \(SIGTERM\): stopping the merge\. .* run the same merge again to finish it\./);
    expect(existsSync(join(out, '.lock'))).toBe(false);
    expect(existsSync(join(out, '.merging'))).toBe(true);
    const again = await shakedown('merge', big, '--out', out);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/holds a merge of this configuration that did not finish: merging again/);
    expect(readFileSync(join(out, 'grid.json'), 'utf8')).toBe(readFileSync(join(bigMerged, 'grid.json'), 'utf8'));
    expect(existsSync(join(out, '.merging'))).toBe(false);
  }, 120_000);

  it('merge killed with SIGKILL mid-way is merged again to the same records and grid', async () => {
    const out = join(base, 'big-sigkill');
    const p = start(['merge', big, '--out', out]);
    await until(() => existsSync(join(out, '.merging')));
    p.child.kill('SIGKILL');
    expect(await p.exit).toBe(null);
    const again = await shakedown('merge', big, '--out', out);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/which is gone: taking the stale lock over/);
    expect(readFileSync(join(out, 'grid.json'), 'utf8')).toBe(readFileSync(join(bigMerged, 'grid.json'), 'utf8'));
    expect(recordsOf(out)).toEqual(recordsOf(bigMerged));
  }, 120_000);
});

describe('merge again', () => {
  it('a merge left with a partial log and its marker is incomplete to every reader, and merged again equals the uninterrupted one', async () => {
    const half = join(base, 'half');
    mkdirSync(half);
    writeFileSync(join(half, 'notes.txt'), 'mine\n');
    mkdirSync(join(half, 'keep'));
    // What a merge killed while it streamed its log leaves: the marker, a cut log, no run.json.
    writeFileSync(join(half, '.merging'), JSON.stringify({ parts: shards, configHash: JSON.parse(readFileSync(join(shards[0] as string, 'run.json'), 'utf8')).configHash, pid: 2 ** 22 + 7, host: 'elsewhere', startedAt: '2026-12-01T00:00:00.000Z' }));
    cpSync(join(merged, 'episodes.jsonl'), join(half, 'episodes.jsonl.merging'));
    truncateSync(join(half, 'episodes.jsonl.merging'), 2000);
    // And one killed after the log but before run.json: a whole log and an old manifest, which must not pass for the merge.
    const late = join(base, 'late');
    cpSync(merged, late, { recursive: true });
    cpSync(join(half, '.merging'), join(late, '.merging'));
    const gate = await shakedown('gate', late, '--rule', 'pass^1 >= 0');
    expect(gate.code).toBe(2);
    expect(gate.stderr).toMatch(/late is incomplete \(a merge into it did not finish: 8 of 8 episodes\)/);
    for (const dir of [half, late]) {
      const r = await shakedown('merge', ...shards, '--out', dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/that did not finish: merging again/);
      expect(readFileSync(join(dir, 'grid.json'), 'utf8')).toBe(readFileSync(join(merged, 'grid.json'), 'utf8'));
      expect(recordsOf(dir)).toEqual(recordsOf(merged));
      expect(existsSync(join(dir, '.merging'))).toBe(false);
      expect(existsSync(join(dir, 'episodes.jsonl.merging'))).toBe(false);
      expect((await shakedown('gate', dir, '--rule', 'pass^1 >= 0')).code).toBe(0);
    }
    // What the merge did not write stays.
    expect(readFileSync(join(half, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(half, 'keep'))).toBe(true);
    // A finished merge of the same configuration is merged again in place, to the same result.
    const over = await shakedown('merge', ...shards, '--out', merged);
    expect(over.code, over.stderr).toBe(0);
    expect(over.stderr).toMatch(/holds a merge of this configuration: replacing it with this merge/);
  });

  it('refuses an --out that holds an unrelated run, a log no merge wrote, an unfinished merge of another configuration, or one of the parts', async () => {
    const sweepRun = shards[1] as string;
    const before = readFileSync(join(sweepRun, 'episodes.jsonl'), 'utf8');
    const intoSweep = await shakedown('merge', ...shards, '--out', sweepRun);
    expect(intoSweep.code).toBe(2);
    expect(intoSweep.stderr).toMatch(/`--out .*s2` is one of the runs to merge/);
    const other = join(base, 'other-run');
    cpSync(sweepRun, other, { recursive: true });
    const intoOther = await shakedown('merge', shards[0] as string, '--out', other);
    expect(intoOther.code).toBe(2);
    expect(intoOther.stderr).toMatch(/Failed to merge into .*other-run: it holds another run \(a sweep, not a merge\), which a merge does not replace\. Choose another `--out`, or move that run away\./);
    expect(readFileSync(join(other, 'episodes.jsonl'), 'utf8')).toBe(before);
    const logOnly = join(base, 'log-only');
    mkdirSync(logOnly);
    cpSync(join(sweepRun, 'episodes.jsonl'), join(logOnly, 'episodes.jsonl'));
    expect((await shakedown('merge', ...shards, '--out', logOnly)).stderr).toMatch(/it holds an episodes\.jsonl without run\.json, which no merge wrote/);
    const foreign = join(base, 'foreign-merge');
    mkdirSync(foreign);
    writeFileSync(join(foreign, '.merging'), JSON.stringify({ parts: ['/elsewhere/a'], configHash: 'other', pid: 1, host: 'h', startedAt: '' }));
    expect((await shakedown('merge', ...shards, '--out', foreign)).stderr).toMatch(/it holds a merge of runs of another configuration that did not finish \(of \/elsewhere\/a\)/);
    rmSync(join(foreign, '.merging'));
  });
});
