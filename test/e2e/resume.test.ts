import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin } from '../cli-run.js';
import { readRecords } from '../run-dir.js';
import { makeRng } from '../../src/ground/seeds.js';

const PLAN = ['--agent', 'reference:none,reference:retry', '--scenario', 'category:cancel', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--quiet', '--seed', '9'];

function start(args: readonly string[]) {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, CI: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

/** Resolves once `condition` holds, checking it as the sweep writes (the test's timeout bounds the wait). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 25)); // wait: a poll of the run's log, not a guess at how long start-up takes
}

/** The keys of a run's records in log order (a torn line, which resume keeps, has none). */
const keysOf = (dir: string) => readRecords<{ key: unknown }>(dir).map((r) => JSON.stringify(r.key));

const TORN = '{"key":{"scenario":"cancel-pen';

describe('resume after a crash', () => {
  it('a sweep killed with SIGKILL at random moments and resumed, on the worker pool or in one process, loses no episode, runs none twice and ends with the uninterrupted grid', async () => {
    const base = mkdtempSync(join(tmpdir(), 'shakedown-resume-'));
    const whole = start(['sweep', '--out', join(base, 'whole'), ...PLAN]);
    expect(await whole.exit).toBe(0);
    const expected = readFileSync(join(base, 'whole', 'grid.json'), 'utf8');
    const planned = keysOf(join(base, 'whole')).length;
    // Kill moments from a seeded stream, as a number of logged episodes (none yet, up to all but one), so
    // that each kill lands where it was meant to however fast the machine runs: 12 runs, two at a time.
    const rng = makeRng('kill-points');
    const points = Array.from({ length: 8 }, () => Math.floor(rng() * planned));
    let killedMidway = 0;
    const runOne = async (i: number) => {
      const dir = join(base, `r${i}`);
      // Half the runs are killed on the worker pool and resumed in one process, half the other way round.
      const [killedOn, resumedOn] = i % 2 === 0 ? ['2', '1'] : ['1', '2'];
      const victim = start(['sweep', '--out', dir, '--workers', killedOn, ...PLAN]);
      const log = join(dir, 'episodes.jsonl');
      const logged = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').length - 1 : 0);
      let over = false;
      void victim.exit.then(() => (over = true));
      await until(() => over || (existsSync(join(dir, 'run.json')) && logged() >= (points[i] as number)));
      victim.child.kill('SIGKILL');
      if ((await victim.exit) === null) killedMidway++;
      // Every other run also leaves a torn last line, as a writer killed mid-line would.
      const torn = i % 2 === 1 && existsSync(log);
      if (torn) appendFileSync(log, TORN);
      const resumed = start(['sweep', '--out', dir, '--resume', '--workers', resumedOn, ...PLAN]);
      expect(await resumed.exit, resumed.stderr()).toBe(0);
      // The torn line is kept whole, on a line of its own, never cut off; the records after it start their own lines.
      if (torn) expect(readFileSync(log, 'utf8').split('\n')).toContain(TORN);
      const keys = keysOf(dir);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys).toHaveLength(planned);
      expect(readFileSync(join(dir, 'grid.json'), 'utf8')).toBe(expected);
    };
    for (let i = 0; i < points.length; i += 2) await Promise.all([i, i + 1].filter((j) => j < points.length).map(runOne));
    // A sweep that ended before its kill proves nothing of resuming: most must have been cut off.
    expect(killedMidway).toBeGreaterThanOrEqual(points.length / 2);
  }, 240_000);

  it('refuses to resume with another configuration unless forced, and SIGINT stops cleanly with a partial grid', async () => {
    const base = mkdtempSync(join(tmpdir(), 'shakedown-resume2-'));
    const dir = join(base, 'run');
    const first = start(['sweep', '--out', dir, ...PLAN]);
    expect(await first.exit).toBe(0);
    const other = start(['sweep', '--out', dir, '--resume', ...PLAN.filter((a) => a !== '9'), '9x']);
    expect(await other.exit).toBe(2);
    expect(other.stderr()).toMatch(/started with another configuration .* Use the same options, or `--force`/);
    // The option that changed, by name, then and now.
    expect(other.stderr()).toMatch(/seed: "9" then, "9x" now/);
    const again = start(['sweep', '--out', dir, ...PLAN]);
    expect(await again.exit).toBe(2);
    expect(again.stderr()).toMatch(/Resume it with `--resume`/);

    const slow = start(['sweep', '--out', join(base, 'int'), '--agent', 'reference:none', '--trials', '4', '--quiet']);
    // Interrupt once the sweep has logged its first episode, however long start-up takes on this machine.
    const log = join(base, 'int', 'episodes.jsonl');
    await until(() => existsSync(log) && readFileSync(log, 'utf8').includes('\n'));
    slow.child.kill('SIGINT');
    expect(await slow.exit).toBe(130);
    expect(slow.stderr()).toMatch(/interrupted after \d+ of \d+ episodes; the grid above is partial/);
    expect(existsSync(join(base, 'int', 'grid.json'))).toBe(true);
  }, 120_000);

  it('with an agent that hangs: a second writer is refused while the sweep runs, and SIGTERM (twice: no grace) still ends it with a partial grid and no lock', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'shakedown-hung-')), 'run');
    const hangs = fileURLToPath(new URL('../fixtures/agents/never-settles.mjs', import.meta.url));
    const args = ['sweep', '--out', dir, '--agent', 'reference:none', '--agent', hangs, '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '2', '--deadline-ms', '300000', '--quiet'];
    const hung = start(args);
    const log = join(dir, 'episodes.jsonl');
    await until(() => existsSync(log) && readFileSync(log, 'utf8').split('\n').length > 2);
    // The first sweep holds the directory: a resume beside it is refused, naming it.
    const second = start([...args, '--resume']);
    expect(await second.exit).toBe(2);
    expect(second.stderr()).toMatch(/another Shakedown process writes to it \(pid \d+ on .*: shakedown sweep --out/);
    hung.child.kill('SIGTERM');
    // The hung episodes would hold the grace to its end: a second signal ends it once the first was heard.
    await until(() => /interrupted \(SIGTERM\)/.test(hung.stderr()));
    hung.child.kill('SIGTERM');
    expect(await hung.exit).toBe(143);
    expect(hung.stderr()).toMatch(/SIGTERM again: not waiting for the episodes in flight/);
    expect(existsSync(join(dir, 'grid.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'))).toMatchObject({ complete: false, stopped: 'interrupted' });
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  }, 120_000);

  it('shards partition the episodes; merging them gives the unsharded grid byte for byte', async () => {
    const base = mkdtempSync(join(tmpdir(), 'shakedown-shards-'));
    const runs = await Promise.all(['1/3', '2/3', '3/3'].map(async (shard, i) => {
      const s = start(['sweep', '--out', join(base, `s${i}`), '--shard', shard, ...PLAN]);
      expect(await s.exit, s.stderr()).toBe(0);
      return keysOf(join(base, `s${i}`));
    }));
    const whole = start(['sweep', '--out', join(base, 'whole'), ...PLAN]);
    expect(await whole.exit).toBe(0);
    const all = runs.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual(keysOf(join(base, 'whole')).sort());
    const merge = start(['merge', join(base, 's0'), join(base, 's1'), join(base, 's2'), '--out', join(base, 'merged')]);
    expect(await merge.exit, merge.stderr()).toBe(0);
    expect(readFileSync(join(base, 'merged', 'grid.json'), 'utf8')).toBe(readFileSync(join(base, 'whole', 'grid.json'), 'utf8'));
    const bad = start(['sweep', '--shard', '4/3', ...PLAN]);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toMatch(/write i\/n with 1 <= i <= n/);
  }, 120_000);
});
