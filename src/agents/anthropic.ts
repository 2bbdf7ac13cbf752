/**
 * An agent on the Anthropic Messages API (`anthropic:MODEL`): the world's tools as tools with an
 * `input_schema`, the model's `tool_use` blocks run through the episode's fetch (so faults reach it) and
 * answered with `tool_result` blocks, token usage from `usage`. Settings, budgets, the wait tool, the
 * idempotency key argument and key handling are the OpenAI-compatible agent's (llm.ts); the key goes in
 * `x-api-key` and never leaves this module.
 */
import { ShakedownError } from '../ground/errors.js';
import type { LlmSettings } from '../ground/config.js';
import type { AgentContext, AgentFactory } from './contract.js';
import { withStrategies } from './client.js';
import { checkToolTransport, SYSTEM, toolboxFor } from './llm.js';
import { anthropicKeyFrom, createMessage, type Block, type Message } from '../model/anthropic.js';
import { parseStrategies, strategyName } from './strategies.js';

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
