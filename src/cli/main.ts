import { parseArgs, type ParseArgsConfig } from 'node:util';
import { join } from 'node:path';
import { getWorld, loadScenarios, worlds } from '../../scenarios/index.js';
import { faultKinds, faultProfiles, getFaultProfile } from '../../faults/index.js';
import { perturbationFamilies } from '../../perturbations/index.js';
import { agentEntries, resolveAgent } from '../agents/registry.js';
import { strategies } from '../agents/strategies.js';
import { ShakedownError } from '../core/errors.js';
import { resolveFamilies } from '../core/perturb.js';
import { resolveConfig, type ResolvedConfig, type SweepConfig } from '../core/config.js';
import { runEpisode, WorldHarness, type EpisodeKey, type EpisodeOptions, type EpisodeRecord } from '../core/episode.js';
import { runSweep, planKeys } from '../core/sweep.js';
import type { Scenario } from '../core/scenario.js';
import { validateScenarios } from '../core/validate.js';
import { measureLadder, perturbSamples } from '../core/ladder.js';
import { buildGrid } from '../report/grid.js';
import { renderTable } from '../report/table.js';
import { appendEpisode, createRunDir, gitCommit, packageVersion, RUN_SCHEMA_VERSION, runFiles, tallyLog, writeJson } from './rundir.js';

const USAGE = `Usage: shakedown <command> [options]

Commands:
  sweep      run agents x ε x λ x scenarios x trials and write a run directory
  validate   check every scenario: gold succeeds, noop fails, oracle passes at ε = λ = 0
  list       list scenarios | agents | perturbations | faults | profiles | strategies | worlds
  replay     rerun one episode and print its conversation, faults, trace and verdict
  perturb    print perturbed samples of a scenario's first message beside the original
  ladder     measure the ε ladder: mean distance of perturbed messages from the original per ε

Sweep options:
  --world ID          world to sweep (default retail)
  --seed S            run seed (default 42)
  --out DIR           run directory (default runs/<time>)
  --agent SPEC        agent, repeatable or comma-separated (default oracle,noop,reference-strict:none,reference:none,reference:retry)
  --eps LIST          ε values in [0, 1] (default 0,0.5,1)
  --lambda LIST       λ values in [0, 1] (default 0,0.1,0.3)
  --trials N          trials per cell and task (default 4)
  --scenario F        scenario id, id substring or category:NAME; repeatable (default all)
  --concurrency N     episodes in flight (default 8)
  --profile ID        fault profile (default mixed)
  --perturbations L   perturbation families to apply, comma-separated (default all)
  --fixed-trials      hold wording and faults fixed across trials
  --max-turns N       user turns per episode (default 12)
  --deadline-ms N     wall-clock limit per episode (default 60000)
  --quiet             no progress lines

Perturb options: --scenario ID --eps E [--samples N] plus --seed, --world, --perturbations; sample i is
  what trial i of a sweep with that seed sees first.
Ladder options: [--levels LIST] (default 0,0.1,...,1) [--samples N] (default 8) plus --seed, --world,
  --scenario, --perturbations.

Replay options: --scenario ID --agent SPEC --eps E --lambda L --trial T, plus --seed, --world, --profile,
  --fixed-trials and --max-turns as in the sweep; --json prints the episode record.
`;

const OPTIONS = {
  world: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  agent: { type: 'string', multiple: true },
  eps: { type: 'string' },
  lambda: { type: 'string' },
  trials: { type: 'string' },
  trial: { type: 'string' },
  scenario: { type: 'string', multiple: true },
  concurrency: { type: 'string' },
  profile: { type: 'string' },
  perturbations: { type: 'string' },
  'fixed-trials': { type: 'boolean' },
  'max-turns': { type: 'string' },
  'deadline-ms': { type: 'string' },
  quiet: { type: 'boolean' },
  samples: { type: 'string' },
  levels: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

type Flags = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : (typeof OPTIONS)[K] extends { type: 'boolean' } ? boolean : string };

/** Where the CLI writes; tests pass their own. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress redraws one line). */
  readonly tty: boolean;
}

const processIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  tty: Boolean(process.stderr.isTTY) && !process.env.CI,
};

function parseNumberList(flag: string, raw: string): number[] {
  const parts = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const values = parts.map(Number);
  if (parts.length === 0 || values.some((v) => !Number.isFinite(v))) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--${flag}\`: "${raw}" is not a comma-separated list of numbers. Write e.g. \`--${flag} 0,0.1,0.3\`.`);
  }
  return values;
}

