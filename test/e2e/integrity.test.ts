/**
 * Run integrity: one writer per run directory, completeness in every verdict, and a clear error for
 * every broken file, never a stack trace.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';
import { replayCommand } from '../../src/run/parts.js';
import { resolveConfig } from '../../src/ground/config.js';

const base = mkdtempSync(join(tmpdir(), 'shakedown-integrity-'));
const SWEEP = ['--agent', 'reference:none', '--scenario', 'read-order-status', '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--quiet'];
const whole = join(base, 'whole');
/** A copy of the finished run to break. */
const copy = (name: string) => {
  const dir = join(base, name);
  cpSync(whole, dir, { recursive: true });
  return dir;
};

beforeAll(async () => {
  const r = await shakedown('sweep', '--out', whole, ...SWEEP);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

describe('one writer per run directory', () => {
  it('refuses a second writer while the first lives, and takes over a stale lock with a word', async () => {
    const held = copy('held');
    // This test process is alive on this host: its lock is not stale.
    writeFileSync(join(held, '.lock'), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: '2026-12-01T00:00:00.000Z', command: 'shakedown sweep --out held' }));
    const refused = await shakedown('sweep', '--out', held, '--resume', ...SWEEP);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`Failed to write to ${held}: another Shakedown process writes to it \\(pid ${process.pid} on ${hostname()}, since 2026-12-01T00:00:00.000Z: shakedown sweep --out held\\)\\. Wait for it to finish, or use another \`--out\`\\.`));
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // A pid that cannot be alive: the lock is stale.
    writeFileSync(join(held, '.lock'), JSON.stringify({ pid: 2 ** 22 + 12_345, host: hostname(), startedAt: '2026-12-01T00:00:00.000Z', command: 'killed' }));
    const resumed = await shakedown('sweep', '--out', held, '--resume', ...SWEEP);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/was locked by pid \d+ since 2026-12-01T00:00:00.000Z, which is gone: taking the stale lock over/);
    expect(existsSync(join(held, '.lock'))).toBe(false);
  }, 120_000);

  it('counts a key logged twice once (the last record) and names duplicated and unreadable lines', async () => {
    const dup = copy('dup');
    const log = join(dup, 'episodes.jsonl');
    const first = readFileSync(log, 'utf8').split('\n')[0] as string;
    appendFileSync(log, `${first}\nnot json at all\n`);
    const stats = await shakedown('stats', dup, '--json');
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stderr).toMatch(/logs 1 episode\(s\) more than once; the last record of each counts/);
    expect(stats.stderr).toMatch(/has 1 unreadable line\(s\) \(line 10\), left out/);
    const report = await shakedown('report', dup, '--format', 'csv');
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(dup, 'report', 'grid.csv'), 'utf8')).toBe(readFileSync(join(whole, 'report', 'grid.csv'), 'utf8'));
  }, 60_000);
});

describe('completeness in every verdict', () => {
  it('gate refuses a run stopped early unless --allow-partial, and then says so', async () => {
    const partial = join(base, 'partial');
    const stopped = await shakedown('sweep', '--out', partial, ...SWEEP, '--max-episodes', '3', '--concurrency', '1');
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(partial, 'run.json'), 'utf8'))).toMatchObject({ complete: false, stopped: '3 episodes ran (`--max-episodes 3`)' });
    const refused = await shakedown('gate', partial, '--rule', 'pass^1 >= 0');
    expect(refused.code).toBe(2);
    expect(refused.stdout).not.toMatch(/GO/);
    expect(refused.stderr).toMatch(/Failed to gate: .*partial is incomplete \(the sweep stopped early \(3 episodes ran \(`--max-episodes 3`\)\): 3 of 8 episodes\)\. Finish the run with `shakedown sweep --resume --out DIR`, or gate what ran with `--allow-partial`/);
    const allowed = await shakedown('gate', partial, '--rule', 'pass^1 >= 0', '--allow-partial');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/^gate: GO on a partial run \(3 of 8 episodes in .*partial\)/m);
    expect(readFileSync(join(partial, 'report', 'summary.md'), 'utf8')).toMatch(/^> \*\*.*is an incomplete run/);
    // The whole run gates without a word about completeness.
    const go = await shakedown('gate', whole, '--rule', 'pass^1 >= 0');
    expect(go.code).toBe(0);
    expect(go.stderr).not.toMatch(/incomplete/);
  }, 120_000);

  it('merge of one shard of two names the missing shard, and the merged run does not gate', async () => {
    const shard = join(base, 'shard-1');
    expect((await shakedown('sweep', '--out', shard, ...SWEEP, '--shard', '1/2')).code).toBe(0);
    const merged = join(base, 'merged');
    const r = await shakedown('merge', shard, '--out', merged);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/the merged run is incomplete: shard 2\/2 missing/);
    const gate = await shakedown('gate', merged, '--rule', 'pass^1 >= 0');
    expect(gate.code).toBe(2);
    expect(gate.stderr).toMatch(/is incomplete \(the sweep stopped early \(shard 2\/2 missing\)/);
  }, 120_000);
});

describe('what a reader checks first', () => {
  it('stats shows the faults that fired per λ and the flip rate of unstable tasks; grid.json has them per cell', async () => {
    const r = await shakedown('stats', whole);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}λ 0: \d+ calls, 0 transient faults \(0\.000 per call\); none$/m);
    expect(r.stdout).toMatch(/^ {2}λ 0\.3: \d+ calls, \d+ transient faults \(0\.\d{3} per call\); /m);
    const grid = JSON.parse(readFileSync(join(whole, 'grid.json'), 'utf8')) as { agents: { cells: { lambda: number; faultsFired?: { calls: number; transient: number; rate: number } }[] }[] };
    const cells = grid.agents[0]?.cells ?? [];
    expect(cells.find((c) => c.lambda === 0)?.faultsFired?.transient).toBe(0);
    const hot = cells.find((c) => c.lambda === 0.3)?.faultsFired;
    expect(hot?.calls).toBeGreaterThan(0);
    expect(hot?.rate).toBeCloseTo((hot?.transient ?? 0) / (hot?.calls ?? 1), 4);
  }, 60_000);
});

