import { readFileSync } from 'node:fs';
import { retailAbout } from './about.js';
import { retailJudging } from './judging.js';
import type { WorldDefinition } from '../../src/ground/world.js';
import { generateRetail } from './generate.js';
import { retailHandlers } from './handlers.js';
import { retailLanguage } from './language.js';
import { retailDbSchema, type RetailDb } from './schema.js';
import { applyRetailSetup, retailSetupSchema, type RetailSetup } from './setup.js';
import { retailTools } from './tools.js';

/** The retail world: users, a product catalogue and orders, with cancel/return/exchange/address tools. */
export const retailWorld: WorldDefinition<RetailDb, RetailSetup> = {
  ...retailAbout,
  dbSchema: retailDbSchema,
  generate: (seed) => generateRetail(seed),
  setupSchema: retailSetupSchema,
  applySetup: applyRetailSetup,
  tools: retailTools,
  handlers: retailHandlers,
  policy: readFileSync(new URL('./policy.md', import.meta.url), 'utf8'),
  userLanguage: retailLanguage,
  categories: ['cancel', 'return', 'exchange', 'address', 'top-up'],
  judging: retailJudging,
};
