/**
 * The release verdicts of a run, kept in RUN/gate.json: one per set of rules (a gate run again with the
 * same rules replaces its own verdict, another set of rules keeps its own), the latest first. The latest
 * is shown at the top of report.html and summary.md; every kept verdict has its section in summary.md.
 * Regenerating the report (`shakedown report`) reads the file, so the verdict survives it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ShakedownError } from '../ground/errors.js';
import { writeFileAtomic } from '../store/rundir.js';
import { md } from './files.js';
import { html, type Markup } from './markup.js';
import type { Grid } from './grid.js';
import { evaluateGate, type GateCheck, type GateRule } from '../stats/gate.js';

const verdictSchema = z
  .object({
    /** What identifies the gate: its rules (and bounds, and baseline run), not the agents it judged. */
    key: z.string(),
    verdict: z.enum(['GO', 'NO-GO']),
    /** The agents judged (the candidates), and the comparators shown but not judged. */
    agents: z.array(z.string()),
    comparators: z.array(z.string()),
    /** The rules as written, each with how it was applied. */
    rules: z.array(z.string()),
    /** What a reader must know about the verdict: a partial run, records forced past. */
    note: z.string(),
    held: z.number().int().min(0),
    total: z.number().int().min(0),
    /** The first checks that failed (at most 20), per agent. */
    failed: z.array(z.object({ agent: z.string(), message: z.string() }).strict()),
    /** Who gave the verdict: `gate` (the command) or `sweep` (the config's gate rules at the sweep's end). */
    by: z.enum(['gate', 'sweep']),
    /** The episodes of the grid it judged: a report of a run that has more (or fewer) since says the verdict is stale. */
    episodes: z.number().int().min(0).optional(),
  })
  .strict();

export type GateVerdict = z.infer<typeof verdictSchema>;

const fileSchema = z.object({ schemaVersion: z.literal(1), verdicts: z.array(verdictSchema) }).strict();

export type GateFile = z.infer<typeof fileSchema>;

export const GATE_FILE = 'gate.json';

/** Every episode the grid counts, over agents and cells. */
export const gridEpisodes = (grid: Grid): number => grid.agents.reduce((n, a) => n + a.cells.reduce((m, c) => m + c.episodes, 0), 0);

/** The key of a gate: its rules in a canonical order, how they are applied, and what it compares with. */
export function gateKey(rules: readonly string[], options: { lower?: boolean; baseline?: string; maxRegression?: number; agents?: readonly string[] } = {}): string {
  const parts = [...rules.map((r) => r.replace(/\s+/g, ' ').trim())].sort();
  // A gate of other agents under the same rules is another verdict, not this one again.
  if (options.agents) parts.push(`for ${[...options.agents].sort().join(', ')}`);
  if (options.lower) parts.push('on the lower bound');
  if (options.maxRegression !== undefined) parts.push(`at most ${options.maxRegression} below ${options.baseline ?? 'the baseline'}`);
  return parts.join('; ');
}

/** The run's kept verdicts; none when it was never gated. A file that does not read is an error that says what to do. */
export function readGateFile(runDir: string): GateFile | undefined {
  const path = join(runDir, GATE_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return fileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to read ${path}: ${(error as Error).message.split('\n')[0]}. It holds the run's gate verdicts; delete it and gate the run again.`);
  }
}

/** Keeps a verdict: it replaces the one with the same key and becomes the latest. */
export function keepVerdict(runDir: string, verdict: GateVerdict): GateFile {
  const before = readGateFile(runDir)?.verdicts ?? [];
  const file: GateFile = { schemaVersion: 1, verdicts: [verdict, ...before.filter((v) => v.key !== verdict.key)] };
  writeFileAtomic(join(runDir, GATE_FILE), `${JSON.stringify(file, null, 2)}\n`);
  return file;
}

