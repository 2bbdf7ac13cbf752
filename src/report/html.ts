/**
 * report.html: one self-contained file (no network) with the surfaces, their summaries, the unstable
 * tasks and the failure taxonomy, where clicking a heatmap cell lists its failing episodes with their
 * diff, fault trace, perturbed messages and the command that replays each. Text from runs is escaped
 * (markup.ts: every value put into the page is, unless it is markup this program made); episode data
 * travels as JSON that the page renders with textContent only.
 */
import type { EpisodeRecord } from '../ground/record.js';
import { agentLoad, FAILURE_CLASSES } from '../stats/stats.js';
import type { TaskChange } from '../stats/compare.js';
import type { Grid } from './grid.js';
import { heatmapFiles } from './files.js';
import { html, joinMarkup, trusted, type Markup } from './markup.js';
import { BASELINE_IDS } from '../agents/baselines.js';
import { gateRegion, gridEpisodes, type GateFile } from './gate-record.js';
import { stabilityHtml } from './stability-view.js';

/** What the page shows of one failing episode. */
export interface EpisodeView {
  readonly agent: string;
  readonly eps: number;
  readonly lambda: number;
  readonly scenario: string;
  readonly trial: number;
  readonly outcome: string;
  readonly failure?: string;
  readonly diff: readonly string[];
  readonly missingOutputs: readonly string[];
  readonly findings: readonly string[];
  readonly faults: readonly string[];
  /** The tool calls, one line each: time, method, path, status, fault. */
  readonly trace: readonly string[];
  readonly messages: readonly { role: string; text: string; original?: string; perturbations?: readonly string[] }[];
  readonly replay?: string;
}

/** The view of a record, as the page shows it. */
export function episodeView(r: EpisodeRecord & { replay?: string }): EpisodeView {
  return {
    agent: r.key.agent,
    eps: r.key.eps,
    lambda: r.key.lambda,
    scenario: r.key.scenario,
    trial: r.key.trial,
    outcome: r.outcome,
    ...(r.failure ? { failure: r.failure } : {}),
    diff: r.diff.map((d) => d.message),
    missingOutputs: r.missingOutputs,
    findings: (r.findings ?? []).map((f) => `${f.class}: ${f.message}`),
    trace: r.trace.map((t) => `+${(t.atMs / 1000).toFixed(1)}s ${t.method} ${t.path} -> ${t.status || 'no response'}${t.fault ? ` [${t.fault}${t.lied ? ', untrue' : ''}]` : ''}${t.replayed ? ' [idempotent replay]' : ''}${t.refused ? ` [refused: ${t.refused}]` : ''}`),
    faults: r.faults.map((f) => `${f.kind} on ${f.tool}#${f.ordinal}${f.phase ? ` (${f.phase} commit)` : ''}${f.variant ? ` (${f.variant})` : ''}${f.window ? ' (in a window)' : ''}`),
    messages: r.messages.map((m) => ({ role: m.role, text: m.text, ...(m.original !== undefined ? { original: m.original } : {}), ...(m.perturbations ? { perturbations: m.perturbations } : {}) })),
    ...(r.replay ? { replay: r.replay } : {}),
  };
}

