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
import { callTool, defineAgent, type AgentFactory } from 'shakedown';

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

/**
 * A scripted stand-in for a model: it verifies the customer by e-mail, then looks the order up when the
 * user names one and reports its status (only for the customer's own orders), as the policy asks.
 */
export function scriptedOrderModel(): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    modelId: 'scripted-order-model',
    doGenerate: async ({ prompt }) => {
      calls++;
      const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
      const finish = (content: never[], tools = false) => ({ content, finishReason: tools ? { unified: 'tool-calls' as const, raw: 'tool_calls' } : { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] });
      const text = (t: string) => finish([{ type: 'text', text: t }] as never[]);
      const callTool_ = (toolName: string, input: unknown) => finish([{ type: 'tool-call', toolCallId: `call-${calls}`, toolName, input: JSON.stringify(input) }] as never[], true);
      const said = prompt.filter((m) => m.role === 'user').map((m) => (Array.isArray(m.content) ? m.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ') : '')).join(' ');
      const results = prompt.flatMap((m) => (m.role === 'tool' ? m.content : [])).flatMap((p) => (p.type === 'tool-result' && p.output.type === 'json' ? [{ tool: p.toolName, value: p.output.value as { status?: number; body?: Record<string, unknown> } }] : []));
      const id = /#?\s?(W\d{7})/i.exec(said)?.[1]?.toUpperCase();
      const email = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(said)?.[0];
      const found = results.filter((r) => r.tool === 'find_user_by_email').at(-1);
      const userId = found?.value.status === 200 ? found.value.body?.userId : undefined;
      const last = prompt.at(-1);
      if (last?.role === 'tool' && results.at(-1)?.tool === 'get_order') {
        const order = results.at(-1)?.value;
        if (order?.status !== 200 || typeof order.body?.status !== 'string') return text(`Sorry, I could not look up order #${id} right now.`);
        return text(order.body.userId === userId ? `Order #${id} is ${order.body.status}.` : `Order #${id} is not on your account, so I can't tell you about it.`);
      }
      if (!userId) {
        if (found && found.value.status !== 200) return text(found.value.status === 404 ? "I couldn't find an account with that e-mail. Could you check your email address?" : 'Sorry, I could not verify your identity right now.');
        if (!email) return text('Before I can help, I need to verify your identity. Could you give me your email address?');
        return callTool_('find_user_by_email', { email: email.toLowerCase() });
      }
      if (id) return callTool_('get_order', { orderId: `#${id}` });
      return text('Which order do you mean? Please give me the order number.');
    },
  });
}

export default aiSdkAgent(scriptedOrderModel());
