import type { PerturbationFamily } from '../src/core/perturb.js';
import { unknownId } from '../src/core/errors.js';
import { filler } from './filler.js';
import { typos } from './typos.js';

/** Every perturbation family, in the order they apply (wording first, then letters). */
export const perturbationFamilies: readonly PerturbationFamily[] = [filler, typos] as readonly PerturbationFamily[];

/** A perturbation family by id; an unknown id lists the valid ones. */
export function getPerturbationFamily(id: string): PerturbationFamily {
  const f = perturbationFamilies.find((x) => x.id === id);
  if (!f) throw unknownId('perturbation family', id, perturbationFamilies.map((x) => x.id));
  return f;
}