/** JSON safe inside a <script> element: no `<`, `>`, `&` or line separators can close or confuse it. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const f3 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(3));

const STYLE = `body{font-family:"DejaVu Sans",Verdana,sans-serif;margin:16px 24px;color:#111;max-width:1320px}h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin-top:22px}h3{font-size:14px}
table{display:block;overflow-x:auto;max-width:100%}.maps{display:flex;flex-wrap:wrap;gap:12px}.maps svg{max-width:100%;height:auto}.map svg,.diff svg{max-width:100%;height:auto}.verdict td{font-size:13px}details{margin:8px 0}tr.task,tr.stabtask{cursor:pointer}tr.task:hover,tr.stabtask:hover{background:#f0f0ff}.cols{display:flex;gap:12px}.cols .col{flex:1;min-width:0}.cols pre{white-space:pre-wrap}
table{border-collapse:collapse;font-size:12px;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}th{background:#f3f3f3}
.map{margin:4px 0;max-width:100%}.map .cell{cursor:pointer}.map .cell:hover rect{stroke:#000;stroke-width:2}
#details{border:1px solid #999;padding:12px;margin-top:12px;background:#fafafa;flex-basis:100%;box-sizing:border-box;min-width:0}#details pre{white-space:pre-wrap;background:#fff;border:1px solid #ddd;padding:6px}
.episode{border-top:1px solid #ddd;padding:8px 0}.muted{color:#555}code{background:#eee;padding:1px 3px}.notice{border:1px solid #c60;background:#fff4e5;padding:4px 12px;margin:8px 0}
.gate{border:2px solid;padding:2px 12px;margin:8px 0}.gate.go{border-color:#2a7;background:#effaf3}.gate.nogo{border-color:#c33;background:#fdf0f0}`;

/** What each derived figure of the report means, in a line: the table headers' tooltips and the legend under the verdict. */
const LEGEND = {
  passK: 'the chance that k tries of a task all pass, estimated without bias from the trials and averaged over tasks; the interval in brackets is 95%',
  clean: 'pass^k in the cell with the plainest wording and the fewest faults the run has: what the agent does at its best',
  worst: 'the cell of the grid where pass^k is lowest, and where it is',
  volume: 'the mean of pass^k over every cell of the grid: 1 passes every task every time everywhere, 0 never',
  holds: 'the largest ε (at the smallest λ) and the largest λ (at the smallest ε) up to which pass^k stays at or above θ; none when the first cell is already below',
  slope: 'how much pass^k changes per unit of ε or λ: the least-squares coefficients over the grid (negative: it falls)',
  costs: 'the two failure classes with the most episodes over the grid (the taxonomy below lists them all)',
  calls: 'tool calls per episode, and those made inside a Retry-After window an earlier fault opened (each refused: a fault the agent provoked)',
} as const;

