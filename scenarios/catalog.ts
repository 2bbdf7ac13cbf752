// The built-in worlds by id and description, without loading them: `list worlds` and error messages need
// no world's tool handlers.
import { retailAbout } from './retail/about.js';
import { travelAbout } from './travel/about.js';

/** A built-in world as listed. */
export interface WorldEntry {
  readonly id: string;
  readonly description: string;
}

export const worldCatalog: readonly WorldEntry[] = [retailAbout, travelAbout];
