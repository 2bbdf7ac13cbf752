/** `shakedown report RUN`: heatmaps (SVG and PNG), report.html, the grid as CSV and summary.md, from a run directory. */
import { taskPool } from '../core/families.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { loadScenarios } from '../../scenarios/index.js';
import { loadWorld } from './world-module.js';
import { ResampleBank } from '../stats/bootstrap.js';
import { compareCells, taskChanges, type CellComparison, type TaskChange } from '../stats/compare.js';
import { ShakedownError } from '../core/errors.js';
import { DEFAULT_THETA } from '../stats/surface.js';
import { gridCsv, heatmapFiles, summaryMarkdown } from '../report/files.js';
import { svgToPng } from '../report/png.js';
import { reportHtml, type EpisodeView } from '../report/html.js';
import type { Grid } from '../report/grid.js';
import { checkSameJudging, integrityLines, loadRun } from './analyze.js';
import { parseInteger, type Flags, type Io } from './options.js';

/** What a report shows against a baseline run: cell comparisons, per-task changes, and the baseline's failing episodes. */
export interface ReportChanges {
  readonly baseline: string;
  readonly rows: readonly (CellComparison & { agent: string })[];
  readonly tasks?: readonly TaskChange[];
  readonly baselineFailing?: readonly EpisodeView[];
  /** When the baseline is another agent of the same run: its id (its episodes are matched by it). */
  readonly baselineAgent?: string;
}

/** Report formats this release writes. */
export const REPORT_FORMATS = ['svg', 'png', 'html', 'md', 'csv'] as const;
type Format = (typeof REPORT_FORMATS)[number];

/** Writes the report files of a grid into `out`; returns their names. */
export function writeReport(
  grid: Grid,
  run: string,
  out: string,
  formats: readonly Format[] = REPORT_FORMATS,
  k?: number,
  changes?: ReportChanges,
  failing: readonly EpisodeView[] = [],
  titles: Readonly<Record<string, string>> = {},
  /** Said first in summary.md: that the run is incomplete, or what else a reader must know before the figures. */
  notice: readonly string[] = [],
): string[] {
  // The report is built beside its place and swapped in whole: a killed report phase leaves the old
  // report (or none) and a folder named `.partial`, never a half report that looks whole.
  const building = `${out.replace(/[\\/]+$/, '')}.partial`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const kk = k ?? grid.agents[0]?.surfaces.length ?? 1;
  const written: string[] = [];
  const put = (name: string, content: string | Buffer) => {
    writeFileSync(join(building, name), content);
    written.push(name);
  };
  const maps = formats.includes('svg') || formats.includes('png') ? heatmapFiles(grid, run, kk) : [];
  if (formats.includes('svg')) for (const f of maps) put(f.name, f.content);
  // PNGs are for slides: one per agent at the chosen k, and the difference maps; the small multiples stay SVG.
  if (formats.includes('png')) for (const f of maps) if (f.kind !== 'combined') put(f.name.replace(/\.svg$/, '.png'), svgToPng(f.content));
  if (formats.includes('html')) put('report.html', reportHtml(grid, run, failing, titles, kk, changes));
  if (formats.includes('csv')) put('grid.csv', gridCsv(grid));
  if (formats.includes('md')) put('summary.md', `${notice.map((n) => `> **${n.replace(/^shakedown: /, '')}**\n`).join('')}${notice.length > 0 ? '\n' : ''}${summaryMarkdown(grid, run, kk, changes, formats.includes('svg') ? 'svg' : formats.includes('png') ? 'png' : 'none')}`);
  if (!existsSync(out)) {
    renameSync(building, out);
  } else {
    // A folder that exists may hold more than a report: never delete it; move each file in, under a marker.
    const marker = join(out, '.partial');
    writeFileSync(marker, 'This report is being written; if this file stays, the writer was stopped and the report is incomplete.\n');
    // Report files of an earlier report that this one does not write (another k, another agent) would mislead: they go; nothing else does.
    // Only figures of the formats this report writes: a \`--format csv\` leaves the heatmaps alone.
    const kinds = ['svg', 'png'].filter((f) => formats.includes(f as Format));
    const ours = new RegExp(`^(heatmap|difference)-.*\\.(${kinds.join('|') || 'none'})$`);
    const fresh = new Set(readdirSync(building));
    for (const name of readdirSync(out)) if (ours.test(name) && !fresh.has(name)) rmSync(join(out, name), { force: true });
    for (const name of fresh) renameSync(join(building, name), join(out, name));
    rmSync(building, { recursive: true, force: true });
    rmSync(marker, { force: true });
  }
  return written;
}

/**
 * Scenario titles of a run's world, for the report: the world its manifest's config names (a built-in id
 * or a module path), else the id in its grid; empty for a world this installation cannot load.
 */
