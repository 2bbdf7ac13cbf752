/** `shakedown gate RUN --rule '...'`: a go/no-go for a release, with JUnit XML for CI. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BASELINE_IDS } from '../agents/baselines.js';
import { ShakedownError } from '../ground/errors.js';
import { parseRule } from '../stats/gate.js';
import { gridEpisodes, htmlWithGate, judgeRelease, keepVerdict, summaryWithGate } from '../report/gate-record.js';
import { requireAgent } from '../report/roles.js';
import { junitXml } from '../report/junit.js';
import { DEFAULT_THETA } from '../stats/surface.js';
import { checkSameJudging, integrityLines, loadRun, unverifiedRecords, type LoadedRun } from '../report/run.js';
import { readManifest, writeFileAtomic } from '../store/rundir.js';
import { parseNumberList, type Flags, type Io } from './options.js';


export async function gateCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  if (dirs.length !== 1) throw new ShakedownError('SHAKEDOWN_CONFIG', "Failed to gate: give one run directory, e.g. `shakedown gate runs/x --rule 'pass^4 >= 0.8 where eps <= 0.2'`.");
  const rules = (flags.rule ?? []).map(parseRule);
  const maxRegression = flags['max-regression'] === undefined ? undefined : parseNumberList('max-regression', flags['max-regression'])[0];
  if (rules.length === 0 && maxRegression === undefined) throw new ShakedownError('SHAKEDOWN_CONFIG', "Failed to gate: give at least one `--rule 'pass^4 >= 0.8 where eps <= 0.2 and lambda <= 0.2'`, or a `--baseline` with `--max-regression`.");
  if (maxRegression !== undefined && !flags.baseline) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to gate: `--max-regression` needs `--baseline RUN` to compare with.');
  const junit = flags.junit ? resolve(flags.junit) : undefined;
  if (junit && !existsSync(dirname(junit))) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to gate: \`--junit ${flags.junit}\` names a file in ${dirname(junit)}, which does not exist. Create the folder first, or write the file elsewhere.`);
  const run = await loadRun(dirs[0] as string, DEFAULT_THETA);
  if (flags.baseline) checkSameJudging(dirs[0] as string, flags.baseline, flags.force, 'gate against the baseline', (l) => io.err(l));
  const base = flags.baseline ? await loadRun(flags.baseline, DEFAULT_THETA) : undefined;
  // A verdict on part of a run is no verdict: an incomplete run is refused unless asked for, and then said.
  const partial = [run, ...(base ? [base] : [])].filter((r) => !r.completeness.complete);
  for (const line of [...integrityLines(run), ...(base ? integrityLines(base) : [])]) io.err(`${line}\n`);
  if (partial.length > 0 && flags['allow-partial'] !== true) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to gate: ${partial.map((r) => `${r.dir} is incomplete (${r.completeness.reason})`).join('; ')}. Finish the run with \`shakedown sweep --resume --out DIR\`, or gate what ran with \`--allow-partial\` (the verdict then says so).`);
  }
  // Nor is a verdict on records the run did not write or plan: refused unless forced, and then said.
  const doubtful = [run, ...(base ? [base] : [])].filter((r) => unverifiedRecords(r) > 0);
  const doubts = (r: LoadedRun) => [r.problems.unverified > 0 ? `${r.problems.unverified} record(s) that do not verify` : '', r.problems.outside > 0 ? `${r.problems.outside} outside its plan` : ''].filter(Boolean).join(' and ');
  if (doubtful.length > 0 && flags.force !== true) {
    throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to gate: ${doubtful.map((r) => `${r.dir}/episodes.jsonl holds ${doubts(r)}`).join('; ')}, left out of its grid. Rerun those episodes (\`shakedown sweep --resume --out DIR\`) or restore the log from a copy, or gate what verifies with \`--force\` (the verdict then says so).`);
  }
  const partialNote = `${partial.length > 0 ? ` on a partial run (${partial.map((r) => `${r.completeness.found}${r.completeness.planned !== undefined ? ` of ${r.completeness.planned}` : ''} episodes in ${r.dir}`).join('; ')})` : ''}${doubtful.length > 0 ? `, forced past ${doubtful.map((r) => `${doubts(r)} in ${r.dir}`).join('; ')}` : ''}`;
  // The candidates are judged, never the comparators: those named by `--agent` (an id, or the spec the
  // sweep was given), else the run's declared or inferred candidates (report/roles.ts).
  const manifest = readManifest(dirs[0] as string, 'gate');
  const specs = (manifest.config.agents ?? []) as string[];
  // The run's agents in its config's order (a spec's index names its id), whether or not each has records.
  const ids = manifest.agents.map((a) => a.id);
  const agents = flags.agent ? flags.agent.map((name) => requireAgent(name, ids, specs, 'gate')) : (run.grid.candidates ?? ids.filter((id) => !BASELINE_IDS.includes(id)));
  if (agents.length === 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to gate: no agent to judge. Name the candidates with \`--agent ID\` or \`candidates\` in the config. Agents: ${ids.join(', ')}.`);
  const { checks, verdict } = judgeRelease(run.grid, rules, {
    agents,
    lower: flags.lower === true,
    ...(base && maxRegression !== undefined ? { baseline: { name: flags.baseline ?? '', grid: base.grid, maxRegression } } : {}),
    note: partialNote,
    by: 'gate',
  });
  for (const a of agents) {
    const mine = checks.filter((c) => c.agent === a);
    const bad = mine.filter((c) => !c.passed);
    io.out(`${bad.length === 0 ? 'PASS' : 'FAIL'} ${a}: ${mine.length - bad.length} of ${mine.length} checks hold\n`);
    for (const c of bad) io.out(`       ${c.rule}: ${c.message}\n`);
  }
  if (verdict.comparators.length > 0) io.out(`not gated (comparators): ${verdict.comparators.join(', ')}${flags.agent ? '' : run.grid.candidates && (manifest.config as { candidates?: unknown }).candidates ? ' (the config\'s `candidates` are gated)' : ' (name the candidates with `--agent` or `candidates` in the config)'}\n`);
  io.out(`gate: ${verdict.verdict}${partialNote} (${verdict.held} of ${verdict.total} checks hold)\n`);
  if (junit) writeFileAtomic(junit, junitXml(checks));
  // The verdict is kept in RUN/gate.json, replacing an earlier one of the same rules, and shown at the top
  // of the run's summary.md and report.html: one verdict per set of rules, the latest first.
  const file = keepVerdict(dirs[0] as string, verdict);
  const summary = join(dirs[0] as string, 'report', 'summary.md');
  if (existsSync(summary)) writeFileAtomic(summary, summaryWithGate(readFileSync(summary, 'utf8'), file, gridEpisodes(run.grid)));
  const page = join(dirs[0] as string, 'report', 'report.html');
  if (existsSync(page)) writeFileAtomic(page, htmlWithGate(readFileSync(page, 'utf8'), file, gridEpisodes(run.grid)));
  return verdict.verdict === 'GO' ? 0 : 1;
}
