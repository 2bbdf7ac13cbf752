/** `shakedown merge DIR... --out OUT`: shards (or any parts of one run) into one run directory. */
import { basename, join, resolve } from 'node:path';
import { ShakedownError } from '../ground/errors.js';
import { DEFAULT_THETA } from '../stats/surface.js';
import { checkSameJudging, integrityLines, loadRun } from '../report/run.js';
import { scenarioTitles, writeReport } from '../report/write.js';
import { mergeLogs, planMerge } from '../store/merge.js';
import { createRunDir, lockRunDir, runFiles, writeJson } from '../store/rundir.js';
import type { Flags, Io } from './options.js';

export async function mergeCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  if (dirs.length < 1 || !flags.out) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to merge: give the run directories and `--out DIR`, e.g. `shakedown merge runs/shard-1 runs/shard-2 --out runs/merged`.');
  const plan = planMerge(dirs);
  for (const d of dirs.slice(1)) checkSameJudging(dirs[0] as string, d, flags.force, 'merge', (l) => io.err(l));
  const outDir = flags.out;
  createRunDir(outDir);
  const lock = lockRunDir(outDir, `shakedown merge ${dirs.join(' ')}`, (line) => io.err(line));
  try {
    const { episodes, gaps, conflicts } = mergeLogs(plan, outDir);
    const run = await loadRun(outDir, DEFAULT_THETA);
    writeJson(runFiles(outDir).grid, run.grid);
    writeReport(run.grid, basename(resolve(outDir)), join(outDir, 'report'), undefined, undefined, undefined, run.failing, await scenarioTitles(outDir, run.grid.world), integrityLines(run));
    io.out(`merged ${episodes} episodes from ${dirs.length} run(s) into ${outDir}\n`);
    if (gaps.length > 0) io.err(`shakedown: the merged run is incomplete: ${gaps.join('; ')}. Run or resume the missing parts and merge again; \`gate\` refuses it until then.\n`);
    if (conflicts > 0) io.err(`shakedown: ${conflicts} episode(s) appear in more than one run with different outcomes; the first was kept\n`);
    return 0;
  } finally {
    lock.release();
  }
}
