/** `shakedown report RUN`: heatmaps (SVG and PNG), report.html, the grid as CSV and summary.md, from a run directory. */
import { basename, join, resolve } from 'node:path';
import { ResampleBank } from '../stats/bootstrap.js';
import { compareCells, taskChanges } from '../stats/compare.js';
import { ShakedownError } from '../ground/errors.js';
import { DEFAULT_THETA } from '../stats/surface.js';
import { checkSameJudging, integrityLines, loadRun } from '../report/run.js';
import { readGateFile } from '../report/gate-record.js';
import { parseInteger, type Flags, type Io } from './options.js';
import { REPORT_FORMATS, scenarioTitles, writeReport, type Format, type ReportChanges } from '../report/write.js';

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
  const otelTo = flags.otel !== undefined ? (await import('../report/otel-destination.js')).otelDestination(flags.otel) : undefined;
  const out = flags.out ?? join(dirs[0] as string, 'report');
  const written = writeReport(run.grid, basename(resolve(dirs[0] as string)), out, formats as Format[], k, changes, run.failing, await scenarioTitles(dirs[0] as string, run.grid.world), notice, readGateFile(dirs[0] as string));
  const count = (ext: string) => written.filter((f) => f.endsWith(ext)).length;
  const named = written.filter((f) => !f.endsWith('.svg') && !f.endsWith('.png'));
  io.out(`${written.length} report files in ${out}: ${[...named, ...(count('.svg') ? [`${count('.svg')} SVG heatmaps`] : []), ...(count('.png') ? [`${count('.png')} PNG heatmaps`] : [])].join(', ')}\n`);
  if (otelTo) {
    const { exportOtel } = await import('../report/otel.js');
    const sent = await exportOtel(dirs[0] as string, otelTo);
    io.out(`OpenTelemetry: ${sent.episodes} episode(s) as ${sent.spans} span(s) to ${otelTo.kind === 'url' ? otelTo.url : otelTo.path}\n`);
  }
  return 0;
}
