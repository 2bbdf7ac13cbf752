import { z } from 'zod';
import { callTool, type ToolResult } from '../ground/tools.js';
import { deriveSeed, makeRng, type Rng } from '../ground/seeds.js';
import type { ToolSpec } from '../ground/world.js';
import { unknownId, ShakedownError } from '../ground/errors.js';
import { tolerantParse } from './tolerant.js';
import { untilMs } from '../model/pace.js';
import type { AgentContext } from './contract.js';

/** Options of one tool call. */
export interface CallOptions {
  /** Sent as `Idempotency-Key`: the same key on every attempt of one logical write. */
  readonly idempotencyKey?: string;
}

/** A tool call as a reference agent makes it; strategies wrap it. */
export type ToolCall = (tool: string, args: Readonly<Record<string, unknown>>, options?: CallOptions) => Promise<ToolResult>;

/** Whether a write took effect, as the agent can tell by reading the state. */
export type WriteCheck = 'done' | 'not-done' | 'unknown';

export interface StrategyContext {
  readonly clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  readonly signal: AbortSignal;
  /** Whether a tool changes state. */
  isWrite(tool: string): boolean;
  /** The tools, with their response schemas where the world declares them. */
  readonly toolSpecs?: readonly ToolSpec[];
  /** The agent's own seeded randomness (jitter). */
  readonly rng?: Rng;
  /** Reads the state to tell whether a write took effect (the agent knows its world; `verify` asks it). */
  verifyWrite?(tool: string, args: Readonly<Record<string, unknown>>): Promise<WriteCheck>;
  /** Another route to the same fact when a read comes back empty (`fallback` asks it). */
  alternative?(tool: string, args: Readonly<Record<string, unknown>>, call: ToolCall): Promise<ToolResult | undefined>;
}

/**
 * How a reference agent reacts to failed tool calls. Strategies compose; each sits at a fixed `layer`
 * (smaller is outer) whatever order they are listed in, so that `backoff+idempotency` and
 * `idempotency+backoff` are the same agent: a key is made once per logical write, outside every retry.
 */
export interface Strategy<P extends z.ZodObject = z.ZodObject> {
  readonly id: string;
  readonly description: string;
  readonly params: P;
  readonly layer: number;
  /** The agent hands the conversation to a human instead of reporting a failure it cannot fix. */
  readonly handsOff?: boolean;
  /** The agent asks the user to confirm a record it cannot find before giving up on it. */
  readonly confirmsNotFound?: boolean;
  wrap(next: ToolCall, ctx: StrategyContext, params: z.output<P>): ToolCall;
}

/** Failures worth another attempt: no response, timeouts, rate limits and server errors. */
export const isRetryable = (r: ToolResult): boolean => r.status === 0 || r.status === 408 || r.status === 429 || r.status >= 500;

/** A success whose body did not parse (a body cut short): the JSON the caller needs is not there. */
export const isUnreadable = (r: ToolResult): boolean => r.ok && typeof r.body === 'string' && r.body.length > 0;

/** A write whose outcome the caller cannot know: it may have committed. */
export const isUncertain = (r: ToolResult): boolean => r.status === 0 || r.status === 408 || r.status === 504 || r.status === 500 || r.status === 502 || isUnreadable(r);

/**
 * Delay in ms a response asks for (`Retry-After` seconds or an HTTP date), if any. A date is read against
 * the answer's own `Date`, on whatever clock the server wrote both (docs/faults.md, "What a client may rely
 * on"); `now` only where the answer has none.
 */
export function retryAfterMs(r: ToolResult, now: number): number | undefined {
  const sent = Date.parse(r.headers.get('date') ?? '');
  // The model client's reading of a Retry-After (src/model/pace.ts), against the answer's own Date.
  return untilMs(r.headers.get('retry-after') ?? undefined, Number.isNaN(sent) ? now : sent);
}

const strict = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

const none: Strategy = {
  id: 'none',
  description: 'one attempt per call; a failure is reported to the user',
  params: strict({}),
  layer: 100,
  wrap: (next) => next,
};

