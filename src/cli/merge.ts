/** `shakedown merge DIR... --out OUT`: shards (or any parts of one run) into one run directory. */
import { basename, join, resolve } from 'node:path';
import { ShakedownError } from '../ground/errors.js';
import { DEFAULT_THETA } from '../stats/surface.js';
import { checkSameJudging, integrityLines, loadRun } from '../report/run.js';
import { scenarioTitles, writeReport } from '../report/write.js';
import { mergeLogs, planMerge, prepareMergeOut } from '../store/merge.js';
import { checkOutDir } from '../store/out-dir.js';
import { createRunDir, lockRunDir, runFiles, writeJson } from '../store/rundir.js';
import type { Flags, Io } from './options.js';
import { stopOnSignals } from './stop-signals.js';

export async function mergeCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  if (dirs.length < 1 || flags.out === undefined) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to merge: give the run directories and `--out DIR`, e.g. `shakedown merge runs/shard-1 runs/shard-2 --out runs/merged`.');
  const outDir = flags.out;
  checkOutDir(outDir, 'merge');
  const plan = planMerge(dirs);
  for (const d of dirs.slice(1)) checkSameJudging(dirs[0] as string, d, flags.force, 'merge', (l) => io.err(l));
  createRunDir(outDir, 'merge', 'merge');
  const lock = lockRunDir(outDir, `shakedown merge ${dirs.join(' ')}`, (line) => io.err(line));
  const stop = stopOnSignals(io, 'merge', `${outDir} keeps what was written so far; run the same merge again to finish it.`);
  try {
    const found = prepareMergeOut(plan, outDir);
    if (found === 'again') io.err(`shakedown: ${outDir} holds a merge of this configuration that did not finish: merging again\n`);
    if (found === 'replace') io.err(`shakedown: ${outDir} holds a merge of this configuration: replacing it with this merge\n`);
    const { episodes, gaps, conflicts, leftOut, unsignedParts } = await mergeLogs(plan, outDir, stop.signal);
    for (const line of leftOut) io.err(`shakedown: ${line}; left out of the merge\n`);
    if (unsignedParts.length > 0) io.err(`shakedown: ${unsignedParts.join(', ')} ha${unsignedParts.length > 1 ? 've' : 's'} no record key (written before records were signed): ${unsignedParts.length > 1 ? 'their' : 'its'} records cannot be verified, so the merged run is not signed either\n`);
    const run = await loadRun(outDir, DEFAULT_THETA, { signal: stop.signal });
    writeJson(runFiles(outDir).grid, run.grid);
    writeReport(run.grid, basename(resolve(outDir)), join(outDir, 'report'), undefined, undefined, undefined, run.failing, await scenarioTitles(outDir, run.grid.world), integrityLines(run));
    io.out(`merged ${episodes} episodes from ${dirs.length} run(s) into ${outDir}\n`);
    if (gaps.length > 0) io.err(`shakedown: the merged run is incomplete: ${gaps.join('; ')}. Run or resume the missing parts and merge again; \`gate\` refuses it until then.\n`);
    if (conflicts > 0) io.err(`shakedown: ${conflicts} episode(s) appear in more than one run with different outcomes; the first was kept\n`);
    // A signal that came once the last step had begun: the merge is whole, and the exit code still says it was asked to stop.
    return stop.exitCode() ?? 0;
  } catch (error) {
    const code = stop.exitCode();
    if (code !== undefined) return code;
    throw error;
  } finally {
    stop.dispose();
    lock.release();
  }
}
