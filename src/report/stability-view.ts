/**
 * Stability as a reviewer reads it (stats/stability.ts has the figures): the stability panel of
 * report.html, the section of summary.md and the lines of `shakedown stats`. Each shows, for every agent
 * under test (the candidates first), pass^n beside state, path and cost consistency in the cell where the
 * faults are strongest on the plainest wording, the tasks least consistent, and what the comparison with
 * the baseline names.
 */
import { BASELINE_IDS } from '../agents/baselines.js';
import type { CellSummary } from '../stats/stats.js';
import type { CellStability, Share, Spread } from '../stats/stability.js';
import { md } from './md.js';
import type { Grid } from './grid.js';
import { html, type Markup } from './markup.js';

const f2 = (x: number) => x.toFixed(2);
const shareText = (s: Share | null | undefined) => (s ? `${f2(s.value)} [${f2(s.ci95[0])}, ${f2(s.ci95[1])}]` : '–');
const num = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : Math.abs(x) >= 0.01 || x === 0 ? x.toFixed(2) : x.toPrecision(2));
const spreadText = (s: Spread | undefined, unit = '') => (s ? `${num(s.mean)}${unit} [${num(s.ci95[0])}, ${num(s.ci95[1])}], cv ${s.cv === null ? '–' : f2(s.cv)}, p95 ${num(s.p95)}${unit}` : '–');
const seconds = (s: Spread): Spread => ({ ...s, mean: s.mean / 1000, ci95: [s.ci95[0] / 1000, s.ci95[1] / 1000], sd: s.sd / 1000, p95: s.p95 / 1000, withinTaskSd: s.withinTaskSd / 1000 });

/** The cell the panel shows: the strongest faults on the plainest wording (where they bite alone). */
export function focusCell(grid: Grid): { eps: number; lambda: number } {
  return { eps: Math.min(...grid.eps), lambda: Math.max(...grid.lambda) };
}

/** The agents the panel shows: the candidates, then the other agents that are not baselines. */
function shown(grid: Grid): Grid['agents'][number][] {
  const candidates = grid.candidates ?? [];
  const tested = grid.agents.filter((a) => !BASELINE_IDS.includes(a.agent));
  return [...tested.filter((a) => candidates.includes(a.agent)), ...tested.filter((a) => !candidates.includes(a.agent))];
}

const cellAt = (cells: readonly CellSummary[], at: { eps: number; lambda: number }) => cells.find((c) => c.eps === at.eps && c.lambda === at.lambda);

/** The pairs to name: each candidate against the baseline agent when there is one, else every pair compared. */
function pairs(grid: Grid): NonNullable<Grid['stabilityComparisons']> {
  const all = grid.stabilityComparisons ?? [];
  if (grid.baselineAgent === undefined) return all;
  const against = all.filter((p) => (p.a === grid.baselineAgent || p.b === grid.baselineAgent) && ((grid.candidates ?? []).includes(p.a) || (grid.candidates ?? []).includes(p.b)));
  return against.length > 0 ? against : all;
}

/** One row's figures. */
function row(s: CellStability, c: CellSummary, k: number) {
  const pass = c.passHatK[k - 1];
  return {
    pass: pass ? `${pass.value.toFixed(3)} [${pass.ci95[0].toFixed(3)}, ${pass.ci95[1].toFixed(3)}]` : '–',
    oneState: shareText(s.states.oneState),
    converge: s.states.failingConverge ? `${shareText(s.states.failingConverge)} of ${s.states.failingTasks}` : 'no task failed twice',
    onePath: shareText(s.paths.onePath),
    calls: spreadText(s.resources.calls),
    turns: spreadText(s.resources.turns),
    spend: s.resources.costUsd ? `$${spreadText(s.resources.costUsd)}` : s.resources.tokens ? `${spreadText(s.resources.tokens)} tokens` : '–',
    time: spreadText(seconds(s.resources.simulatedMs), ' s'),
  };
}