const retryParams = strict({
  /** Extra attempts after the first. @default 3 */
  retries: z.number().int().min(0).max(20).default(3),
  /** Fixed pause between attempts, in simulated ms. @default 1000 */
  delayMs: z.number().int().min(0).default(1000),
});

const retry: Strategy<typeof retryParams> = {
  id: 'retry',
  description: 'retries timeouts, 429 and 5xx a fixed number of times after a fixed pause (ignores Retry-After; writes too, without a key)',
  params: retryParams,
  layer: 50,
  wrap: (next, ctx, p) => async (tool, args, options) => {
    let result = await next(tool, args, options);
    for (let i = 0; i < p.retries && !result.ok && isRetryable(result); i++) {
      await ctx.clock.sleep(p.delayMs, ctx.signal);
      result = await next(tool, args, options);
    }
    return result;
  },
};

const backoffParams = strict({
  /** Extra attempts after the first. @default 5 */
  retries: z.number().int().min(0).max(20).default(5),
  /** First delay ceiling, simulated ms; it doubles per attempt. @default 500 */
  baseMs: z.number().int().min(1).default(500),
  /** Largest delay ceiling, simulated ms. @default 16000 */
  capMs: z.number().int().min(1).default(16_000),
  /** Longest Retry-After it honours, simulated ms; a longer one ends the attempts. @default 60000 */
  maxRetryAfterMs: z.number().int().min(0).default(60_000),
});

const backoff: Strategy<typeof backoffParams> = {
  id: 'backoff',
  description: 'exponential backoff with full jitter, honouring Retry-After (seconds or HTTP date), capped; also re-reads a body cut short',
  params: backoffParams,
  layer: 50,
  wrap: (next, ctx, p) => async (tool, args, options) => {
    let result = await next(tool, args, options);
    for (let i = 0; i < p.retries; i++) {
      const again = (!result.ok && isRetryable(result)) || (isUnreadable(result) && !ctx.isWrite(tool));
      if (!again) break;
      const asked = retryAfterMs(result, ctx.clock.now());
      if (asked !== undefined && asked > p.maxRetryAfterMs) break;
      const ceiling = Math.min(p.capMs, p.baseMs * 2 ** i);
      const jitter = Math.floor((ctx.rng?.() ?? 0.5) * ceiling);
      await ctx.clock.sleep(Math.max(jitter, asked ?? 0), ctx.signal);
      result = await next(tool, args, options);
    }
    return result;
  },
};

const idempotency: Strategy = {
  id: 'idempotency',
  description: 'sends an Idempotency-Key on every write, the same on each attempt of one write, so a retry cannot write twice',
  params: strict({}),
  layer: 10,
  wrap: (next, ctx) => {
    let counter = 0;
    const prefix = Math.floor((ctx.rng?.() ?? 0) * 2 ** 32).toString(36);
    return (tool, args, options) => (ctx.isWrite(tool) && !options?.idempotencyKey ? next(tool, args, { ...options, idempotencyKey: `${prefix}-${tool}-${++counter}` }) : next(tool, args, options));
  },
};

const verifyParams = strict({
  /** Attempts of one write in all, reading the state between them. @default 3 */
  attempts: z.number().int().min(1).max(10).default(3),
  /**
   * Which successes it does not take on trust and reads back: `money`, the writes the world marks as moving
   * money (`ToolSpec.money`, the world's policy); `every-write`; `none`, only uncertain answers. @default money
   */
  after: z.enum(['money', 'every-write', 'none']).default('money'),
});

