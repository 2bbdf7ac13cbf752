// What a resolved config selects to run: the world, its tasks, the agents, the options every episode
// shares, and the one-line command that replays an episode. The commands and the worker threads alike.
import { familyOf, sampleTasks, taskPool, VARIANT_SUFFIX } from './families.js';
import { faultKinds, getFaultProfile } from '../../faults/index.js';
import { loadScenarios } from '../../scenarios/index.js';
import { loadWorld } from './world-module.js';
import { perturbationFamilies } from '../../perturbations/index.js';
import type { AgentFactory } from '../agents/contract.js';
import { loadAgent } from '../agents/loader.js';
import { llmUserSimulator } from '../user/index.js';
import { ShakedownError, suggest } from '../ground/errors.js';
import { resolveFamilies } from '../ground/perturb.js';
import type { ResolvedConfig } from '../ground/config.js';
import type { EpisodeKey } from '../ground/record.js';
import type { EpisodeOptions } from './episode.js';
import { FaultInjector, type FaultProfile } from '../ground/faults.js';
import { parseAgentTime } from '../ground/clock.js';
import type { Scenario } from '../ground/scenario.js';
import type { WorldDefinition } from '../ground/world.js';

/** Scenarios selected by filters: an exact id, a substring of ids, `category:NAME` or `family:ID` (a template and its variants). */
export function selectScenarios(all: readonly Scenario[], filters: readonly string[]): Scenario[] {
  if (filters.length === 0) return [...all];
  const chosen = new Set<Scenario>();
  for (const f of filters) {
    const hits = f.startsWith('category:')
      ? all.filter((s) => s.tags.category === f.slice('category:'.length))
      : f.startsWith('family:')
        ? all.filter((s) => familyOf(s.id) === f.slice('family:'.length))
        : all.some((s) => s.id === f)
          ? all.filter((s) => s.id === f)
          : all.filter((s) => s.id.includes(f));
    if (hits.length === 0) {
      if (f.startsWith('category:')) {
        const categories = [...new Set(all.map((s) => s.tags.category))].sort();
        const near = suggest(f.slice('category:'.length), categories);
        throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to select scenarios: \`--scenario ${f}\` matches none.${near.length > 0 ? ` Did you mean ${near.map((n) => `category:${n}`).join(' or ')}?` : ''} Categories: ${categories.join(', ')}.`);
      }
      if (f.startsWith('family:')) {
        const families = [...new Set(all.map((s) => familyOf(s.id)))].sort();
        const near = suggest(f.slice('family:'.length), families);
        throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to select scenarios: \`--scenario ${f}\` matches none.${near.length > 0 ? ` Did you mean ${near.map((n) => `family:${n}`).join(' or ')}?` : ''} Families: ${families.slice(0, 60).join(', ')}${families.length > 60 ? ', ...' : ''}.`);
      }
      const near = suggest(f, all.map((s) => s.id));
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to select scenarios: \`--scenario ${f}\` matches none.${near.length > 0 ? ` Did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?` : ''} Scenario ids: ${all.map((s) => s.id).join(', ')}.`);
    }
    for (const h of hits) chosen.add(h);
  }
  return all.filter((s) => chosen.has(s));
}

/**
 * The fault profile a run uses: the named profile with the config's targeting, outage and parameters on
 * top. A tool name the world does not have is refused with the world's tools.
 */
export function effectiveProfile(config: ResolvedConfig, world: WorldDefinition): FaultProfile {
  const base = getFaultProfile(config.profile);
  for (const tool of config.faultTools ?? []) {
    if (!world.tools.some((t) => t.name === tool)) {
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to target faults at tool \`${tool}\`: world ${world.id} has no such tool. Tools: ${world.tools.map((t) => t.name).join(', ')}.`);
    }
  }
  const target = { ...base.target, ...(config.faultTools ? { tools: config.faultTools } : {}), ...(config.faultAccess ? { access: config.faultAccess } : {}) };
  return {
    ...base,
    ...(config.faultWeights ? { id: `${base.id}+weights`, weights: config.faultWeights } : {}),
    ...(Object.keys(target).length > 0 ? { target } : {}),
    ...(config.outageMs !== undefined ? { burst: { outageMs: config.outageMs } } : {}),
  };
}

/**
 * The tasks a config selects: the pool `tasks` names (hand-written, or with their families' variants),
 * the `scenarios` filters, then for `tasks: N` a seeded sample stratified by category and family. The
 * variants are not validated here: the sweep validates what it will run (`validVariants`, cli/validate.ts).
 */
export function tasksOf(config: ResolvedConfig, world: WorldDefinition, pool: readonly Scenario[] = taskPool(world, loadScenarios(world), config.tasks !== 'hand')): Scenario[] {
  const chosen = selectScenarios(pool, config.scenarios);
  return typeof config.tasks === 'number' ? sampleTasks(chosen, config.tasks, config.seed) : chosen;
}

/** What a config selects to run: the world, its scenarios, the agents and the options every episode shares. */
export async function resolveSweepParts(config: ResolvedConfig, hidden: readonly string[] = []): Promise<{ world: WorldDefinition; scenarios: Scenario[]; agents: AgentFactory[]; options: EpisodeOptions }> {
  const world = await loadWorld(config.world);
  const scenarios = tasksOf(config, world);
  // A module agent may read around, but never in, the run directory and the world's scenario files (their gold).
  const agents = await resolveAgentsFor(config, world.id, [...hidden, ...(world.scenarioDir ? [world.scenarioDir] : [])]);
  return { world, scenarios, agents, options: episodeOptions(config, world) };
}

