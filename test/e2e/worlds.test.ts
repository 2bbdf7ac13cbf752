import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordsOf, shakedown } from '../cli-run.js';

/** The tiny world of docs/worlds.md, built the way the guide says, and a scripted agent for it. */
const LIBRARY = fileURLToPath(new URL('../fixtures/worlds/library/index.ts', import.meta.url));
const DESK = fileURLToPath(new URL('../fixtures/worlds/library/agent.ts', import.meta.url));

type Grid = { agents: { agent: string; cells: { eps: number; lambda: number; passHatK: { k: number; value: number }[] }[] }[] };
const passAt = (grid: Grid, agent: string, eps: number, lambda: number) =>
  grid.agents.find((a) => a.agent === agent)?.cells.find((c) => c.eps === eps && c.lambda === lambda)?.passHatK[0]?.value;

describe('a world written from the guide (test/fixtures/worlds/library)', () => {
  it('validates, lists its scenarios and sweeps in one process and on worker threads alike', async () => {
    const v = await shakedown('validate', '--world', LIBRARY);
    expect(v.stderr).toBe('');
    expect(v.stdout).toContain('4 of 4 scenarios of world library hold.');
    expect(v.code).toBe(0);
    const list = await shakedown('list', 'scenarios', '--world', LIBRARY);
    expect(list.stdout).toMatch(/^renew-loan +\[renew\] Renew a loan by two weeks$/m);

    const base = mkdtempSync(join(tmpdir(), 'shakedown-world-'));
    const plan = ['--world', LIBRARY, '--agent', 'oracle,noop', '--agent', DESK, '--eps', '0,1', '--lambda', '0,0.3', '--trials', '2', '--quiet'];
    const one = await shakedown('sweep', '--out', join(base, 'one'), '--workers', '1', ...plan);
    expect(one.code, one.stderr).toBe(0);
    const two = await shakedown('sweep', '--out', join(base, 'two'), '--workers', '2', ...plan);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stderr).toContain('on 2 worker threads');
    expect(recordsOf(join(base, 'two'))).toEqual(recordsOf(join(base, 'one')));

    const grid = JSON.parse(readFileSync(join(base, 'one', 'grid.json'), 'utf8')) as Grid & { world: string };
    expect(grid.world).toBe('library');
    expect(passAt(grid, 'oracle', 0, 0)).toBe(1);
    expect(passAt(grid, 'noop', 0, 0)).toBe(0);
    expect(passAt(grid, 'library-desk', 0, 0)).toBe(1);
    // Faults cost the agent something: the engine's fault library works on a world it has never seen.
    expect(passAt(grid, 'library-desk', 0, 0.3)).toBeLessThan(1);

    // The report names the world's scenarios, whether written by the sweep or afterwards.
    expect(readFileSync(join(base, 'one', 'report', 'report.html'), 'utf8')).toContain('Renew a loan by two weeks');
    const report = await shakedown('report', join(base, 'one'), '--format', 'html', '--out', join(base, 'again'));
    expect(report.code).toBe(0);
    expect(readFileSync(join(base, 'again', 'report.html'), 'utf8')).toContain('Renew a loan by two weeks');

    // A failing episode's replay command runs as printed.
    const replay = await shakedown('replay', '--world', LIBRARY, '--scenario', 'renew-loan', '--agent', DESK, '--eps', '0', '--lambda', '0', '--trial', '0');
    expect(replay.stdout).toMatch(/outcome: PASS/);
  });

  it('names what is missing from a world module, and refuses a built-in id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-bad-world-'));
    const fixtures = fileURLToPath(new URL('../fixtures/worlds/library/', import.meta.url));
    writeFileSync(join(dir, 'no-tools.ts'), `import library from '${fixtures}index.ts';\nconst { tools: _t, ...rest } = library;\nexport default { ...rest };\n`);
    const r = await shakedown('validate', '--world', join(dir, 'no-tools.ts'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Failed to load world module `.*no-tools\.ts`: its world definition is incomplete:\n.*\n? *→ at tools/);
    writeFileSync(join(dir, 'retail.ts'), `import library from '${fixtures}index.ts';\nexport default { ...library, id: 'retail' };\n`);
    expect((await shakedown('validate', '--world', join(dir, 'retail.ts'))).stderr).toMatch(/its id `retail` is a built-in world's\. Give your world its own id\./);
    expect((await shakedown('validate', '--world', join(dir, 'missing.ts'))).stderr).toMatch(/Failed to load world module `.*missing\.ts`: no such file/);
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'empty', 'index.ts'), `import library from '${fixtures}index.ts';\nexport default { ...library };\n`);
    expect((await shakedown('validate', '--world', join(dir, 'empty', 'index.ts'))).stderr).toMatch(/Failed to read scenarios from .*empty\/tasks/);
  });
});

describe('the travel world through the CLI', () => {
  it('validates, lists, and sweeps with the reference agents', async () => {
    const v = await shakedown('validate', '--world', 'travel');
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/(\d+) of \1 scenarios of world travel hold\./);
    const worlds = await shakedown('list', 'worlds');
    expect(worlds.stdout).toMatch(/^retail +an online shop/m);
    expect(worlds.stdout).toMatch(/^travel +an airline/m);
    const list = await shakedown('list', 'scenarios', '--world', 'travel');
    expect(list.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(20);

    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-travel-')), 'run');
    const r = await shakedown('sweep', '--world', 'travel', '--out', out, '--agent', 'oracle,noop,reference:none,reference:robust', '--scenario', 'category:change', '--scenario', 'category:refusal', '--eps', '0,1', '--lambda', '0,0.3', '--trials', '2', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8')) as Grid;
    expect(passAt(grid, 'reference:none', 0, 0)).toBe(1);
    expect(passAt(grid, 'reference:robust', 0, 0)).toBe(1);
    expect(passAt(grid, 'noop', 0, 0)).toBe(0);
    expect(readFileSync(join(out, 'report', 'summary.md'), 'utf8')).toContain('World `travel`');
    // An agent that knows only other worlds is refused before any episode runs.
    const bad = await shakedown('sweep', '--world', 'travel', '--agent', DESK, '--out', join(out, '..', 'bad'));
    expect(bad.stderr).toMatch(/Failed to use agent `library-desk` on world `travel`: it knows library only/);
  });
});
