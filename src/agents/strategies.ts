import { z } from 'zod';
import type { ToolResult } from '../core/tools.js';
import { unknownId, ShakedownError } from '../core/errors.js';

/** A tool call as a reference agent makes it; strategies wrap it. */
export type ToolCall = (tool: string, args: Readonly<Record<string, unknown>>) => Promise<ToolResult>;

export interface StrategyContext {
  readonly clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  readonly signal: AbortSignal;
  /** Whether a tool changes state. */
  isWrite(tool: string): boolean;
}

/** How a reference agent reacts to failed tool calls. Strategies compose: the first listed is outermost. */
export interface Strategy<P extends z.ZodObject = z.ZodObject> {
  readonly id: string;
  readonly description: string;
  readonly params: P;
  wrap(next: ToolCall, ctx: StrategyContext, params: z.output<P>): ToolCall;
}

/** Failures worth another attempt: no response, timeouts, rate limits and server errors. */
export const isRetryable = (r: ToolResult): boolean => r.status === 0 || r.status === 408 || r.status === 429 || r.status >= 500;

const none: Strategy = {
  id: 'none',
  description: 'one attempt per call; a failure is reported to the user',
  params: z.object({}),
  wrap: (next) => next,
};

const retryParams = z.object({
  /** Extra attempts after the first. @default 3 */
  retries: z.number().int().min(0).max(20).default(3),
  /** Fixed pause between attempts, in simulated ms. @default 1000 */
  delayMs: z.number().int().min(0).default(1000),
});

const retry: Strategy<typeof retryParams> = {
  id: 'retry',
  description: 'retries timeouts, 429 and 5xx a fixed number of times after a fixed pause (ignores Retry-After)',
  params: retryParams,
  wrap: (next, ctx, p) => async (tool, args) => {
    let result = await next(tool, args);
    for (let i = 0; i < p.retries && !result.ok && isRetryable(result); i++) {
      await ctx.clock.sleep(p.delayMs, ctx.signal);
      result = await next(tool, args);
    }
    return result;
  },
};

/** Every strategy, by id. */
export const strategies: readonly Strategy[] = [none, retry as unknown as Strategy];

/** A strategy by id; an unknown id lists the valid ones. */
export function getStrategy(id: string): Strategy {
  const s = strategies.find((x) => x.id === id);
  if (!s) throw unknownId('strategy', id, strategies.map((x) => x.id));
  return s;
}

/** Parses `retry+none` into strategies; an empty spec is `none`. */
export function parseStrategies(spec: string): Strategy[] {
  const ids = spec.split('+').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) return [none];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to compose strategies \`${spec}\`: \`${id}\` is listed twice. List each strategy once.`);
    seen.add(id);
  }
  return ids.map(getStrategy);
}

/** Wraps a tool call in strategies, the first listed outermost. */
export function composeStrategies(call: ToolCall, list: readonly Strategy[], ctx: StrategyContext, params: Readonly<Record<string, unknown>> = {}): ToolCall {
  return [...list].reverse().reduce<ToolCall>((inner, s) => s.wrap(inner, ctx, s.params.parse(params[s.id] ?? {})), call);
}