function parseInteger(flag: string, raw: string): number {
  const v = Number(raw);
  if (!Number.isInteger(v)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--${flag}\`: "${raw}" is not a whole number.`);
  return v;
}

/** Maps flags onto config keys; unset flags leave the defaults. */
export function configFromFlags(flags: Flags): SweepConfig {
  const c: Record<string, unknown> = {};
  if (flags.world !== undefined) c.world = flags.world;
  if (flags.seed !== undefined) c.seed = flags.seed;
  if (flags.agent !== undefined) c.agents = flags.agent.flatMap((a) => a.split(',')).map((a) => a.trim()).filter(Boolean);
  if (flags.eps !== undefined) c.eps = parseNumberList('eps', flags.eps);
  if (flags.lambda !== undefined) c.lambda = parseNumberList('lambda', flags.lambda);
  if (flags.trials !== undefined) c.trials = parseInteger('trials', flags.trials);
  if (flags.scenario !== undefined) c.scenarios = flags.scenario;
  if (flags.concurrency !== undefined) c.concurrency = parseInteger('concurrency', flags.concurrency);
  if (flags.profile !== undefined) c.profile = flags.profile;
  if (flags.perturbations !== undefined) c.perturbations = flags.perturbations.split(',').map((f) => f.trim()).filter(Boolean);
  if (flags['fixed-trials'] !== undefined) c.fixedTrials = flags['fixed-trials'];
  if (flags['max-turns'] !== undefined) c.maxTurns = parseInteger('max-turns', flags['max-turns']);
  if (flags['deadline-ms'] !== undefined) c.deadlineMs = parseInteger('deadline-ms', flags['deadline-ms']);
  return c as SweepConfig;
}

/** Scenarios selected by filters: an exact id, a substring of ids, or `category:NAME`. */
export function selectScenarios(all: readonly Scenario[], filters: readonly string[]): Scenario[] {
  if (filters.length === 0) return [...all];
  const chosen = new Set<Scenario>();
  for (const f of filters) {
    const hits = f.startsWith('category:') ? all.filter((s) => s.tags.category === f.slice('category:'.length)) : all.some((s) => s.id === f) ? all.filter((s) => s.id === f) : all.filter((s) => s.id.includes(f));
    if (hits.length === 0) {
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to select scenarios: \`--scenario ${f}\` matches none. Scenario ids: ${all.map((s) => s.id).join(', ')}.`);
    }
    for (const h of hits) chosen.add(h);
  }
  return all.filter((s) => chosen.has(s));
}

function episodeOptions(config: ResolvedConfig): EpisodeOptions {
  return {
    runSeed: config.seed,
    families: resolveFamilies(perturbationFamilies, config.perturbations, config.perturbationParams),
    faultKinds,
    profile: getFaultProfile(config.profile),
    fixedTrials: config.fixedTrials,
    maxTurns: config.maxTurns,
    deadlineMs: config.deadlineMs,
  };
}

/** The one-line command that reruns exactly this episode. */
export function replayCommand(config: ResolvedConfig, key: EpisodeKey): string {
  const parts = ['npx shakedown replay', `--world ${config.world}`, `--seed ${config.seed}`, `--profile ${config.profile}`];
  if (config.fixedTrials) parts.push('--fixed-trials');
  if (config.maxTurns !== 12) parts.push(`--max-turns ${config.maxTurns}`);
  parts.push(`--scenario ${key.scenario}`, `--agent ${key.agent}`, `--eps ${key.eps}`, `--lambda ${key.lambda}`, `--trial ${key.trial}`);
  return parts.join(' ');
}

function resolveAgentsFor(config: ResolvedConfig) {
  const agents = config.agents.map(resolveAgent);
  const ids = new Set<string>();
  for (const a of agents) {
    if (ids.has(a.id)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to resolve agents: \`${a.id}\` is listed twice. List each agent once.`);
    ids.add(a.id);
    if (a.worlds && !a.worlds.includes(config.world)) {
      throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to use agent \`${a.id}\` on world \`${config.world}\`: it knows ${a.worlds.join(', ')} only. Pick another agent or world.`);
    }
  }
  return agents;
}