const verify: Strategy<typeof verifyParams> = {
  id: 'verify',
  description: "after an uncertain write (timeout, reset, 5xx, unreadable body), and after a success it cannot trust (a write the world marks as moving money), reads the state before trying again",
  params: verifyParams,
  layer: 20,
  wrap: (next, ctx, p) => async (tool, args, options) => {
    let result = await next(tool, args, options);
    if (!ctx.isWrite(tool) || !ctx.verifyWrite) return result;
    const distrusted = p.after === 'every-write' || (p.after === 'money' && ctx.toolSpecs?.find((t) => t.name === tool)?.money === true);
    for (let i = 1; i < p.attempts; i++) {
      // A success read back: the state says whether it took effect (a tool may acknowledge a write it lost).
      const unconfirmed = distrusted && result.ok && !isUnreadable(result) && result.headers.get('x-shakedown-verified') === null;
      if (!(unconfirmed || isUncertain(result) || (!result.ok && isRetryable(result)))) break;
      const check = isUncertain(result) || unconfirmed ? await ctx.verifyWrite(tool, args) : 'not-done';
      if (check === 'done') return unconfirmed ? result : { ok: true, status: 200, body: undefined, headers: new Headers({ 'x-shakedown-verified': 'true' }) };
      if (check === 'unknown') return result;
      result = await next(tool, args, options);
    }
    return result;
  },
};

const breakerParams = strict({
  /** Consecutive failures of a tool that open its circuit. @default 3 */
  threshold: z.number().int().min(1).default(3),
  /** Simulated ms the circuit stays open before one probe call is let through. @default 15000 */
  cooldownMs: z.number().int().min(0).default(15_000),
});

const breaker: Strategy<typeof breakerParams> = {
  id: 'breaker',
  description: 'a circuit breaker per tool: after repeated failures calls fail fast, then one half-open probe decides',
  params: breakerParams,
  layer: 80,
  wrap: (next, ctx, p) => {
    const state = new Map<string, { failures: number; openUntil: number }>();
    return async (tool, args, options) => {
      const s = state.get(tool) ?? { failures: 0, openUntil: 0 };
      state.set(tool, s);
      if (s.failures >= p.threshold && ctx.clock.now() < s.openUntil) {
        // Open: fail fast without touching the service.
        return { ok: false, status: 503, body: { error: 'circuit_open', message: `${tool} is failing; not called.` }, headers: new Headers({ 'retry-after': String(Math.ceil((s.openUntil - ctx.clock.now()) / 1000)) }) };
      }
      // Closed, or half-open after the cooldown: this call is the probe.
      const result = await next(tool, args, options);
      if (!result.ok && isRetryable(result)) {
        s.failures++;
        if (s.failures >= p.threshold) s.openUntil = ctx.clock.now() + p.cooldownMs;
      } else {
        s.failures = 0;
      }
      return result;
    };
  },
};

const tolerant: Strategy = {
  id: 'tolerant',
  description: "schema-tolerant parsing: reads a drifted response back into the tool's declared shape (aliases, nesting, coercions)",
  params: strict({}),
  layer: 90,
  wrap: (next, ctx) => async (tool, args, options) => {
    const result = await next(tool, args, options);
    const output = ctx.toolSpecs?.find((t) => t.name === tool)?.output;
    if (!result.ok || !output || result.body === undefined || typeof result.body === 'string') return result;
    return { ...result, body: tolerantParse(output, result.body) };
  },
};

const fallback: Strategy = {
  id: 'fallback',
  description: 'another route to the same fact when a read comes back empty (the order list instead of the order; a flight search instead of its status), or asks the user to confirm',
  params: strict({}),
  layer: 30,
  confirmsNotFound: true,
  wrap: (next, ctx) => async (tool, args, options) => {
    const result = await next(tool, args, options);
    if (ctx.isWrite(tool) || !ctx.alternative) return result;
    const empty = result.status === 404 || (result.ok && looksEmpty(result.body));
    if (!empty) return result;
    return (await ctx.alternative(tool, args, next)) ?? result;
  },
};

/** A list response with nothing in it, or a record with a null field. */
function looksEmpty(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  const values = Object.values(body);
  return (values.length === 1 && Array.isArray(values[0]) && values[0].length === 0) || values.some((v) => v === null);
}

const escalate: Strategy = {
  id: 'escalate',
  description: 'hands the conversation to a human with a message when a failure cannot be fixed, instead of leaving the user with it',
  params: strict({}),
  layer: 0,
  handsOff: true,
  wrap: (next) => next,
};

