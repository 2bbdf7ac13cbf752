/**
 * Run integrity: one writer per run directory, completeness in every verdict, the log checked against the
 * run's plan and key, and a clear error for every broken file, never a stack trace.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';
import { replayCommand } from '../../src/run/parts.js';
import { resolveConfig } from '../../src/ground/config.js';
import { readRecords, signedLine, writeRecords } from '../run-dir.js';

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
    // A pod restarted by its Job: the same host and pid, a process that started at another time.
    const started = Date.now() - process.uptime() * 1000;
    writeFileSync(join(held, '.lock'), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: '2026-12-01T00:00:00.000Z', command: 'the pod before', processStart: started - 3_600_000 }));
    const restarted = await shakedown('sweep', '--out', held, '--resume', ...SWEEP);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stderr).toMatch(/taking the stale lock over/);
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

type Rec = { key: { scenario: string; agent: string; eps: number; lambda: number; trial: number }; outcome: string };
const logOf = (dir: string) => join(dir, 'episodes.jsonl');

describe('the log checked against the plan', () => {
  it('a log cut short is incomplete even when run.json says complete: stats names it, gate refuses it', async () => {
    const cut = copy('cut');
    const lines = readFileSync(logOf(cut), 'utf8').trim().split('\n');
    writeFileSync(logOf(cut), `${lines.slice(0, -2).join('\n')}\n`);
    expect(JSON.parse(readFileSync(join(cut, 'run.json'), 'utf8'))).toMatchObject({ complete: true });
    const stats = await shakedown('stats', cut);
    expect(stats.stderr).toMatch(/is an incomplete run: run\.json says the run is complete, but its log holds only 6 of the 8 planned episodes \(cut short or edited since\)/);
    const gate = await shakedown('gate', cut, '--rule', 'pass^1 >= 0');
    expect(gate.code).toBe(2);
    expect(gate.stdout).not.toMatch(/GO/);
    expect(gate.stderr).toMatch(/Failed to gate: .*cut is incomplete \(run\.json says the run is complete, but its log holds only 6 of the 8/);
  });

  it('records of keys the run did not plan are left out of the grid and named; gate refuses them unless --force, and then says so', async () => {
    const odd = copy('odd');
    const [first] = readRecords<Rec>(odd) as [Rec];
    // Signed with the run's key: they verify, and still are no episodes of this run.
    const strays = [{ agent: 'reference:retry' }, { scenario: 'refund-duplicate-charge' }, { eps: 0.5 }, { lambda: 0.1 }, { trial: 2 }, { trial: '1' }].map((change) => ({ ...first, key: { ...first.key, ...change } }));
    appendFileSync(logOf(odd), strays.map((r) => `${signedLine(odd, r)}\n`).join(''));
    const stats = await shakedown('stats', odd, '--json');
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stderr).toMatch(/episodes\.jsonl: 6 record\(s\) lie outside the run's plan, left out of the grid: line 9 \(agent "reference:retry" is not one of the run's agents\); line 10 \(task "refund-duplicate-charge" is not one of the run's tasks\); line 11 \(ε 0\.5 is not one of the run's ε values\); line 12 \(λ 0\.1 is not one of the run's λ values\); line 13 \(trial 2 is not one of the run's 2 trials \(0 to 1\)\); \.\.\./);
    expect(stats.stderr).not.toMatch(/incomplete/);
    const report = await shakedown('report', odd);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(odd, 'report', 'grid.csv'), 'utf8')).toBe(readFileSync(join(whole, 'report', 'grid.csv'), 'utf8'));
    expect(readFileSync(join(odd, 'report', 'summary.md'), 'utf8')).toMatch(/^> \*\*.*6 record\(s\) lie outside the run's plan/m);
    expect(readFileSync(join(odd, 'report', 'report.html'), 'utf8')).toMatch(/6 record\(s\) lie outside the run&#39;s plan/);
    const refused = await shakedown('gate', odd, '--rule', 'pass^1 >= 0');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/Failed to gate: .*odd\/episodes\.jsonl holds 6 outside its plan, left out of its grid\. .*or gate what verifies with `--force` \(the verdict then says so\)/);
    const forced = await shakedown('gate', odd, '--rule', 'pass^1 >= 0', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^gate: GO, forced past 6 outside its plan in .*odd \(/m);
  });

  it('a shard holds only its own keys: a record of the other shard is named', async () => {
    const shard = join(base, 'own-shard');
    expect((await shakedown('sweep', '--out', shard, ...SWEEP, '--shard', '1/2')).code).toBe(0);
    const mine = new Set(readRecords<Rec>(shard).map((r) => JSON.stringify(r.key)));
    const other = readRecords<Rec>(whole).find((r) => !mine.has(JSON.stringify(r.key)));
    appendFileSync(logOf(shard), `${signedLine(shard, other)}\n`);
    const stats = await shakedown('stats', shard);
    expect(stats.stderr).toMatch(/1 record\(s\) lie outside the run's plan, left out of the grid: line \d+ \(it belongs to another shard than this run's 1\/2\)/);
  });
});

describe('records signed with the run\'s key', () => {
  it('every record ends with its MAC; a line edited by hand does not verify, is left out and named, and gate refuses it unless forced', async () => {
    const { key } = JSON.parse(readFileSync(join(whole, 'run.json'), 'utf8')) as { key: string };
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const lines = readFileSync(logOf(whole), 'utf8').trim().split('\n');
    for (const line of lines) expect(line).toMatch(/,"mac":"[0-9a-f]{64}"\}$/);
    const edited = copy('edited');
    const i = lines.findIndex((l) => l.includes('"outcome":"fail"'));
    lines[i] = (lines[i] as string).replace('"outcome":"fail"', '"outcome":"pass"');
    writeFileSync(logOf(edited), `${lines.join('\n')}\n`);
    const stats = await shakedown('stats', edited);
    expect(stats.stderr).toContain(`episodes.jsonl: 1 record(s) do not verify (edited by hand or written by another program): line ${i + 1}, left out of the grid.`);
    const gate = await shakedown('gate', edited, '--rule', 'pass^1 >= 0', '--allow-partial');
    expect(gate.code).toBe(2);
    expect(gate.stderr).toMatch(/Failed to gate: .*edited\/episodes\.jsonl holds 1 record\(s\) that do not verify, left out of its grid/);
    const forced = await shakedown('gate', edited, '--rule', 'pass^1 >= 0', '--allow-partial', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^gate: GO on a partial run \(7 of 8 episodes in .*edited\), forced past 1 record\(s\) that do not verify in /m);
    // Resuming runs the episode again: its new record is the key's last, and the grid is the whole run's.
    const resumed = await shakedown('sweep', '--out', edited, '--resume', ...SWEEP);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming .*: 7 episodes already done, 1 record\(s\) that do not verify left out \(their episodes run again\)/);
    expect(readFileSync(join(edited, 'grid.json'), 'utf8')).toBe(readFileSync(join(whole, 'grid.json'), 'utf8'));
    expect((await shakedown('gate', edited, '--rule', 'pass^1 >= 0')).code).toBe(0);
  });

  it('a run written before records were signed is read as before, with a word that it cannot be verified', async () => {
    const old = copy('unsigned');
    const manifest = JSON.parse(readFileSync(join(old, 'run.json'), 'utf8')) as Record<string, unknown>;
    delete manifest.key;
    writeFileSync(join(old, 'run.json'), JSON.stringify(manifest));
    writeRecords(old, readRecords(old));
    const stats = await shakedown('stats', old);
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stderr).toMatch(/unsigned cannot be verified: its run\.json has no `key` \(written before records were signed\)/);
    const gate = await shakedown('gate', old, '--rule', 'pass^1 >= 0');
    expect(gate.code, gate.stderr).toBe(0);
    const resumed = await shakedown('sweep', '--out', old, '--resume', ...SWEEP.map((a, i) => (SWEEP[i - 1] === '--trials' ? '3' : a)));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/written before records were signed: its records stay unsigned/);
    expect(readFileSync(logOf(old), 'utf8')).not.toContain('"mac"');
  });
});

describe('resume keeps every line and writes only in place', () => {
  it('a torn last line is kept on a line of its own and counted unreadable, never cut off', async () => {
    const torn = copy('torn-line');
    const fragment = '{"key":{"scenario":"read-order-status","agent":"reference:none","eps":0,"lam';
    const lines = readFileSync(logOf(torn), 'utf8').trim().split('\n');
    writeFileSync(logOf(torn), `${lines.slice(0, -1).join('\n')}\n${fragment}`);
    const resumed = await shakedown('sweep', '--out', torn, '--resume', ...SWEEP);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming .*: 7 episodes already done, 1 unreadable line\(s\) kept and left out/);
    const after = readFileSync(logOf(torn), 'utf8').split('\n');
    expect(after[7]).toBe(fragment);
    expect(after).toHaveLength(10);
    expect(readFileSync(join(torn, 'grid.json'), 'utf8')).toBe(readFileSync(join(whole, 'grid.json'), 'utf8'));
    expect((await shakedown('stats', torn)).stderr).toMatch(/has 1 unreadable line\(s\) \(line 8\), left out/);
  });

  it('a run directory, run.json or episodes.jsonl that is a symbolic link is refused for writing, and its target is left alone', async () => {
    const { symlinkSync, mkdirSync } = await import('node:fs');
    const elsewhere = copy('elsewhere');
    const before = readFileSync(logOf(elsewhere), 'utf8');
    const linkedDir = join(base, 'linked-dir');
    symlinkSync(elsewhere, linkedDir);
    const linkedLog = join(base, 'linked-log');
    mkdirSync(linkedLog);
    cpSync(join(elsewhere, 'run.json'), join(linkedLog, 'run.json'));
    symlinkSync(logOf(elsewhere), logOf(linkedLog));
    const linkedManifest = join(base, 'linked-manifest');
    mkdirSync(linkedManifest);
    cpSync(logOf(elsewhere), logOf(linkedManifest));
    symlinkSync(join(elsewhere, 'run.json'), join(linkedManifest, 'run.json'));
    const cases: [string[], RegExp][] = [
      [['sweep', '--out', linkedDir, '--resume', ...SWEEP], /Failed to start the sweep: `--out .*linked-dir` is a symbolic link \(to .*elsewhere\), and a run is written only into a directory of its own\./],
      [['sweep', '--out', linkedLog, '--resume', ...SWEEP], /Failed to start the sweep: .*linked-log\/episodes\.jsonl is a symbolic link \(to .*\); a run's files are written only in place, never through a link\. Replace the link with a copy of what it points to \(`cp -RL`\), or choose another `--out`\./],
      [['sweep', '--out', linkedManifest, '--resume', ...SWEEP], /linked-manifest\/run\.json is a symbolic link/],
      [['merge', whole, '--out', linkedDir], /Failed to merge: `--out .*linked-dir` is a symbolic link/],
      [['rejudge', whole, '--out', linkedLog], /Failed to rejudge .*: .*linked-log\/episodes\.jsonl is a symbolic link/],
    ];
    for (const [args, message] of cases) {
      const r = await shakedown(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    expect(readFileSync(logOf(elsewhere), 'utf8')).toBe(before);
  });
});

describe('an --out of its own', () => {
  it('empty, blank, ., .., the root, the working directory or a file is refused by sweep, merge and rejudge before anything is written', async () => {
    const { mkdirSync, readdirSync } = await import('node:fs');
    const cwd = join(base, 'cwd');
    const file = join(base, 'a-file');
    mkdirSync(join(cwd, 'inner'), { recursive: true });
    writeFileSync(file, 'not a run\n');
    const home = process.cwd();
    process.chdir(join(cwd, 'inner'));
    try {
      const outs: [string, RegExp][] = [
        ['', /`--out ''` is empty, which would write the run into the working directory\. Give the run a directory of its own, e\.g\. `--out runs\/my-run`\./],
        ['  ', /`--out '  '` is empty/],
        ['.', /`--out \.` names the working directory itself/],
        ['..', /`--out \.\.` names a folder that holds the working directory/],
        ['/', /`--out \/` names the root of the file system/],
        [process.cwd(), /names the working directory itself/],
        [file, /names a file that is not a directory/],
      ];
      for (const [out, message] of outs) {
        for (const args of [['sweep', '--out', out, ...SWEEP], ['merge', whole, '--out', out], ['rejudge', whole, '--out', out]]) {
          const r = await shakedown(...args);
          expect(r.code, JSON.stringify(args)).toBe(2);
          expect(r.stderr, JSON.stringify(args)).toMatch(new RegExp(`^shakedown: Failed to (start the sweep|merge|rejudge \\S+): .*${message.source}`));
        }
      }
      expect(readdirSync(cwd)).toEqual(['inner']);
      expect(readdirSync(join(cwd, 'inner'))).toEqual([]);
      expect(readFileSync(file, 'utf8')).toBe('not a run\n');
    } finally {
      process.chdir(home);
    }
  });
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
