import { faultKinds, getFaultProfile } from '../faults/index.js';
import { perturbationFamilies } from '../perturbations/index.js';
import { getWorld, loadScenarios } from '../scenarios/index.js';
import type { EpisodeOptions } from '../src/core/episode.js';
import { resolveFamilies } from '../src/core/perturb.js';
import type { FaultProfile } from '../src/core/faults.js';

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
