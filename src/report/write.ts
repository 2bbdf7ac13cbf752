// The report files of a run: heatmaps (SVG and PNG), report.html, the grid as CSV and summary.md, written
// beside their folder and swapped in whole.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CellComparison, type TaskChange } from '../stats/compare.js';
import { gridCsv, heatmapFiles, md, summaryMarkdown } from './files.js';
import { svgToPng } from './png.js';
import { reportHtml, type EpisodeView } from './html.js';
import type { Grid } from './grid.js';
import { gridEpisodes, summaryWithGate, type GateFile } from './gate-record.js';

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

export type Format = (typeof REPORT_FORMATS)[number];

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
  /** The run's kept gate verdicts (RUN/gate.json): the latest at the top of report.html and summary.md. */
  gate?: GateFile,
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
  if (formats.includes('html')) put('report.html', reportHtml(grid, run, failing, titles, kk, changes, notice, gate));
  if (formats.includes('csv')) put('grid.csv', gridCsv(grid));
  if (formats.includes('md')) put('summary.md', summaryWithGate(`${notice.map((n) => `> **${md(n.replace(/^shakedown: /, ''))}**\n`).join('')}${notice.length > 0 ? '\n' : ''}${summaryMarkdown(grid, run, kk, changes, formats.includes('svg') ? 'svg' : formats.includes('png') ? 'png' : 'none')}`, gate, gridEpisodes(grid)));
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
 * Scenario titles of a run, for the report: those its run.json keeps; for an older run, from the world
 * its manifest's config names (a built-in id or a module path), else the id in its grid; empty for a
 * world this installation cannot load.
 */
export async function scenarioTitles(runDir: string, worldId: string): Promise<Record<string, string>> {
  let spec = worldId;
  let variants = false;
  try {
    const manifest = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as { titles?: unknown; config?: { world?: unknown; tasks?: unknown } };
    if (manifest.titles && typeof manifest.titles === 'object') return { ...(manifest.titles as Record<string, string>) };
    if (typeof manifest.config?.world === 'string') spec = manifest.config.world;
    // Generated variants' titles only for a run that has them.
    variants = manifest.config?.tasks !== undefined && manifest.config.tasks !== 'hand';
  } catch {
    // no manifest: the grid's world id
  }
  try {
    const [{ loadWorld }, { taskPool }, { loadScenarios }] = await Promise.all([import('../run/world-module.js'), import('../run/families.js'), import('../../scenarios/index.js')]);
    const world = await loadWorld(spec);
    return Object.fromEntries(taskPool(world, loadScenarios(world), variants).map((s) => [s.id, s.title]));
  } catch {
    return {};
  }
}
