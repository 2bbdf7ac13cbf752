import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordsOf, shakedownProcess as shakedown } from '../cli-run.js';
import { resolveConfig } from '../../src/ground/config.js';
import { AUTO_POOL_MIN_EPISODES, workerCount } from '../../src/pool/pool.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/agents/${name}`, import.meta.url));

const PLAN = ['--agent', 'oracle,reference-strict:none,reference:retry', '--scenario', 'category:cancel', '--scenario', 'return-one-of-two', '--eps', '0,1', '--lambda', '0,0.3', '--trials', '2', '--quiet', '--seed', '5'];

describe('the worker pool', () => {
  it('gives the records and grid of one process, also when workers are recycled after nearly every episode', async () => {
    const base = mkdtempSync(join(tmpdir(), 'shakedown-pool-'));
    const [one, two, recycled] = await Promise.all([
      shakedown('sweep', '--out', join(base, 'one'), '--workers', '1', ...PLAN),
      shakedown('sweep', '--out', join(base, 'two'), '--workers', '2', ...PLAN),
      // A 16 MB heap limit is below what a worker holds once loaded: with one episode in flight each task
      // is one episode, and nearly every one ends in a recycle (a collection may just have run).
      shakedown('sweep', '--out', join(base, 'recycled'), '--workers', '2', '--concurrency', '1', '--worker-max-memory', '16', '--agent', 'oracle,reference:retry', '--scenario', 'cancel-pending-no-longer-needed', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--quiet', '--seed', '5'),
    ]);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    expect(recycled.code, recycled.stderr).toBe(0);
    expect(one.stderr).toMatch(/ in this process -> /);
    expect(two.stderr).toMatch(/ on 2 worker threads -> /);
    expect(readFileSync(join(base, 'two', 'grid.json'), 'utf8')).toBe(readFileSync(join(base, 'one', 'grid.json'), 'utf8'));
    expect(recordsOf(join(base, 'two'))).toEqual(recordsOf(join(base, 'one')));
    expect(recycled.stderr).toMatch(/[4-8] worker thread\(s\) recycled past 16 MB of heap/);
    const inOne = new Set(recordsOf(join(base, 'one')));
    const fromRecycled = recordsOf(join(base, 'recycled'));
    expect(new Set(fromRecycled).size).toBe(fromRecycled.length);
    for (const r of fromRecycled) expect(inOne.has(r)).toBe(true);
    expect(fromRecycled).toHaveLength(2 * 2 * 2);
  }, 180_000);

  it("records an episode whose agent's process keeps dying, blocks or exits as an error, and finishes the sweep beside the worker threads", async () => {
    const base = mkdtempSync(join(tmpdir(), 'shakedown-pool-dies-'));
    const sweepWith = (dir: string, agent: string) =>
      shakedown('sweep', '--out', join(base, dir), '--workers', '2', '--deadline-ms', '4000', '--agent', 'reference:none', '--agent', fixture(agent), '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '3', '--quiet');
    const [crashes, blocks, ends] = await Promise.all([sweepWith('crashes', 'crashes-its-thread.mjs'), sweepWith('blocks', 'blocks-its-thread.mjs'), sweepWith('ends', 'ends-its-thread.mjs')]);
    const expected = {
      // Each death under several episodes is charged to none of them; each runs again alone, and dies alone.
      crashes: ['agent-crash', /the agent's process exited \(code 1\); its stderr ended with: .*stray exception outside the episode/s],
      // A host that answers nothing for half the deadline is ended then (or the deadline strikes first).
      blocks: ['deadline', /the agent's process answered nothing for 2000 ms \(a synchronous loop\?\)|episode deadline passed \(4000 ms of wall time\)/],
      // process.exit throws into the agent: its episode ends, its process lives.
      ends: ['agent-crash', /the agent called process.exit\(3\)/],
    } as const;
    for (const [dir, r] of [['crashes', crashes], ['blocks', blocks], ['ends', ends]] as const) {
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(join(base, dir, 'grid.json')), dir).toBe(true);
      const records = readFileSync(join(base, dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(records.filter((x) => x.key.agent === 'reference:none').map((x) => x.outcome), dir).toEqual(['pass', 'pass', 'pass']);
      const bad = records.filter((x) => x.key.agent !== 'reference:none');
      expect(bad.map((x) => [x.outcome, x.ended]), dir).toEqual(Array(3).fill(['error', expected[dir][0]]));
      for (const x of bad) expect(x.error.message, dir).toMatch(expected[dir][1]);
    }
  }, 120_000);

  it("runs a module agent's episodes side by side in its process: its slowest one holds up none of the rest", async () => {
    // At concurrency 4, the agent's first episode answers only once six have started in its process: only
    // a host that takes new episodes while one waits gets there before the deadline.
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-refill-')), 'run');
    const r = await shakedown('sweep', '--out', out, '--deadline-ms', '15000', '--concurrency', '4', '--agent', fixture('waits-for-company.mjs'), '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '8', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/in this process; the module agent runs in a process of its own/);
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records).toHaveLength(8);
    expect(records.map((x) => x.ended)).not.toContain('deadline');
    expect(records.filter((x) => x.messages.some((m: { text: string }) => m.text === 'I waited for 6 episodes.'))).toHaveLength(1);
  }, 120_000);

  it('contains module agents in processes of their own: a hang, an exit, memory exhaustion, odd throws and a tool loop each cost one episode', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-contained-')), 'run');
    const agents = ['never-settles.mjs', 'ends-its-thread.mjs', 'exhausts-memory.mjs', 'throws-odd-values.mjs', 'calls-forever.mjs'].flatMap((a) => ['--agent', fixture(a)]);
    // A deadline long enough that a loaded machine never starves a host past half of it (the heartbeat's limit).
    const r = await shakedown('sweep', '--out', out, '--deadline-ms', '6000', '--limit', 'memoryMb=128', '--tool-budget', '100', '--agent', 'reference:none', ...agents, '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '1', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/in this process; the 5 module agents run in processes of their own/);
    expect(existsSync(join(out, 'grid.json'))).toBe(true);
    const records = new Map(readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).map((x) => [x.key.agent, x]));
    const how = (id: string) => [records.get(id)?.outcome, records.get(id)?.ended, records.get(id)?.error?.message];
    expect(how('reference:none')[0]).toBe('pass');
    expect(how('never-settles')).toEqual(['error', 'deadline', 'episode deadline passed (6000 ms of wall time)']);
    expect(how('ends-its-thread')).toEqual(['error', 'agent-crash', 'the agent called process.exit(3)']);
    expect(how('exhausts-memory')).toEqual(['error', 'out-of-memory', "the agent's process ran out of memory (the limit is 128 MB, heap and off-heap: `limits.memoryMb`)"]);
    expect(how('throws-odd-values')).toEqual(['error', 'agent-error', 'the agent threw a non-Error value: {}']);
    expect(how('calls-forever')[0]).toBe('error');
    expect(how('calls-forever')[1]).toBe('tool-budget');
    // A budget small enough to be spent well before the deadline on a loaded machine.
    expect(records.get('calls-forever')?.trace).toHaveLength(100);
  }, 120_000);
});

describe('in this process (--workers 1)', () => {
  it('a reply that never settles still ends in a recorded episode and a grid, not a silent exit', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-hang-')), 'run');
    // A deadline that a loaded machine's host start and one round trip cannot reach, for the agent that throws.
    const r = await shakedown('sweep', '--out', out, '--workers', '1', '--deadline-ms', '4000', '--agent', fixture('never-settles.mjs'), '--agent', fixture('throws-odd-values.mjs'), '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '1', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/ in this process; the 2 module agents run in processes of their own -> /);
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((x) => [x.key.agent, x.ended]).sort()).toEqual([['never-settles', 'deadline'], ['throws-odd-values', 'agent-error']]);
    expect(existsSync(join(out, 'grid.json'))).toBe(true);
  }, 60_000);
});

describe('workerCount', () => {
  const config = (over: Parameters<typeof resolveConfig>[0] = {}) => resolveConfig(over);
  it('uses every core for built-in agents on large sweeps, one process otherwise', () => {
    expect(workerCount(config(), AUTO_POOL_MIN_EPISODES, 4)).toBe(4);
    expect(workerCount(config(), AUTO_POOL_MIN_EPISODES - 1, 4)).toBe(1);
    expect(workerCount(config(), 10_000, 1)).toBe(1);
    expect(workerCount(config({ agents: ['reference:none', 'llm:gpt-4o-mini'] }), 10_000, 4)).toBe(1);
    expect(workerCount(config({ agents: ['http://localhost:9000/agent'] }), 10_000, 4)).toBe(1);
    expect(workerCount(config({ agents: ['./my-agent.ts'] }), 10_000, 4)).toBe(1);
    expect(workerCount(config({ simulator: 'llm' }), 10_000, 4)).toBe(1);
  });
  it('honours an explicit count, whatever the agents', () => {
    expect(workerCount(config({ workers: 3, agents: ['./my-agent.ts'] }), 10, 2)).toBe(3);
    expect(workerCount(config({ workers: 1 }), 10_000, 8)).toBe(1);
  });
});