async function sweep(flags: Flags, io: Io): Promise<number> {
  const config = resolveConfig(configFromFlags(flags));
  const world = getWorld(config.world);
  const scenarios = selectScenarios(loadScenarios(world), config.scenarios);
  const agents = resolveAgentsFor(config);
  const options = episodeOptions(config);
  // clock: the default run directory is named after the wall-clock start; no outcome depends on it.
  const dir = flags.out ?? join('runs', new Date().toISOString().replace(/[:.]/g, '-'));
  createRunDir(dir);
  const files = runFiles(dir);
  const total = planKeys({ scenarios, agents, eps: config.eps, lambda: config.lambda, trials: config.trials }).length;
  writeJson(files.manifest, {
    schemaVersion: RUN_SCHEMA_VERSION,
    shakedown: packageVersion(),
    createdAt: new Date().toISOString(), // clock: a timing field of the manifest, outside every outcome
    node: process.version,
    gitCommit: gitCommit(),
    config,
    world: world.id,
    seed: config.seed,
    grid: { eps: config.eps, lambda: config.lambda, trials: config.trials, scenarios: scenarios.map((s) => s.id) },
    agents: agents.map((a) => ({ id: a.id, description: a.description })),
    episodes: total,
    trialsRedraw: config.fixedTrials ? 'fixed: wording and faults are the same in every trial' : 'redrawn: each trial meets new wording and new faults',
  });
  io.err(`shakedown: ${total} episodes (${agents.length} agents x ${config.eps.length} ε x ${config.lambda.length} λ x ${scenarios.length} scenarios x ${config.trials} trials) -> ${dir}\n`);
  const started = performance.now(); // clock: progress rate and the closing timing line only
  let done = 0;
  let lastPrint = 0;
  await runSweep(
    { ...options, world, scenarios, agents, eps: config.eps, lambda: config.lambda, trials: config.trials, concurrency: config.concurrency },
    {
      onEpisode(record: EpisodeRecord) {
        appendEpisode(files.episodes, record.outcome === 'pass' ? record : { ...record, replay: replayCommand(config, record.key) });
        done++;
        if (flags.quiet) return;
        const now = performance.now();
        if (done === total || now - lastPrint > (io.tty ? 200 : 5000)) {
          lastPrint = now;
          const rate = done / ((now - started) / 1000);
          const line = `  ${done}/${total} episodes, ${rate.toFixed(0)}/s`;
          io.err(io.tty ? `\r${line}${done === total ? '\n' : ''}` : `${line}\n`);
        }
      },
    },
  );
  const { tally, failing, torn } = await tallyLog(files.episodes);
  const grid = buildGrid({ world: world.id, seed: config.seed, profile: config.profile, fixedTrials: config.fixedTrials, eps: config.eps, lambda: config.lambda, trials: config.trials, agents: agents.map((a) => a.id) }, tally);
  writeJson(files.grid, grid);
  io.out(`\n${renderTable(grid)}`);
  const seconds = (performance.now() - started) / 1000;
  io.out(`${total} episodes in ${seconds.toFixed(1)} s. Run directory: ${dir} (run.json, episodes.jsonl, grid.json)\n`);
  if (torn > 0) io.err(`shakedown: skipped ${torn} unreadable line(s) in ${files.episodes}\n`);
  // Baselines fail by design (noop) or only through faults (oracle): show the agents under test first.
  const notBaseline = failing.filter((k) => k.agent !== 'noop' && k.agent !== 'oracle');
  const shown = notBaseline.length > 0 ? notBaseline : failing.filter((k) => k.agent !== 'noop');
  if (shown.length > 0) {
    io.out(`${shown.length} episodes of ${notBaseline.length > 0 ? 'the agents under test' : 'oracle'} did not pass. Replay one with its trace:\n`);
    for (const key of shown.slice(0, 3)) io.out(`  ${replayCommand(config, key)}\n`);
  }
  return 0;
}

async function validate(flags: Flags, io: Io): Promise<number> {
  const config = resolveConfig(configFromFlags(flags));
  const world = getWorld(config.world);
  const scenarios = selectScenarios(loadScenarios(world), config.scenarios);
  const harness = new WorldHarness(world, config.seed);
  const results = await validateScenarios(harness, scenarios, { noop: resolveAgent('noop'), oracle: resolveAgent('oracle') }, episodeOptions(config));
  for (const r of results) {
    io.out(`${r.ok ? 'ok  ' : 'FAIL'} ${r.scenario}\n`);
    for (const p of r.problems) io.out(`       ${p}\n`);
  }
  const bad = results.filter((r) => !r.ok);
  io.out(`${results.length - bad.length} of ${results.length} scenarios of world ${world.id} hold.\n`);
  if (bad.length > 0) {
    io.err(`shakedown: ${bad.length} scenario(s) do not hold: ${bad.map((r) => r.scenario).join(', ')}\n`);
    return 1;
  }
  return 0;
}

