/**
 * The fallback strategies as middleware around any agent's tool client: `withStrategies(ctx, spec)`
 * returns a `fetch` that an agent (a module, a framework agent, the LLM agent) uses instead of
 * `ctx.fetch`, so that "my agent alone" and "my agent behind a resilient tool client" can be compared
 * in one sweep. Waits go through the episode's clock, keys are made once per logical write.
 */
import { callArgs, type ToolResult } from '../ground/tools.js';
import { ShakedownError } from '../ground/errors.js';
import type { ToolSpec } from '../ground/world.js';
import { parseStrategies, strategyClient, type ClientContext, type StrategyContext } from './strategies.js';

/** What a caller may add for the strategies that need to know its world. */
export interface ClientOptions {
  /** Parameters per strategy id, e.g. `{ backoff: { retries: 3 } }`. @default {} */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Reads the state to tell whether a write took effect: needed by `verify`. */
  readonly verifyWrite?: StrategyContext['verifyWrite'];
  /** Another route to a fact a read did not return: needed by `fallback`. */
  readonly alternative?: StrategyContext['alternative'];
}

interface CompiledTool {
  readonly spec: ToolSpec;
  readonly pattern: RegExp;
}

/** The tools' paths as patterns under the base URL's path, literal paths before templated ones. */
function compile(specs: readonly ToolSpec[], basePath: string): CompiledTool[] {
  const holes = (t: ToolSpec) => (t.path.match(/\{/g) ?? []).length;
  return [...specs]
    .sort((a, b) => holes(a) - holes(b))
    .map((spec) => ({
      spec,
      pattern: new RegExp(`^${(basePath + spec.path).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}/?$`),
    }));
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** A tool result as the Response the agent's fetch would have had; no answer rejects as fetch does. */
function asResponse(r: ToolResult): Response {
  if (r.status === 0) throw new TypeError('fetch failed', { cause: r.error });
  const body = r.body === undefined ? null : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  const headers = new Headers(r.headers);
  headers.delete('content-length');
  return new Response(body, { status: r.status, headers });
}

/**
 * A fetch with fallback strategies around every tool call (`backoff+idempotency`, `retry`, `breaker`,
 * `tolerant`, named compositions). A request that names no tool of the world goes through unchanged.
 * `verify` and `fallback` need to know the world (`options.verifyWrite`, `options.alternative`);
 * `escalate` is the agent's own conduct and is refused here.
 */
export function withStrategies(ctx: ClientContext, spec: string, options: ClientOptions = {}): typeof fetch {
  const list = parseStrategies(spec);
  for (const s of list) {
    if (s.handsOff) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to wrap a tool client in \`${spec}\`: \`${s.id}\` is a way of talking to the user, not of calling tools. Leave it out.`);
    if (s.id === 'verify' && !options.verifyWrite) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to wrap a tool client in \`${spec}\`: \`verify\` reads the state after an uncertain write and needs \`verifyWrite\` (how your world shows a write took effect). Pass it in the options, or leave \`verify\` out.`);
    if (s.id === 'fallback' && !options.alternative) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to wrap a tool client in \`${spec}\`: \`fallback\` needs \`alternative\` (another route to a fact). Pass it in the options, or leave \`fallback\` out.`);
  }
  const call = strategyClient(ctx, list, options.params ?? {}, 'client-strategies', options);
  const base = new URL(ctx.baseUrl);
  const tools = compile(ctx.toolSpecs, base.pathname.replace(/\/+$/, ''));
  return async (input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const url = new URL(request.url);
    const match = url.host === base.host ? tools.find((t) => t.spec.method === request.method && t.pattern.test(url.pathname)) : undefined;
    if (!match) return ctx.fetch(request);
    const body = request.method === 'GET' ? undefined : await request.text();
    if (body && !isJson(body)) return ctx.fetch(new Request(request.url, { method: request.method, headers: request.headers, body }));
    const args = callArgs(match.spec, url, body);
    // A key the agent set itself is kept; otherwise `idempotency` makes one per logical write.
    const key = request.headers.get('idempotency-key');
    return asResponse(await call(match.spec.name, args, key ? { idempotencyKey: key } : undefined));
  };
}