/** Every strategy, by id. */
export const strategies: readonly Strategy[] = [none, retry, backoff, idempotency, verify, breaker, tolerant, fallback, escalate] as unknown as readonly Strategy[];

/** Named compositions. */
export const compositions: Readonly<Record<string, string>> = {
  robust: 'backoff+idempotency+verify+breaker+tolerant+fallback+escalate',
};

/** A strategy by id; an unknown id lists the valid ones. */
export function getStrategy(id: string): Strategy {
  const s = strategies.find((x) => x.id === id);
  if (!s) throw unknownId('strategy', id, [...strategies.map((x) => x.id), ...Object.keys(compositions)]);
  return s;
}

/** Parses `backoff+idempotency` (or a named composition such as `robust`) into strategies; an empty spec is `none`. */
export function parseStrategies(spec: string): Strategy[] {
  const ids = spec
    .split('+')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((id) => (compositions[id] ? (compositions[id] as string).split('+') : [id]));
  if (ids.length === 0) return [none];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to compose strategies \`${spec}\`: \`${id}\` is listed twice. List each strategy once.`);
    seen.add(id);
  }
  if ((ids.includes('retry') && ids.includes('backoff')) || (ids.includes('none') && ids.length > 1)) {
    throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to compose strategies \`${spec}\`: ${ids.includes('none') ? '`none` means no strategy; drop it or the others' : '`retry` and `backoff` are two ways to retry; pick one'}.`);
  }
  return ids.map(getStrategy);
}

/** The canonical name of a composition: its strategies in layer order, e.g. `idempotency+backoff`. */
export const strategyName = (list: readonly Strategy[]): string =>
  [...list]
    .sort((a, b) => a.layer - b.layer)
    .map((s) => s.id)
    .join('+');

/** Wraps a tool call in strategies, each at its layer (outermost first). */
export function composeStrategies(call: ToolCall, list: readonly Strategy[], ctx: StrategyContext, params: Readonly<Record<string, unknown>> = {}): ToolCall {
  return [...list].sort((a, b) => b.layer - a.layer).reduce<ToolCall>((inner, s) => s.wrap(inner, ctx, s.params.parse(params[s.id] ?? {})), call);
}

/** What a strategy-wrapped tool client needs of an agent's context. */
export type ClientContext = Pick<AgentContext, 'fetch' | 'baseUrl' | 'toolSpecs' | 'clock' | 'signal' | 'seed'>;

/**
 * An agent's tool calls (`callTool` on its fetch) wrapped in strategies: the one way both the reference
 * agents and `withStrategies` build their client. `rngLabel` names the agent's jitter stream.
 */
export function strategyClient(
  ctx: ClientContext,
  list: readonly Strategy[],
  params: Readonly<Record<string, unknown>>,
  rngLabel: string,
  hooks: { readonly verifyWrite?: StrategyContext['verifyWrite'] | undefined; readonly alternative?: StrategyContext['alternative'] | undefined } = {},
): ToolCall {
  const specs = new Map(ctx.toolSpecs.map((t) => [t.name, t]));
  const raw: ToolCall = (tool, args, options) => {
    const spec = specs.get(tool);
    if (!spec) throw new Error(`unknown tool ${tool}`);
    return callTool(ctx.fetch, ctx.baseUrl, spec, args, { signal: ctx.signal, ...(options?.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) });
  };
  return composeStrategies(
    raw,
    list,
    {
      clock: ctx.clock,
      signal: ctx.signal,
      isWrite: (t) => specs.get(t)?.write ?? false,
      toolSpecs: ctx.toolSpecs,
      rng: makeRng(deriveSeed(ctx.seed, rngLabel)),
      ...(hooks.verifyWrite ? { verifyWrite: hooks.verifyWrite } : {}),
      ...(hooks.alternative ? { alternative: hooks.alternative } : {}),
    },
    params,
  );
}
