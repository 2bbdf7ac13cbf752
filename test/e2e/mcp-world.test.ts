// A team's own tools behind the fault injector (docs/your-tools.md): worlds whose tools are real MCP
// servers from npm, started fresh per episode (@modelcontextprotocol/server-memory; server-filesystem on a
// temporary folder), swept like any world. A careful agent beats a naive one at λ = 0.3 in the paired
// test; a retry without a key applies an edit twice, and the state shows it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mcpWorld, type McpToolJson } from '../../src/worlds/mcp.js';
import { WorldHarness } from '../../src/run/episode.js';
import type { EpisodeRecord } from '../../src/ground/record.js';
import { shakedown } from '../cli-run.js';

const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/worlds/${path}`, import.meta.url));
const records = (dir: string): EpisodeRecord[] => readFileSync(join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as EpisodeRecord);

describe('worlds over real MCP servers', () => {
  it('server-memory, fresh per episode: the careful agent beats the naive one at λ = 0.3, paired and significant', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-mcp-')), 'memory');
    const r = await shakedown('sweep', '--world', fixture('memory/index.ts'), '--agent', `${fixture('memory/naive.ts')},${fixture('memory/careful.ts')}`, '--eps', '0', '--lambda', '0.3', '--trials', '4', '--out', out);
    expect(r.code).toBe(0);
    const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8')) as { agents: { agent: string; cells: { passHatK: { value: number }[] }[] }[]; comparisons: { a: string; b: string; cells: { verdict?: string; significant?: boolean; pAdjusted?: number }[] }[] };
    const pass4 = (a: string) => grid.agents.find((x) => x.agent.includes(a))?.cells[0]?.passHatK[3]?.value ?? NaN;
    expect(pass4('careful')).toBeGreaterThan(pass4('naive') + 0.3);
    expect(r.stdout).toMatch(/memory-naive vs memory-careful: better in 0, worse in 1/);
    // Every episode met its own server: faults fired on real calls, and the naive agent's failures are the state's.
    const rs = records(out);
    expect(rs.some((x) => x.faults.length > 0)).toBe(true);
    expect(rs.filter((x) => x.key.agent.includes('naive') && x.outcome === 'fail').some((x) => x.diff.length > 0)).toBe(true);
    expect(rs.every((x) => x.error === undefined)).toBe(true);
  }, 240_000);

  it('server-filesystem on a temporary folder: an edit retried without a key after it committed shows in the state; one with a key does not', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-mcp-')), 'files');
    const r = await shakedown('sweep', '--world', fixture('files/index.ts'), '--agent', `${fixture('files/retry-without-key.ts')},${fixture('files/careful.ts')}`, '--profile', 'timeout-after-commit', '--scenario', 'add-', '--eps', '0', '--lambda', '0.5', '--trials', '2', '--out', out);
    expect(r.code).toBe(0);
    const rs = records(out);
    const twice = rs.filter((x) => x.key.agent.includes('retry-without-key') && x.diff.some((d) => /- (\w+)\\n- \1\\n/.test(d.message)));
    expect(twice.length).toBeGreaterThan(0);
    expect(rs.filter((x) => x.key.agent.includes('careful')).every((x) => x.outcome === 'pass')).toBe(true);
    // The folder is written as {dir}: states of different episodes compare.
    expect(JSON.stringify(twice[0]?.diff)).not.toMatch(/shakedown-files-/);
  }, 240_000);

  it('tells the truth under tools that lie (a server\'s state cannot be copied), and says so when the server does not start', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-mcp-')), 'lying');
    const r = await shakedown('sweep', '--world', fixture('memory/index.ts'), '--agent', fixture('memory/careful.ts'), '--profile', 'lying', '--scenario', 'note-', '--scenario', 'recall-', '--eps', '0', '--lambda', '1', '--trials', '1', '--out', out);
    expect(r.code).toBe(0);
    const rs = records(out);
    // Reads and writes were struck (a wrong value would change what a recall tells), and none lied.
    const kinds = new Set(rs.flatMap((x) => x.faults.map((f) => f.kind)));
    expect(kinds.has('silent-write') && (kinds.has('wrong-value') || kinds.has('stale-read'))).toBe(true);
    expect(rs.flatMap((x) => x.faults).every((f) => f.detail?.lied === false)).toBe(true);
    expect(rs.every((x) => x.trace.every((t) => t.lied === undefined) && x.outcome === 'pass')).toBe(true);

    const tools = JSON.parse(readFileSync(fixture('memory/tools.json'), 'utf8')) as McpToolJson[];
    const broken = mcpWorld({ id: 'broken', command: process.execPath, args: ['-e', 'process.exit(3)'], tools, snapshot: [{ tool: 'read_graph' }], policy: '', userLanguage: (await import('../fixtures/worlds/memory/language.js')).memoryLanguage });
    const harness = new WorldHarness(broken as never, '42');
    const scenario = JSON.parse(readFileSync(fixture('memory/tasks/remember-ada.json'), 'utf8'));
    await expect(harness.prepare({ ...scenario, world: 'broken' })).rejects.toThrow(/Failed to prepare scenario remember-ada: the state of world broken could not be read/);
    expect(() => mcpWorld({ id: 'x', command: 'x', tools, snapshot: [{ tool: 'read_everything' }], policy: '', userLanguage: {} as never })).toThrow(/no tool `read_everything` on the server/);
  }, 120_000);
});