/** The script that turns a click on a cell into the list of its failing episodes; it never parses HTML from data. */
const SCRIPT = `(() => {
  const data = JSON.parse(document.getElementById('episodes').textContent);
  const panel = document.getElementById('details');
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
  function show(map, agent, eps, lambda) {
    // The panel opens right after the heatmap clicked (on a row of its own), not below the last one.
    map.after(panel);
    panel.replaceChildren();
    const list = data.filter((e) => e.agent === agent && e.eps === eps && e.lambda === lambda);
    panel.append(el('h3', agent + ' at ε ' + eps + ', λ ' + lambda + ': ' + list.length + ' failing episode(s) shown'));
    for (const e of list) {
      const box = el('div', undefined, 'episode');
      box.dataset.scenario = e.scenario;
      box.append(el('strong', e.scenario + (e.title ? ' (' + e.title + ')' : '') + ', trial ' + e.trial + ': ' + e.outcome + (e.failure ? ' (' + e.failure + ')' : '')));
      if (e.replay) { const p = el('p'); p.append('Replay: ', el('code', e.replay)); box.append(p); }
      if (e.diff.length || e.missingOutputs.length || e.findings.length) box.append(el('pre', [...e.findings, ...e.diff, ...e.missingOutputs.map((o) => 'required output not stated: ' + o)].join('\\n')));
      box.append(el('p', 'Faults: ' + (e.faults.length ? e.faults.join(', ') : 'none'), 'muted'));
      if (e.trace.length) box.append(el('pre', e.trace.join('\\n')));
      const convo = el('pre');
      convo.textContent = e.messages.map((m) => (m.role === 'user' ? 'user > ' : 'agent> ') + m.text + (m.original !== undefined ? '\\n        (unperturbed: ' + m.original + ') [' + (m.perturbations || []).join(', ') + ']' : '')).join('\\n');
      box.append(convo);
      panel.append(box);
    }
    panel.scrollIntoView({ block: 'nearest' });
  }
  const before = JSON.parse(document.getElementById('baseline-episodes').textContent);
  const side = document.getElementById('sidebyside');
  const column = (title, list) => {
    const col = el('div', undefined, 'col');
    col.append(el('h4', title + ': ' + list.length + ' failing episode(s)'));
    for (const e of list) {
      const box = el('div', undefined, 'episode');
      box.append(el('strong', 'trial ' + e.trial + ': ' + e.outcome + (e.failure ? ' (' + e.failure + ')' : '')));
      if (e.diff.length || e.findings.length) box.append(el('pre', [...e.findings, ...e.diff].join('\\n')));
      box.append(el('pre', e.messages.map((m) => (m.role === 'user' ? 'user > ' : 'agent> ') + m.text).join('\\n')));
      col.append(box);
    }
    return col;
  };
  for (const row of document.querySelectorAll('tr.task')) {
    row.addEventListener('click', () => {
      const matchOf = (agent) => (e) => e.agent === agent && e.eps === Number(row.dataset.eps) && e.lambda === Number(row.dataset.lambda) && e.scenario === row.dataset.scenario;
      const match = matchOf(row.dataset.agent);
      side.replaceChildren(el('h3', row.dataset.agent + ' on ' + row.dataset.scenario + ' at ε ' + row.dataset.eps + ', λ ' + row.dataset.lambda));
      const both = el('div', undefined, 'cols');
      const base = row.dataset.baseAgent;
      both.append(column(base ? row.dataset.agent : 'this run', data.filter(match)), column(base ? base + ' (baseline)' : 'baseline', before.filter(matchOf(base || row.dataset.agent))));
      side.append(both);
      side.scrollIntoView({ block: 'nearest' });
    });
  }
  // A task of the stability panel: its trials grouped by the final state they ended in, each group with
  // its diff from the goal where this page keeps a failing episode of it, else the command that replays it.
  const states = document.getElementById('states');
  for (const row of document.querySelectorAll('tr.stabtask')) {
    row.addEventListener('click', () => {
      const d = row.dataset;
      const kept = data.filter((e) => e.agent === d.agent && e.eps === Number(d.eps) && e.lambda === Number(d.lambda) && e.scenario === d.scenario);
      const groups = JSON.parse(d.states || '[]');
      states.replaceChildren(el('h4', d.agent + ' on ' + d.scenario + ' at ε ' + d.eps + ', λ ' + d.lambda + ': ' + groups.length + ' final state(s)'));
      for (const g of groups) {
        states.append(el('p', 'trial(s) ' + g.trials.join(', ') + (g.pass ? ': the goal state (passed)' : ':'), 'muted'));
        if (g.pass) continue;
        const e = kept.find((x) => g.trials.includes(x.trial));
        if (e) states.append(el('pre', (e.diff.length ? e.diff : ['(the goal state: it failed on conduct, claims or outputs)']).concat(e.findings).join('\\n')));
        else {
          // The replay command of a kept episode of the same agent (every option of the run, the agent as it was given), pointed at this one.
          const like = data.find((x) => x.agent === d.agent && x.replay);
          const at = (cmd, flag, value) => cmd.replace(new RegExp('--' + flag + ' \\\\S+'), '--' + flag + ' ' + value);
          const cmd = like ? [['scenario', d.scenario], ['eps', d.eps], ['lambda', d.lambda], ['trial', g.trials[0]]].reduce((c, [f, v]) => at(c, f, v), like.replay) : states.dataset.replay + ' --scenario ' + d.scenario + ' --agent ' + d.agent + ' --eps ' + d.eps + ' --lambda ' + d.lambda + ' --trial ' + g.trials[0] + ' (and the options of the run)';
          const p = el('p', 'Not among the failing episodes this page keeps; replay it: ');
          p.append(el('code', cmd));
          states.append(p);
        }
      }
      states.scrollIntoView({ block: 'nearest' });
    });
  }
  for (const map of document.querySelectorAll('.map[data-agent]')) {
    for (const cell of map.querySelectorAll('.cell')) {
      cell.addEventListener('click', () => show(map, map.dataset.agent, Number(cell.dataset.eps), Number(cell.dataset.lambda)));
    }
  }
})();`;

/**
 * The whole page. `failing` holds the failing episodes to drill into (the caller caps how many per cell);
 * `notice` what a reader must know before the figures (integrityLines). Every value from the run goes
 * through the `html` tag (markup.ts), which escapes it; the heatmaps' SVG, the page's script and its
 * episode data (JSON made safe for a script element) are the only markup put in as it is.
 */
