/** The report files a reviewer reads: heatmaps (SVG), the grid as CSV, and a Markdown summary. */
import { stabilityMarkdown } from './stability-view.js';
import { md } from './md.js';

export { md } from './md.js';
import type { CellComparison, TaskChange } from '../stats/compare.js';
import { agentLoad, type UsageSummary } from '../stats/stats.js';
import { BASELINE_IDS } from '../agents/baselines.js';
import type { Grid } from './grid.js';
import { differenceSvg, heatmapSvg, type HeatmapContext } from './svg.js';

/** A file name for an agent id (`reference:idempotency+backoff` -> `reference-idempotency-backoff`). */
export const slug = (id: string): string => id.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'agent';


const csvField = (v: string | number): string => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The grid in long form: one row per agent, cell and k. */
export function gridCsv(grid: Grid): string {
  const rows = [['agent', 'eps', 'lambda', 'k', 'value', 'low', 'high', 'tasks', 'trials'].join(',')];
  for (const a of grid.agents) {
    for (const c of a.cells) {
      for (const e of c.passHatK) rows.push([a.agent, c.eps, c.lambda, e.k, e.value.toFixed(6), e.ci95[0].toFixed(6), e.ci95[1].toFixed(6), c.tasks, c.trials].map(csvField).join(','));
    }
  }
  return `${rows.join('\n')}\n`;
}

export interface ReportFile {
  readonly name: string;
  readonly content: string;
}

/** Baseline volumes for the notes under each heatmap. */
function baselineVolumes(grid: Grid): Record<string, number> {
  const out: Record<string, number> = {};
  for (const id of BASELINE_IDS) {
    const s = grid.agents.find((a) => a.agent === id)?.surfaces[0];
    if (s) out[id] = s.volume;
  }
  return out;
}

/**
 * Heatmaps: per agent a figure at one k (for slides: `--k`, default the largest), its small multiples over
 * every k, and a difference map per pair of agents under test. `kind` tells them apart.
 */
export function heatmapFiles(grid: Grid, run: string, k?: number): (ReportFile & { readonly kind: 'single' | 'combined' | 'difference'; readonly agent?: string })[] {
  const ctx: HeatmapContext = { world: grid.world, profile: grid.profile, run, baselines: baselineVolumes(grid) };
  const files: (ReportFile & { kind: 'single' | 'combined' | 'difference'; agent?: string })[] = [];
  for (const a of grid.agents) {
    const n = Math.min(...a.cells.map((c) => c.passHatK.length));
    const kk = Math.min(k ?? n, n);
    if (Number.isFinite(kk) && kk >= 1) files.push({ kind: 'single', agent: a.agent, name: `heatmap-${slug(a.agent)}-pass${kk}.svg`, content: heatmapSvg(a.agent, a.cells, ctx, [kk]) });
    files.push({ kind: 'combined', agent: a.agent, name: `heatmap-${slug(a.agent)}.svg`, content: heatmapSvg(a.agent, a.cells, ctx) });
  }
  for (const c of grid.comparisons ?? []) if (c.cells.length > 0) files.push({ kind: 'difference', name: `difference-${slug(c.a)}-vs-${slug(c.b)}.svg`, content: differenceSvg(c.a, c.b, c.cells, ctx) });
  return files;
}

const pct = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '–');
const mdText = (v: unknown): string => md(String(v));

/** A sum of cells' usage: tokens, and dollars unless some episode had no price (then how many had none). */
function sumUsage(us: readonly (UsageSummary | undefined)[]): { tokens: number; usd?: number; unpriced: number } | undefined {
  const present = us.filter((u): u is UsageSummary => u !== undefined);
  if (present.length === 0) return undefined;
  const unpriced = present.reduce((n, u) => n + (u.unpriced ?? 0), 0);
  const tokens = present.reduce((n, u) => n + u.promptTokens + u.completionTokens, 0);
  return unpriced > 0 ? { tokens, unpriced } : { tokens, usd: present.reduce((n, u) => n + (u.costUsd ?? 0), 0), unpriced: 0 };
}

const dollars = (u: { usd?: number; unpriced: number } | undefined) => (u === undefined ? '–' : u.usd === undefined ? `unknown (${u.unpriced} episode(s) without a price)` : `$${u.usd.toFixed(4)}`);

/**
 * What each agent's LLM sweep cost, the agent's model and the LLM user's apart and summed, and what a
 * passing episode and a point of pass^k volume cost; a cost without a price is unknown, never $0. Empty
 * when no agent reported usage.
 */
