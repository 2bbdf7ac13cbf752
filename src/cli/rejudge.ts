/**
 * `shakedown rejudge RUN [--out DIR] [--judge J] [--force]`: applies the current judge to a finished run
 * without running its agents again (no agent process, no model call): each episode's recorded tool calls
 * are made again against a fresh world on the episode's own fault schedule, and the judge reads the
 * database they leave and the recorded conversation (src/run/rejudge.ts). Writes a new run directory
 * with its grid and report, and the judge's version in run.json.
 */
import { basename, join, resolve } from 'node:path';
import { loadScenarios } from '../../scenarios/index.js';
import { resolveConfig, type SweepConfig } from '../ground/config.js';
import { WorldHarness } from '../run/episode.js';
import { type EpisodeRecord } from '../ground/record.js';
import { ShakedownError } from '../ground/errors.js';
import { rejudgeEpisode } from '../run/rejudge.js';
import { taskPool } from '../run/families.js';
import { judgeVersion } from '../judge/version.js';
import { DEFAULT_THETA } from '../stats/surface.js';
import { integrityLines, loadRun } from '../report/run.js';
import { readLastRecords } from '../store/read.js';
import { sweepJudge } from '../run/claim-reader.js';
import { type Flags, type Io } from './options.js';
import { episodeOptions } from '../run/parts.js';
import { scenarioTitles, writeReport } from '../report/write.js';
import { appendEpisode, createRunDir, llmCacheDir, lockRunDir, readManifest, runFiles, writeJson } from '../store/rundir.js';
import { useLlmCache } from '../model/cache.js';
import { LineSigner, newRunKey } from '../store/mac.js';
import { checkOutDir } from '../store/out-dir.js';
import { stopOnSignals } from './stop-signals.js';
import { loadWorld } from '../run/world-module.js';

/** Episodes re-judged at once: an LLM claim reader waits on its API, the rest is quick. */
const LANES = 8;

