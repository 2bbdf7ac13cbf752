// Onto the engines teams already run: the GitHub Action's and the Kubernetes Jobs' own commands, read
// from action.yml and the manifests and run as they are (shards in parallel processes, the engine's index
// variables set as the engine sets them), give a merged run equal to the unsharded one: grid.json and
// grid.csv byte for byte, the same records apart from wall time and MAC.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, recordsOf, shakedown } from '../cli-run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SHARDS = 3;
const CONFIG = { agents: ['reference:none', 'reference:retry'], eps: [0, 0.5], lambda: [0, 0.3], trials: 2, scenarios: ['category:cancel', 'read-order-status'], seed: '11' };
const RULES = 'pass^2 >= 0.5 where eps <= 0 and lambda <= 0\npass^1 >= 0.1';

type Step = { id?: string; run?: string; uses?: string; env?: Record<string, string>; if?: string };

/** Runs a shell script with `env` over this process's, to its end. */
function run(shell: string, script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(shell, ['-c', script], { cwd, env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** A step's env with `${{ inputs.NAME }}` read from the inputs, as the runner evaluates it. */
const envOf = (step: Step, inputs: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, String(v).replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => inputs[name] ?? '')]));

/** The records and the grids of a run, as the comparison reads them. */
const view = (dir: string) => ({ grid: readFileSync(join(dir, 'grid.json'), 'utf8'), csv: readFileSync(join(dir, 'report', 'grid.csv'), 'utf8'), records: recordsOf(dir) });