const TOP = ['<!-- shakedown:gate -->', '<!-- /shakedown:gate -->'] as const;
const SECTIONS = ['<!-- shakedown:gate-sections -->', '<!-- /shakedown:gate-sections -->'] as const;

/** A value as a code span (whose text Markdown never reads as markup), or escaped text when it holds a backtick or a line break. */
const code = (s: string) => (/[`\r\n]|<!--/.test(s) ? md(s) : `\`${s}\``);
const agentsText = (names: readonly string[]) => names.map(code).join(', ');

/** The latest verdict in a line or two, for the top of summary.md. */
function staleNote(v: GateVerdict, now: number | undefined): string {
  return v.episodes !== undefined && now !== undefined && v.episodes !== now ? ` (stale: given on ${v.episodes} episodes; the run now has ${now}: gate it again)` : '';
}

function topMarkdown(v: GateVerdict, others: number, now?: number): string {
  const comparators = v.comparators.length > 0 ? ` Not gated (comparators): ${agentsText(v.comparators)}.` : '';
  return `> **Release gate: ${v.verdict}**${md(v.note)}${md(staleNote(v, now))} for ${agentsText(v.agents)}: ${v.held} of ${v.total} checks hold under ${v.rules.map(code).join(', ')}.${comparators}${others > 0 ? ` ${others} other gate verdict(s) at the end.` : ''}`;
}

/** One verdict's section: its rules, and the checks that failed. */
function sectionMarkdown(v: GateVerdict, latest: boolean): string {
  const failed = v.failed.length === 0 ? 'Every check holds.' : v.failed.map((c) => `- ${md(c.agent)}: ${md(c.message)}`).join('\n');
  return `## Release gate${latest ? '' : ' (earlier)'}: ${v.verdict}${md(v.note)}, for ${agentsText(v.agents)}\n\n${v.rules.map((r) => `- ${code(r)}`).join('\n')}\n\n${failed}${v.total - v.held > v.failed.length ? `\n- ... and ${v.total - v.held - v.failed.length} more` : ''}\n`;
}

/** summary.md with the gate's verdicts in their places: the latest at the top, a section each at the end (earlier ones replaced). */
export function summaryWithGate(summary: string, file: GateFile | undefined, now?: number): string {
  let text = summary;
  // The marks are whole lines of their own: a mark inside an agent's id or a rule's text is no mark.
  for (const [open, close] of [TOP, SECTIONS]) {
    const region = new RegExp(`^${open}$[\\s\\S]*?^${close}$\\n?`, 'm');
    text = text.replace(region, '').replace(/\n{3,}/g, '\n\n');
  }
  // Earlier versions appended a section per gate run: those go too, the file holds them all.
  text = text.replace(/\n## Release gate: [\s\S]*$/, '\n');
  const latest = file?.verdicts[0];
  if (!latest) return text;
  const top = `${TOP[0]}\n${topMarkdown(latest, file.verdicts.length - 1, now)}\n${TOP[1]}\n\n`;
  text = text.replace(/^\n+/, '');
  const sections = `\n${SECTIONS[0]}\n${file.verdicts.map((v, i) => sectionMarkdown(v, i === 0)).join('\n')}${SECTIONS[1]}\n`;
  // After what a reader must know before any figure (the notices: an incomplete run, records left out), first of the rest.
  const notices = /^(?:> \*\*.*\n)+\n?/.exec(text)?.[0] ?? '';
  return `${notices}${top}${text.slice(notices.length).replace(/\n+$/, '\n')}${sections}`;
}

/** The latest verdict as the top of report.html shows it. */
export function gateMarkup(file: GateFile | undefined, now?: number): Markup {
  const v = file?.verdicts[0];
  if (!v) return html``;
  const failed = v.failed.slice(0, 5);
  return html`<div class="gate ${v.verdict === 'GO' ? 'go' : 'nogo'}"><p><strong>Release gate: ${v.verdict}</strong>${v.note}${staleNote(v, now)} for ${v.agents.join(', ')}: ${v.held} of ${v.total} checks hold under ${v.rules.join('; ')}.${v.comparators.length > 0 ? ` Not gated (comparators): ${v.comparators.join(', ')}.` : ''}</p>${failed.length > 0 ? html`<ul>${failed.map((c) => html`<li>${c.agent}: ${c.message}</li>`)}</ul>` : ''}${file.verdicts.length > 1 ? html`<p class="muted">${file.verdicts.length - 1} other gate verdict(s) in summary.md and gate.json.</p>` : ''}</div>`;
}

const HTML_MARKS = ['<!--shakedown:gate-->', '<!--/shakedown:gate-->'] as const;

/** The gate's place in report.html, between marks a later gate run replaces. */
export const gateRegion = (file: GateFile | undefined, now?: number): Markup => html`<!--shakedown:gate-->${gateMarkup(file, now)}<!--/shakedown:gate-->`;

/** report.html with its gate region replaced (or put after the title, in a report written before there was one). */
export function htmlWithGate(page: string, file: GateFile | undefined, now?: number): string {
  const region = String(gateRegion(file, now));
  const from = page.indexOf(HTML_MARKS[0]);
  const to = page.indexOf(HTML_MARKS[1]);
  if (from >= 0 && to > from) return `${page.slice(0, from)}${region}${page.slice(to + HTML_MARKS[1].length)}`;
  const h1 = page.indexOf('</h1>');
  return h1 < 0 ? page : `${page.slice(0, h1 + 5)}\n${region}${page.slice(h1 + 5)}`;
}

/** The verdict of `rules` on the candidates of a grid: every check, and the verdict to keep. */
export function judgeRelease(
  grid: Grid,
  rules: readonly GateRule[],
  options: { agents: readonly string[]; lower?: boolean; baseline?: { name: string; grid: Grid; maxRegression: number }; note?: string; by: GateVerdict['by'] },
): { checks: GateCheck[]; verdict: GateVerdict } {
  const judged = grid.agents.filter((a) => options.agents.includes(a.agent));
  // A candidate with no episode in the grid (a partial run, records left out) is no candidate that passed.
  const absent: GateCheck[] = options.agents.filter((name) => !judged.some((a) => a.agent === name)).map((agent) => ({ rule: 'episodes to judge', agent, eps: Number.NaN, lambda: Number.NaN, value: 0, passed: false, message: 'no episode of it is in the run to judge' }));
  const checks = absent.concat(judged.flatMap((a) =>
    evaluateGate(a.agent, a.cells, rules, {
      lower: options.lower === true,
      ...(options.baseline ? { baseline: options.baseline.grid.agents.find((b) => b.agent === a.agent)?.cells ?? [], maxRegression: options.baseline.maxRegression } : {}),
    }),
  ));
  const failed = checks.filter((c) => !c.passed);
  const shown = [...rules.map((r) => `${r.text}${options.lower ? " (on the interval's lower bound)" : ''}`), ...(options.baseline ? [`no cell falls more than ${options.baseline.maxRegression} below ${options.baseline.name}`] : [])];
  return {
    checks,
    verdict: {
      key: gateKey(rules.map((r) => r.text), { lower: options.lower === true, agents: options.agents, ...(options.baseline ? { baseline: options.baseline.name, maxRegression: options.baseline.maxRegression } : {}) }),
      verdict: failed.length === 0 ? 'GO' : 'NO-GO',
      agents: [...options.agents],
      comparators: grid.agents.map((a) => a.agent).filter((a) => !options.agents.includes(a)),
      rules: shown,
      note: options.note ?? '',
      held: checks.length - failed.length,
      total: checks.length,
      failed: failed.slice(0, 20).map((c) => ({ agent: c.agent, message: c.message })),
      by: options.by,
      episodes: gridEpisodes(grid),
    },
  };
}
