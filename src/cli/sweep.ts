// `shakedown sweep`: resolves the config, plans the episodes, runs them (in this process or on the worker
// pool), appends each record to the log as it ends, then writes grid.json and the report from the log.
import { validVariants } from '../run/variants.js';
import { cacheTotals, useLlmCache } from '../model/cache.js';
import { episodeCosts, usd } from '../run/cost.js';
import { judgeVersion, simulatorVersion } from '../judge/version.js';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { loadWorld } from '../run/world-module.js';
import { BASELINE_IDS } from '../agents/baselines.js';
import { ShakedownError } from '../ground/errors.js';
import { keyString, type EpisodeKey, type EpisodeRecord } from '../ground/record.js';
import { runAdaptiveSweep, runSweep, planKeys, type SweepHooks } from '../run/sweep.js';
import type { Grid } from '../report/grid.js';
import { existsSync, readFileSync } from 'node:fs';
import { renderTable } from '../report/table.js';
import { integrityLines, loadRun } from '../report/run.js';
import { parseRule, type GateRule } from '../stats/gate.js';
import { releaseRoles } from '../report/roles.js';
import { judgeRelease, keepVerdict, readGateFile, type GateFile } from '../report/gate-record.js';
import { verdictLines } from '../report/verdict.js';
import { DEFAULT_THETA } from '../stats/surface.js';
import { writeReport } from '../report/write.js';
import { startProgress } from './progress.js';
import { paceLine, paceReport, resetPaces } from '../model/pace.js';
import { parseShard, resolveShard, type Flags, type Io } from './options.js';
import { agentSpecOf, disposeAll, episodeOptions, replayCommand, resolveSweepParts } from '../run/parts.js';
import { loadConfig } from './config-file.js';
import { onWorkers, startEpisodePool, workerCount } from '../pool/pool.js';
import { agentSource } from '../agents/loader.js';
import { refusedRequests } from '../agents/tool-server.js';
import { openEpisodeLog, configHash, createRunDir, endLogLine, gitCommit, lockRunDir, makeDirs, packageVersion, readManifest, RUN_SCHEMA_VERSION, runFiles, writeJson, defaultRunDir, llmCacheDir } from '../store/rundir.js';
import { readFinished } from '../store/read.js';
import { LineSigner, newRunKey } from '../store/mac.js';
import { checkOutDir } from '../store/out-dir.js';
import { hash53 } from '../ground/seeds.js';
import { sweepJudge } from '../run/claim-reader.js';

/** The verdict of the config's gate rules on the run's candidates, kept in RUN/gate.json; undefined when a rule selects no cell (the verdict lines say why). */
function sweepVerdict(dir: string, grid: Grid, rules: readonly GateRule[], lower: boolean, complete: boolean, io: Io): GateFile | undefined {
  try {
    const { verdict } = judgeRelease(grid, rules, { agents: grid.candidates ?? [], lower, note: complete ? '' : ' on an incomplete run', by: 'sweep' });
    return keepVerdict(dir, verdict);
  } catch (error) {
    if (!(error instanceof ShakedownError)) throw error;
    return keptVerdicts(dir, io);
  }
}

/** The run's kept verdicts for its report; a gate.json that does not read is said, and the report goes on without it. */
function keptVerdicts(dir: string, io: Io): GateFile | undefined {
  try {
    return readGateFile(dir);
  } catch (error) {
    io.err(`shakedown: ${(error as Error).message}\n`);
    return undefined;
  }
}

/**
 * `--ablate faults|perturbations`: one sub-run per fault kind (alone, weight 1) or per perturbation
 * family (alone), under DIR, then a table of each agent's surface volume per kind or family.
 */