const LEGEND = {
  oneState: 'share of tasks whose trials all end in one final state (the comparator canonical form; every passing trial ends in the goal), with its 95% interval over tasks',
  converge: 'of the tasks with two failing trials or more, the share whose failing trials end in one wrong state (1: they fail the same way; low: they scatter)',
  onePath: 'share of tasks whose trials take one path: the writes that changed the state, reads and writes that changed nothing set aside, writes to different records in any order',
  calls: 'tool calls per episode: mean with its 95% interval over tasks, coefficient of variation over episodes, 95th percentile',
  spend: 'LLM cost (or tokens) per episode, as the tool calls',
  time: 'simulated time per episode (fault waits and backoff included), as the tool calls',
};

/** The stability panel of report.html. */
export function stabilityHtml(grid: Grid, k: number): Markup {
  const at = focusCell(grid);
  const agents = shown(grid).filter((a) => cellAt(a.cells, at)?.stability);
  if (agents.length === 0) return html``;
  const parts: Markup[] = [];
  // The cost column only where some agent spent tokens.
  const spends = agents.some((a) => { const st = cellAt(a.cells, at)?.stability; return st?.resources.costUsd !== undefined || st?.resources.tokens !== undefined; });
  parts.push(html`<h2>Stability at ε ${at.eps}, λ ${at.lambda}</h2><p class="muted">Do repeated trials of a task end in the same state, by the same path, at the same cost? Click a task for the final states its trials reached.</p><table class="stability"><tr><th>agent</th><th>pass^${k}</th><th title="${LEGEND.oneState}">one final state</th><th title="${LEGEND.converge}">failing trials converge</th><th title="${LEGEND.onePath}">one path</th><th title="${LEGEND.calls}">tool calls / episode</th>${spends ? html`<th title="${LEGEND.spend}">cost / episode</th>` : ''}<th title="${LEGEND.time}">simulated time</th></tr>`);
  for (const a of agents) {
    const c = cellAt(a.cells, at) as CellSummary;
    const r = row(c.stability as CellStability, c, k);
    const label = (grid.candidates ?? []).includes(a.agent) ? html`<strong>${a.agent}</strong>` : html`${a.agent}`;
    parts.push(html`<tr><td>${label}</td><td>${r.pass}</td><td>${r.oneState}</td><td>${r.converge}</td><td>${r.onePath}</td><td>${r.calls}</td>${spends ? html`<td>${r.spend}</td>` : ''}<td>${r.time}</td></tr>`);
  }
  parts.push(html`</table>`);
  const notes = pairs(grid).flatMap((p) => (p.cells.find((c) => c.eps === at.eps && c.lambda === at.lambda)?.notes ?? []).map((n) => ({ pair: `${p.a} / ${p.b}`, note: n })));
  const named = pairs(grid).flatMap((p) => p.cells.filter((c) => c.eps === at.eps && c.lambda === at.lambda).map((c) => ({ p, c })));
  if (named.length > 0) {
    parts.push(html`<table><tr><th>A / B</th><th title="A minus B, per task; sign-flip test, Holm across the pair's cells">one final state, A − B</th><th>one path, A − B</th><th>tool calls, A / B</th><th>p95 of tool calls, A / B</th></tr>`);
    for (const { p, c } of named) parts.push(html`<tr><td>${p.a} / ${p.b}</td><td>${c.oneState.difference >= 0 ? '+' : ''}${f2(c.oneState.difference)} [${f2(c.oneState.ci95[0])}, ${f2(c.oneState.ci95[1])}] (p ${c.oneState.pAdjusted.toFixed(3)})</td><td>${c.onePath.difference >= 0 ? '+' : ''}${f2(c.onePath.difference)} [${f2(c.onePath.ci95[0])}, ${f2(c.onePath.ci95[1])}]</td><td>${c.calls.ratio === null ? '–' : `${c.calls.ratio.toFixed(2)}x`} (p ${c.calls.pAdjusted.toFixed(3)})</td><td>${c.callsP95Ratio === null ? '–' : `${c.callsP95Ratio.toFixed(2)}x`}</td></tr>`);
    parts.push(html`</table>`);
  }
  if (notes.length > 0) parts.push(html`<ul>${notes.map((n) => html`<li>${n.pair}: ${n.note}</li>`)}</ul>`);
  // The tasks least consistent, a click from their failing trials' final states.
  const least = agents.flatMap((a) => ((cellAt(a.cells, at) as CellSummary).stability as CellStability).leastConsistent.map((t) => ({ agent: a.agent, ...t })));
  if (least.length > 0) {
    parts.push(html`<details><summary>The tasks least consistent (${least.length})</summary><table><tr><th>agent</th><th>task</th><th>trials</th><th>final states</th><th>paths</th><th>sd of tool calls</th></tr>`);
    for (const t of least) parts.push(html`<tr class="stabtask" data-agent="${t.agent}" data-eps="${at.eps}" data-lambda="${at.lambda}" data-scenario="${t.scenario}" data-states="${JSON.stringify(t.byState)}"><td>${t.agent}</td><td>${t.scenario}</td><td>${t.trials}</td><td>${t.states}</td><td>${t.paths}</td><td>${t.callsSd}</td></tr>`);
    parts.push(html`</table><div id="states" data-replay="npx shakedown replay --world ${grid.world} --seed ${grid.seed} --profile ${grid.profile}"></div></details>`);
  }
  return html`${parts}`;
}

