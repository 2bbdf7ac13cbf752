/**
 * Every value that reaches a report is text, whichever file of the run it came from: a run whose run.json,
 * grid.json and records (signed again with the run's key, as a program that reads run.json could) carry
 * markup in ids, titles, messages, tool names and error texts gets a report.html, heatmaps and summary.md
 * that hold it only escaped, and opens in a browser without running any of it; a value that is not a
 * number where run.json must hold one is refused, and one in a record's key is named as text.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';
import { readRecords, writeRecords } from '../run-dir.js';
import { heatmapFiles, summaryMarkdown } from '../../src/report/files.js';
import type { Grid } from '../../src/report/grid.js';
import { reportHtml } from '../../src/report/html.js';

const SCRIPT = '</script><script>alert(1)</script>';
const IMG = '"><img src=x onerror=alert(1)>';
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));

const base = mkdtempSync(join(tmpdir(), 'shakedown-escaping-'));
const clean = join(base, 'clean');
const hostile = join(base, 'hostile');

type Rec = { key: { scenario: string; agent: string; eps: unknown; lambda: number; trial: number }; outcome: string; failure?: string; error?: { message: string; name: string }; messages: { role: string; text: string }[]; trace: { tool: string | null }[]; diff: { message: string }[] };

beforeAll(async () => {
  const r = await shakedown('sweep', '--out', clean, '--agent', 'reference:none', '--scenario', 'read-order-status', '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--profile', 'server', '--quiet');
  expect(r.code, r.stderr).toBe(0);
  cpSync(clean, hostile, { recursive: true });
  // run.json: an agent id, a task id and title, the world's profile and the reason the run stopped, all markup.
  const manifest = JSON.parse(readFileSync(join(hostile, 'run.json'), 'utf8')) as Record<string, unknown> & { agents: { id: string }[]; config: Record<string, unknown>; grid: { scenarios: string[] }; titles: Record<string, string> };
  manifest.agents = [{ id: `agent${IMG}` }];
  manifest.config.profile = `mixed${SCRIPT}`;
  manifest.grid.scenarios = manifest.grid.scenarios.map((s) => (s === 'read-order-status' ? `task${SCRIPT}` : s));
  manifest.titles = { [`task${SCRIPT}`]: `title${IMG}`, 'cancel-pending-mistake': `title${SCRIPT}` };
  manifest.complete = false;
  manifest.stopped = `stopped${IMG}`;
  writeFileSync(join(hostile, 'run.json'), JSON.stringify(manifest, null, 2));
  // grid.json: a report never reads it, and nothing of it may reach one.
  writeFileSync(join(hostile, 'grid.json'), JSON.stringify({ agents: [{ agent: SCRIPT }], eps: [SCRIPT] }));
  // The records: their key, messages, tool names, errors and failure classes, and one key whose ε is text.
  const records = readRecords<Rec>(hostile).map((r) => ({
    ...r,
    key: { ...r.key, agent: `agent${IMG}`, scenario: r.key.scenario === 'read-order-status' ? `task${SCRIPT}` : r.key.scenario },
    messages: r.messages.map((m) => ({ ...m, text: `${m.text} ${SCRIPT}` })),
    trace: r.trace.map((t) => ({ ...t, tool: `${t.tool}${IMG}` })),
    diff: r.diff.map((d) => ({ ...d, message: `${d.message}${SCRIPT}` })),
    ...(r.outcome !== 'pass' ? { failure: `missing-write${IMG}`, error: { name: 'Error', message: `boom${SCRIPT}` } } : {}),
  }));
  expect(records.some((r) => r.outcome !== 'pass')).toBe(true);
  const first = records[0] as Rec;
  writeRecords(hostile, [...records, { ...first, key: { ...first.key, eps: SCRIPT } }, { ...first, key: { ...first.key, eps: '0' } }]);
  const report = await shakedown('report', hostile);
  expect(report.code, report.stderr).toBe(0);
}, 120_000);

/** Whether `text` holds `markup` raw: not escaped for HTML, nor behind a backslash (Markdown's escape). */
const holdsRaw = (text: string, markup: string) => text.split(markup).slice(0, -1).some((before) => !before.endsWith('\\'));

