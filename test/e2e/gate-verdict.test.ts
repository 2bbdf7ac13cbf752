// One release verdict: the candidates are gated and the comparators never are; a gate run replaces its
// own verdict (keyed by its rules), and the latest is at the top of summary.md and report.html, where a
// regenerated report keeps it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';

const throwing = fileURLToPath(new URL('../fixtures/agents/always-throws.mjs', import.meta.url));
const count = (text: string, what: RegExp) => (text.match(new RegExp(what.source, `${what.flags}g`)) ?? []).length;

describe('the release verdict', () => {
  it('gates the declared candidates only, keeps one verdict per set of rules, and shows the latest first', async () => {
    const root = mkdtempSync(join(tmpdir(), 'shakedown-gate-'));
    const out = join(root, 'run');
    const config = join(root, 'release.json');
    // An agent given from outside that fails everything is in the sweep as a comparator: by default it
    // would be the candidate; declared candidates put it aside.
    writeFileSync(config, JSON.stringify({ agents: ['noop', 'reference:none', 'reference:retry', throwing], candidates: ['reference:retry'], baselineAgent: 'reference:none', eps: [0], lambda: [0, 0.3], trials: 2, scenarios: ['category:cancel'] }));
    const sweep = await shakedown('sweep', '--config', config, '--out', out, '--seed', '3');
    expect(sweep.code, sweep.stderr).toBe(0);
    const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8'));
    expect(grid.candidates).toEqual(['reference:retry']);
    expect(grid.baselineAgent).toBe('reference:none');
    expect(grid.comparisons.map((c: { a: string; b: string }) => `${c.a}/${c.b}`)).toContain('reference:retry/reference:none');
    expect(readFileSync(join(out, 'report', 'report.html'), 'utf8')).toContain('Each candidate against reference:none');

    const go = await shakedown('gate', out, '--rule', 'pass^1 >= 0.5 where lambda <= 0');
    expect(go.stdout).toMatch(/^PASS reference:retry: 1 of 1 checks hold$/m);
    expect(go.stdout).not.toMatch(/always-throws:/);
    expect(go.stdout).toMatch(/^not gated \(comparators\): noop, reference:none, always-throws/m);
    expect(go.code).toBe(0);
    // The same rules again: the verdict is replaced, not appended.
    expect((await shakedown('gate', out, '--rule', 'pass^1 >= 0.5  where lambda <= 0')).code).toBe(0);
    let summary = readFileSync(join(out, 'report', 'summary.md'), 'utf8');
    expect(count(summary, /^## Release gate/m)).toBe(1);
    expect(summary.startsWith('<!-- shakedown:gate -->\n> **Release gate: GO** for `reference:retry`')).toBe(true);

    // The comparator named: NO-GO, a verdict of its own (other agents), now the latest, at the top of both files.
    const named = await shakedown('gate', out, '--rule', 'pass^1 >= 0.5 where lambda <= 0', '--agent', throwing);
    expect(named.code).toBe(1);
    expect(named.stdout).toMatch(/^FAIL always-throws: 0 of 1 checks hold$/m);
    summary = readFileSync(join(out, 'report', 'summary.md'), 'utf8');
    expect(count(summary, /^## Release gate/m)).toBe(2);
    expect(summary.startsWith('<!-- shakedown:gate -->\n> **Release gate: NO-GO** for `always-throws`')).toBe(true);
    // Another set of rules keeps its own section beside them.
    expect((await shakedown('gate', out, '--rule', 'pass^2 >= 0.5 where lambda <= 0')).code).toBe(0);
    summary = readFileSync(join(out, 'report', 'summary.md'), 'utf8');
    expect(count(summary, /^## Release gate/m)).toBe(3);
    expect(summary).toMatch(/^## Release gate: GO, for `reference:retry`\n\n- `pass\^2 >= 0.5 where lambda <= 0`/m);
    expect(summary).toMatch(/^## Release gate \(earlier\): NO-GO, for `always-throws`/m);
    const page = readFileSync(join(out, 'report', 'report.html'), 'utf8');
    expect(count(page, /<!--shakedown:gate-->/)).toBe(1);
    expect(page.indexOf('Release gate: GO')).toBeGreaterThan(page.indexOf('</h1>'));
    expect(page.indexOf('Release gate: GO')).toBeLessThan(page.indexOf('<h2>'));
    expect(page).toContain('2 other gate verdict(s)');

    // A regenerated report keeps the verdicts (gate.json holds them).
    expect((await shakedown('report', out)).code).toBe(0);
    summary = readFileSync(join(out, 'report', 'summary.md'), 'utf8');
    expect(count(summary, /^## Release gate/m)).toBe(3);
    expect(summary.startsWith('<!-- shakedown:gate -->\n> **Release gate: GO** for `reference:retry`')).toBe(true);
    expect(readFileSync(join(out, 'report', 'report.html'), 'utf8')).toMatch(/<div class="gate go"><p><strong>Release gate: GO<\/strong> for reference:retry/);

    // A candidate that is not an agent of the sweep stops it before any episode, with the nearest.
    writeFileSync(config, JSON.stringify({ agents: ['reference:none', 'reference:retry'], candidates: ['reference:rety'], eps: [0], lambda: [0], trials: 2, scenarios: ['category:cancel'] }));
    const typo = await shakedown('sweep', '--config', config, '--out', join(root, 'typo'));
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toMatch(/Failed to read `candidates`: the run has no agent `reference:rety`. Did you mean `reference:retry`/);
  }, 180_000);
});
