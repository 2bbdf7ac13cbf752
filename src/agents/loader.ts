/**
 * Turns an agent spec from the command line or a config into a factory: a built-in (`reference:robust`),
 * a module (`./my-agent.ts`, loaded without a build step), a service (`http://127.0.0.1:8000`), a command
 * launched per episode (`cmd:node ./agent.mjs`) or a model behind an API (`llm:MODEL`, `anthropic:MODEL`).
 */
import type { AgentFactory } from './contract.js';
import { httpAgent, probeService } from './http-agent.js';
import { commandAgent, probeCommand } from './command-agent.js';
import { apiKeyFrom } from '../model/openai.js';
import { llmAgent } from './llm.js';
import { agentLimitsSchema, anthropicSettingsSchema, llmSettingsSchema, type AgentLimits, type LlmSettings } from '../ground/config.js';
import { hostedAgent } from './hosted.js';
import { builtInTasks, type SandboxSettings } from './host/sandbox.js';
import { useNamespaces } from './host/namespace.js';
import { resolve } from 'node:path';
import { anthropicAgent } from './anthropic.js';
import { anthropicKeyFrom } from '../model/anthropic.js';
import { resolveAgent } from './registry.js';
import { agentSource, isModuleSpec } from './module.js';

export { agentSource, isModuleSpec, loadModuleAgent } from './module.js';


/** How agents that run as processes of their own are bounded, and what they get of the environment. */
export interface ProcessAgentOptions {
  /** @default the defaults of `agentLimitsSchema` */
  readonly limits?: AgentLimits;
  /** @default [] */
  readonly env?: readonly string[];
  /** The episodes' wall-clock deadline, in ms. @default 60000 */
  readonly deadlineMs?: number;
  /** What a module agent's process may touch. @default sandboxed */
  readonly sandbox?: SandboxSettings;
  /** Folders a module agent must not read (the run directory, a world's scenarios). @default [] */
  readonly hidden?: readonly string[];
}

/**
 * Resolves any agent spec; `llm:MODEL` uses the given LLM settings with that model. A module agent runs
 * in a process of its own (hosted.ts), a command agent in one per episode, each under `processes`.
 */
export async function loadAgent(spec: string, cwd?: string, llm: LlmSettings = llmSettingsSchema.parse({}), anthropic: LlmSettings = anthropicSettingsSchema.parse({}), processes: ProcessAgentOptions = {}): Promise<AgentFactory> {
  const limits = processes.limits ?? agentLimitsSchema.parse({});
  const env = processes.env ?? [];
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
  if (source === 'http') return httpAgent(s, await probeService(s), { limits });
  if (source === 'command') {
    // `cmd:COMMAND`: one process per episode, run by the shell in the current directory.
    const command = s.slice('cmd:'.length).trim();
    const namespaces = processes.sandbox?.namespaces ?? 'auto';
    const hidden = [...builtInTasks(), ...(processes.hidden ?? []).map((h) => resolve(cwd ?? process.cwd(), h))];
    const enclosure = useNamespaces(namespaces) ? { hidden } : undefined;
    return commandAgent(command, cwd ?? process.cwd(), await probeCommand(command, cwd, env, enclosure), { limits, env, hidden, namespaces });
  }
  if (source === 'module') return hostedAgent(s, { ...(cwd ? { cwd } : {}), limits, env, ...(processes.deadlineMs !== undefined ? { deadlineMs: processes.deadlineMs } : {}), ...(processes.sandbox ? { sandbox: processes.sandbox } : {}), ...(processes.hidden ? { hidden: processes.hidden } : {}) });
  return resolveAgent(s);
}
