/** Commands that show what a seed does without running agents: perturbed wording, the ε ladder, fault schedules. */
import { loadScenarios } from '../../scenarios/index.js';
import { loadWorld } from '../run/world-module.js';
import { ShakedownError } from '../ground/errors.js';
import { episodeSeeds } from '../ground/record.js';
import { FaultInjector, faultSchedule } from '../ground/faults.js';
import { measureLadder, perturbSamples } from '../run/ladder.js';
import { parseInteger, parseNumberList, samplesFlag, type Flags, type Io } from './options.js';
import { episodeOptions, selectScenarios, worldScenario } from '../run/parts.js';
import { loadConfig } from './config-file.js';

export async function perturbCommand(flags: Flags, io: Io): Promise<number> {
  if (flags.scenario?.length !== 1 || flags.eps === undefined) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to perturb: give one `--scenario ID` and one `--eps E`, e.g. `shakedown perturb --scenario cancel-pending-mistake --eps 0.4 --samples 5`.');
  }
  const config = await loadConfig(flags, io);
  if (config.eps.length !== 1) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to perturb: \`--eps\` takes one value here, got ${config.eps.join(',')}.`);
  const { world, scenario } = await worldScenario(config, flags.scenario?.[0], 'perturb');
  const eps = config.eps[0] ?? 0;
  const samples = perturbSamples(world, scenario, eps, episodeOptions(config, world).families, config.seed, samplesFlag(flags, 5));
  io.out(`${scenario.id} (${scenario.title}), ε = ${eps}, seed ${config.seed}: sample i is the first message of trial i\n`);
  for (const s of samples) {
    io.out(`\n#${s.trial}  original : ${s.original}\n    perturbed: ${s.perturbed}\n`);
    io.out(`    operators: ${s.applied.length > 0 ? s.applied.join(', ') : '(none)'}${s.rejected.length > 0 ? `; discarded: ${s.rejected.join(', ')}` : ''}\n`);
    const entities = s.entities.map((e) => `${e.slot}=${JSON.stringify(e.value)}${e.written === undefined ? ' (held back until asked)' : e.written !== e.value ? ` as ${JSON.stringify(e.written)}` : ''}`);
    io.out(`    entities : ${entities.length > 0 ? entities.join(', ') : '(none)'}\n    distance : ${s.distance.toFixed(3)}\n`);
  }
  return 0;
}

export async function ladderCommand(flags: Flags, io: Io): Promise<number> {
  const levels = flags.levels === undefined ? Array.from({ length: 11 }, (_, i) => i / 10) : parseNumberList('levels', flags.levels);
  const config = await loadConfig(flags, io, { eps: levels });
  const world = await loadWorld(config.world);
  const scenarios = selectScenarios(loadScenarios(world), config.scenarios);
  const families = episodeOptions(config, world).families;
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

/** `shakedown faults`: the faults a seed plans for one episode, per tool and call. */
export async function faultsCommand(flags: Flags, io: Io): Promise<number> {
  if (flags.scenario?.length !== 1 || flags.lambda === undefined) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to show faults: give one `--scenario ID` and one `--lambda L`, e.g. `shakedown faults --scenario return-two-items --lambda 0.3 --trial 2`.');
  }
  const { trials: _unused, ...rest } = flags;
  const config = await loadConfig(rest, io);
  if (config.lambda.length !== 1) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to show faults: \`--lambda\` takes one value here, got ${config.lambda.join(',')}.`);
  const { world, scenario } = await worldScenario(config, flags.scenario?.[0], 'show faults');
  const lambda = config.lambda[0] ?? 0;
  const trial = flags.trial === undefined ? 0 : parseInteger('trial', flags.trial);
  const calls = flags.calls === undefined ? 5 : parseInteger('calls', flags.calls);
  if (trial < 0 || calls < 1 || calls > 1000) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to show faults: `--trial` must be 0 or more and `--calls` 1 to 1000.');
  const options = episodeOptions(config, world);
  // The fault stream depends on (run seed, scenario, λ, trial), never on ε or the agent.
  const seeds = episodeSeeds(config.seed, { scenario: scenario.id, agent: '', eps: 0, lambda, trial }, config.fixedTrials);
  const injector = new FaultInjector({ seed: seeds.faults, lambda, profile: options.profile, kinds: options.faultKinds, params: options.faultParams ?? {} });
  const planned = faultSchedule(injector, world.tools, calls);
  if (flags.json) {
    io.out(`${JSON.stringify({ scenario: scenario.id, lambda, trial, seed: config.seed, profile: options.profile, calls, faults: planned }, null, 2)}\n`);
    return 0;
  }
  io.out(`${scenario.id}, λ = ${lambda}, trial ${trial}, seed ${config.seed}, profile ${config.profile}: the first ${calls} calls to each tool\n`);
  const width = Math.max(...world.tools.map((t) => t.name.length));
  const persistent = planned.filter((f) => f.scope === 'persistent');
  const transient = planned.filter((f) => f.scope === 'transient');
  io.out(`\nfor the whole episode (persistent):${persistent.length === 0 ? ' none' : ''}\n`);
  for (const f of persistent) io.out(`  ${f.tool.padEnd(width)}  ${f.kind} (${f.variant})\n`);
  io.out(`\nper call (transient):${transient.length === 0 ? ' none' : ''}\n`);
  for (const f of transient) io.out(`  ${f.tool.padEnd(width)}  call ${f.ordinal}  ${f.kind}${f.phase ? ` (${f.phase} the commit)` : ''}\n`);
  io.out('\nCalls are counted per tool, so an extra call to one tool shifts no fault of another. A rate limit or an outage a strike opens also fails the calls that follow in its window; every fault that fires is in the episode record.\n');
  return 0;
}
