/**
 * An agent built with the Vercel AI SDK (ai 6), run by Shakedown like any other. Its tools fetch the
 * episode's tool URLs, so Shakedown's faults reach it.
 *
 *   npx shakedown sweep --agent ./examples/ai-sdk-agent.ts --scenario read-order-status --eps 0 --lambda 0,0.3
 *
 * The default export runs offline on a small scripted model (the AI SDK's MockLanguageModelV3) so the
 * example works without an API key; pass a real one to `aiSdkAgent`, e.g.
 * `aiSdkAgent(openai('gpt-4o-mini'))` with `@ai-sdk/openai`.
 */
import { generateText, jsonSchema, stepCountIs, tool, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { callTool, defineAgent, type AgentFactory } from '../src/index.js';

/** An agent on the AI SDK: the world's tools become AI SDK tools that call the tool API over `fetch`. */
export function aiSdkAgent(model: LanguageModel, id = 'ai-sdk'): AgentFactory {
  return defineAgent({
    id,
    description: 'an agent built with the Vercel AI SDK (generateText with tools)',
    create(ctx) {
      const tools: ToolSet = Object.fromEntries(
        ctx.toolSpecs.map((spec) => [
          spec.name,
          tool({
            description: spec.description,
            inputSchema: jsonSchema<Record<string, unknown>>(ctx.tools.find((t) => t.name === spec.name)?.inputSchema ?? { type: 'object' }),
            execute: async (args: Record<string, unknown>) => {
              const r = await callTool(ctx.fetch, ctx.baseUrl, spec, args, { signal: ctx.signal });
              return r.status === 0 ? { error: 'no response from the service' } : { status: r.status, body: r.body ?? null };
            },
          }),
        ]),
      );
      const messages: ModelMessage[] = [];
      return {
        async reply(message) {
          messages.push({ role: 'user', content: message });
          const result = await generateText({ model, system: ctx.policy, messages, tools, stopWhen: stepCountIs(6), abortSignal: ctx.signal, maxRetries: 0 });
          messages.push(...result.response.messages);
          return result.text;
        },
      };
    },
  });
}

/** A scripted stand-in for a model: looks an order up when the user names one, then reports its status. */
export function scriptedOrderModel(): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    modelId: 'scripted-order-model',
    doGenerate: async ({ prompt }) => {
      calls++;
      const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
      const last = prompt.at(-1);
      const userText = [...prompt].reverse().find((m) => m.role === 'user');
      const said = userText && Array.isArray(userText.content) ? userText.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ') : '';
      const id = /#?\s?(W\d{7})/i.exec(said)?.[1]?.toUpperCase();
      if (last?.role === 'tool') {
        const part = last.content.find((p) => p.type === 'tool-result');
        const value = part?.type === 'tool-result' && part.output.type === 'json' ? (part.output.value as { status?: number; body?: { status?: string } }) : undefined;
        const text = value?.status === 200 && value.body?.status ? `Order #${id} is ${value.body.status}.` : `Sorry, I could not look up order #${id} right now.`;
        return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      }
      if (id) {
        return { content: [{ type: 'tool-call', toolCallId: `call-${calls}`, toolName: 'get_order', input: JSON.stringify({ orderId: `#${id}` }) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      }
      return { content: [{ type: 'text', text: 'Which order do you mean? Please give me the order number.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
}

export default aiSdkAgent(scriptedOrderModel());
