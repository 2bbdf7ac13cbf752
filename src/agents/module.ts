// An agent module of the user's: the path that names one, and its default export as an agent factory. Loaded
// in the agent's own host process (host/entry.ts), never in the process that holds the world and the judge.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ShakedownError } from '../ground/errors.js';
import { importModule } from '../ground/user-module.js';
import type { AgentFactory } from './contract.js';

/** Whether a spec names a module file rather than a built-in agent. */
export const isModuleSpec = (spec: string): boolean => /^(\.{1,2}\/|\/)/.test(spec) || /\.(ts|mts|js|mjs)$/.test(spec) || isAbsolute(spec);

/**
 * Where an agent spec's agent comes from: `built-in` agents compute in this process (CPU-bound); `llm`,
 * `http` and `command` agents wait on the network or another process; a `module` agent may do either.
 */
export function agentSource(spec: string): 'built-in' | 'llm' | 'http' | 'command' | 'module' {
  const s = spec.trim();
  if (s.startsWith('cmd:')) return 'command';
  if (s === 'llm' || s.startsWith('llm:') || s.startsWith('anthropic:')) return 'llm';
  if (/^https?:\/\//.test(s)) return 'http';
  return isModuleSpec(s) ? 'module' : 'built-in';
}

/**
 * A module's default export, or its export named `name`, as a module import delivers them: a TypeScript file
 * outside an ESM package is compiled to CommonJS, and its exports arrive one level down, under
 * `default`. `isTarget` tells the export sought from such a wrapper.
 */
export function moduleExport(mod: Readonly<Record<string, unknown>>, name: string, isTarget: (value: object) => boolean): unknown {
  const d = mod.default;
  const wrapper = d !== null && typeof d === 'object' && ('default' in d || name in d) && !isTarget(d) ? (d as Record<string, unknown>) : undefined;
  return wrapper ? (wrapper.default ?? wrapper[name]) : (mod.default ?? mod[name]);
}

/**
 * Loads an agent module: its default export (or an export named `agent`) must be an agent factory. `spec`
 * names it in errors; `path` is what is imported (a compiled copy of it, in a sandboxed host).
 */
export async function loadModuleAgent(spec: string, cwd: string = process.cwd(), path: string = resolve(cwd, spec)): Promise<AgentFactory> {
  if (!existsSync(path)) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to load agent module \`${spec}\`: no such file (looked at ${path}). Check the path; it is relative to the current directory.`);
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(path);
  } catch (error) {
    throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to load agent module \`${spec}\`: importing it threw ${(error as Error).name}: ${(error as Error).message}. Fix the module so that it imports.`, { cause: error });
  }
  const candidate = moduleExport(mod, 'agent', (v) => typeof (v as { create?: unknown }).create === 'function') as Partial<AgentFactory> | undefined;
  if (!candidate || typeof candidate !== 'object' || typeof candidate.id !== 'string' || candidate.id === '' || typeof candidate.create !== 'function') {
    throw new ShakedownError(
      'SHAKEDOWN_AGENT',
      `Failed to load agent module \`${spec}\`: it must \`export default defineAgent({ id, description, create })\` (from 'shakedown'); found ${candidate === undefined ? 'no default export' : `a default export without ${typeof candidate?.id !== 'string' || candidate.id === '' ? 'a string `id`' : 'a `create` function'}`}.`,
    );
  }
  if (/[\s|]/.test(candidate.id)) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to load agent module \`${spec}\`: its id \`${candidate.id}\` has spaces or \`|\`. Use letters, digits, \`-\`, \`:\` or \`+\`.`);
  return { description: '', ...candidate } as AgentFactory;
}
