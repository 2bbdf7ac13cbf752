// Final-state consistency tells apart a planted agent that sometimes writes a second, different change
// from its base, at the same pass rate in a cell where both fail; the grid, `stats`, report.html and
// summary.md show it.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));
const base = fileURLToPath(new URL('../fixtures/agents/address-writer.mjs', import.meta.url));
const planted = fileURLToPath(new URL('../fixtures/agents/address-writer-and-canceller.mjs', import.meta.url));

describe('stability in a run', () => {
  it('tells a planted second change apart by final-state consistency, at the same pass rate', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-stability-')), 'run');
    const r = await shakedown('sweep', '--agent', `${base},${planted}`, '--eps', '0', '--lambda', '0', '--trials', '4', '--out', out, '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8'));
    const cell = (agent: string) => grid.agents.find((a: { agent: string }) => a.agent === agent).cells[0];
    const [b, p] = [cell('address-writer'), cell('address-writer-and-canceller')];
    // The same pass rate: both fail every trial.
    expect(b.passHatK[0].value).toBe(0);
    expect(p.passHatK[0].value).toBe(0);
    expect(grid.comparisons[0].cells[0].verdict).toBe('no detectable difference');
    // The base ends every task's trials in one state; the planted agent scatters, and its failing trials do not converge.
    expect(b.stability.states.oneState.value).toBe(1);
    expect(b.stability.states.failingConverge.value).toBe(1);
    expect(p.stability.states.oneState.value).toBeLessThan(1);
    expect(p.stability.states.oneState.ci95[1]).toBeLessThan(b.stability.states.oneState.ci95[0] + 0.1);
    expect(p.stability.states.failingConverge.value).toBeLessThan(1);
    const compared = grid.stabilityComparisons[0].cells[0];
    expect(compared.oneState.difference).toBeGreaterThan(0);
    expect(compared.oneState.pAdjusted).toBeLessThan(0.05);
    expect(compared.notes).toContain(`address-writer-and-canceller ends its trials of a task in one state less often (${compared.oneState.difference.toFixed(2)} of tasks fewer, adjusted p ${compared.oneState.pAdjusted.toFixed(3)})`);
    // The panel, the summary section and the stats lines.
    const page = readFileSync(join(out, 'report', 'report.html'), 'utf8');
    expect(page).toContain('<h2>Stability at ε 0, λ 0</h2>');
    expect(page).toMatch(/<tr class="stabtask" data-agent="address-writer-and-canceller"/);
    const summary = readFileSync(join(out, 'report', 'summary.md'), 'utf8');
    expect(summary).toMatch(/^## Stability at ε = 0, λ = 0$/m);
    expect(summary).toMatch(/^\| `address-writer` \| 0\.000 \[[\d.]+, [\d.]+\] \| 1\.00 \[/m);
    const stats = await shakedown('stats', out);
    expect(stats.stdout).toMatch(/^ {2}ε 0, λ 0: one state 1\.00 \[[\d.]+, 1\.00\]; failing trials converge 1\.00/m);
    // In a browser: a click on a task of the panel shows the final states its trials reached, each with its diff or its replay.
    if (CHROMIUM) {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
      try {
        const tab = await browser.newPage({ viewport: { width: 1366, height: 768 } });
        const errors: string[] = [];
        tab.on('pageerror', (e) => errors.push(e.message));
        await tab.goto(pathToFileURL(join(out, 'report', 'report.html')).href);
        await tab.locator('details', { hasText: 'least consistent' }).locator('summary').click();
        await tab.locator('tr.stabtask[data-agent="address-writer-and-canceller"]').first().click();
        const text = await tab.locator('#states').innerText();
        expect(text).toMatch(/address-writer-and-canceller on \S+ at ε 0, λ 0: 2 final state\(s\)/);
        expect(text.match(/^trial\(s\) [\d, ]+:/gm)).toHaveLength(2);
        expect(text).toMatch(/orders\.W\d+\.address|npx shakedown replay --world retail/);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    }
  }, 120_000);
});