function list(what: string | undefined, flags: Flags, io: Io): number {
  const rows: [string, string][] = (() => {
    switch (what) {
      case 'scenarios': {
        const world = getWorld(flags.world ?? 'retail');
        return loadScenarios(world).map((s) => [s.id, `[${s.tags.category}] ${s.title}`]);
      }
      case 'agents':
        return agentEntries.map((a) => [a.id, a.description]);
      case 'perturbations':
        return perturbationFamilies.map((f) => [f.id, `(ε > ${f.onset}) ${f.description}`]);
      case 'faults':
        return faultKinds.map((k) => [k.id, `(${k.scope}) ${k.description}`]);
      case 'profiles':
        return faultProfiles.map((p) => [p.id, p.description]);
      case 'strategies':
        return strategies.map((s) => [s.id, s.description]);
      case 'worlds':
        return worlds.map((w) => [w.id, w.description]);
      default:
        throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to list \`${what ?? ''}\`: say what to list, one of scenarios, agents, perturbations, faults, profiles, strategies, worlds.`);
    }
  })();
  const width = Math.max(...rows.map(([id]) => id.length));
  for (const [id, description] of rows) io.out(`${id.padEnd(width)}  ${description}\n`);
  return 0;
}

async function replay(flags: Flags, io: Io): Promise<number> {
  const missing = ['scenario', 'agent', 'eps', 'lambda', 'trial'].filter((f) => flags[f as keyof Flags] === undefined);
  if (missing.length > 0) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to replay: missing ${missing.map((m) => `\`--${m}\``).join(', ')}. Copy the replay command a sweep prints.`);
  }
  const { trials: _unused, ...replayFlags } = flags;
  const config = resolveConfig(configFromFlags(replayFlags));
  const world = getWorld(config.world);
  const scenario = loadScenarios(world).find((s) => s.id === flags.scenario?.[0]);
  if (!scenario) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to replay: no scenario \`${flags.scenario?.[0]}\` in world ${world.id}.`);
  const [agent] = resolveAgentsFor({ ...config, agents: [flags.agent?.[0] ?? ''] });
  const key: EpisodeKey = { scenario: scenario.id, agent: agent?.id ?? '', eps: config.eps[0] ?? 0, lambda: config.lambda[0] ?? 0, trial: parseInteger('trial', flags.trial ?? '0') };
  const harness = new WorldHarness(world, config.seed);
  const record = await runEpisode(harness, await harness.prepare(scenario), agent as NonNullable<typeof agent>, key, episodeOptions(config));
  if (flags.json) {
    io.out(`${JSON.stringify(record, null, 2)}\n`);
    return 0;
  }
  io.out(`${scenario.id} (${scenario.title})\nagent ${key.agent}, ε ${key.eps}, λ ${key.lambda}, trial ${key.trial}, seed ${config.seed}\n\n`);
  for (const m of record.messages) {
    io.out(`${m.role === 'user' ? 'user ' : 'agent'}> ${m.text}\n`);
    if (m.original !== undefined) io.out(`        (unperturbed: ${m.original})  [${m.perturbations?.join(', ') ?? ''}]\n`);
  }
  io.out('\ntool calls:\n');
  for (const t of record.trace) io.out(`  +${(t.atMs / 1000).toFixed(1)}s ${t.method} ${t.path} -> ${t.status || 'rejected'}${t.fault ? `  [fault: ${t.fault}]` : ''}${t.replayed ? '  [idempotent replay]' : ''}\n`);
  io.out(`\nfaults fired: ${record.faults.length === 0 ? 'none' : record.faults.map((f) => `${f.kind} on ${f.tool}#${f.ordinal}${f.phase ? ` (${f.phase} commit)` : ''}${f.variant ? ` (${f.variant})` : ''}`).join(', ')}\n`);
  if (record.confusions.length > 0) io.out(`user simulator could not place ${record.confusions.length} agent question(s)\n`);
  io.out(`\noutcome: ${record.outcome.toUpperCase()} (conversation ended: ${record.ended})\n`);
  for (const d of record.diff) io.out(`  ${d.message}\n`);
  for (const o of record.missingOutputs) io.out(`  required output not stated: ${o}\n`);
  if (record.error) io.out(`  ${record.error.name}: ${record.error.message}\n`);
  return 0;
}

function samplesFlag(flags: Flags, fallback: number): number {
  const n = flags.samples === undefined ? fallback : parseInteger('samples', flags.samples);
  if (n < 1 || n > 10_000) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--samples\`: ${n} is out of range. Give 1 to 10000.`);
  return n;
}

