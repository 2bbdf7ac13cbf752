/**
 * An agent backed by any OpenAI-compatible Chat Completions endpoint with tool calling. The world's tools
 * become function tools; the model's tool calls become HTTP requests through the episode's fetch (so
 * faults reach it); its own API calls are retried apart from tool faults. The API key is read from an
 * environment variable when an episode starts and never leaves this module.
 */
import { callTool, inputSchemaWithKey, KEY_ARG, splitKeyArg } from '../ground/tools.js';
import { ShakedownError } from '../ground/errors.js';
import type { LlmSettings } from '../ground/config.js';
import type { AgentContext, AgentFactory } from './contract.js';
import { withStrategies } from './client.js';
import { apiKeyFrom, chatCompletion, type ChatMessage, type Usage } from '../model/openai.js';
import { parseStrategies, strategyName } from './strategies.js';

/**
 * The conduct rules every world's policy states and the judge checks (docs/judging.md), restated so that a
 * model meets them whatever the policy's own words.
 */
const CONDUCT = [
  "Before you read a customer's private records or change anything, identify the customer with the lookup tools, using only details the customer gave you.",
  "Act only on the identified customer's own records; never tell a customer about another customer's records.",
  'Before each change, tell the customer exactly what will change (the record id and the key values, such as amounts) and wait for an explicit yes; if they decline, change nothing.',
  'After a change, tell the customer only what the tool results support: say it is done only when the tool confirmed it; if a call failed or you got no readable answer, say you are not sure whether it went through and check before trying again.',
  'Tell the customer the amounts and statuses they ask for only after a tool result has shown them to you.',
].map((r) => `- ${r}`).join('\n');

export const SYSTEM = (policy: string) =>
  `You are a customer service agent. Follow this policy exactly.\n\n${policy}\n\nRules of conduct:\n${CONDUCT}\n\nUse the tools to look things up and to act; never invent ids or amounts. Ask the user for anything you need. When a tool answers 429 or 503 with retryAfter, use the ${WAIT_TOOL} tool for that long before you retry; give each change an ${KEY_ARG} of your own and reuse it when you retry that change.`;

/** The LLM agent for the given settings; `llm:MODEL` on the command line overrides the model. */
export function llmAgent(settings: LlmSettings, strategies?: string): AgentFactory {
  checkToolTransport(settings, strategies, 'llm');
  const named = strategies && strategies !== 'none' ? `+${strategyName(parseStrategies(strategies))}` : '';
  return {
    id: `llm:${settings.model}${named}`,
    description: `OpenAI-compatible Chat Completions agent (${settings.model} at ${settings.baseUrl})${named ? `, its tool calls behind ${named.slice(1)}` : ''}${settings.tools === 'mcp' ? ', tools over MCP' : ''}`,
    // Its API latency is its thinking time: under `--agent-time auto` that real time moves the episode clock.
    time: { mode: 'real' },
    async create(agentCtx: AgentContext) {
      // `llm:MODEL+backoff`: the model's tool calls go through the strategies, its own API calls do not.
      const ctx = named ? { ...agentCtx, fetch: withStrategies(agentCtx, strategies as string) } : agentCtx;
      const apiKey = apiKeyFrom(settings);
      const toolbox = await toolboxFor(ctx, settings);
      const tools = toolbox.tools;
      const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM(ctx.policy) }];
      const usage: Usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
      return {
        async reply(message: string) {
          messages.push({ role: 'user', content: message });
          for (let step = 0; step < settings.maxSteps; step++) {
            const completion = await chatCompletion(settings, apiKey, { messages, tools }, ctx.signal, ctx.episodeId);
            usage.calls++;
            usage.promptTokens += completion.usage?.prompt_tokens ?? 0;
            usage.completionTokens += completion.usage?.completion_tokens ?? 0;
            ctx.reportUsage?.({ ...usage });
            const answer = completion.choices?.[0]?.message;
            if (!answer) throw new Error('the LLM API answered without a message');
            messages.push({ role: 'assistant', content: answer.content ?? null, ...(answer.tool_calls?.length ? { tool_calls: answer.tool_calls } : {}) });
            if (!answer.tool_calls?.length) return answer.content ?? '';
            for (const call of answer.tool_calls) {
              const { content } = await toolbox.call(call.function.name, call.function.arguments);
              messages.push({ role: 'tool', tool_call_id: call.id, content });
            }
          }
          return "I'm sorry, I couldn't finish this in time. Please try again.";
        },
      };
    },
  };
}

