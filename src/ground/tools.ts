import type { ToolSpec } from './world.js';

/** The outcome of one tool call, parsed. `status` 0 means the call rejected (network-level failure). */
export interface ToolResult {
  readonly ok: boolean;
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
  /** The rejection, when the call did not produce a response. */
  readonly error?: unknown;
}

export interface CallToolOptions {
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
}

/**
 * Calls a tool by its spec: path parameters go into the path, the rest into the query (GET) or a JSON
 * body (POST). Never throws for HTTP or network failures; they come back as a result.
 */
export async function callTool(
  fetchFn: typeof fetch,
  baseUrl: string,
  spec: Pick<ToolSpec, 'method' | 'path'>,
  args: Readonly<Record<string, unknown>>,
  options: CallToolOptions = {},
): Promise<ToolResult> {
  const rest: Record<string, unknown> = { ...args };
  const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ''));
  });
  const url = new URL(baseUrl + path);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const init: RequestInit = { method: spec.method, headers };
  if (options.signal) init.signal = options.signal;
  if (spec.method === 'GET') {
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) url.searchParams.set(k, String(v));
  } else {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(rest);
  }
  let response: Response;
  try {
    response = await fetchFn(url, init);
  } catch (error) {
    return { ok: false, status: 0, body: undefined, headers: new Headers(), error };
  }
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // A truncated or non-JSON body stays text; the caller decides what that means.
  }
  return { ok: response.ok, status: response.status, body, headers: response.headers };
}

/** A call's arguments as the tool sees them: path parameters by the spec's template, then the query or JSON body. */
export function callArgs(spec: Pick<ToolSpec, 'method' | 'path'>, url: URL, body: string | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const { names, pattern } = pathParams(spec.path);
  if (names.length > 0) {
    const m = pattern.exec(url.pathname);
    names.forEach((name, i) => {
      const v = m?.[i + 1];
      if (v !== undefined) args[name] = safeDecode(v);
    });
  }
  if (spec.method === 'GET') {
    for (const [k, v] of url.searchParams) args[k] = v;
  } else if (body) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) Object.assign(args, parsed);
    } catch {
      // Not JSON: the tool answers 400; the trace keeps the path parameters.
    }
  }
  return args;
}

/** A path template's parameter names and the pattern that reads them, compiled once per template: every traced call asks. */
const pathPatterns = new Map<string, { readonly names: readonly string[]; readonly pattern: RegExp }>();
function pathParams(path: string): { readonly names: readonly string[]; readonly pattern: RegExp } {
  let found = pathPatterns.get(path);
  if (!found) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    const pattern = new RegExp(`/api${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}/?$`);
    pathPatterns.set(path, (found = { names, pattern }));
  }
  return found;
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/**
 * The argument a write tool takes its Idempotency-Key in where a call has no headers (a model's function
 * tools, MCP): the agent reuses it when it retries the same change.
 */
export const KEY_ARG = 'idempotency_key';

/** Whether a tool takes the key argument: a write, unless it has an argument of that name of its own. */
const takesKeyArg = (tool: { readonly write: boolean; readonly inputSchema: Record<string, unknown> }): boolean =>
  tool.write && (tool.inputSchema as { properties?: Record<string, unknown> }).properties?.[KEY_ARG] === undefined;

/** A tool's JSON Schema input with the optional key argument added where the tool takes it. */
export function inputSchemaWithKey(tool: { readonly write: boolean; readonly inputSchema: Record<string, unknown> }, description: string): Record<string, unknown> {
  if (!takesKeyArg(tool)) return tool.inputSchema;
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
  return { ...tool.inputSchema, properties: { ...properties, [KEY_ARG]: { type: 'string', description } } };
}

/** A call's arguments without the key argument, and the key (a non-empty string), for a tool that takes it. */
export function splitKeyArg(spec: Pick<ToolSpec, 'write' | 'input'>, args: Readonly<Record<string, unknown>>): { args: Record<string, unknown>; idempotencyKey?: string } {
  // A world tool that itself takes `idempotency_key` keeps it as an argument.
  const own = (spec.input.shape as Record<string, unknown>)[KEY_ARG] !== undefined;
  if (!spec.write || own) return { args: { ...args } };
  const { [KEY_ARG]: key, ...rest } = args;
  return { args: rest, ...(typeof key === 'string' && key !== '' ? { idempotencyKey: key } : {}) };
}