async function ablate(flags: Flags, io: Io): Promise<number> {
  const what = flags.ablate;
  if (what !== 'faults' && what !== 'perturbations') throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--ablate ${what ?? ''}\`: ablate \`faults\` (one kind at a time) or \`perturbations\` (one family at a time).`);
  const config = await loadConfig(flags, io);
  const world = await loadWorld(config.world);
  const options = episodeOptions(config, world);
  const ids = what === 'faults' ? Object.entries(options.profile.weights).filter(([, w]) => w > 0).map(([id]) => id) : options.families.map((f) => f.family.id);
  const dir = flags.out ?? defaultRunDir(`-ablate-${what}`);
  const rows: { id: string; agents: { agent: string; volume1: number; volumeN: number; k: number }[] }[] = [];
  for (const id of ids) {
    const sub = join(dir, `${what === 'faults' ? 'fault' : 'family'}-${id}`);
    io.err(`shakedown: ablation ${rows.length + 1}/${ids.length}: ${what === 'faults' ? `fault kind ${id} alone` : `perturbation family ${id} alone`}\n`);
    const { ablate: _none, ...rest } = flags;
    const code = await sweep({ ...rest, out: sub, quiet: true, ...(what === 'faults' ? { 'fault-weights': `${id}=1` } : { perturbations: id }) }, { ...io, out: () => undefined });
    if (code !== 0) return code;
    const grid = JSON.parse(readFileSync(runFiles(sub).grid, 'utf8')) as Grid;
    rows.push({ id, agents: grid.agents.map((a) => ({ agent: a.agent, volume1: a.surfaces[0]?.volume ?? Number.NaN, volumeN: a.surfaces.at(-1)?.volume ?? Number.NaN, k: a.surfaces.at(-1)?.k ?? 1 })) });
  }
  writeJson(join(dir, 'ablation.json'), { what, rows });
  const agentIds = rows[0]?.agents.map((a) => a.agent) ?? [];
  io.out(`\nablation of ${what}: surface volume pass^1 / pass^n per agent (each ${what === 'faults' ? 'kind alone at every λ' : 'family alone at every ε'})\n`);
  io.out(`| ${what === 'faults' ? 'fault kind' : 'family'} | ${agentIds.join(' | ')} |\n| --- |${agentIds.map(() => ' --- |').join('')}\n`);
  for (const r of rows) io.out(`| ${r.id} | ${r.agents.map((a) => `${a.volume1.toFixed(3)} / ${a.volumeN.toFixed(3)}`).join(' | ')} |\n`);
  io.out(`Runs and ablation.json: ${dir}\n`);
  return 0;
}

