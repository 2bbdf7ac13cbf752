/**
 * An agent on the Anthropic Messages API (`anthropic:MODEL`): the world's tools as tools with an
 * `input_schema`, the model's `tool_use` blocks run through the episode's fetch (so faults reach it) and
 * answered with `tool_result` blocks, token usage from `usage`. Settings, budgets, the wait tool, the
 * idempotency key argument and key handling are the OpenAI-compatible agent's (llm.ts); the key goes in
 * `x-api-key` and never leaves this module.
 */
import { ShakedownError } from '../core/errors.js';
import type { LlmSettings } from '../core/config.js';
import type { AgentContext, AgentFactory } from './contract.js';
import { withStrategies } from './client.js';
import { checkToolTransport, postWithRetries, SYSTEM, toolboxFor } from './llm.js';
import { parseStrategies, strategyName } from './strategies.js';

/** The Messages API version this agent speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown } | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };
interface Message {
  role: 'user' | 'assistant';
  content: string | Block[];
}
interface MessagesResponse {
  content?: Block[];
  stop_reason?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** Most tokens one answer may have. */
const MAX_TOKENS = 1024;

/** One Messages request with its own retries (429, 529 and other 5xx); throws a message that never contains the key. */
export function createMessage(settings: LlmSettings, apiKey: string, body: Record<string, unknown>, signal?: AbortSignal, scope?: string): Promise<MessagesResponse> {
  return postWithRetries<MessagesResponse>('Anthropic API', `${settings.baseUrl.replace(/\/+$/, '')}/messages`, settings, apiKey, { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }, { model: settings.model, max_tokens: MAX_TOKENS, temperature: settings.temperature, ...body }, signal, scope);
}

/** Reads the key from its environment variable, or explains what to set. */
export function anthropicKeyFrom(settings: LlmSettings, env: NodeJS.ProcessEnv = process.env): string {
  const key = env[settings.apiKeyEnv];
  if (!key) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to start the Anthropic agent: the environment variable \`${settings.apiKeyEnv}\` is empty. Set it to your API key (or name another variable with \`anthropic.apiKeyEnv\`).`);
  return key;
}

/** The Anthropic agent for the given settings; `anthropic:MODEL` overrides the model. */
export function anthropicAgent(settings: LlmSettings, strategies?: string): AgentFactory {
  checkToolTransport(settings, strategies, 'anthropic');
  const named = strategies && strategies !== 'none' ? `+${strategyName(parseStrategies(strategies))}` : '';
  return {
    id: `anthropic:${settings.model}${named}`,
    description: `Anthropic Messages agent (${settings.model} at ${settings.baseUrl})${named ? `, its tool calls behind ${named.slice(1)}` : ''}${settings.tools === 'mcp' ? ', tools over MCP' : ''}`,
    time: { mode: 'real' },
    async create(agentCtx: AgentContext) {
      const ctx = named ? { ...agentCtx, fetch: withStrategies(agentCtx, strategies as string) } : agentCtx;
      const apiKey = anthropicKeyFrom(settings);
      const toolbox = await toolboxFor(ctx, settings);
      const tools = toolbox.tools.map((t) => ({ name: t.function.name, description: t.function.description, input_schema: t.function.parameters }));
      const messages: Message[] = [];
      const usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
      return {
        async reply(message: string) {
          messages.push({ role: 'user', content: message });
          for (let step = 0; step < settings.maxSteps; step++) {
            const answer = await createMessage(settings, apiKey, { system: SYSTEM(ctx.policy), messages, tools }, ctx.signal, ctx.episodeId);
            usage.calls++;
            usage.promptTokens += answer.usage?.input_tokens ?? 0;
            usage.completionTokens += answer.usage?.output_tokens ?? 0;
            ctx.reportUsage?.({ ...usage });
            const blocks = answer.content ?? [];
            if (!answer.content) throw new Error('the Anthropic API answered without content');
            messages.push({ role: 'assistant', content: blocks });
            const uses = blocks.filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use');
            if (uses.length === 0) return blocks.filter((b): b is Extract<Block, { type: 'text' }> => b.type === 'text').map((b) => b.text).join('\n');
            const results: Block[] = [];
            for (const use of uses) {
              const { content, failed } = await toolbox.call(use.name, JSON.stringify(use.input ?? {}));
              results.push({ type: 'tool_result', tool_use_id: use.id, content, ...(failed ? { is_error: true } : {}) });
            }
            messages.push({ role: 'user', content: results });
          }
          return "I'm sorry, I couldn't finish this in time. Please try again.";
        },
      };
    },
  };
}