export function reportHtml(grid: Grid, run: string, failing: readonly EpisodeView[], titles: Readonly<Record<string, string>> = {}, k?: number, changes?: { readonly baseline: string; readonly tasks?: readonly TaskChange[]; readonly baselineFailing?: readonly EpisodeView[]; readonly baselineAgent?: string }, notice: readonly string[] = [], gate?: GateFile): string {
  const task = (id: string) => html`${id}${titles[id] ? html` <span class="muted">${titles[id]}</span>` : ''}`;
  const n = Math.min(...grid.agents.map((a) => a.surfaces.length));
  const kk = Math.max(1, Math.min(k ?? n, Number.isFinite(n) ? n : 1));
  const files = heatmapFiles(grid, run, kk);
  const body: Markup[] = [];
  body.push(html`<h1>Shakedown report: ${run}</h1>`);
  // The latest release verdict first (a gate run replaces this region in place).
  body.push(gateRegion(gate, gridEpisodes(grid)));
  if (notice.length > 0) body.push(html`<div class="notice">${notice.map((line) => html`<p><strong>${line.replace(/^shakedown: /, '')}</strong></p>`)}</div>`);
  body.push(html`<p class="muted">World <code>${grid.world}</code>, fault profile <code>${grid.profile}</code>, seed <code>${grid.seed}</code>, ${grid.trials} trials per task, ε ${grid.eps.join(', ')}, λ ${grid.lambda.join(', ')}.</p>`);
  // The verdict first: each agent under test at a glance, against the baselines the run has.
  const tested = grid.agents.filter((a) => !BASELINE_IDS.includes(a.agent));
  const baselines = grid.agents.filter((a) => BASELINE_IDS.includes(a.agent));
  const at = (a: Grid['agents'][number], eps: number, lambda: number) => a.cells.find((c) => c.eps === eps && c.lambda === lambda)?.passHatK[kk - 1];
  const clean = [Math.min(...grid.eps), Math.min(...grid.lambda)] as const;
  body.push(html`<h2>Verdict (pass^${kk})</h2><table class="verdict"><tr><th>agent</th><th title="${LEGEND.clean}">ε ${clean[0]}, λ ${clean[1]}</th><th title="${LEGEND.worst}">worst cell</th><th title="${LEGEND.volume}">volume</th><th title="${LEGEND.holds}">holds ≥ θ up to ε / λ</th><th title="${LEGEND.costs}">costs most</th><th title="${LEGEND.calls}">calls / episode (inside a window)</th></tr>`);
  for (const a of [...tested, ...baselines]) {
    const c0 = at(a, clean[0], clean[1]);
    const worst = [...a.cells].sort((x, y) => (x.passHatK[kk - 1]?.value ?? 1) - (y.passHatK[kk - 1]?.value ?? 1))[0];
    const w = worst?.passHatK[kk - 1];
    const s = a.surfaces[kk - 1];
    const failures: Record<string, number> = {};
    for (const c of a.cells) for (const [f, v] of Object.entries(c.failures)) failures[f] = (failures[f] ?? 0) + (v ?? 0);
    const top = Object.entries(failures).sort((x, y) => y[1] - x[1]).slice(0, 2).map(([f, v]) => `${f} ${v}`).join(', ') || '–';
    const label = BASELINE_IDS.includes(a.agent) ? html`${a.agent} <span class="muted">(baseline)</span>` : html`<strong>${a.agent}</strong>`;
    body.push(html`<tr><td>${label}</td><td>${c0 ? `${f3(c0.value)} [${f3(c0.ci95[0])}, ${f3(c0.ci95[1])}]` : '–'}</td><td>${w ? `${f3(w.value)} at ε ${worst?.eps}, λ ${worst?.lambda}` : '–'}</td><td>${f3(s?.volume)}</td><td>${s ? `${s.criticalEps ?? 'none'} / ${s.criticalLambda ?? 'none'} (θ ${s.theta})` : '–'}</td><td>${top}</td><td>${loadText(agentLoad(a.cells))}</td></tr>`);
  }
  body.push(html`</table>`);
  // What each figure means, beside the table that shows it (docs/statistics.md has the estimators).
  body.push(html`<details class="legend"><summary>What these figures mean</summary><dl>
<dt>pass^${kk}</dt><dd>${LEGEND.passK.replace('k', String(kk))}</dd>
<dt>ε ${clean[0]}, λ ${clean[1]}</dt><dd>${LEGEND.clean}</dd>
<dt>worst cell</dt><dd>${LEGEND.worst}</dd>
<dt>volume</dt><dd>${LEGEND.volume}</dd>
<dt>holds ≥ θ up to ε / λ</dt><dd>${LEGEND.holds}</dd>
<dt>slope ε, slope λ</dt><dd>${LEGEND.slope}</dd>
<dt>costs most</dt><dd>${LEGEND.costs}</dd>
<dt>calls / episode (inside a window)</dt><dd>${LEGEND.calls}</dd>
</dl></details>`);
  // Then each candidate against its baseline (the config's \`baselineAgent\`, else the comparators), and the
  // biggest differences between the other agents; then the tasks that changed in every trial.
  const rows = (grid.comparisons ?? []).flatMap((c) => c.cells.map((x) => ({ ...x, a: c.a, b: c.b })));
  if (rows.length > 0) {
    const candidates = grid.candidates ?? [];
    const against = (r: (typeof rows)[number]) => (grid.baselineAgent !== undefined ? r.b === grid.baselineAgent || r.a === grid.baselineAgent : !candidates.includes(r.a) || !candidates.includes(r.b));
    // A pair is shown candidate first: the difference, its interval and its verdict turned round when it was computed the other way.
    const lead = rows
      .filter((r) => (candidates.includes(r.a) || candidates.includes(r.b)) && !(candidates.includes(r.a) && candidates.includes(r.b)) && against(r))
      .map((r) => (candidates.includes(r.a) ? r : { ...r, a: r.b, b: r.a, difference: -r.difference, ci95: [-r.ci95[1], -r.ci95[0]] as const, verdict: r.verdict === 'better' ? ('worse' as const) : r.verdict === 'worse' ? ('better' as const) : r.verdict }));
    const perCandidate = candidates.flatMap((c) => lead.filter((r) => r.a === c).sort((x, y) => Math.abs(y.difference) - Math.abs(x.difference)).slice(0, 4));
    const header = html`<tr><th>A</th><th>B</th><th>ε</th><th>λ</th><th>A − B</th><th>95% interval</th><th title="the sign-flip test over tasks, Holm-adjusted across every cell and pair: it decides">verdict (adjusted p)</th><th>smallest detectable</th></tr>`;
    const line = (r: (typeof rows)[number]) => html`<tr><td>${r.a}</td><td>${r.b}</td><td>${r.eps}</td><td>${r.lambda}</td><td>${(r.difference >= 0 ? '+' : '') + f3(r.difference)}</td><td>[${f3(r.ci95[0])}, ${f3(r.ci95[1])}]</td><td>${r.verdict} (${f3(r.pAdjusted)})</td><td>${f3(r.minDetectable)}</td></tr>`;
    if (perCandidate.length > 0) {
      body.push(html`<h2>${grid.baselineAgent !== undefined ? html`Each candidate against ${grid.baselineAgent}` : 'Each candidate against the comparators'}</h2><p class="muted">The cells where each candidate differs most (pass^n, paired by task).</p><table>${header}`);
      for (const r of perCandidate) body.push(line(r));
      body.push(html`</table>`);
    }
    const shownPairs = new Set(lead.map((r) => `${r.a}|${r.b}`));
    const rest = rows.filter((r) => !shownPairs.has(`${r.a}|${r.b}`) && !shownPairs.has(`${r.b}|${r.a}`));
    const biggest = [...rest].sort((x, y) => Math.abs(y.difference) - Math.abs(x.difference)).slice(0, 6);
    if (biggest.length > 0) {
      body.push(html`<h2>Biggest differences between ${perCandidate.length > 0 ? 'other ' : ''}agents</h2><table>${header}`);
      for (const r of biggest) body.push(line(r));
      body.push(html`</table>`);
    }
    const flipped = rows.flatMap((r) => (r.flipped ?? []).map((f) => ({ ...f, pair: `${r.a} / ${r.b}`, eps: r.eps, lambda: r.lambda })));
    if (flipped.length > 0) {
      body.push(html`<details><summary>${flipped.length} task cell(s) one agent passed every time and the other never</summary><table><tr><th>A / B</th><th>ε</th><th>λ</th><th>task</th><th>A</th><th>B</th></tr>`);
      for (const f of flipped.slice(0, 100)) body.push(html`<tr><td>${f.pair}</td><td>${f.eps}</td><td>${f.lambda}</td><td>${task(f.scenario)}</td><td>${f.a}</td><td>${f.b}</td></tr>`);
      body.push(html`</table></details>`);
    }
  }
  // Against a baseline run: each task's change, regressions first; a click shows both runs' failing episodes side by side.
  const taskRows = changes?.tasks ?? [];
  if (changes && taskRows.length > 0) {
    const worse = taskRows.filter((t) => t.change < 0).length;
    body.push(html`<h2>Per-task changes against ${changes.baseline}</h2><p class="muted">${worse} task cell(s) worse, ${taskRows.length - worse} better, in pass^${kk}. Click a row for the failing episodes of that task in both runs.</p><table class="tasks"><tr><th>agent</th><th>ε</th><th>λ</th><th>task</th><th>passes now</th><th>before</th><th>change</th></tr>`);
    const baseAttr = changes.baselineAgent ? html` data-base-agent="${changes.baselineAgent}"` : '';
    for (const t of taskRows.slice(0, 200)) body.push(html`<tr class="task"${baseAttr} data-agent="${t.agent}" data-eps="${t.eps}" data-lambda="${t.lambda}" data-scenario="${t.scenario}"><td>${t.agent}</td><td>${t.eps}</td><td>${t.lambda}</td><td>${task(t.scenario)}</td><td>${t.now}</td><td>${t.before}</td><td>${(t.change >= 0 ? '+' : '') + f3(t.change)}</td></tr>`);
    body.push(html`</table><div id="sidebyside"></div>`);
  }
  // Beside pass^k: state, path and cost consistency (stability-view.ts).
  body.push(stabilityHtml(grid, kk));
  body.push(html`<h2>Heatmaps (pass^${kk})</h2><p class="muted">Click a cell for its failing episodes.</p><div class="maps">`);
  // Agents under test first, then the baselines. The heatmaps are this program's SVG (svg.ts escapes what it draws from the run).
  const singles = files.filter((x) => x.kind === 'single').sort((x, y) => Number(BASELINE_IDS.includes(x.agent ?? '')) - Number(BASELINE_IDS.includes(y.agent ?? '')));
  for (const f of singles) body.push(html`<div class="map" data-agent="${f.agent ?? ''}">${trusted(f.content)}</div>`);
  body.push(html`</div><div id="details"><p class="muted">Click a cell above.</p></div>`);
  const differences = files.filter((x) => x.kind === 'difference');
  if (differences.length > 0) {
    // A few pairs are shown; many (every pair of many agents) wait behind a click.
    body.push(html`<h2>Differences between agents</h2><details${differences.length <= 3 ? trusted(' open') : ''}><summary>${differences.length} difference map(s), A − B per cell, significant cells outlined</summary><div class="maps">`);
    for (const f of differences) body.push(html`<div class="diff">${trusted(f.content)}</div>`);
    body.push(html`</div></details>`);
  }
  body.push(html`<h2>Detail</h2><h3>Surface summaries</h3><table><tr><th>agent</th><th>k</th><th title="${LEGEND.volume}">volume</th><th title="${LEGEND.slope}">slope ε</th><th title="${LEGEND.slope}">slope λ</th><th title="${LEGEND.holds}">critical ε</th><th title="${LEGEND.holds}">critical λ</th></tr>`);
  for (const a of grid.agents) for (const s of a.surfaces) body.push(html`<tr><td>${a.agent}</td><td>${s.k}</td><td>${f3(s.volume)}</td><td>${f3(s.slopeEps)}</td><td>${f3(s.slopeLambda)}</td><td>${s.criticalEps ?? 'none'}</td><td>${s.criticalLambda ?? 'none'}</td></tr>`);
  body.push(html`</table>`);
  body.push(html`<details><summary>Every k, per agent</summary><div class="maps">`);
  for (const f of files.filter((x) => x.kind === 'combined')) body.push(html`<div class="diff">${trusted(f.content)}</div>`);
  body.push(html`</div></details>`);
  // The taxonomy with a row per failure class and a column per agent: as many agents as a sweep has fit a
  // 1,366 px window, where a column per class (twenty of them) did not. Classes no agent met are left out.
  const totals = grid.agents.map((a) => {
    const total: Record<string, number> = {};
    let episodes = 0;
    let confused = 0;
    for (const c of a.cells) {
      for (const [k, v] of [...Object.entries(c.failures), ...Object.entries(c.harness ?? {})]) total[k] = (total[k] ?? 0) + (v ?? 0);
      const all = c.episodes + Object.values(c.harness ?? {}).reduce((x, v) => x + (v ?? 0), 0);
      episodes += all;
      confused += Math.round((c.confusionRate ?? 0) * all);
    }
    return { total, episodes, confused };
  });
  const met = FAILURE_CLASSES.filter((c) => totals.some((t) => (t.total[c] ?? 0) > 0));
  const none = FAILURE_CLASSES.filter((c) => !met.includes(c));
  body.push(html`<h3>Failure taxonomy</h3><p class="muted">Episodes per failure class. simulator-error, world-error and judge-error are the harness's: left out of every estimate.${none.length > 0 ? ` No agent met: ${none.join(', ')}.` : ''}</p><table class="taxonomy"><tr><th>failure class</th>${grid.agents.map((a) => html`<th>${a.agent}</th>`)}</tr>`);
  for (const c of met) body.push(html`<tr><td>${c}</td>${totals.map((t) => html`<td>${t.total[c] ?? 0}</td>`)}</tr>`);
  body.push(html`<tr><td>simulated user confused</td>${totals.map((t) => html`<td>${t.confused} of ${t.episodes} (${t.episodes === 0 ? '0.0' : ((100 * t.confused) / t.episodes).toFixed(1)}%)</td>`)}</tr></table>`);
  const unstable = grid.unstable ?? [];
  body.push(html`<h3>Unstable tasks (${unstable.length})</h3>${unstable.length > 200 ? html`<p class="muted">The 200 most unstable of ${unstable.length}; <code>shakedown stats RUN</code> lists all.</p>` : ''}<table><tr><th>agent</th><th>ε</th><th>λ</th><th>task</th><th>trials</th><th>successes</th><th>pass^1</th><th>dominant failure</th></tr>`);
  for (const u of unstable.slice(0, 200)) body.push(html`<tr><td>${u.agent}</td><td>${u.eps}</td><td>${u.lambda}</td><td>${task(u.scenario)}</td><td>${u.trials}</td><td>${u.successes}</td><td>${f3(u.pass1)}</td><td>${u.dominantFailure}</td></tr>`);
  body.push(html`</table>`);
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    html`<title>Shakedown report: ${run}</title><style>${trusted(STYLE)}</style></head><body>`,
    joinMarkup(body, '\n'),
    html`<script type="application/json" id="episodes">${trusted(scriptJson(failing.map((e) => ({ ...e, title: titles[e.scenario] ?? '' }))))}</script>`,
    html`<script type="application/json" id="baseline-episodes">${trusted(scriptJson(changes?.baselineFailing ?? []))}</script>`,
    html`<script>${trusted(SCRIPT)}</script>`,
    '</body></html>',
  ].join('\n');
}

/** An agent's calls per episode, those inside a window in brackets, and the episodes it was blocked in. */
export function loadText(load: ReturnType<typeof agentLoad>): string {
  if (!load) return '–';
  return `${load.callsPerEpisode.toFixed(1)} (${load.inWindowPerEpisode.toFixed(2)} inside a window${load.blockedEpisodes > 0 ? `; blocked in ${load.blockedEpisodes} episode(s)` : ''})`;
}

