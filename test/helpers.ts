import { faultKinds, getFaultProfile } from '../faults/index.js';
import { perturbationFamilies } from '../perturbations/index.js';
import { getWorld, loadScenarios } from '../scenarios/index.js';
import { resolveAgent } from '../src/agents/registry.js';
import { runEpisode, WorldHarness } from '../src/run/episode.js';
import type { Scenario } from '../src/ground/scenario.js';
import type { WorldDefinition } from '../src/ground/world.js';
import type { EpisodeOptions } from '../src/run/episode.js';
import { resolveFamilies } from '../src/ground/perturb.js';
import type { FaultProfile } from '../src/ground/faults.js';

export const retail = getWorld('retail');
export const retailScenarios = loadScenarios(retail);

export function scenario(id: string) {
  const s = retailScenarios.find((x) => x.id === id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s;
}

export function episodeOptions(overrides: Partial<EpisodeOptions> & { profileId?: string; profile?: FaultProfile } = {}): EpisodeOptions {
  const { profileId, ...rest } = overrides;
  return {
    runSeed: '42',
    families: resolveFamilies(perturbationFamilies),
    faultKinds,
    profile: getFaultProfile(profileId ?? 'mixed'),
    ...rest,
  };
}

/**
 * Runs an agent once on every scenario at ε = λ = 0 and lists each episode that did not pass or left the
 * user simulator confused, with its diff and missing outputs.
 */
export async function failuresAtZero(world: WorldDefinition, scenarios: readonly Scenario[], spec: string): Promise<string[]> {
  const harness = new WorldHarness(world, '42');
  const agent = resolveAgent(spec);
  const failures: string[] = [];
  for (const s of scenarios) {
    const r = await runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps: 0, lambda: 0, trial: 0 }, episodeOptions());
    if (r.outcome !== 'pass' || r.confusions.length > 0) failures.push(`${s.id}: ${r.outcome} ${r.diff.map((d) => d.message).join('; ')} ${r.missingOutputs.join(', ')}`);
  }
  return failures;
}