/** The config's world and the one scenario a command works on; `doing` completes "Failed to ...". */
export async function worldScenario(config: ResolvedConfig, id: string | undefined, doing: string): Promise<{ world: WorldDefinition; scenario: Scenario }> {
  const world = await loadWorld(config.world);
  // A generated variant is found by its id too, whatever the config's `tasks`.
  const scenario = taskPool(world, loadScenarios(world), VARIANT_SUFFIX.test(id ?? '')).find((s) => s.id === id);
  if (!scenario) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to ${doing}: no scenario \`${id ?? ''}\` in world ${world.id}. See \`shakedown list scenarios --world ${config.world}\`.`);
  return { world, scenario };
}

/** What every episode of a run shares, from the resolved config. */
export function episodeOptions(config: ResolvedConfig, world: WorldDefinition): EpisodeOptions {
  const profile = effectiveProfile(config, world);
  // Checked once here, so that a bad fault parameter stops the run before any episode starts.
  new FaultInjector({ seed: 'check', lambda: 0, profile, kinds: faultKinds, params: config.faultParams });
  return {
    runSeed: config.seed,
    families: resolveFamilies(perturbationFamilies, config.perturbations, config.perturbationParams),
    faultKinds,
    profile,
    faultParams: config.faultParams,
    realWaitScale: config.realWaitScale,
    agentTime: parseAgentTime(config.agentTime),
    fixedTrials: config.fixedTrials,
    maxTurns: config.maxTurns,
    deadlineMs: config.deadlineMs,
    toolBudget: config.toolBudget,
    replyBytes: config.limits.replyBytes,
    ...(config.simulator === 'llm' ? { userSimulator: llmUserSimulator({ ...config.llm, ...(config.simulatorModel ? { model: config.simulatorModel } : {}) }) } : {}),
  };
}

/** The one-line command that reruns exactly this episode. */
export function replayCommand(config: ResolvedConfig, key: EpisodeKey, agentSpec: string = key.agent): string {
  const parts = ['npx shakedown replay', `--world ${config.world}`, `--seed ${config.seed}`, `--profile ${config.profile}`];
  if (config.faultTools) parts.push(`--fault-tools ${config.faultTools.join(',')}`);
  if (config.faultAccess) parts.push(`--fault-access ${config.faultAccess}`);
  if (config.outageMs !== undefined) parts.push(`--outage-ms ${config.outageMs}`);
  if (config.perturbations) parts.push(`--perturbations ${config.perturbations.join(',')}`);
  if (config.faultWeights) parts.push(`--fault-weights ${Object.entries(config.faultWeights).map(([k, v]) => `${k}=${v}`).join(',')}`);
  if (config.llm.baseUrl !== 'https://api.openai.com/v1') parts.push(`--llm-base-url ${config.llm.baseUrl}`);
  if (config.llm.apiKeyEnv !== 'OPENAI_API_KEY') parts.push(`--llm-api-key-env ${config.llm.apiKeyEnv}`);
  if (config.llm.tools !== 'http') parts.push(`--llm-tools ${config.llm.tools}`);
  if (config.anthropic.baseUrl !== 'https://api.anthropic.com/v1') parts.push(`--anthropic-base-url ${config.anthropic.baseUrl}`);
  if (config.simulator !== 'scripted') parts.push(`--simulator ${config.simulator}`);
  if (config.simulatorModel) parts.push(`--simulator-model ${config.simulatorModel}`);
  if (config.fixedTrials) parts.push('--fixed-trials');
  if (config.maxTurns !== 12) parts.push(`--max-turns ${config.maxTurns}`);
  parts.push(`--scenario ${key.scenario}`, `--agent ${agentSpec}`, `--eps ${key.eps}`, `--lambda ${key.lambda}`, `--trial ${key.trial}`);
  // Values go to a shell: each is quoted where it holds anything a shell would read (a space, a quote, `$`, `&`).
  return parts.map((part) => part.replace(/^(--[a-z-]+) (.+)$/, (_, flag: string, value: string) => `${flag} ${shellQuote(value)}`)).join(' ');
}

/** A value as one shell word: as it is when safe, else in single quotes. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The run's agents from their specs (built-ins, modules, services), checked against the world; refuses duplicates. */
export async function resolveAgentsFor(config: ResolvedConfig, worldId: string, hidden: readonly string[] = []): Promise<AgentFactory[]> {
  const agents: AgentFactory[] = [];
  for (const spec of config.agents) agents.push(await loadAgent(spec, undefined, config.llm, config.anthropic, { limits: config.limits, env: config.env, deadlineMs: config.deadlineMs, sandbox: config.sandbox, hidden }));
  const ids = new Set<string>();
  for (const a of agents) {
    if (ids.has(a.id)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to resolve agents: \`${a.id}\` is listed twice. List each agent once.`);
    ids.add(a.id);
    if (a.worlds && !a.worlds.includes(worldId)) {
      throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to use agent \`${a.id}\` on world \`${worldId}\`: it knows ${a.worlds.join(', ')} only. Pick another agent or world.`);
    }
  }
  return agents;
}

/** The spec that selects an agent by its id in this run (a module path for a module agent), for replay commands. */
export function agentSpecOf(config: ResolvedConfig, agents: readonly AgentFactory[], id: string): string {
  const i = agents.findIndex((a) => a.id === id);
  return i >= 0 ? (config.agents[i] ?? id) : id;
}

/** Lets each agent factory release what it holds (a tool server, a pool); a failure to do so is reported, never fatal. */
export async function disposeAll(agents: readonly AgentFactory[], warn: (line: string) => void): Promise<void> {
  for (const a of agents) {
    try {
      await a.dispose?.();
    } catch (error) {
      warn(`shakedown: agent \`${a.id}\` failed to clean up: ${(error as Error).message}\n`);
    }
  }
}
