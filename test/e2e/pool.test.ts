import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordsOf, shakedown } from '../cli-run.js';
import { resolveConfig } from '../../src/core/config.js';
import { AUTO_POOL_MIN_EPISODES, workerCount } from '../../src/cli/pool.js';

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

  it('stops with the episode named when its worker thread keeps dying, blocks or ends, keeping the episodes that finished', async () => {
    const base = mkdtempSync(join(tmpdir(), 'shakedown-pool-dies-'));
    const sweepWith = (dir: string, agent: string) =>
      shakedown('sweep', '--out', join(base, dir), '--workers', '2', '--deadline-ms', '1000', '--agent', 'reference:none', '--agent', fixture(agent), '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '3', '--quiet');
    const [crashes, blocks, ends] = await Promise.all([sweepWith('crashes', 'crashes-its-thread.mjs'), sweepWith('blocks', 'blocks-its-thread.mjs'), sweepWith('ends', 'ends-its-thread.mjs')]);
    const died = (id: string, last: string) => new RegExp(`Failed to run episode read-order-status\\|${id}\\|0\\|0\\|\\d: its worker thread died 3 times \\(last: ${last}\\)\\. Finished episodes are in the log: fix the agent and continue with \`--resume\``);
    expect(crashes.stderr).toMatch(died('crashes-its-thread', 'stray exception outside the episode'));
    const silent = 'it ran 3000 ms, past its 1000 ms deadline, without a word from its worker: the agent blocks the thread \\(a synchronous loop\\) or ended it \\(process.exit\\)';
    expect(blocks.stderr).toMatch(died('blocks-its-thread', silent));
    expect(ends.stderr).toMatch(died('ends-its-thread', silent));
    for (const [dir, r] of [['crashes', crashes], ['blocks', blocks], ['ends', ends]] as const) {
      expect(r.code, r.stderr).toBe(2);
      const agents = readFileSync(join(base, dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).key.agent as string);
      expect(agents, dir).toEqual(['reference:none', 'reference:none', 'reference:none']);
    }
  }, 120_000);
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