describe('adding trials to a finished run', () => {
  it('--trials 4 --resume on a 2-trial run runs only the new trials and ends with the grid of a 4-trial run', async () => {
    const extended = copy('extended');
    const more = SWEEP.map((a, i) => (SWEEP[i - 1] === '--trials' ? '4' : a));
    const r = await shakedown('sweep', '--out', extended, '--resume', ...more);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/extending .* from 2 to 4 trials per task/);
    expect(r.stdout).toMatch(/16 episodes \(8 this time, 8 resumed\)/);
    const fresh = join(base, 'fresh-4');
    expect((await shakedown('sweep', '--out', fresh, ...more)).code).toBe(0);
    expect(readFileSync(join(extended, 'grid.json'), 'utf8')).toBe(readFileSync(join(fresh, 'grid.json'), 'utf8'));
    expect(JSON.parse(readFileSync(join(extended, 'run.json'), 'utf8'))).toMatchObject({ complete: true, episodes: 16 });
    // Fewer trials is another configuration.
    const fewer = await shakedown('sweep', '--out', extended, '--resume', ...SWEEP.map((a, i) => (SWEEP[i - 1] === '--trials' ? '1' : a)));
    expect(fewer.code).toBe(2);
  }, 120_000);
});

describe('broken files and bad paths', () => {
  it('a torn run.json gets a clear error from every command that reads it, never a stack trace', async () => {
    const torn = copy('torn');
    const text = readFileSync(join(torn, 'run.json'), 'utf8');
    writeFileSync(join(torn, 'run.json'), text.slice(0, Math.floor(text.length / 2)));
    for (const args of [['report', torn], ['gate', torn, '--rule', 'pass^1 >= 0'], ['stats', torn], ['merge', torn, '--out', join(base, 'torn-merged')], ['sweep', '--out', torn, '--resume', ...SWEEP]]) {
      const r = await shakedown(...args);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toMatch(/run\.json is not valid JSON \(.*\); it may have been cut short when a sweep was killed/);
      expect(r.stderr, args[0]).not.toMatch(/\n\s+at /);
    }
  }, 120_000);

  it('--junit into a folder that does not exist is refused before any verdict; --out that cannot be made fails at once', async () => {
    const r = await shakedown('gate', whole, '--rule', 'pass^1 >= 0', '--junit', join(base, 'no', 'such', 'junit.xml'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/`--junit .*junit\.xml` names a file in .*no[\\/]such, which does not exist\. Create the folder first/);
    const proc = await shakedown('sweep', '--out', '/proc/shakedown-cannot-be-here', ...SWEEP);
    expect(proc.code).toBe(2);
    expect(proc.stderr).toMatch(/Failed to create the run directory \/proc\/shakedown-cannot-be-here: .*Choose a writable `--out`/);
  }, 60_000);

  it('compare refuses a k beyond the trials; an adaptive run whose every task was extended sweeps, reports and compares', async () => {
    const k = await shakedown('compare', whole, whole, '--k', '3');
    expect(k.code).toBe(2);
    expect(k.stderr).toMatch(/`--k 3` is out of range: every task has only 2 trials here\. Give --k 1 to 2\./);
    const adaptive = join(base, 'adaptive');
    // Seed 4 at λ = 0.3 on server errors: both tasks of reference:none's cell are mixed in the first round (this crashed before).
    const r = await shakedown('sweep', '--out', adaptive, '--seed', '4', '--agent', 'reference:none', '--agent', 'reference:retry', '--scenario', 'read-order-status', '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0.3', '--profile', 'server', '--trials', '4', '--adaptive', '2', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    expect((await shakedown('stats', adaptive)).code).toBe(0);
    const beyond = await shakedown('compare', adaptive, '--agents', 'reference:retry,reference:none', '--k', '3');
    expect(beyond.stderr).toMatch(/this adaptive run estimates pass\^k without bias only up to its first round of 2 trials/);
    expect((await shakedown('compare', adaptive, '--agents', 'reference:retry,reference:none')).code).toBe(0);
  }, 120_000);

  it('plan reads a pilot run and refuses a plan without a target', async () => {
    const r = await shakedown('plan', '--width', '0.3', '--k', '2', '--pilot', whole, '--agent', 'reference:none', '--cells', '2');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^plan: a 95% interval of pass\^2 no wider than 0\.3 in a cell/m);
    expect(r.stdout).toMatch(/from pilot .*whole, reference:none, its most spread cell/);
    expect(r.stdout).toMatch(/^\s+2\s+[\d.]+\s+\d+\s+[\d,]+\s+[\d,]+$/m);
    const none = await shakedown('plan', '--k', '2', '--pass', '0.9');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give one target, `--width W` .* or `--detect D`/);
  }, 60_000);

  it('replay commands are quoted for the shell', () => {
    const cmd = replayCommand(resolveConfig({}), { scenario: 'read-order-status', agent: 'x', eps: 0, lambda: 0.3, trial: 1 }, "./my agents/bot's.ts");
    expect(cmd).toContain(`--agent './my agents/bot'\\''s.ts' --eps 0 --lambda 0.3 --trial 1`);
    expect(cmd).toContain('--scenario read-order-status');
  });
});
