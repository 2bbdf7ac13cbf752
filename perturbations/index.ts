import type { PerturbationFamily } from '../src/ground/perturb.js';
import { unknownId } from '../src/ground/errors.js';
import { casing } from './casing.js';
import { chatSpeak } from './chat-speak.js';
import { distractor } from './distractor.js';
import { entityFormat } from './entity-format.js';
import { filler } from './filler.js';
import { paraphrase } from './paraphrase.js';
import { reorder } from './reorder.js';
import { selfCorrect } from './self-correct.js';
import { spread } from './spread.js';
import { synonyms } from './synonyms.js';
import { typos } from './typos.js';
import { verbosity } from './verbosity.js';

/**
 * Every perturbation family, in the order they apply: what the user says and when (dialogue), then how
 * the message is built (structure), then its words, then entity formats, then letters.
 */
export const perturbationFamilies: readonly PerturbationFamily[] = [
  spread,
  paraphrase,
  selfCorrect,
  reorder,
  distractor,
  verbosity,
  filler,
  synonyms,
  chatSpeak,
  entityFormat,
  typos,
  casing,
] as readonly PerturbationFamily[];

/** A perturbation family by id; an unknown id lists the valid ones. */
export function getPerturbationFamily(id: string): PerturbationFamily {
  const f = perturbationFamilies.find((x) => x.id === id);
  if (!f) throw unknownId('perturbation family', id, perturbationFamilies.map((x) => x.id));
  return f;
}
