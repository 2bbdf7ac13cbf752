import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShakedownError, unknownId } from '../src/ground/errors.js';
import { parseScenario, type Scenario } from '../src/ground/scenario.js';
import type { WorldDefinition } from '../src/ground/world.js';
import { retailWorld } from './retail/index.js';
import { travelWorld } from './travel/index.js';

/** Every built-in world. */
export const worlds: readonly WorldDefinition[] = [retailWorld as unknown as WorldDefinition, travelWorld as unknown as WorldDefinition];

/** A built-in world by id; an unknown id lists the valid ones. */
export function getWorld(id: string): WorldDefinition {
  const w = worlds.find((x) => x.id === id);
  if (!w) throw unknownId('world', id, worlds.map((x) => x.id));
  return w;
}

/** The folder holding a built-in world's scenario files (a world's own `scenarioDir` wins, see `loadScenarios`). */
export const scenarioDir = (worldId: string): string => fileURLToPath(new URL(`./${worldId}/tasks/`, import.meta.url));

/**
 * Loads and validates every `*.json` scenario in a folder, sorted by id. Ids must be unique; each error
 * names its file.
 */
export function loadScenarios(world: WorldDefinition, dir: string = world.scenarioDir ?? scenarioDir(world.id)): Scenario[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch (error) {
    throw new ShakedownError('SHAKEDOWN_SCENARIO', `Failed to read scenarios from ${dir}: ${(error as Error).message}. Check the path.`, { cause: error });
  }
  const seen = new Map<string, string>();
  const out: Scenario[] = [];
  for (const file of files) {
    const path = join(dir, file);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new ShakedownError('SHAKEDOWN_SCENARIO', `Failed to load scenario ${path}: ${(error as Error).message}. Fix the JSON.`, { cause: error });
    }
    const scenario = parseScenario(world, raw, path);
    const other = seen.get(scenario.id);
    if (other) throw new ShakedownError('SHAKEDOWN_SCENARIO', `Failed to load scenario ${path}: id \`${scenario.id}\` is already used by ${other}. Give each scenario its own id.`);
    seen.set(scenario.id, path);
    out.push(scenario);
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
