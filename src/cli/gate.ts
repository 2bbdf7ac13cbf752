/** `shakedown gate RUN --rule '...'`: a go/no-go for a release, with JUnit XML for CI. */
import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BASELINE_IDS } from '../agents/baselines.js';
import { ShakedownError } from '../ground/errors.js';
import { evaluateGate, parseRule, type GateCheck } from '../stats/gate.js';
import { junitXml } from '../report/junit.js';
import { md } from '../report/files.js';
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
  // An agent may be named as the sweep printed it: its id, or the spec it was given as (a module path, a URL).
  const manifest = readManifest(dirs[0] as string, 'gate');
  const specs = (manifest.config.agents ?? []) as string[];
  const idOf = (name: string) => (run.grid.agents.some((a) => a.agent === name) ? name : (manifest.agents[specs.indexOf(name)]?.id ?? name));
  const wanted = flags.agent?.map(idOf);
  const agents = run.grid.agents.filter((a) => (wanted ? wanted.includes(a.agent) : !BASELINE_IDS.includes(a.agent)));
  if (agents.length === 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to gate: no agent to judge${flags.agent ? ` named ${flags.agent.join(', ')}` : ''}. Agents: ${run.grid.agents.map((a) => a.agent).join(', ')}.`);
  const checks: GateCheck[] = agents.flatMap((a) =>
    evaluateGate(a.agent, a.cells, rules, {
      lower: flags.lower === true,
      ...(base && maxRegression !== undefined ? { baseline: base.grid.agents.find((b) => b.agent === a.agent)?.cells ?? [], maxRegression } : {}),
    }),
  );
  const failed = checks.filter((c) => !c.passed);
  for (const a of agents) {
    const mine = checks.filter((c) => c.agent === a.agent);
    const bad = mine.filter((c) => !c.passed);
    io.out(`${bad.length === 0 ? 'PASS' : 'FAIL'} ${a.agent}: ${mine.length - bad.length} of ${mine.length} checks hold\n`);
    for (const c of bad) io.out(`       ${c.rule}: ${c.message}\n`);
  }
  io.out(`gate: ${failed.length === 0 ? 'GO' : 'NO-GO'}${partialNote} (${checks.length - failed.length} of ${checks.length} checks hold)\n`);
  if (junit) writeFileAtomic(junit, junitXml(checks));
  // The verdict goes into the run's summary.md, for the release ticket.
  const summary = join(dirs[0] as string, 'report', 'summary.md');
  if (existsSync(summary)) {
    // Every value is Markdown text (md): an agent id or a path from the run never becomes markup in the ticket.
    appendFileSync(summary, `\n## Release gate: ${failed.length === 0 ? 'GO' : 'NO-GO'}${md(partialNote)}, for ${agents.map((a) => `\`${md(a.agent)}\``).join(', ')}\n\n${[...rules.map((r) => `- \`${md(r.text)}\`${flags.lower ? ' (on the interval\'s lower bound)' : ''}`), ...(maxRegression !== undefined ? [`- no cell falls more than ${maxRegression} below ${md(flags.baseline ?? '')}`] : [])].join('\n')}\n\n${failed.length === 0 ? 'Every check holds.' : failed.slice(0, 20).map((c) => `- ${md(c.agent)}: ${md(c.message)}`).join('\n')}\n`);
  }
  return failed.length === 0 ? 0 : 1;
}