function perturbCommand(flags: Flags, io: Io): number {
  if (flags.scenario?.length !== 1 || flags.eps === undefined) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to perturb: give one `--scenario ID` and one `--eps E`, e.g. `shakedown perturb --scenario cancel-pending-mistake --eps 0.4 --samples 5`.');
  }
  const config = resolveConfig(configFromFlags(flags));
  if (config.eps.length !== 1) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to perturb: \`--eps\` takes one value here, got ${config.eps.join(',')}.`);
  const world = getWorld(config.world);
  const scenario = loadScenarios(world).find((s) => s.id === flags.scenario?.[0]);
  if (!scenario) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to perturb: no scenario \`${flags.scenario[0]}\` in world ${world.id}. See \`shakedown list scenarios\`.`);
  const eps = config.eps[0] ?? 0;
  const samples = perturbSamples(world, scenario, eps, episodeOptions(config).families, config.seed, samplesFlag(flags, 5));
  io.out(`${scenario.id} (${scenario.title}), ε = ${eps}, seed ${config.seed}: sample i is the first message of trial i\n`);
  for (const s of samples) {
    io.out(`\n#${s.trial}  original : ${s.original}\n    perturbed: ${s.perturbed}\n`);
    io.out(`    operators: ${s.applied.length > 0 ? s.applied.join(', ') : '(none)'}${s.rejected.length > 0 ? `; discarded: ${s.rejected.join(', ')}` : ''}\n`);
    const entities = s.entities.map((e) => `${e.slot}=${JSON.stringify(e.value)}${e.written === undefined ? ' (held back until asked)' : e.written !== e.value ? ` as ${JSON.stringify(e.written)}` : ''}`);
    io.out(`    entities : ${entities.length > 0 ? entities.join(', ') : '(none)'}\n    distance : ${s.distance.toFixed(3)}\n`);
  }
  return 0;
}

function ladderCommand(flags: Flags, io: Io): number {
  const levels = flags.levels === undefined ? Array.from({ length: 11 }, (_, i) => i / 10) : parseNumberList('levels', flags.levels);
  const config = resolveConfig({ ...configFromFlags(flags), eps: levels });
  const world = getWorld(config.world);
  const scenarios = selectScenarios(loadScenarios(world), config.scenarios);
  const families = episodeOptions(config).families;
  const steps = measureLadder(world, scenarios, config.eps, families, config.seed, samplesFlag(flags, 8));
  io.out(`ε ladder of world ${world.id}: first messages of ${scenarios.length} scenarios x ${steps[0]?.messages ? steps[0].messages / scenarios.length : 0} trials per level, seed ${config.seed}\n\n`);
  io.out('| ε | mean token distance | messages changed | discarded outputs per message | families that fired (share of messages) |\n| --- | --- | --- | --- | --- |\n');
  for (const step of steps) {
    const fired = Object.entries(step.families)
      .filter(([, share]) => share > 0)
      .map(([id, share]) => `${id} ${share.toFixed(2)}`)
      .join(', ');
    io.out(`| ${step.eps} | ${step.meanDistance.toFixed(3)} | ${(step.changed * 100).toFixed(0)}% | ${step.rejectedPerMessage.toFixed(3)} | ${fired || '-'} |\n`);
  }
  const falls = steps.slice(1).filter((s, i) => s.meanDistance <= (steps[i]?.meanDistance ?? 0));
  if (falls.length > 0) io.err(`shakedown: the distance does not rise at ε = ${falls.map((s) => s.eps).join(', ')}\n`);
  return falls.length > 0 ? 1 : 0;
}

/** Runs the CLI; returns the exit code. Library code below never exits. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') {
      io.out(USAGE);
      return command ? 0 : 2;
    }
    let parsed;
    try {
      parsed = parseArgs({ args: [...rest], options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read the options of \`shakedown ${command}\`: ${(error as Error).message}. Run \`shakedown --help\` for the options.`);
    }
    const flags = parsed.values as Flags;
    if (flags.help) {
      io.out(USAGE);
      return 0;
    }
    switch (command) {
      case 'sweep':
        return await sweep(flags, io);
      case 'validate':
        return await validate(flags, io);
      case 'list':
        return list(parsed.positionals[0], flags, io);
      case 'replay':
        return await replay(flags, io);
      case 'perturb':
        return perturbCommand(flags, io);
      case 'ladder':
        return ladderCommand(flags, io);
      default:
        throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to run \`shakedown ${command}\`: no such command. Commands: sweep, validate, list, replay, perturb, ladder.`);
    }
  } catch (error) {
    if (error instanceof ShakedownError) {
      io.err(`shakedown: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
