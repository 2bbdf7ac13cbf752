import { readFileSync } from 'node:fs';
import { travelAbout } from './about.js';
import { travelJudging } from './judging.js';
import type { WorldDefinition } from '../../src/ground/world.js';
import { generateTravel } from './generate.js';
import { travelHandlers } from './handlers.js';
import { travelLanguage } from './language.js';
import { travelDbSchema, type TravelDb } from './schema.js';
import { applyTravelSetup, travelSetupSchema, type TravelSetup } from './setup.js';
import { travelTools } from './tools.js';

/** The travel world: travellers, a flight schedule with fare classes and seats, reservations. */
export const travelWorld: WorldDefinition<TravelDb, TravelSetup> = {
  ...travelAbout,
  dbSchema: travelDbSchema,
  generate: (seed) => generateTravel(seed),
  setupSchema: travelSetupSchema,
  applySetup: applyTravelSetup,
  tools: travelTools,
  handlers: travelHandlers,
  policy: readFileSync(new URL('./policy.md', import.meta.url), 'utf8'),
  userLanguage: travelLanguage,
  categories: ['cancel', 'change', 'baggage', 'compensation'],
  judging: travelJudging,
};