describe('a run whose files carry markup', () => {
  it('gives a report.html that holds every value only escaped, with its integrity notice', () => {
    const page = readFileSync(join(hostile, 'report', 'report.html'), 'utf8');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('onerror=alert(1)>');
    // The page's own three script elements, and no other.
    expect(page.match(/<script/g)).toHaveLength(3);
    expect(page.match(/<\/script>/g)).toHaveLength(3);
    expect(page).toContain('agent&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('task&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('mixed&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // The episode data for drill-down: JSON with every < and > escaped for the script element.
    expect(page).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e');
    // What a reader must know comes first, as text: the reason from run.json, and the keys that are no episodes of the run.
    expect(page).toMatch(/<div class="notice"><p><strong>.*stopped&quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;/);
    expect(page).toContain('2 record(s) lie outside the run&#39;s plan, left out of the grid: line 9 (ε &quot;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot; is not one of the run&#39;s ε values); line 10 (ε &quot;0&quot; is not one of the run&#39;s ε values)');
    expect(page).not.toContain(readFileSync(join(hostile, 'grid.json'), 'utf8'));
  });

  it('gives heatmaps and a summary.md with no markup from the data', () => {
    const dir = join(hostile, 'report');
    const svgs = readdirSync(dir).filter((f) => f.endsWith('.svg'));
    expect(svgs.length).toBeGreaterThan(0);
    for (const f of svgs) {
      const svg = readFileSync(join(dir, f), 'utf8');
      expect(svg, f).not.toContain('<img');
      expect(svg, f).not.toContain('<script');
      expect(svg, f).toContain('agent&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    }
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    for (const markup of ['<img', '<script', '</script']) expect(holdsRaw(summary, markup), markup).toBe(false);
    expect(summary).toContain('stopped"\\>\\<img src=x onerror=alert(1)\\>');
  });

  it('opens in a browser without running any of it, and drills into a cell', { skip: !CHROMIUM }, async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM as string, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const tab = await browser.newPage();
      const dialogs: string[] = [];
      tab.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto(pathToFileURL(join(hostile, 'report', 'report.html')).href);
      for (const cell of await tab.locator('.map .cell').all()) await cell.click();
      expect(await tab.locator('#details').textContent()).toContain(SCRIPT);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('shows a non-number where a number belongs as text, even past the checks of run.json', async () => {
    const grid = JSON.parse(readFileSync(join(clean, 'grid.json'), 'utf8')) as Grid;
    const bad = SCRIPT as unknown as number;
    const cells = grid.agents[0]?.cells ?? [];
    const forged: Grid = { ...grid, eps: [bad], trials: bad, agents: grid.agents.map((a) => ({ ...a, cells: cells.map((c) => ({ ...c, eps: bad, tasks: bad })) })) };
    const page = reportHtml(forged, 'forged', [], {}, 1, undefined, [`shakedown: ${SCRIPT}`]);
    expect(page.match(/<script/g)).toHaveLength(3);
    expect(page).toContain('ε &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    for (const f of heatmapFiles(forged, 'forged', 1)) expect(f.content).not.toContain('<script');
    expect(summaryMarkdown(forged, 'forged', 1)).toContain('ε \\</script\\>\\<script\\>alert(1)\\</script\\>');
  });

  it('refuses a run.json whose ε, λ or trials are not numbers, before any report is written', async () => {
    for (const [field, value, message] of [
      ['eps', ['0', SCRIPT], /`config\.eps` holds "0", not a number in \[0, 1\]/],
      ['lambda', [0, 2], /`config\.lambda` holds 2, not a number in \[0, 1\]/],
      ['trials', `2${IMG}`, /`config\.trials` is "2\\"><img src=x onerror=alert\(1\)>", not a whole number of at least 1/],
    ] as const) {
      const dir = join(base, `bad-${field}`);
      cpSync(clean, dir, { recursive: true });
      const manifest = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { config: Record<string, unknown> };
      manifest.config[field] = value;
      writeFileSync(join(dir, 'run.json'), JSON.stringify(manifest));
      const before = readFileSync(join(dir, 'report', 'report.html'), 'utf8');
      const r = await shakedown('report', dir);
      expect(r.code, field).toBe(2);
      expect(r.stderr, field).toMatch(/^shakedown: Failed to read run `.*`: .*run\.json is not a Shakedown run manifest \(/);
      expect(r.stderr, field).toMatch(message);
      expect(readFileSync(join(dir, 'report', 'report.html'), 'utf8')).toBe(before);
    }
  });
});
