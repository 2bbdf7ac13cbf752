/**
 * Turns an agent spec from the command line or a config into a factory: a built-in (`reference:robust`),
 * a module (`./my-agent.ts`, loaded without a build step), a service (`http://127.0.0.1:8000`), a command
 * launched per episode (`cmd:node ./agent.mjs`) or a model behind an API (`llm:MODEL`, `anthropic:MODEL`).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

import { importModule } from '../ground/user-module.js';
import { ShakedownError } from '../ground/errors.js';
import type { AgentFactory } from './contract.js';
import { httpAgent, probeService } from './http-agent.js';
import { commandAgent, probeCommand } from './command-agent.js';
import { apiKeyFrom } from '../model/openai.js';
import { llmAgent } from './llm.js';
import { anthropicSettingsSchema, llmSettingsSchema, type LlmSettings } from '../ground/config.js';
import { anthropicAgent } from './anthropic.js';
import { anthropicKeyFrom } from '../model/anthropic.js';
import { resolveAgent } from './registry.js';

/** Whether a spec names a module file rather than a built-in agent. */
export const isModuleSpec = (spec: string): boolean => /^(\.{1,2}\/|\/)/.test(spec) || /\.(ts|mts|js|mjs)$/.test(spec) || isAbsolute(spec);

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

/** Loads an agent module: its default export (or an export named `agent`) must be an agent factory. */
export async function loadModuleAgent(spec: string, cwd: string = process.cwd()): Promise<AgentFactory> {
  const path = resolve(cwd, spec);
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

/** Resolves any agent spec; `llm:MODEL` uses the given LLM settings with that model. */
export async function loadAgent(spec: string, cwd?: string, llm: LlmSettings = llmSettingsSchema.parse({}), anthropic: LlmSettings = anthropicSettingsSchema.parse({})): Promise<AgentFactory> {
  const s = spec.trim();
  const source = agentSource(s);
  if (s.startsWith('anthropic:')) {
    // `anthropic:MODEL+backoff`: the model on the Messages API, then strategies around its tool calls.
    const [model = '', ...strategies] = s.slice('anthropic:'.length).split('+');
    const settings = model ? { ...anthropic, model } : anthropic;
    const agent = anthropicAgent(settings, strategies.length > 0 ? strategies.join('+') : undefined);
    anthropicKeyFrom(settings); // refuse before any episode runs, not once per episode
    return agent;
  }
  if (source === 'llm') {
    // `llm:MODEL+backoff+idempotency`: the model, then strategies around its tool calls.
    const [model = '', ...strategies] = s.slice(4).split('+');
    const settings = model ? { ...llm, model } : llm;
    const agent = llmAgent(settings, strategies.length > 0 ? strategies.join('+') : undefined);
    apiKeyFrom(settings); // refuse before any episode runs, not once per episode
    return agent;
  }
  if (source === 'http') return httpAgent(s, await probeService(s));
  if (source === 'command') {
    // `cmd:COMMAND`: one process per episode, run by the shell in the current directory.
    const command = s.slice('cmd:'.length).trim();
    return commandAgent(command, cwd ?? process.cwd(), await probeCommand(command, cwd));
  }
  if (source === 'module') return loadModuleAgent(s, cwd);
  return resolveAgent(s);
}
