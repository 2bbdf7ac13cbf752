/**
 * Commands that run no episode start without the worlds, msw or the MCP SDK: each is run on the compiled
 * CLI with a loader hook that records every module it loads.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, shakedown } from '../cli-run.js';

const exec = promisify(execFile);
const hook = fileURLToPath(new URL('../fixtures/load-trace/register.mjs', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'shakedown-startup-'));
const run = join(base, 'run');

/** The modules `shakedown ...args` loads. */
async function loaded(name: string, ...args: string[]): Promise<string[]> {
  const trace = join(base, `${name}.txt`);
  await exec(process.execPath, ['--import', hook, bin, ...args], { env: { ...process.env, CI: '1', LOAD_TRACE: trace } });
  return readFileSync(trace, 'utf8').trim().split('\n');
}

const HEAVY = [
  ['msw', /\/node_modules\/msw\//],
  ['the MCP SDK', /\/node_modules\/@modelcontextprotocol\//],
  ["a world's module", /\/scenarios\/(?:retail|travel)\/(?:index|handlers|generate)\.js$/],
  ['Faker', /\/node_modules\/@faker-js\//],
] as const;

beforeAll(async () => {
  const r = await shakedown('sweep', '--out', run, '--agent', 'oracle,reference:none', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--quiet');
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

describe('start-up', () => {
  const commands: [string, string[]][] = [
    ['help', ['--help']],
    ['sweep-help', ['sweep', '--help']],
    ['list-worlds', ['list', 'worlds']],
    ['list-agents', ['list', 'agents']],
    ['list-faults', ['list', 'faults']],
    ['stats', ['stats', run]],
    ['compare', ['compare', run, run, '--force']],
    ['gate', ['gate', run, '--agent', 'reference:none', '--rule', 'pass^1 >= 0']],
    ['report', ['report', run, '--format', 'md,csv']],
  ];
  it.each(commands)('%s loads no world, msw, Faker or MCP SDK', async (name, args) => {
    const modules = await loaded(name, ...args);
    expect(modules.length).toBeGreaterThan(5);
    for (const [what, pattern] of HEAVY) expect(modules.filter((m) => pattern.test(m)), `${what} loaded by shakedown ${args.join(' ')}`).toEqual([]);
  }, 60_000);

  it('a sweep does load them (the trace sees what it should)', async () => {
    const modules = await loaded('sweep', 'sweep', '--out', join(base, 'again'), '--agent', 'oracle', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '1', '--quiet');
    for (const [, pattern] of HEAVY.filter(([what]) => what !== 'the MCP SDK')) expect(modules.some((m) => pattern.test(m))).toBe(true);
  }, 60_000);
});
