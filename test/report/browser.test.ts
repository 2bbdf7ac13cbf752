import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ResampleBank } from '../../src/stats/bootstrap.js';
import { Tally } from '../../src/stats/stats.js';
import { buildGrid } from '../../src/report/grid.js';
import { reportHtml, type EpisodeView } from '../../src/report/html.js';

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));
const HOSTILE_AGENT = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_TITLE = '<script>window.__pwned=2</script>';

function page(): { html: string; failing: EpisodeView[] } {
  const t = new Tally();
  const failing: EpisodeView[] = [];
  for (const agent of ['reference:none', HOSTILE_AGENT])
    for (const lambda of [0, 0.3])
      for (let trial = 0; trial < 2; trial++) {
        const pass = lambda === 0 || trial === 0;
        t.add({ agent, eps: 0, lambda, scenario: 'evil' }, pass ? 'pass' : 'fail', pass ? {} : { failure: 'missing-write', faults: ['timeout'] });
        if (!pass) {
          failing.push({ agent, eps: 0, lambda, scenario: 'evil', trial, outcome: 'fail', failure: 'missing-write', diff: ['orders.W1.status: "pending" != "cancelled"'], missingOutputs: [], findings: [`unconfirmed-write: wrote cancel_order on ${HOSTILE_TITLE} without a confirmation from the user`], faults: ['timeout on cancel_order#0 (after commit)'], trace: ['+0.0s POST /api/orders/%23W1/cancel -> 504 [timeout]'], messages: [{ role: 'user', text: `cancel ${HOSTILE_TITLE}` }, { role: 'agent', text: 'Sorry.' }], replay: 'npx shakedown replay --scenario evil --trial 1' });
        }
      }
  const grid = buildGrid({ world: 'retail', seed: '42', profile: 'mixed', fixedTrials: false, eps: [0], lambda: [0, 0.3], trials: 2, agents: ['reference:none', HOSTILE_AGENT] }, t, new ResampleBank('42'));
  return { html: reportHtml(grid, `run ${HOSTILE_TITLE}`, failing, { evil: HOSTILE_TITLE }), failing };
}

describe('report.html', () => {
  it('escapes every text from scenarios, agents and runs', () => {
    const { html } = page();
    expect(html).not.toContain(HOSTILE_TITLE);
    expect(html).not.toContain(HOSTILE_AGENT);
    expect(html).toContain('&lt;script&gt;window.__pwned=2&lt;/script&gt;');
    // Self-contained: the only URL is the SVG namespace, never a resource to fetch.
    expect(new Set(html.match(/https?:\/\/[^\s"'<>]+/g))).toEqual(new Set(['http://www.w3.org/2000/svg']));
  });

  // Where chromium cannot be had, the skipped test's name says why.
  it.skipIf(!CHROMIUM)(`opens in a real browser without errors, drills into a cell and shows its failing episodes${CHROMIUM ? '' : ' (skipped: no chromium at /usr/bin/chromium; set CHROMIUM_PATH or apt-get install chromium)'}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, page().html);
    const browser = await chromium.launch({ executablePath: CHROMIUM as string, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      // A laptop screen: the verdict comes first and nothing needs a horizontal scroll.
      const tab = await browser.newPage({ viewport: { width: 1366, height: 768 } });
      const errors: string[] = [];
      tab.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto(pathToFileURL(file).href);
      expect(await tab.locator('h2').first().textContent()).toMatch(/^Verdict \(pass\^\d\)$/);
      expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
      // Every table fits the window: none needs its own scroll either.
      expect(await tab.evaluate(() => [...document.querySelectorAll('table')].filter((t) => (t.querySelector('tr')?.getBoundingClientRect().width ?? 0) > t.clientWidth + 1).length)).toBe(0);
      await tab.locator('.map[data-agent="reference:none"] .cell[data-lambda="0.3"]').first().click();
      await expect.poll(() => tab.locator('#details .episode').count()).toBe(1);
      expect(await tab.locator('#details').textContent()).toMatch(/evil \(<script>window.__pwned=2<\/script>\), trial 1: fail \(missing-write\)/);
      expect(await tab.locator('#details code').textContent()).toBe('npx shakedown replay --scenario evil --trial 1');
      // The panel opens right after the heatmap clicked, not below the last one.
      expect(await tab.evaluate(() => document.getElementById('details')?.previousElementSibling?.getAttribute('data-agent'))).toBe('reference:none');
      await tab.locator('.map').nth(1).locator('.cell[data-lambda="0.3"]').first().click();
      expect(await tab.evaluate(() => document.getElementById('details')?.previousElementSibling === document.querySelectorAll('.map[data-agent]')[1])).toBe(true);
      expect(await tab.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      await tab.screenshot({ path: join(dir, 'report.png'), fullPage: true });
      expect(existsSync(join(dir, 'report.png'))).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

});