export async function sweep(given: Flags, io: Io): Promise<number> {
  // `--shard auto` reads the shard from the engine's index variables; from here on it is `i/n`, as run.json keeps it.
  const shardOf = resolveShard(given.shard);
  const flags: Flags = shardOf ? { ...given, shard: shardOf.shard } : given;
  if (shardOf?.from) io.err(`shakedown: shard ${shardOf.shard} (from ${shardOf.from})\n`);
  // `--otel` is read before any episode runs: a malformed one stops the sweep at once.
  const otelTo = given.otel !== undefined ? (await import('../report/otel-destination.js')).otelDestination(given.otel) : undefined;
  // A bad `--out` is refused before anything loads or is written.
  if (flags.out !== undefined) checkOutDir(flags.out, flags.ablate !== undefined ? 'start the ablation' : 'start the sweep');
  if (flags.ablate !== undefined) return ablate(flags, io);
  const config = await loadConfig(flags, io);
  if (flags.resume && !flags.out) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to resume: say which run with `--out DIR`.');
  const dir = flags.out ?? defaultRunDir();
  // A module or command agent never reads the run directory (its log, its key) nor a shared LLM cache.
  const sharedCache = llmCacheDir(config.llmCache, dir);
  // Made before any agent's process starts, so that its namespaces cover them from the first episode on.
  createRunDir(dir, 'start the sweep', flags.resume === true ? 'resume' : undefined);
  if (sharedCache) makeDirs(sharedCache);
  const parts = await resolveSweepParts(config, [dir, ...(sharedCache ? [sharedCache] : [])]);
  const { world, agents, options: baseOptions } = parts;
  // The candidates and the baseline agent must be agents of the sweep: a typo would gate nothing.
  releaseRoles(agents.map((a) => a.id), config.agents, config);
  if (agents.some((a) => a.enclosed === false) && config.sandbox.namespaces === 'auto') {
    io.err('shakedown: this machine does not let agents run in namespaces of their own (util-linux `unshare`): module and command agents run without them, and a command agent can read what your user can read (docs/agents.md, "What an agent can reach")\n');
  }
  // Generated variants run only once they hold as a hand-written task must; the others are left out, and said.
  const scenarios = await validVariants(world, config, parts.scenarios, io);
  const { options, judge } = await sweepJudge(config, world, baseOptions, io);
  const replayOf = (key: EpisodeKey) => replayCommand(config, key, agentSpecOf(config, agents, key.agent));
  // Gate rules from the config are read before any episode runs: a malformed one stops the sweep at once.
  const gateRules = (config.gate?.rules ?? []).map(parseRule);
  const shard = parseShard(flags.shard);
  if (shard && config.adaptiveFirstTrials !== undefined) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to plan the sweep: `--shard` and `--adaptive` do not combine (the second round needs every shard\'s first round). Run adaptive sweeps unsharded.');
  // One writer per run directory: a second sweep, or a --resume while the first still runs, is refused.
  const lock = lockRunDir(dir, `shakedown ${process.argv.slice(2).join(' ')}`.trim(), (line) => io.err(line));
  try {
    const files = runFiles(dir);
    const hash = configHash(config as unknown as Record<string, unknown>);
    const previous = flags.resume && existsSync(files.manifest) ? readManifest(dir, `resume ${dir}`) : undefined;
    if (previous) {
      // More trials on a finished design extend it: the same configuration but for `trials`, never fewer.
      const before = previous.config as unknown as Record<string, unknown> & { trials: number; adaptiveFirstTrials?: number };
      const extending = previous.configHash !== hash && config.adaptiveFirstTrials === undefined && before.adaptiveFirstTrials === undefined && config.trials > before.trials && configHash({ ...before, trials: config.trials }) === hash;
      if (extending) io.err(`shakedown: extending ${dir} from ${before.trials} to ${config.trials} trials per task: the finished episodes stay, the new trials run\n`);
      if (previous.configHash !== hash && !extending && !flags.force) {
        // Which options changed, by name, with what they were and are.
        const now = config as unknown as Record<string, unknown>;
        const changed = [...new Set([...Object.keys(before), ...Object.keys(now)])]
          .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]))
          .map((k) => `${k}: ${JSON.stringify(before[k]) ?? '(unset)'} then, ${JSON.stringify(now[k]) ?? '(unset)'} now`);
        throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to resume ${dir}: it was started with another configuration${changed.length > 0 ? ` (${changed.slice(0, 6).join('; ')}${changed.length > 6 ? `; and ${changed.length - 6} more` : ''})` : ` (config hash ${previous.configHash ?? 'missing'}, now ${hash})`}. Use the same options, or \`--force\` to mix them knowingly.`);
      }
      if ((previous.shard ?? null) !== (flags.shard ?? null) && !flags.force) {
        throw new ShakedownError('SHAKEDOWN_RUN_DIR', `Failed to resume ${dir}: it ran shard ${previous.shard ?? 'none'}, not ${flags.shard ?? 'none'}. Resume it with the same \`--shard\`.`);
      }
    }
    // A resumed run keeps its key, so that its records and the new ones verify alike; a run written before
    // records were signed stays unsigned (a new key would make every finished record fail to verify).
    const key = previous ? previous.key : existsSync(files.episodes) ? undefined : newRunKey();
    const signer = key ? new LineSigner(key) : undefined;
    // A torn last line is kept (and counted unreadable), never cut off: the next record starts a line of its own.
    endLogLine(files.episodes);
    const finished = await readFinished(files.episodes, previous);
    const allKeys = planKeys({ scenarios, agents, eps: config.eps, lambda: config.lambda, trials: config.trials });
    const outOfShard = new Set(shard ? allKeys.filter((k) => hash53(keyString(k)) % shard.count !== shard.index - 1).map(keyString) : []);
    const skip = new Set([...finished.keys, ...outOfShard]);
    const total = allKeys.length - outOfShard.size;
    // Done: the planned episodes of this shard that the log already holds (a record of another plan counts for nothing).
    const alreadyDone = allKeys.filter((k) => finished.keys.has(keyString(k)) && !outOfShard.has(keyString(k))).length;
    const manifest = {
      schemaVersion: RUN_SCHEMA_VERSION,
      shakedown: packageVersion(),
      createdAt: new Date().toISOString(), // clock: a timing field of the manifest, outside every outcome
      node: process.version,
      gitCommit: gitCommit(),
      config,
      configHash: hash,
      ...(flags.shard ? { shard: flags.shard } : {}),
      world: world.id,
      seed: config.seed,
      grid: { eps: config.eps, lambda: config.lambda, trials: config.trials, scenarios: scenarios.map((s) => s.id) },
      // The tasks' titles, for reports written later without loading the world.
      titles: Object.fromEntries(scenarios.map((s) => [s.id, s.title])),
      agents: agents.map((a) => ({ id: a.id, description: a.description })),
      ...(key ? { key } : {}),
      judge: { ...judge, ...judgeVersion(judge.reader, world) },
      simulator: simulatorVersion(config.simulator === 'llm' ? `llm:${config.simulatorModel ?? config.llm.model}` : 'scripted'),
      episodes: total,
      trialsRedraw: config.fixedTrials ? 'fixed: wording and faults are the same in every trial' : 'redrawn: each trial meets new wording and new faults',
    };
    // Until the sweep ends, run.json says nothing of completeness: a killed sweep leaves it so, and every command that reads the run calls it incomplete.
    writeJson(files.manifest, manifest);
    if (finished.keys.size > 0 || finished.torn > 0 || finished.unverified > 0) {
      const kept = [finished.torn > 0 ? `${finished.torn} unreadable line(s) kept and left out` : '', finished.unverified > 0 ? `${finished.unverified} record(s) that do not verify left out (their episodes run again)` : ''].filter(Boolean);
      io.err(`shakedown: resuming ${dir}: ${alreadyDone} episodes already done${kept.length > 0 ? `, ${kept.join(', ')}` : ''}\n`);
    }
    if (flags.resume && previous && !key) io.err(`shakedown: ${dir} was written before records were signed: its records stay unsigned and cannot be verified\n`);
    let done = alreadyDone;
    // A world over one running service takes its episodes one at a time: no threads, one in flight.
    const exclusive = world.exclusive === true;
    const workers = exclusive ? 1 : workerCount(config, total - done);
    const cores = availableParallelism();
    if (workers > 4 * cores) {
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to start the sweep: \`--workers ${workers}\` is more than 4 per core on this machine (${cores} cores), and each worker thread holds its own copy of the run. Use at most ${4 * cores}, or \`auto\`; \`--concurrency\` overlaps waits without threads.`);
    }
    const onPool = workers > 1 && config.agents.some(onWorkers);
    const hosted = config.agents.filter((spec) => agentSource(spec) === 'module').length;
    const where = `${onPool ? `on ${workers} worker threads` : 'in this process'}${hosted > 0 ? `; ${hosted === 1 ? 'the module agent runs' : `the ${hosted} module agents run`} in ${hosted === 1 ? 'a process of its own' : 'processes of their own'}` : ''}`;
    io.err(`shakedown: ${config.adaptiveFirstTrials === undefined ? '' : 'up to '}${total} episodes (${agents.length} agents x ${config.eps.length} ε x ${config.lambda.length} λ x ${scenarios.length} scenarios x ${config.trials} trials) ${where} -> ${dir}\n`);
    const started = performance.now(); // clock: progress rate and the closing timing line only
    const refusedBefore = refusedRequests();
    // The pace of model requests (src/model/pace.ts) beside the episodes', for sweeps with LLM agents, users or judges; each sweep's own.
    resetPaces();
    const progress = startProgress(io, total, done, flags.quiet === true, undefined, paceLine);
    let launchedNow = 0;
    let spent = 0;
    /** The model of the LLM user, whose tokens are priced apart from the agent's. */
    const simulatorModel = config.simulator === 'llm' ? (config.simulatorModel ?? config.llm.model) : undefined;
    /** Dollars the LLM cache saved, where the prices are known. */
    let savedUsd = 0;
    let budgetReason: string | undefined;
    // SIGINT or SIGTERM (a Kubernetes pod's end) stops launching; episodes in flight get a bounded grace,
    // then the partial grid is written and the lock released. A second signal ends the grace at once.
    const stop = new AbortController();
    let endGrace = () => {};
    let stoppedBy: NodeJS.Signals | undefined;
    const onInterrupt = (signal: NodeJS.Signals) => {
      if (stop.signal.aborted) {
        if (!budgetReason) io.err(`shakedown: ${signal} again: not waiting for the episodes in flight.\n`);
        endGrace();
        return;
      }
      stoppedBy = signal;
      io.err(`\nshakedown: interrupted (${signal}): no new episodes; waiting up to 10 s for those in flight (${signal} again: at once). Resume with --resume.\n`);
      stop.abort();
    };
    process.on('SIGINT', onInterrupt);
    process.on('SIGTERM', onInterrupt);
    // Budgets stop launching the same way, cleanly: the run stays resumable.
    /** The first error of each kind (agent and error name) among the agents under test, with how many. */
    const firstErrors = new Map<string, { agent: string; name: string; count: number; message: string; replay: string }>();
    const budgetStop = (reason: string) => {
      if (stop.signal.aborted) return;
      budgetReason = reason;
      stop.abort();
    };
    // clock: the per-run time limit is wall time by definition; no outcome depends on it.
    const limitTimer = config.timeLimitS === undefined ? undefined : setTimeout(() => budgetStop(`the time limit of ${config.timeLimitS} s passed`), config.timeLimitS * 1000);
    limitTimer?.unref();
    const plan = { ...options, world, scenarios, agents, eps: config.eps, lambda: config.lambda, trials: config.trials, concurrency: exclusive ? 1 : config.concurrency };
    const run = (hooks: SweepHooks) => (config.adaptiveFirstTrials === undefined ? runSweep(plan, hooks) : runAdaptiveSweep(plan, config.adaptiveFirstTrials, hooks, finished.outcomes));
    // The LLM response cache, when asked for: in this process and on every worker thread.
    const cacheDir = llmCacheDir(config.llmCache, dir);
    useLlmCache(cacheDir);
    const pool = onPool ? startEpisodePool(config, workers, cacheDir) : undefined;
    /** The episode phase is over (all ran, or the grace passed): nothing more goes into the log. */
    let settled = false;
    const log = openEpisodeLog(files.episodes, signer);
    const running = run(
      {
        skip,
        signal: stop.signal,
        // The log keeps every record; memory must not.
        retainRecords: false,
        ...(pool ? { execute: (key: EpisodeKey) => pool.execute(key) } : {}),
        onEpisode(record: EpisodeRecord) {
          // Past the grace, the run is written: an episode that ends now is dropped, as said, never logged late.
          if (settled) return;
          const cost = episodeCosts(record, config.prices, simulatorModel);
          savedUsd += cost.saved ?? 0;
          log.append({ ...(record.outcome === 'pass' ? record : { ...record, replay: replayOf(record.key) }), ...(cost.agent !== undefined ? { costUsd: cost.agent } : {}), ...(cost.user !== undefined ? { userCostUsd: cost.user } : {}) });
          done++;
          launchedNow++;
          spent += (cost.agent ?? 0) + (cost.user ?? 0);
          progress.episode(record.key.agent, record.outcome === 'pass');
          if (config.maxCostUsd !== undefined && spent >= config.maxCostUsd) budgetStop(`the LLM spend reached $${spent.toFixed(2)} (cap $${config.maxCostUsd})`);
          if (config.maxEpisodes !== undefined && launchedNow >= config.maxEpisodes) budgetStop(`${launchedNow} episodes ran (\`--max-episodes ${config.maxEpisodes}\`)`);
          // Errors of the agents under test: the first message of each kind is said after the run; past
          // `--fail-fast N` of them, no more episodes are launched.
          if (record.outcome === 'error' && record.error && !BASELINE_IDS.includes(record.key.agent)) {
            const kind = `${record.key.agent}|${record.error.name}`;
            const seen = firstErrors.get(kind);
            if (seen) seen.count++;
            else firstErrors.set(kind, { agent: record.key.agent, name: record.error.name, count: 1, message: record.error.message, replay: replayOf(record.key) });
            const agentErrors = [...firstErrors.values()].reduce((n, e) => n + e.count, 0);
            if (config.failFast !== undefined && agentErrors >= config.failFast) budgetStop(`${agentErrors} episodes of the agents under test ended in an error (\`--fail-fast ${config.failFast}\`)`);
          }
        },
      },
    );
    const grace = new Promise<void>((resolve) => {
      endGrace = resolve;
      stop.signal.addEventListener('abort', () => setTimeout(resolve, 10_000).unref(), { once: true });
    });
    // Episodes cut off by the grace period or by a failed one are dropped unrecorded, never reported twice.
    running.catch(() => undefined);
    let episodeSeconds = 0;
    try {
      await Promise.race([running, grace]);
      episodeSeconds = (performance.now() - started) / 1000;
    } finally {
      settled = true;
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onInterrupt);
      if (limitTimer) clearTimeout(limitTimer);
      progress.stop();
      await pool?.close();
      await disposeAll(agents, io.err);
      log.close();
    }
    if (pool && pool.recycled > 0) io.err(`shakedown: ${pool.recycled} worker thread(s) recycled past ${config.workerMaxMemoryMb} MB of heap\n`);
    if (pool && pool.reruns > 0) io.err(`shakedown: ${pool.reruns} episode(s) ran again after their worker thread died\n`);
    // Whether every planned episode ran, in run.json for every command that reads the run (gate refuses a partial one).
    const stopped = budgetReason ?? (stop.signal.aborted ? 'interrupted' : undefined);
    // Complete when every planned episode is in the log (a budget that struck as the last ones ran stops nothing); an adaptive run, when its rounds ran out.
    const complete = config.adaptiveFirstTrials === undefined ? done >= total : stopped === undefined;
    // An LLM judge's tokens (its calibration's included) and their cost: the run's, not any one episode's.
    const judgeUsage = (options.claimReader as { usage?: () => { promptTokens: number; completionTokens: number; calls: number } } | undefined)?.usage?.();
    const judgePrice = config.judge.startsWith('llm:') ? config.prices[config.judge.slice(4)] : undefined;
    const judged = judgeUsage ? { judge: { ...manifest.judge, usage: { ...judgeUsage, costUsd: judgePrice ? usd(judgeUsage, judgePrice) : 'unknown' } } } : {};
    // Requests to the loopback tool server that named no granted episode: a harness security event, charged to no agent.
    const refused = refusedRequests() - refusedBefore;
    // Whether the agents that run as processes of their own ran in namespaces of their own (docs/agents.md).
    const enclosed = agents.some((a) => a.enclosed !== undefined) ? { namespaces: agents.every((a) => a.enclosed !== false) } : {};
    const security = refused > 0 || 'namespaces' in enclosed ? { security: { ...(refused > 0 ? { refusedRequests: refused } : {}), ...enclosed } } : {};
    if (refused > 0) io.err(`shakedown: ${refused} request(s) to the tool server named no episode granted to their sender and were refused (an agent reaching for an episode not its own?); run.json counts them under \`security\`\n`);
    writeJson(files.manifest, { ...manifest, ...judged, ...security, complete, ...(!complete ? { stopped: stopped ?? 'not every planned episode ran' } : {}) });
    // Everything after the run is recomputed from the log, the run's truth, read once.
    const loaded = await loadRun(dir, DEFAULT_THETA);
    const { grid, failing: drill, failingKeys: failing, torn } = loaded;
    writeJson(files.grid, grid);
    // The config's gate rules give the run a verdict as \`shakedown gate\` would, kept with the run's others.
    // A shard's verdict would be on part of the episodes: the merged run is gated, not its shards.
    const gateFile = gateRules.length > 0 && !shard && grid.candidates && grid.candidates.length > 0 ? sweepVerdict(dir, grid, gateRules, config.gate?.lower === true, loaded.completeness.complete, io) : keptVerdicts(dir, io);
    const reportFiles = writeReport(grid, basename(resolve(dir)), join(dir, 'report'), undefined, undefined, undefined, drill, Object.fromEntries(scenarios.map((s) => [s.id, s.title])), integrityLines(loaded).filter((l) => !/unreadable line/.test(l)), gateFile);
    io.out(`\n${renderTable(grid)}`);
    const seconds = (performance.now() - started) / 1000;
    const resumed = alreadyDone;
    const rate = episodeSeconds > 0 ? ` (episodes ${episodeSeconds.toFixed(1)} s, ${Math.round(launchedNow / episodeSeconds)}/s)` : '';
    const totals = cacheTotals();
    if (cacheDir && totals) {
      io.out(`LLM cache ${cacheDir}: ${totals.hits} model call(s) answered from it (${totals.promptTokens + totals.completionTokens} tokens not paid for again${savedUsd > 0 ? `, $${savedUsd.toFixed(4)}` : ''}), ${totals.misses} asked and kept\n`);
      if (totals.refused > 0) io.err(`shakedown: ${totals.refused} LLM cache entr${totals.refused === 1 ? 'y' : 'ies'} in ${cacheDir} did not verify and were refused (their episodes end as errors that say so: \`LlmCacheRefused\`). Delete them, or the cache, and resume.\n`);
    }
    // The episodes as OpenTelemetry traces, when asked: from the log, after the report.
    if (otelTo) {
      const { exportOtel } = await import('../report/otel.js');
      const sent = await exportOtel(dir, otelTo);
      io.out(`OpenTelemetry: ${sent.episodes} episode(s) as ${sent.spans} span(s) to ${otelTo.kind === 'url' ? otelTo.url : otelTo.path}\n`);
    }
    io.out(`${done} episodes${resumed > 0 ? ` (${done - resumed} this time, ${resumed} resumed)` : ''} in ${seconds.toFixed(1)} s${rate}. Run directory: ${dir} (run.json, episodes.jsonl, grid.json, report/ with ${reportFiles.length} files)\n`);
    // The model requests' pace, per provider: how close to its limit the sweep ran, and what it waited out.
    for (const [key, p] of Object.entries(paceReport())) {
      if (p.requests === 0) continue;
      io.out(`model requests: ${p.requests} to ${key.split('|')[1] || key} at ${p.perMinute} a minute${p.rpm !== undefined ? ` (limit ${p.rpm} a minute, ${p.learned ? 'learned from the provider' : 'configured'})` : ''}${p.throttled > 0 ? `; ${p.throttled} rate limit(s) (429) waited out and sent again` : ''}${p.waitedMs >= 1000 ? `; ${(p.waitedMs / 1000).toFixed(1)} s waited for the provider, counted in no episode's time` : ''}\n`);
    }
    if (torn > 0) io.err(`shakedown: skipped ${torn} unreadable line(s) in ${files.episodes}\n`);
    // Baselines fail by design (noop) or only through faults (oracle): show the agents under test first.
    const notBaseline = failing.filter((k) => !BASELINE_IDS.includes(k.agent));
    const shown = notBaseline.length > 0 ? notBaseline : failing.filter((k) => k.agent !== 'noop');
    if (shown.length > 0) {
      io.out(`${shown.length} episodes of ${notBaseline.length > 0 ? 'the agents under test' : 'oracle'} did not pass. Replay one with its trace:\n`);
      for (const key of shown.slice(0, 3)) io.out(`  ${replayOf(key)}\n`);
    }
    // Errors up front: the first message of each kind, and the command that replays it.
    if (firstErrors.size > 0) {
      io.out(`\nerrors of the agents under test (the first of each kind; \`replay\` shows the whole episode):\n`);
      for (const { agent, name, ...e } of firstErrors.values()) {
        io.out(`  ${agent}: ${name} in ${e.count} episode${e.count === 1 ? '' : 's'}: ${e.message.length > 300 ? `${e.message.slice(0, 300)}...` : e.message}\n    ${e.replay}\n`);
      }
    }
    // The last lines: a verdict per agent under test and where the report is.
    io.out(`\n${verdictLines(grid, gateRules, config.gate?.lower === true, loaded.completeness.complete).join('\n')}\nreport: ${resolve(join(dir, 'report', 'report.html'))}\n`);
    if (budgetReason) {
      io.err(`shakedown: stopped at a budget: ${budgetReason}; ${done} of ${total} episodes done. Continue with \`shakedown sweep --resume --out ${dir}\` (and a larger budget).\n`);
      return 0;
    }
    if (stop.signal.aborted) {
      io.err(`shakedown: interrupted after ${done} of ${total} episodes; the grid above is partial. Resume with \`shakedown sweep --resume --out ${dir}\` and the same options.\n`);
      return stoppedBy === 'SIGTERM' ? 143 : 130;
    }
    return 0;
  } finally {
    lock.release();
  }
}