describe('CI engines', () => {
  const work = mkdtempSync(join(tmpdir(), 'shakedown-ci-'));
  const config = join(work, 'shakedown.config.json');
  writeFileSync(config, JSON.stringify(CONFIG));
  let whole: ReturnType<typeof view>;

  // The unsharded run, which every engine's merged run must equal.
  beforeAll(async () => {
    const r = await shakedown('sweep', '--config', config, '--out', join(work, 'whole'), '--quiet');
    expect(r.code, r.stderr).toBe(0);
    whole = view(join(work, 'whole'));
    expect(whole.records.length).toBe(64);
  }, 120_000);

  it('the GitHub Action: a matrix of shards, then merge, gate and the job summary, equal the unsharded run', async () => {
    const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }>; runs: { using: string; steps: Step[] } };
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps;
    const step = (id: string) => steps.find((s) => s.id === id) as Step;
    // Every step that runs a command is one the test runs (installing aside: this checkout is built).
    expect(steps.filter((s) => s.run !== undefined).map((s) => s.id)).toEqual(['install', 'sweep', 'merge', 'gate']);
    const defaults = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));
    const runs = join(work, 'gh');
    const summary = join(work, 'step-summary.md');
    const output = join(work, 'github-output');
    const common = { GITHUB_ACTION_PATH: root, GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output };
    // The matrix: one process per shard, at once.
    const shards = await Promise.all(
      Array.from({ length: SHARDS }, (_, i) => run('bash', step('sweep').run as string, { ...common, ...envOf(step('sweep'), { ...defaults, mode: 'shard', config, shards: String(SHARDS), 'shard-index': String(i + 1), runs }) }, work)),
    );
    for (const s of shards) expect(s.code, s.out).toBe(0);
    expect(shards[1]?.out).toMatch(/shard 2\/3 \(from SHAKEDOWN_SHARD_INDEX=2, SHAKEDOWN_SHARD_COUNT=3\)/);
    // download-artifact with a pattern puts each artifact in a folder named after it.
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact') && s.if?.includes("'shard'")) as Step & { with: { name: string; path: string } };
    const download = steps.find((s) => s.uses?.startsWith('actions/download-artifact')) as Step & { with: { pattern: string; path: string } };
    for (let i = 1; i <= SHARDS; i++) {
      const name = upload.with.name.replace(/\$\{\{\s*inputs\.shard-index\s*\}\}/, String(i));
      expect(name).toMatch(new RegExp(`^${download.with.pattern.replace('*', '.*')}$`));
      cpSync(join(runs, `shard-${i}`), join(download.with.path.replace(/\$\{\{\s*inputs\.runs\s*\}\}/, runs), name), { recursive: true });
    }
    const finish = { ...defaults, mode: 'finish', runs, rules: RULES };
    const merged = await run('bash', step('merge').run as string, { ...common, ...envOf(step('merge'), finish) }, work);
    expect(merged.code, merged.out).toBe(0);
    const gated = await run('bash', step('gate').run as string, { ...common, ...envOf(step('gate'), finish) }, work);
    expect(gated.code, gated.out).toBe(0);
    expect(readFileSync(output, 'utf8')).toBe('verdict=GO\n');
    expect(readFileSync(summary, 'utf8')).toMatch(/^<!-- shakedown:gate -->\n> \*\*Release gate: GO\*\* for `reference:none`, `reference:retry`/);
    expect(readFileSync(summary, 'utf8')).not.toMatch(/!\[/);
    expect(existsSync(join(runs, 'merged', 'report', 'junit.xml'))).toBe(true);
    expect(view(join(runs, 'merged'))).toEqual(whole);
    // A rule the run fails: NO-GO, said as the output, and the job fails.
    writeFileSync(output, '');
    const noGo = await run('bash', step('gate').run as string, { ...common, ...envOf(step('gate'), { ...finish, rules: 'pass^2 >= 1' }) }, work);
    expect(noGo.code).toBe(1);
    expect(readFileSync(output, 'utf8')).toBe('verdict=NO-GO\n');
  }, 240_000);

  it('the Kubernetes Indexed Job and the merge Job, run as the manifests say, equal the unsharded run', async () => {
    const docs = parseAllDocuments(readFileSync(join(root, 'examples', 'ci', 'kubernetes-indexed-job.yaml'), 'utf8')).map((d) => d.toJS());
    const job = docs.find((d) => d.kind === 'Job' && d.spec.completionMode === 'Indexed');
    const container = job.spec.template.spec.containers[0];
    const mergeJob = parse(readFileSync(join(root, 'examples', 'ci', 'kubernetes-merge-job.yaml'), 'utf8'));
    const mergeContainer = mergeJob.spec.template.spec.containers[0];
    // The image puts `shakedown` on the PATH (examples/ci/Dockerfile): here, this checkout's.
    const path = join(work, 'bin');
    mkdirSync(path);
    writeFileSync(join(path, 'shakedown'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
    chmodSync(join(path, 'shakedown'), 0o755);
    const runs = join(work, 'k8s');
    mkdirSync(runs);
    const completions = job.spec.completions as number;
    // The manifest's paths are its env's: the test points them at its own folders, nothing else.
    const envFrom = (c: { env: { name: string; value: string }[] }) => Object.fromEntries(c.env.map((e) => [e.name, e.value]));
    expect(Object.keys(envFrom(container)).sort()).toEqual(['CONFIG', 'RUNS', 'RUN_NAME']);
    const shards = await Promise.all(
      Array.from({ length: completions }, (_, index) => run(container.command[0], container.command[2], { ...envFrom(container), RUNS: runs, CONFIG: config, JOB_COMPLETION_INDEX: String(index), PATH: `${path}:${process.env.PATH}` }, work)),
    );
    for (const s of shards) expect(s.code, s.out).toBe(0);
    const name = envFrom(container).RUN_NAME as string;
    expect(envFrom(mergeContainer).RUN_NAME).toBe(name);
    expect(readdirSync(join(runs, name)).sort()).toEqual(Array.from({ length: completions }, (_, i) => `shard-${i}`));
    // A pod restarted after its shard finished resumes it: nothing runs twice.
    const again = await run(container.command[0], container.command[2], { ...envFrom(container), RUNS: runs, CONFIG: config, JOB_COMPLETION_INDEX: '1', PATH: `${path}:${process.env.PATH}` }, work);
    expect(again.code, again.out).toBe(0);
    const merged = await run(mergeContainer.command[0], mergeContainer.command[2], { ...envFrom(mergeContainer), RUNS: runs, RULES, PATH: `${path}:${process.env.PATH}` }, work);
    expect(merged.code, merged.out).toBe(0);
    expect(merged.out).toMatch(/^gate: GO/m);
    expect(view(join(runs, name, 'merged'))).toEqual(whole);
  }, 240_000);

  it('--shard auto reads the index variables of each engine, and says what is missing', async () => {
    const { resolveShard } = await import('../../src/cli/options.js');
    expect(resolveShard('auto', { SHAKEDOWN_SHARD_INDEX: '2', SHAKEDOWN_SHARD_COUNT: '4' })).toEqual({ shard: '2/4', from: 'SHAKEDOWN_SHARD_INDEX=2, SHAKEDOWN_SHARD_COUNT=4' });
    expect(resolveShard('auto/4', { JOB_COMPLETION_INDEX: '0' })?.shard).toBe('1/4');
    expect(resolveShard('auto', { JOB_COMPLETION_INDEX: '3', SHAKEDOWN_SHARD_COUNT: '4' })?.shard).toBe('4/4');
    expect(resolveShard('auto', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '3' })?.shard).toBe('1/3');
    expect(resolveShard('auto', { CIRCLE_NODE_INDEX: '2', CIRCLE_NODE_TOTAL: '3' })?.shard).toBe('3/3');
    expect(resolveShard('auto', { BUILDKITE_PARALLEL_JOB: '0', BUILDKITE_PARALLEL_JOB_COUNT: '2' })?.shard).toBe('1/2');
    expect(resolveShard('auto', { SYSTEM_JOBPOSITIONINPHASE: '2', SYSTEM_TOTALJOBSINPHASE: '2' })?.shard).toBe('2/2');
    expect(resolveShard('3/8', {})).toEqual({ shard: '3/8' });
    expect(() => resolveShard('auto', {})).toThrow(/none of the index variables is set \(SHAKEDOWN_SHARD_INDEX/);
    expect(() => resolveShard('auto', { JOB_COMPLETION_INDEX: '0' })).toThrow(/Write `--shard auto\/N`/);
    expect(() => resolveShard('auto/4', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '3' })).toThrow(/says 4 shards and CI_NODE_TOTAL says 3/);
    expect(() => resolveShard('auto/2', { JOB_COMPLETION_INDEX: '2' })).toThrow(/1 <= i <= n/);
  });
});
