/**
 * Task families through the CLI: `validate --tasks all` reports per family, a `--tasks N` sweep validates
 * its variants and clusters its statistics by family, a variant replays and rejudges like any task.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';

const base = mkdtempSync(join(tmpdir(), 'shakedown-families-'));

describe('task families on the command line', () => {
  it('validate --tasks all says per family how many variants hold', async () => {
    const r = await shakedown('validate', '--tasks', 'all', '--scenario', 'family:cancel-pending-mistake');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok {3}cancel-pending-mistake$/m);
    expect(r.stdout).toMatch(/^family cancel-pending-mistake: 12 of 12 variants hold$/m);
    expect(r.stdout).toMatch(/12 of 12 generated variants hold: 13 validated tasks in world retail\./);
  });

  it('a --tasks N sweep runs validated variants, clusters by family, and a variant replays and rejudges', async () => {
    const out = join(base, 'sample');
    const r = await shakedown('sweep', '--tasks', '60', '--agent', 'reference:none', '--agent', 'reference:retry', '--eps', '0', '--lambda', '0.3', '--trials', '2', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^shakedown: 60 tasks in \d+ families \(\d+ of \d+ generated variants hold\)$/m);
    expect(r.stdout).toMatch(/reference:none {2}\(60 tasks in \d+ families x 2 trials per cell; ± is the standard error over families\)/);
    const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8')) as { agents: { cells: { tasks: number; families?: number; perTask: { scenario: string }[] }[] }[]; comparisons: { cells: { families?: number; effectiveTasks?: number }[] }[] };
    const cell = grid.agents[0]?.cells[0];
    expect(cell?.tasks).toBe(60);
    expect(cell?.families).toBeGreaterThan(1);
    expect(cell?.families).toBeLessThan(60);
    expect(grid.comparisons[0]?.cells[0]?.families).toBe(cell?.families);
    expect(grid.comparisons[0]?.cells[0]?.effectiveTasks).toBeGreaterThan(0);
    const variant = cell?.perTask.map((t) => t.scenario).find((s) => /--v\d+$/.test(s)) as string;
    expect(variant).toBeDefined();
    const replay = await shakedown('replay', '--scenario', variant, '--agent', 'reference:retry', '--eps', '0', '--lambda', '0.3', '--trial', '0');
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain(variant);
    const rejudged = await shakedown('rejudge', out);
    expect(rejudged.code, rejudged.stderr).toBe(0);
    expect(rejudged.stdout).toMatch(/no outcome changed/);
    expect(readFileSync(join(`${out}-rejudged`, 'grid.json'), 'utf8')).toBe(readFileSync(join(out, 'grid.json'), 'utf8'));
  }, 180_000);
});
