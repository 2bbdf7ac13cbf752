/**
 * A world whose tools are a running HTTP service's own API, described by an OpenAPI document
 * (docs/your-tools.md): every call the agent makes passes through the episode's runtime, and so through
 * the fault injector, and is then made on the service at `baseUrl`; between episodes a reset hook puts the
 * service back, and the state the judge compares is what declared reads (or a snapshot function) answer.
 * The service is one for all episodes: they take it in turn (one at a time in a process).
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import { z } from 'zod';
import { crudTools, ownParams, type CrudOperation, type CrudSpec } from '../ground/crud.js';
import { json, readInput } from '../ground/handlers.js';
import { answersOf, checkNames, liveSetup, type LiveCall, type LiveSetup } from './live.js';
import type { UserLanguage, WorldDefinition, WorldInstance } from '../ground/world.js';

/** One call to the service by tool name: a scenario's setup, a snapshot read. */
export type HttpApiCall = LiveCall;

export interface HttpApiWorldOptions {
  readonly id: string;
  readonly description?: string;
  /** The operations, as `world init --from-openapi` reads them (`operations.json`). */
  readonly spec: CrudSpec;
  /** Where the service answers, e.g. `http://127.0.0.1:8080`; the API's paths are appended. */
  readonly baseUrl: string;
  /** Puts the service back before each episode (and before the gold and the start state): a call (`POST /reset`) or a function. */
  readonly reset: { readonly method: string; readonly path: string } | (() => Promise<void>);
  /** The state the judge compares: the answers of these calls, or what this function returns. */
  readonly snapshot: readonly HttpApiCall[] | ((call: (c: HttpApiCall) => Promise<unknown>) => Promise<unknown>);
  /** Headers sent on every call to the service (an API key). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly policy: string;
  readonly userLanguage: UserLanguage;
  readonly categories?: readonly string[];
  /** Milliseconds a call to the service (the reset, a snapshot read, a proxied call) may take. @default 20000 */
  readonly timeoutMs?: number;
}

/** An episode's turn on the service: the calls that set it up, and the turn once taken. */
export interface HttpApiHandle {
  readonly setup: HttpApiCall[];
  started?: Promise<void> | undefined;
  done?: (() => void) | undefined;
}


/** The request an operation makes on the service for `args`: its path filled, its query, its body. */
function requestOf(op: CrudOperation, baseUrl: string, args: Readonly<Record<string, unknown>>, headers: Readonly<Record<string, string>>): Request {
  const path = op.api.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(args[name] ?? '')));
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
  for (const q of op.queryParams) if (args[q] !== undefined) url.searchParams.set(q, String(args[q]));
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (!op.pathParams.includes(k) && !op.queryParams.includes(k)) rest[k] = v;
  const body = op.body === 'whole' ? rest.body : op.body === 'fields' ? rest : undefined;
  return new Request(url, { method: op.api.method, headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
}

/** A world over a running HTTP service, reset between episodes. */
export function httpApiWorld(o: HttpApiWorldOptions): WorldDefinition<HttpApiHandle, LiveSetup> {
  const tools = crudTools(o.spec);
  const ops = new Map(o.spec.operations.map((op) => [op.name, op]));
  const headers = o.headers ?? {};
  const known = new Set(ops.keys());
  checkNames(o.id, known, Array.isArray(o.snapshot) ? (o.snapshot as HttpApiCall[]).map((c) => c.tool) : [], 'operation');
  /** The service is shared: one episode's turn at a time. */
  let queue: Promise<void> = Promise.resolve();
  const send = async (c: HttpApiCall): Promise<Response> => {
    const op = ops.get(c.tool);
    if (!op) throw new Error(`no operation \`${c.tool}\``);
    return fetch(requestOf(op, o.baseUrl, c.args ?? {}, headers), { signal: AbortSignal.timeout(o.timeoutMs ?? 20_000) });
  };
  const reset = async () => {
    if (typeof o.reset === 'function') return o.reset();
    const r = await fetch(`${o.baseUrl.replace(/\/+$/, '')}${o.reset.path}`, { method: o.reset.method, headers, signal: AbortSignal.timeout(o.timeoutMs ?? 20_000) });
    if (!r.ok) throw new Error(`the reset hook ${o.reset.method} ${o.reset.path} answered ${r.status}`);
  };
  const start = (h: HttpApiHandle) =>
    (h.started ??= (async () => {
      const previous = queue;
      queue = new Promise<void>((resolve) => {
        h.done = resolve;
      });
      await previous;
      await reset();
      for (const c of h.setup) {
        const r = await send(c);
        if (!r.ok) throw new Error(`setup call ${c.tool} answered ${r.status}: ${(await r.text()).slice(0, 200)}`);
      }
    })());

  const handlers = (instance: (request: Request) => WorldInstance<HttpApiHandle>): RequestHandler[] =>
    [...o.spec.operations]
      .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))
      .map((op) => {
        const tool = tools.find((t) => t.name === op.name) as (typeof tools)[number];
        const route = op.method === 'GET' ? http.get : http.post;
        return route(`*/api${op.path.replace(/\{([^}]+)\}/g, ':$1')}`, async ({ request, params }) => {
          const parsed = await readInput(request, tool.input, ownParams(op, params));
          if (!parsed.ok) return parsed.response;
          await start(instance(request).db);
          const r = await send({ tool: op.name, args: parsed.value as Record<string, unknown> });
          const text = await r.text();
          const type = r.headers.get('content-type') ?? '';
          return /json/.test(type) && text ? json(JSON.parse(text), { status: r.status }) : new HttpResponse(text, { status: r.status, headers: { 'content-type': type || 'text/plain' } });
        });
      });

  return {
    id: o.id,
    description: o.description ?? `${o.spec.title} at ${o.baseUrl}, reset between episodes`,
    dbSchema: z.object({ state: z.unknown() }),
    ...liveSetup(known, (setup): HttpApiHandle => ({ setup })),
    tools,
    handlers,
    policy: o.policy,
    userLanguage: o.userLanguage,
    ...(o.categories ? { categories: o.categories } : {}),
    // One service for every episode: a sweep runs them one at a time.
    exclusive: true,
    live: {
      async state(db: HttpApiHandle) {
        await start(db);
        const call = async (c: HttpApiCall) => {
          const r = await send(c);
          const text = await r.text();
          if (!r.ok) throw new Error(`snapshot call ${c.tool} answered ${r.status}: ${text.slice(0, 200)}`);
          try {
            return JSON.parse(text) as unknown;
          } catch {
            return text;
          }
        };
        const state = typeof o.snapshot === 'function' ? await o.snapshot(call) : await answersOf(o.snapshot, call);
        return { state };
      },
      async release(db: HttpApiHandle) {
        const started = db.started;
        if (!started) return;
        await started.catch(() => undefined);
        db.started = undefined;
        db.done?.();
        db.done = undefined;
      },
    },
  } as unknown as WorldDefinition<HttpApiHandle, LiveSetup>;
}