function costLines(grid: Grid, k: number): string[] {
  const rows = grid.agents.flatMap((a) => {
    const agent = sumUsage(a.cells.map((c) => c.usage));
    const user = sumUsage(a.cells.map((c) => c.userUsage));
    if (!agent && !user) return [];
    const known = [agent, user].every((u) => u === undefined || u.usd !== undefined);
    const total = known ? (agent?.usd ?? 0) + (user?.usd ?? 0) : undefined;
    const passes = a.cells.reduce((n, c) => n + c.perTask.reduce((m, t) => m + t.c, 0), 0);
    const volume = a.surfaces[k - 1]?.volume ?? 0;
    const per = (d: number) => (total === undefined ? 'unknown' : d > 0 ? `$${(total / d).toFixed(4)}` : '–');
    return [`| \`${md(a.agent)}\` | ${agent?.tokens ?? 0} | ${dollars(agent)} | ${user?.tokens ?? 0} | ${dollars(user)} | ${total === undefined ? 'unknown' : `$${total.toFixed(4)}`} | ${per(passes)} | ${per(volume * 100)} |`];
  });
  if (rows.length === 0) return [];
  return ['## Cost', '', `Model tokens and dollars at the configured prices (\`prices\`), less what the LLM cache answered; an LLM judge's cost is in run.json (\`judge.usage\`).`, '', `| agent | agent tokens | agent cost | user simulator tokens | user simulator cost | total | per passing episode | per point of pass^${k} volume |`, '| --- | --- | --- | --- | --- | --- | --- | --- |', ...rows];
}

/**
 * The summary a reviewer pastes into a release ticket or a CI job summary: headline numbers with
 * intervals, critical thresholds, the biggest changes against a baseline run when one is given, and
 * the heatmaps.
 */
