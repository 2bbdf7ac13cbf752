import { describe, expect, it } from 'vitest';
import { ResampleBank } from '../../src/stats/bootstrap.js';
import { Tally } from '../../src/stats/stats.js';
import { gridCsv, heatmapFiles, slug, summaryMarkdown } from '../../src/report/files.js';
import { buildGrid } from '../../src/report/grid.js';
import { reportHtml } from '../../src/report/html.js';
import { taskChanges } from '../../src/stats/compare.js';
import { svgToPng } from '../../src/report/png.js';
import { diverging, escapeXml, heatmapSvg, viridis } from '../../src/report/svg.js';

const HOSTILE = '<script>alert("x")</script>';

/** A small grid with a hostile agent id, two cells along each axis, two tasks, two trials. */
function grid(agents: readonly string[] = ['oracle', 'noop', 'reference:none', HOSTILE]) {
  const t = new Tally();
  for (const agent of agents)
    for (const eps of [0, 1])
      for (const lambda of [0, 0.3])
        for (const scenario of ['a', 'b'])
          for (let trial = 0; trial < 2; trial++) t.add({ agent, eps, lambda, scenario }, agent === 'noop' || (lambda > 0 && trial === 1 && scenario === 'b') ? 'fail' : 'pass');
  return buildGrid({ world: 'retail', seed: '42', profile: 'mixed', fixedTrials: false, eps: [0, 1], lambda: [0, 0.3], trials: 2, agents: [...agents] }, t, new ResampleBank('42'));
}