export async function scenarioTitles(runDir: string, worldId: string): Promise<Record<string, string>> {
  try {
    let spec = worldId;
    let variants = false;
    try {
      const manifest = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as { config?: { world?: unknown; tasks?: unknown } };
      if (typeof manifest.config?.world === 'string') spec = manifest.config.world;
      // Generated variants' titles only for a run that has them.
      variants = manifest.config?.tasks !== undefined && manifest.config.tasks !== 'hand';
    } catch {
      // no manifest: the grid's world id
    }
    const world = await loadWorld(spec);
    return Object.fromEntries(taskPool(world, loadScenarios(world), variants).map((s) => [s.id, s.title]));
  } catch {
    return {};
  }
}

export async function reportCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  if (dirs.length !== 1) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to write a report: give one run directory, e.g. `shakedown report runs/2026-11-30T09-00-00`.');
  const formats = (flags.format ?? REPORT_FORMATS.join(',')).split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = formats.filter((f) => !(REPORT_FORMATS as readonly string[]).includes(f));
  if (unknown.length > 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to write a report: unknown format ${unknown.map((f) => `\`${f}\``).join(', ')}. Formats: ${REPORT_FORMATS.join(', ')}.`);
  const run = await loadRun(dirs[0] as string, DEFAULT_THETA);
  const notice = integrityLines(run);
  for (const line of notice) io.err(`${line}\n`);
  const n = Math.min(...run.grid.agents.map((a) => a.surfaces.length));
  const k = flags.k === undefined ? n : parseInteger('k', flags.k);
  if (k < 1 || k > n) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to write a report: \`--k ${k}\` is out of range; this run has pass^1..pass^${n}.`);
  let changes: ReportChanges | undefined;
  if (flags.baseline && flags['baseline-agent']) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to write a report: give `--baseline RUN` (another run) or `--baseline-agent ID` (another agent of this run), not both.');
  const baseAgent = flags['baseline-agent'];
  if (baseAgent) {
    // Another agent of the same run as the baseline: every other agent's tasks against it, on the same wording and faults.
    const b = run.grid.agents.find((x) => x.agent === baseAgent);
    if (!b) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to write a report: this run has no agent \`${baseAgent}\`. Agents: ${run.grid.agents.map((x) => x.agent).join(', ')}.`);
    const others = run.grid.agents.filter((x) => x.agent !== baseAgent);
    const rows = others.flatMap((a) => compareCells(a.cells, b.cells, k, new ResampleBank(run.grid.seed), run.grid.seed, 0.05, run.grid.adaptiveFirstTrials).map((r) => ({ ...r, agent: a.agent })));
    const tasks = others.flatMap((a) => taskChanges(a.agent, a.cells, b.cells, k));
    changes = { baseline: baseAgent, baselineAgent: baseAgent, rows, tasks, baselineFailing: run.failing.filter((e) => e.agent === baseAgent) };
  }
  if (flags.baseline) {
    checkSameJudging(dirs[0] as string, flags.baseline, flags.force, 'write a report against the baseline', (l) => io.err(l));
    const base = await loadRun(flags.baseline, DEFAULT_THETA);
    const rows = run.grid.agents.flatMap((a) => {
      const b = base.grid.agents.find((x) => x.agent === a.agent);
      return b ? compareCells(a.cells, b.cells, k, new ResampleBank(run.grid.seed), run.grid.seed, 0.05, run.grid.adaptiveFirstTrials).map((r) => ({ ...r, agent: a.agent })) : [];
    });
    // Per task, regressions first: what users of eval tools ask for most, with the two runs' episodes a click away in report.html.
    const tasks = run.grid.agents.flatMap((a) => {
      const b = base.grid.agents.find((x) => x.agent === a.agent);
      return b ? taskChanges(a.agent, a.cells, b.cells, k) : [];
    });
    changes = { baseline: basename(resolve(flags.baseline)), rows, tasks, baselineFailing: base.failing };
  }
  const out = flags.out ?? join(dirs[0] as string, 'report');
  const written = writeReport(run.grid, basename(resolve(dirs[0] as string)), out, formats as Format[], k, changes, run.failing, await scenarioTitles(dirs[0] as string, run.grid.world), notice);
  const count = (ext: string) => written.filter((f) => f.endsWith(ext)).length;
  const named = written.filter((f) => !f.endsWith('.svg') && !f.endsWith('.png'));
  io.out(`${written.length} report files in ${out}: ${[...named, ...(count('.svg') ? [`${count('.svg')} SVG heatmaps`] : []), ...(count('.png') ? [`${count('.png')} PNG heatmaps`] : [])].join(', ')}\n`);
  return 0;
}