export function summaryMarkdown(grid: Grid, run: string, k: number, changes?: { baseline: string; rows: readonly (CellComparison & { agent: string })[]; tasks?: readonly TaskChange[] }, images: 'svg' | 'png' | 'none' = 'svg'): string {
  const lines: string[] = [];
  const epsMax = Math.max(...grid.eps);
  const lambdaMax = Math.max(...grid.lambda);
  lines.push(`# Shakedown: ${md(run)}`, '', `World \`${md(grid.world)}\`, fault profile \`${md(grid.profile)}\`, seed \`${md(grid.seed)}\`; ε ${mdText(grid.eps.join(', '))}; λ ${mdText(grid.lambda.join(', '))}; ${mdText(grid.trials)} trials per task.`, '');
  lines.push(`| agent | pass^1 at ε = 0, λ = 0 | pass^${k} at ε = 0, λ = 0 | pass^${k} at ε = ${epsMax}, λ = ${lambdaMax} | volume pass^${k} | pass^${k} ≥ θ up to ε / λ |`, '| --- | --- | --- | --- | --- | --- |');
  for (const a of grid.agents) {
    const at = (eps: number, lambda: number, kk: number) => {
      const e = a.cells.find((c) => c.eps === eps && c.lambda === lambda)?.passHatK[kk - 1];
      return e ? `${pct(e.value)} [${pct(e.ci95[0])}, ${pct(e.ci95[1])}]` : '–';
    };
    const s = a.surfaces[k - 1];
    const minEps = Math.min(...grid.eps);
    const minLambda = Math.min(...grid.lambda);
    lines.push(`| \`${md(a.agent)}\` | ${at(minEps, minLambda, 1)} | ${at(minEps, minLambda, k)} | ${at(epsMax, lambdaMax, k)} | ${s ? pct(s.volume) : '–'} | ${s ? mdText(`${s.criticalEps ?? 'none'} / ${s.criticalLambda ?? 'none'} (θ = ${s.theta})`) : '–'} |`);
  }
  // Only the baselines this run has are named as such.
  const present = BASELINE_IDS.filter((id) => grid.agents.some((a) => a.agent === id));
  const what: Record<string, string> = { oracle: 'a perfect plan', noop: 'doing nothing' };
  const baselines = present.length === 0 ? '' : ` ${present.map((id) => `\`${id}\``).join(' and ')} ${present.length === 1 ? 'is the baseline' : 'are the baselines'}: what ${present.map((id) => what[id] ?? id).join(' and ')} ${present.length === 1 ? 'scores' : 'score'}.`;
  lines.push('', `Intervals are 95% intervals over tasks (an expanded bootstrap widened to the Wilson interval; docs/statistics.md).${baselines}`, '');
  // First what a reviewer acts on: tasks one agent passed every time and the other never, significant or not.
  const flipped = (grid.comparisons ?? []).flatMap((c) => c.cells.flatMap((x) => (x.flipped ?? []).map((f) => ({ ...f, a: c.a, b: c.b, eps: x.eps, lambda: x.lambda, ca: f.a, cb: f.b }))));
  if (flipped.length > 0) {
    lines.push('## Tasks that changed in every trial', '', 'One agent passed all its trials, the other none: a task-level break that no test over tasks can call significant.', '', '| A | B | ε | λ | task | A passes | B passes |', '| --- | --- | --- | --- | --- | --- | --- |');
    for (const f of flipped.slice(0, 30)) lines.push(`| \`${md(f.a)}\` | \`${md(f.b)}\` | ${mdText(f.eps)} | ${mdText(f.lambda)} | ${md(f.scenario)} | ${mdText(f.ca)} | ${mdText(f.cb)} |`);
    if (flipped.length > 30) lines.push('', `... and ${flipped.length - 30} more in grid.json (\`comparisons[].cells[].flipped\`).`);
    lines.push('');
  }
  lines.push(...stabilityMarkdown(grid, k));
  if (changes) {
    const top = [...changes.rows].sort((x, y) => Math.abs(y.difference) - Math.abs(x.difference)).slice(0, 8);
    lines.push(`## Biggest changes against ${md(changes.baseline)}`, '', `| agent | ε | λ | pass^${k} change | 95% interval | verdict |`, '| --- | --- | --- | --- | --- | --- |');
    for (const r of top) lines.push(`| \`${md(r.agent)}\` | ${mdText(r.eps)} | ${mdText(r.lambda)} | ${(r.difference >= 0 ? '+' : '') + pct(r.difference)} | [${pct(r.ci95[0])}, ${pct(r.ci95[1])}] | ${mdText(r.verdict)} |`);
    lines.push('');
    const tasks = changes.tasks ?? [];
    if (tasks.length > 0) {
      const worse = tasks.filter((t) => t.change < 0).length;
      lines.push(`## Per-task changes against ${md(changes.baseline)}`, '', `${worse} task cell(s) got worse and ${tasks.length - worse} better in pass^${k}; regressions first (report.html shows both sides' failing episodes of each).`, '', `| agent | ε | λ | task | passes now | before | pass^${k} change |`, '| --- | --- | --- | --- | --- | --- | --- |');
      for (const t of tasks.slice(0, 25)) lines.push(`| \`${md(t.agent)}\` | ${mdText(t.eps)} | ${mdText(t.lambda)} | ${md(t.scenario)} | ${mdText(t.now)} | ${mdText(t.before)} | ${(t.change >= 0 ? '+' : '') + pct(t.change)} |`);
      if (tasks.length > 25) lines.push('', `... and ${tasks.length - 25} more in report.html.`);
      lines.push('');
    }
  }
  // What each agent's calling cost the API: a client that hammers through Retry-After windows provokes the faults it meets.
  const loads = grid.agents.map((a) => ({ agent: a.agent, load: agentLoad(a.cells) })).filter((x) => x.load !== undefined);
  if (loads.length > 0) {
    lines.push('## What the calls cost', '', 'Per episode over every cell: tool calls, calls made inside a window an earlier fault opened (a Retry-After or an outage: each refused, a fault the agent provoked), and the episodes in which the API blocked it for hammering.', '', '| agent | calls per episode | inside a window per episode | episodes blocked |', '| --- | --- | --- | --- |');
    for (const { agent, load } of loads) lines.push(`| \`${md(agent)}\` | ${mdText(load?.callsPerEpisode.toFixed(2))} | ${mdText(load?.inWindowPerEpisode.toFixed(3))} | ${mdText(load?.blockedEpisodes)} |`);
    lines.push('');
  }
  const cost = costLines(grid, k);
  if (cost.length > 0) lines.push(...cost, '');
  // Images as they were written: SVG, or PNG when only PNG was asked for; none when neither was.
  if (images !== 'none') {
    lines.push('## Heatmaps', '');
    for (const a of grid.agents) {
      const n = Math.min(...a.cells.map((c) => c.passHatK.length));
      const kk = Math.min(k, n);
      lines.push(`![${md(a.agent)}: pass^${kk}](heatmap-${slug(a.agent)}-pass${kk}.${images})`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