describe('heatmaps', () => {
  it('use viridis for values and a diverging scale for differences', () => {
    expect(viridis(0)).toBe('#440154');
    expect(viridis(1)).toBe('#fde725');
    expect(diverging(0)).toBe('#f7f7f7');
    expect(diverging(-1)).toBe('#542788');
  });

  it('label every cell with its value and interval, title agent, k, world, profile and run, and note the baselines', () => {
    const g = grid();
    const a = g.agents.find((x) => x.agent === 'reference:none');
    const svg = heatmapSvg('reference:none', a?.cells ?? [], { world: 'retail', profile: 'mixed', run: 'r1', baselines: { oracle: 1, noop: 0 } });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('reference:none: pass^k over ε and λ (k = 1, 2) · world retail · profile mixed · run r1');
    expect(svg.match(/<g class="cell"/g)).toHaveLength(8);
    expect(svg).toContain('λ (tool faults)');
    expect(svg).toContain('ε (user wording)');
    expect(svg).toMatch(/Baselines \(surface volume, pass\^1\): oracle 1.000, noop 0.000/);
    expect(svg).toMatch(/>0\.750<\/text><text [^>]*>\[/);
  });

  it('show in every cell the number grid.json holds', () => {
    const g = grid();
    for (const f of heatmapFiles(g, 'r').filter((x) => x.kind === 'combined' || x.kind === 'single')) {
      const agentOf = (name: string) => g.agents.find((a) => name === `heatmap-${slug(a.agent)}.svg` || name.startsWith(`heatmap-${slug(a.agent)}-pass`));
      const agent = agentOf(f.name);
      expect(agent, f.name).toBeDefined();
      for (const m of f.content.matchAll(/<g class="cell" data-eps="([\d.]+)" data-lambda="([\d.]+)" data-k="(\d+)">.*?<text [^>]*>([\d.]+)<\/text><text [^>]*>\[([\d.]+), ([\d.]+)\]/g)) {
        const cell = agent?.cells.find((c) => c.eps === Number(m[1]) && c.lambda === Number(m[2]));
        const e = cell?.passHatK[Number(m[3]) - 1];
        expect(Number(m[4])).toBeCloseTo(e?.value ?? Number.NaN, 3);
        expect(Number(m[5])).toBeCloseTo(e?.ci95[0] ?? Number.NaN, 2);
        expect(Number(m[6])).toBeCloseTo(e?.ci95[1] ?? Number.NaN, 2);
      }
    }
  });

  it('escape every text that comes from a run', () => {
    const files = heatmapFiles(grid(), `run ${HOSTILE}`);
    for (const f of files) {
      expect(f.content).not.toContain('<script>');
      expect(f.name).toMatch(/^[a-z0-9.-]+$/);
    }
    expect(files.some((f) => f.content.includes(escapeXml(HOSTILE)))).toBe(true);
    expect(files.some((f) => f.name.startsWith('difference-'))).toBe(true);
    expect(slug('reference:idempotency+backoff')).toBe('reference-idempotency-backoff');
  });

  it('render to PNG with the shipped font', () => {
    const png = svgToPng(heatmapFiles(grid(['reference:none']), 'r')[0]?.content ?? '', 1);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(5000);
  });
});

describe('CSV and summary.md', () => {
  it('name only the baselines the run has, and link the images as they were written', () => {
    const without = summaryMarkdown(grid(['reference:none']), 'r1', 2);
    expect(without).not.toMatch(/baseline/);
    expect(summaryMarkdown(grid(['oracle', 'reference:none']), 'r1', 2)).toMatch(/`oracle` is the baseline: what a perfect plan scores\./);
    expect(summaryMarkdown(grid(), 'r1', 2)).toMatch(/`oracle` and `noop` are the baselines/);
    expect(summaryMarkdown(grid(['reference:none']), 'r1', 2, undefined, 'png')).toContain('](heatmap-reference-none-pass2.png)');
    expect(summaryMarkdown(grid(['reference:none']), 'r1', 2, undefined, 'none')).not.toMatch(/## Heatmaps/);
  });

  it('explain every derived figure of the verdict: a tooltip on its header and a legend under the table', () => {
    const html = reportHtml(grid(['reference:none']), 'r1', [], {}, 1);
    for (const header of ['worst cell', 'volume', 'holds ≥ θ up to ε / λ', 'costs most', 'calls / episode (inside a window)']) {
      expect(html, header).toMatch(new RegExp(`<th title="[^"]{20,}">${header.replace(/[/()]/g, '\\$&')}</th>`));
      expect(html, header).toMatch(new RegExp(`<dt>${header.replace(/[/()]/g, '\\$&')}</dt><dd>[^<]{20,}</dd>`));
    }
    expect(html).toMatch(/<summary>What these figures mean<\/summary>/);
  });

  it('list per-task changes against a baseline run, regressions first, in summary.md and report.html', () => {
    const now = grid(['reference:none']).agents[0]?.cells ?? [];
    const before = grid(['noop']).agents[0]?.cells ?? [];
    const tasks = taskChanges('reference:none', before, now, 1);
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((t, i) => i === 0 || (tasks[i - 1] as typeof t).change <= t.change)).toBe(true);
    expect(tasks[0]).toMatchObject({ agent: 'reference:none', now: '0/2', change: -1 });
    const text = summaryMarkdown(grid(['reference:none']), 'r1', 1, { baseline: 'r0', rows: [], tasks });
    expect(text).toMatch(/## Per-task changes against r0\n\n\d+ task cell\(s\) got worse and 0 better in pass\^1/);
    const html = reportHtml(grid(['reference:none']), 'r1', [], {}, 1, { baseline: 'r0', tasks, baselineFailing: [] });
    expect(html).toMatch(/<tr class="task" data-agent="reference:none" data-eps="0" data-lambda="0" data-scenario="a">/);
    expect(html).toContain('id="baseline-episodes"');
    // Against another agent of the same run, its episodes are the baseline side.
    const agents = reportHtml(grid(['reference:none']), 'r1', [], {}, 1, { baseline: 'noop', baselineAgent: 'noop', tasks, baselineFailing: [] });
    expect(agents).toMatch(/<tr class="task" data-base-agent="noop" data-agent="reference:none"/);
  });

  it('list first the tasks one agent passed every time and the other never', () => {
    const t = new Tally();
    for (const agent of ['reference:none', 'reference:retry'])
      for (const scenario of ['a', 'b', 'c'])
        for (let trial = 0; trial < 2; trial++) t.add({ agent, eps: 0, lambda: 0, scenario }, agent === 'reference:none' && scenario === 'b' ? 'fail' : 'pass');
    const g = buildGrid({ world: 'retail', seed: '42', profile: 'mixed', fixedTrials: false, eps: [0], lambda: [0], trials: 2, agents: ['reference:none', 'reference:retry'] }, t, new ResampleBank('42'));
    expect(g.comparisons?.[0]?.cells[0]?.flipped).toEqual([{ scenario: 'b', a: '0/2', b: '2/2' }]);
    const text = summaryMarkdown(g, 'r1', 2);
    expect(text).toMatch(/## Tasks that changed in every trial[\s\S]*\| `reference:none` \| `reference:retry` \| 0 \| 0 \| b \| 0\/2 \| 2\/2 \|/);
    expect(text.indexOf('Tasks that changed')).toBeLessThan(text.indexOf('## Heatmaps'));
  });

  it('write the grid in long form, quoting what needs it', () => {
    const csv = gridCsv(grid(['reference:none', 'a,"b"']));
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('agent,eps,lambda,k,value,low,high,tasks,trials');
    expect(lines).toHaveLength(1 + 2 * 4 * 2);
    expect(lines).toContain('reference:none,0,0.3,1,0.750000,0.003464,1.000000,2,2');
    expect(csv).toContain('"a,""b""",0,0,1,');
  });

  it('give headline numbers with intervals, thresholds, changes against a baseline and the heatmaps', () => {
    const text = summaryMarkdown(grid(), 'r1', 2, { baseline: 'r0', rows: [{ agent: 'reference:none', eps: 0, lambda: 0.3, k: 2, tasks: 2, difference: -0.5, ci95: [-1, 0], p: 0.5, pAdjusted: 1, verdict: 'no detectable difference', minDetectable: 1, changed: 1, minP: 1, flipped: [] }] });
    expect(text).toMatch(/^# Shakedown: r1$/m);
    expect(text).toMatch(/\| `reference:none` \| 1\.000 \[0\.006, 1\.000\] \| 1\.000 \[0\.006, 1\.000\] \| 0\.500 \[/);
    expect(text).toMatch(/## Biggest changes against r0/);
    expect(text).toMatch(/!\[reference:none: pass\^2\]\(heatmap-reference-none-pass2\.svg\)/);
    expect(text).not.toContain('<script>');
  });
});