/** A function tool as the model is given it. */
export type FunctionTool = { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } };

/** A model agent's tools: what the model is shown, and how one of its calls is carried out. */
export interface Toolbox {
  /** The world's tools and the wait tool, as function tools. */
  readonly tools: FunctionTool[];
  /** Runs one call; whatever goes wrong is a message to the model (`failed`), never a throw. */
  call(name: string, rawArgs: string): Promise<{ content: string; failed: boolean }>;
}

/** Refuses strategies with tools over MCP: strategies wrap the HTTP calls an agent makes. */
export function checkToolTransport(settings: LlmSettings, strategies: string | undefined, setting: string): void {
  if (settings.tools === 'mcp' && strategies && strategies !== 'none') {
    throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to select \`+${strategies}\` with \`${setting}.tools: mcp\`: strategies wrap tool calls made over HTTP, and over MCP the tools are called through an MCP client. Drop the strategies, or take the tools over HTTP.`);
  }
}

/** The arguments of a model's tool call as an object, or the message that tells the model what was wrong. */
function parseArgs(name: string, rawArgs: string): { args: Record<string, unknown> } | { error: string } {
  let args: unknown;
  try {
    args = JSON.parse(rawArgs || '{}');
  } catch (error) {
    return { error: JSON.stringify({ error: `the arguments are not valid JSON (${(error as Error).message}); call ${name} again with a JSON object` }) };
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return { error: JSON.stringify({ error: `the arguments of ${name} must be a JSON object` }) };
  return { args: args as Record<string, unknown> };
}

/** Whether a tool message reports a failure: no answer, or an answer with a status outside 2xx. */
const failedContent = (content: string): boolean => /^\{"(error|status)":/.test(content) && !/^\{"status":2\d\d/.test(content);

/**
 * The model's tools as `settings.tools` says: over HTTP (`http`: function tools from the world's specs,
 * each call a request through the episode's fetch) or over MCP (`mcp`: the tools an MCP client lists on
 * the episode's MCP server, each call a `tools/call`; the model sees a result's text as it came, an error
 * result's `{status, retryAfter, date, body}`, and `{"error"}` when the call failed without an answer).
 * Either way the model also has the wait tool, unless the world has a tool of that name.
 */
export async function toolboxFor(ctx: AgentContext, settings: LlmSettings): Promise<Toolbox> {
  const withWait = (tools: FunctionTool[]) => {
    const waitTool = tools.some((t) => t.function.name === WAIT_TOOL) ? undefined : WAIT_TOOL;
    return { tools: waitTool ? [...tools, WAIT_SPEC] : tools, waitTool };
  };
  if (settings.tools === 'mcp') {
    if (!ctx.mcp) throw new Error('this episode offers no MCP client (ctx.mcp); take the tools over HTTP');
    const client = await ctx.mcp();
    const listed = await client.listTools();
    const { tools, waitTool } = withWait(listed.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description ?? '', parameters: t.inputSchema as Record<string, unknown> } })));
    return {
      tools,
      async call(name, rawArgs) {
        if (name === waitTool) {
          const content = await wait(ctx, rawArgs);
          return { content, failed: failedContent(content) };
        }
        const parsed = parseArgs(name, rawArgs);
        if ('error' in parsed) return { content: parsed.error, failed: true };
        try {
          const result = await client.callTool({ name, arguments: parsed.args });
          const text = ((result.content ?? []) as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
          return { content: text, failed: result.isError === true };
        } catch (error) {
          return { content: JSON.stringify({ error: `the call failed without a response (${(error as Error).message})` }), failed: true };
        }
      },
    };
  }
  const specs = new Map(ctx.toolSpecs.map((t) => [t.name, t]));
  const { tools, waitTool } = withWait(modelTools(ctx.tools));
  return {
    tools,
    async call(name, rawArgs) {
      const content = name === waitTool ? await wait(ctx, rawArgs) : await runToolCall(ctx, specs, name, rawArgs);
      return { content, failed: failedContent(content) };
    },
  };
}

