/**
 * What a run's verdicts depend on besides the episodes, recorded in run.json so that two runs judged or
 * simulated differently are not mixed unknowingly (`compare`, `merge`, `gate --baseline`): the judge's
 * code, the claim reader and the world's judging data; the simulated user's code and model.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

import { packagePath } from '../ground/package-root.js';
import type { WorldDefinition } from '../ground/world.js';

const sourceHashes = new Map<string, string>();

/**
 * The shared sources a folder reads text and values through, besides its own: a change to how a JSON reply is read
 * (`json-text.ts`), how a value is put in canonical form or how typographic quotes are made plain (`canonical.ts`) changes
 * verdicts and readings as surely as the folder's own code.
 */
const SHARED: Readonly<Record<'judge' | 'user', readonly string[]>> = {
  judge: ['ground/json-text.ts', 'ground/canonical.ts'],
  user: ['ground/json-text.ts', 'ground/canonical.ts'],
};

/** The sources, relative to `src/`, whose text a folder's version is a hash of: its own TypeScript files, then the shared ones. */
export function versionSources(folder: 'judge' | 'user'): string[] {
  const own = readdirSync(packagePath('src', folder)).filter((n) => n.endsWith('.ts')).sort().map((f) => `${folder}/${f}`);
  return [...own, ...SHARED[folder]];
}

/** A short hash of the TypeScript sources of one of Shakedown's folders, e.g. `judge`, and the shared sources it reads through. */
export function sourceHash(folder: 'judge' | 'user'): string {
  let h = sourceHashes.get(folder);
  if (!h) {
    // The TypeScript sources, which ship with the package: the same hash whether this runs compiled or not.
    const hash = createHash('sha256');
    for (const f of versionSources(folder)) hash.update(f.slice(f.lastIndexOf('/') + 1)).update('\0').update(readFileSync(packagePath('src', ...f.split('/')))).update('\0');
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