export async function rejudgeCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  if (dirs.length !== 1) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to rejudge: give one run directory, e.g. `shakedown rejudge runs/2026-11-30T09-00-00`.');
  const from = dirs[0] as string;
  const out = flags.out ?? `${from.replace(/[\\/]+$/, '')}-rejudged`;
  // Where the rejudged run goes is checked before the world loads, so that nothing is written to a bad `--out`.
  checkOutDir(out, `rejudge ${from}`);
  if (resolve(out) === resolve(from)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to rejudge ${from}: \`--out\` names the run itself. Write the rejudged run to another directory.`);
  const manifest = readManifest(from, `rejudge ${from}`);
  const config = resolveConfig({ ...(manifest.config as SweepConfig), ...(flags.judge !== undefined ? { judge: flags.judge } : {}), workers: 1 });
  const world = await loadWorld(config.world);
  // Every task the run may hold: the hand-written ones and their families' variants.
  const scenarios = new Map(taskPool(world, loadScenarios(world), true).map((s) => [s.id, s]));
  // An LLM judge's answers come from the run's cache (or another) when asked: a rejudged run never pays twice for one question.
  useLlmCache(llmCacheDir(flags['llm-cache'] ?? config.llmCache, from));
  const { options, judge } = await sweepJudge(config, world, episodeOptions(config, world), io);
  createRunDir(out, `rejudge ${from}`);
  const lock = lockRunDir(out, `shakedown rejudge ${from}`, (line) => io.err(line));
  const stop = stopOnSignals(io, 'rejudge', `${out} holds the episodes rejudged so far and says it is incomplete; move it away and rejudge again.`);
  try {
    const harness = new WorldHarness(world, config.seed);
    const diverged: string[] = [];
    const changes = new Map<string, number>();
    const files = runFiles(out);
    // The rejudged run is a run directory of its own: a key of its own, in its run.json before its first record.
    const key = newRunKey();
    const signer = new LineSigner(key);
    const { complete: _complete, stopped: _stopped, key: _key, ...kept } = manifest;
    writeJson(files.manifest, { ...kept, key });
    let episodes = 0;
    const rejudgeOne = async (r: EpisodeRecord) => {
      const scenario = scenarios.get(r.key.scenario);
      // A task the world no longer has cannot be replayed: it keeps its verdict, like a diverged one.
      const result = scenario ? await rejudgeEpisode(harness, await harness.prepare(scenario), r, options, options.claimReader) : { record: r, diverged: `world ${world.id} has no scenario ${r.key.scenario} any more` };
      if (result.diverged) diverged.push(`${r.key.agent} ${r.key.scenario} ε ${r.key.eps} λ ${r.key.lambda} trial ${r.key.trial}: ${result.diverged}`);
      else if (result.record.outcome !== r.outcome) changes.set(`${r.outcome} -> ${result.record.outcome}`, (changes.get(`${r.outcome} -> ${result.record.outcome}`) ?? 0) + 1);
      appendEpisode(files.episodes, result.record, signer);
      episodes++;
    };
    // The log streamed, each key's last record as every reader of a run takes it, a few episodes at once.
    const inFlight = new Set<Promise<void>>();
    let read: Awaited<ReturnType<typeof readLastRecords>>;
    try {
      read = await readLastRecords(
        runFiles(from).episodes,
        manifest,
        async (r) => {
          const p = rejudgeOne(r).finally(() => inFlight.delete(p));
          // The first failure stops the command (through the race or the final wait); none goes unhandled.
          p.catch(() => undefined);
          inFlight.add(p);
          if (inFlight.size >= LANES) await Promise.race(inFlight);
          stop.signal.throwIfAborted();
        },
        stop.signal,
      );
    } catch (error) {
      // Stopped by a signal: the episodes in flight end and are logged, then the lock goes.
      await Promise.allSettled(inFlight);
      const code = stop.exitCode();
      if (code !== undefined) return code;
      throw error;
    }
    await Promise.all(inFlight);
    const { torn: unreadable, unverified, outside } = read;
    const version = judgeVersion(judge.reader, world);
    writeJson(files.manifest, {
      ...manifest,
      key,
      judge: { ...judge, ...version },
      rejudged: { from: resolve(from), judgeBefore: (manifest as { judge?: unknown }).judge ?? null, episodes, changed: [...changes.values()].reduce((a, b) => a + b, 0), diverged: diverged.length },
    });
    const run = await loadRun(out, DEFAULT_THETA);
    writeJson(files.grid, run.grid);
    writeReport(run.grid, basename(resolve(out)), join(out, 'report'), undefined, undefined, undefined, run.failing, await scenarioTitles(out, run.grid.world), integrityLines(run));
    const changed = [...changes.entries()].map(([k, n]) => `${n} ${k}`).join(', ');
    io.out(`rejudged ${episodes} episodes of ${from} with judge ${judge.reader} (version ${version.version}): ${changed ? `outcomes changed: ${changed}` : 'no outcome changed'}. Run directory: ${out} (run.json, episodes.jsonl, grid.json, report/)\n`);
    if (unreadable > 0) io.err(`shakedown: ${unreadable} unreadable line(s) of ${runFiles(from).episodes} were left out\n`);
    if (unverified > 0) io.err(`shakedown: ${unverified} record(s) of ${runFiles(from).episodes} do not verify (edited by hand or written by another program) and were left out\n`);
    if (outside > 0) io.err(`shakedown: ${outside} record(s) of ${runFiles(from).episodes} lie outside its plan and were left out\n`);
    if (!read.signed) io.err(`shakedown: ${from} cannot be verified (its run.json has no \`key\`: written before records were signed); its records were rejudged as they are\n`);
    if (diverged.length > 0) {
      io.err(`shakedown: ${diverged.length} episode(s) no longer replay as recorded (the world, its scenarios or the fault code changed since); they keep their recorded verdict:\n`);
      for (const d of diverged.slice(0, 5)) io.err(`  ${d}\n`);
      if (diverged.length > 5) io.err(`  ... and ${diverged.length - 5} more\n`);
    }
    return stop.exitCode() ?? 0;
  } finally {
    stop.dispose();
    lock.release();
  }
}