/** The tool the model waits with, unless the world has a tool of that name. */
export const WAIT_TOOL = 'wait';
/** Longest wait the model may ask for at once, in seconds. */
const MAX_WAIT_S = 300;
export const WAIT_SPEC = {
  type: 'function' as const,
  function: {
    name: WAIT_TOOL,
    description: `Wait the given number of seconds (at most ${MAX_WAIT_S}) before going on, e.g. before retrying a tool that answered 429 or 503 with retryAfter.`,
    parameters: { type: 'object', properties: { seconds: { type: 'number', minimum: 0, maximum: MAX_WAIT_S } }, required: ['seconds'], additionalProperties: false },
  },
};

export { KEY_ARG } from '../ground/tools.js';

/** The world's tools as function tools; a write also takes an optional idempotency key. */
export function modelTools(tools: AgentContext['tools']): FunctionTool[] {
  return tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: inputSchemaWithKey(t, 'Optional. Sent as the Idempotency-Key header: give the same key when you retry the same change, so that it happens once.') } }));
}

/** The wait tool: the episode's clock waits (simulated time, no real wait). */
export async function wait(ctx: AgentContext, rawArgs: string): Promise<string> {
  let seconds: unknown;
  try {
    seconds = (JSON.parse(rawArgs || '{}') as { seconds?: unknown }).seconds;
  } catch {
    seconds = undefined;
  }
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_S) return JSON.stringify({ error: `give {"seconds": N} with 0 <= N <= ${MAX_WAIT_S}` });
  await ctx.clock.sleep(seconds * 1000, ctx.signal);
  return JSON.stringify({ waited: seconds, now: new Date(ctx.clock.now()).toUTCString() });
}

/** Runs one tool call for the model; whatever goes wrong becomes a message to the model, not a crash. */
export async function runToolCall(ctx: AgentContext, specs: ReadonlyMap<string, AgentContext['toolSpecs'][number]>, name: string, rawArgs: string): Promise<string> {
  const spec = specs.get(name);
  if (!spec) return JSON.stringify({ error: `no tool named ${name}; tools: ${[...specs.keys()].join(', ')}` });
  const parsed = parseArgs(name, rawArgs);
  if ('error' in parsed) return parsed.error;
  const { args, idempotencyKey } = splitKeyArg(spec, parsed.args);
  const r = await callTool(ctx.fetch, ctx.baseUrl, spec, args, { signal: ctx.signal, ...(idempotencyKey ? { idempotencyKey } : {}) });
  if (r.status === 0) return JSON.stringify({ error: `the call failed without a response (${(r.error as Error | undefined)?.message ?? 'network error'})` });
  const retryAfter = r.headers.get('retry-after');
  // A Retry-After date reads against the answer's own Date (the episode's time), which the model cannot know otherwise.
  const date = retryAfter && !/^\d+$/.test(retryAfter.trim()) ? r.headers.get('date') : null;
  return JSON.stringify({ status: r.status, ...(retryAfter ? { retryAfter } : {}), ...(date ? { date } : {}), ...(r.headers.get('idempotent-replayed') ? { replayed: true } : {}), body: r.body });
}