/** The stability section of summary.md. */
export function stabilityMarkdown(grid: Grid, k: number): string[] {
  const at = focusCell(grid);
  const agents = shown(grid).filter((a) => cellAt(a.cells, at)?.stability);
  if (agents.length === 0) return [];
  const spends = agents.some((a) => { const st = cellAt(a.cells, at)?.stability; return st?.resources.costUsd !== undefined || st?.resources.tokens !== undefined; });
  const lines = [`## Stability at ε = ${at.eps}, λ = ${at.lambda}`, '', 'Whether repeated trials of a task end in the same state, by the same path, at the same cost (docs/statistics.md, "Stability"); shares with 95% intervals over tasks.', '', `| agent | pass^${k} | one final state | failing trials converge | one path | tool calls / episode |${spends ? ' cost / episode |' : ''} simulated time |`, `| --- | --- | --- | --- | --- | --- |${spends ? ' --- |' : ''} --- |`];
  for (const a of agents) {
    const c = cellAt(a.cells, at) as CellSummary;
    const r = row(c.stability as CellStability, c, k);
    lines.push(`| \`${md(a.agent)}\` | ${r.pass} | ${r.oneState} | ${r.converge} | ${r.onePath} | ${r.calls} |${spends ? ` ${r.spend} |` : ''} ${r.time} |`);
  }
  const notes = pairs(grid).flatMap((p) => (p.cells.find((c) => c.eps === at.eps && c.lambda === at.lambda)?.notes ?? []).map((n) => `- ${md(p.a)} / ${md(p.b)}: ${md(n)}`));
  if (notes.length > 0) lines.push('', ...notes);
  const least = agents.flatMap((a) => ((cellAt(a.cells, at) as CellSummary).stability as CellStability).leastConsistent.slice(0, 3).map((t) => `\`${md(a.agent)}\` ${md(t.scenario)} (${t.states} states, ${t.paths} paths in ${t.trials} trials)`));
  if (least.length > 0) lines.push('', `Least consistent: ${least.join('; ')}.`);
  lines.push('');
  return lines;
}

/** The stability lines of `shakedown stats`: every cell of an agent. */
export function stabilityLines(cells: readonly CellSummary[]): string[] {
  return cells.flatMap((c) => {
    const s = c.stability;
    if (!s) return [];
    return [`  ε ${c.eps}, λ ${c.lambda}: one state ${shareText(s.states.oneState)}; failing trials converge ${s.states.failingConverge ? `${shareText(s.states.failingConverge)} (${s.states.failingTasks} tasks)` : '-'}; one path ${shareText(s.paths.onePath)}; calls ${spreadText(s.resources.calls)} (within a task sd ${num(s.resources.calls.withinTaskSd)}); turns ${spreadText(s.resources.turns)}${s.resources.costUsd ? `; cost $${spreadText(s.resources.costUsd)}` : s.resources.tokens ? `; tokens ${spreadText(s.resources.tokens)}` : ''}; simulated time ${spreadText(seconds(s.resources.simulatedMs), ' s')}`];
  });
}
