/**
 * What a run's verdicts depend on besides the episodes, recorded in run.json so that two runs judged or
 * simulated differently are not mixed unknowingly (`compare`, `merge`, `gate --baseline`): the judge's
 * code, the claim reader and the world's judging data; the simulated user's code and model.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { packagePath } from '../ground/package-root.js';
import type { WorldDefinition } from '../ground/world.js';

const sourceHashes = new Map<string, string>();

/** A short hash of the TypeScript sources of one of Shakedown's folders, e.g. `judge`. */
export function sourceHash(folder: 'judge' | 'user'): string {
  let h = sourceHashes.get(folder);
  if (!h) {
    // The TypeScript sources, which ship with the package: the same hash whether this runs compiled or not.
    const dir = packagePath('src', folder);
    const hash = createHash('sha256');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts')).sort()) hash.update(f).update('\0').update(readFileSync(join(dir, f))).update('\0');
    h = hash.digest('hex').slice(0, 12);
    sourceHashes.set(folder, h);
  }
  return h;
}

const short = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** The judge a run used: its claim reader and a version that changes with the judge's code or the world's judging data. */
export function judgeVersion(reader: string, world: WorldDefinition): { reader: string; version: string } {
  // Patterns and functions are judging data too: written as their source, where JSON would write {} or nothing.
  const data = JSON.stringify(world.judging ?? null, (_key, value: unknown) => (value instanceof RegExp || typeof value === 'function' ? String(value) : value));
  return { reader, version: short(`${sourceHash('judge')}|${reader}|${world.id}|${data}`) };
}

/** The simulated user a run used (`scripted` or `llm:MODEL`) and a version that changes with its code. */
export function simulatorVersion(simulator: string): { id: string; version: string } {
  return { id: simulator, version: short(`${sourceHash('user')}|${simulator}`) };
}

/** Why two runs cannot be read together, or undefined when they can: they were judged or simulated differently. */
export function versionMismatch(a: { judge?: { version?: string }; simulator?: { version?: string } }, b: { judge?: { version?: string }; simulator?: { version?: string } }): string | undefined {
  const parts: string[] = [];
  if (a.judge?.version && b.judge?.version && a.judge.version !== b.judge.version) parts.push(`judged differently (judge ${a.judge.version} against ${b.judge.version})`);
  if (a.simulator?.version && b.simulator?.version && a.simulator.version !== b.simulator.version) parts.push(`simulated differently (user simulator ${a.simulator.version} against ${b.simulator.version})`);
  return parts.length > 0 ? parts.join(' and ') : undefined;
}
