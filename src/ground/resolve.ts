/**
 * A tool's msw handlers, resolved without msw's per-request machinery.
 *
 * msw's `getResponse` runs each handler through `RequestHandler.run`: it clones the request (a tee of its
 * body stream), reads cookies through its cookie store, compiles the handler's path into a regular
 * expression, makes an AbortController (and a DOMException when it aborts) and a request id, then calls
 * the resolver: work a tool call need not do. When the runtime already knows which handlers may
 * answer a tool, the resolvers can be called directly with what `run` would have given them: the same
 * request, the path parameters msw's own `matchRequestUrl` finds, the request's cookies. The handlers stay
 * the definition of every tool; `test/ground/resolve.test.ts` holds this path to `getResponse`, answer for
 * answer, over every tool of three worlds, every fault kind and the edge cases.
 *
 * Handlers this path does not reproduce fall back to `getResponse`: anything but an `HttpHandler` with a
 * string path (a custom predicate, a RegExp), a `once` handler, a generator resolver (msw keeps its
 * iterator between requests).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { HttpHandler, matchRequestUrl, type RequestHandler } from 'msw';
import { jsonTextOf, lazyResponse, peekText } from './bodies.js';

/** Answers a request with the first handler that gives a response, or `undefined` when none does. */
export type DirectResolver = (request: Request) => Promise<Response | undefined>;

const GENERATORS = new Set(['GeneratorFunction', 'AsyncGeneratorFunction']);

interface Eligible {
  readonly method: string | RegExp;
  readonly path: string;
  readonly matcher: PathMatcher;
  readonly resolver: (info: Record<string, unknown>) => unknown;
}

function eligible(handler: RequestHandler): Eligible | undefined {
  if (!(handler instanceof HttpHandler)) return undefined;
  const { method, path } = handler.info;
  if (typeof path !== 'string') return undefined;
  // `options` and `resolver` are protected in msw's types; they are plain properties of every handler.
  const inner = handler as unknown as { options?: { once?: boolean }; resolver: (info: Record<string, unknown>) => unknown };
  if (inner.options?.once) return undefined;
  if (typeof inner.resolver !== 'function' || GENERATORS.has(inner.resolver.constructor.name)) return undefined;
  return { method: method as string | RegExp, path, matcher: pathMatcher(path), resolver: inner.resolver };
}

/** Cookies as msw reads them from a request's `Cookie` header (in Node there is no document to read). */
function requestCookies(request: Request): Record<string, string> {
  const header = request.headers.get('cookie');
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in cookies) continue;
    const value = part.slice(eq + 1).trim();
    try {
      cookies[name] = value.includes('%') ? decodeURIComponent(value) : value;
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

const isIterator = (value: unknown): boolean => typeof value === 'object' && value !== null && !(value instanceof Response) && (Symbol.iterator in value || Symbol.asyncIterator in value);

let requestCounter = 0;

/** A handler path's matcher: whether a URL matches it, and its path parameters, as msw's `matchRequestUrl` gives them. */
export type PathMatcher = (url: URL) => ReturnType<typeof matchRequestUrl>;

interface MswMatching {
  readonly normalizePath: (path: string) => string;
  readonly coercePath: (path: string) => string;
  readonly match: (path: string, options: { decode: (s: string) => string }) => (pathname: string) => false | { params: ReturnType<typeof matchRequestUrl>["params"] };
}

/**
 * msw's own steps of `matchRequestUrl`, loaded from the msw this process runs: it normalises the
 * handler's path, coerces its wildcards and compiles it with path-to-regexp on every call, which cost
 * about a twentieth of an episode's CPU. Compiled once per handler with the same steps, the answer is
 * the same. `null` where msw's files are not where msw 2.15 keeps them: every call then goes through
 * `matchRequestUrl` itself.
 */
let mswMatching: MswMatching | null | undefined;
function loadMswMatching(): MswMatching | null {
  if (mswMatching !== undefined) return mswMatching;
  try {
    const require = createRequire(import.meta.url);
    const core = dirname(require.resolve('msw'));
    const matching = join(core, 'utils', 'matching');
    const fromMsw = createRequire(join(core, 'index.js'));
    const { coercePath } = fromMsw(join(matching, 'matchRequestUrl.js')) as { coercePath?: unknown };
    const { normalizePath } = fromMsw(join(matching, 'normalizePath.js')) as { normalizePath?: unknown };
    const { match } = fromMsw('path-to-regexp') as { match?: unknown };
    mswMatching = typeof coercePath === 'function' && typeof normalizePath === 'function' && typeof match === 'function' ? ({ coercePath, normalizePath, match } as MswMatching) : null;
  } catch {
    mswMatching = null;
  }
  return mswMatching;
}

/**
 * The matcher of a handler's string path, compiled once: the same answer as `matchRequestUrl(url, path)`
 * (msw's `getCleanUrl`: the URL's origin and path, without its query or fragment). `compiled` is false
 * where msw's steps could not be loaded and each call runs `matchRequestUrl`.
 */
export function pathMatcher(path: string): PathMatcher & { readonly compiled: boolean } {
  const msw = loadMswMatching();
  const each = Object.assign((url: URL) => matchRequestUrl(url, path), { compiled: false });
  if (!msw) return each;
  let test: ReturnType<MswMatching['match']>;
  try {
    test = msw.match(msw.coercePath(msw.normalizePath(path)), { decode: decodeURIComponent });
  } catch {
    // A path path-to-regexp cannot read: each call fails as msw's own does, when it is made.
    return each;
  }
  return Object.assign(
    (url: URL) => {
      const result = test(url.origin + url.pathname);
      return { matches: result !== false, params: (result && result.params) || {} };
    },
    { compiled: true },
  );
}

/**
 * The direct resolver of a list of handlers, or `undefined` when one of them needs msw's own handling.
 * Handlers are tried in their order; one whose method and path match is called, and its response (or a
 * Response it throws) is the answer; one that returns nothing passes to the next, as in msw.
 */
export function directResolver(handlers: readonly RequestHandler[]): DirectResolver | undefined {
  const list: Eligible[] = [];
  for (const h of handlers) {
    const e = eligible(h);
    if (!e) return undefined;
    list.push(e);
  }
  return async (request) => {
    const url = new URL(request.url);
    for (const { method, path, matcher, resolver } of list) {
      if (method instanceof RegExp ? !method.test(request.method) : method.toLowerCase() !== request.method.toLowerCase()) continue;
      const match = matcher(url);
      if (!match.matches) continue;
      const cleanups: (() => unknown)[] = [];
      let cookies: Record<string, string> | undefined;
      let response: unknown;
      try {
        response = await resolver({
          request,
          params: match.params,
          get cookies() {
            return (cookies ??= requestCookies(request));
          },
          requestId: `direct-${++requestCounter}`,
          finalize: (cleanup: () => unknown) => void cleanups.unshift(cleanup),
        });
      } catch (error) {
        if (!(error instanceof Response)) throw error;
        response = error;
      } finally {
        // msw runs a resolver's cleanups once its response is complete; an answer here is complete when resolved.
        for (const cleanup of cleanups) await Promise.resolve().then(cleanup).catch(() => undefined);
      }
      if (isIterator(response)) throw new Error(`the handler for ${method} ${path} returned an iterator from a plain function; declare its resolver as a generator function`);
      if (response) return response as Response;
    }
    return undefined;
  };
}

/** An answer as bytes: what a `Response` of it would give its reader. */
export interface PlainAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array;
}

/** A `Response` read into the same form (its body to the end: a body that breaks rejects). */
export async function plainOf(response: Response): Promise<PlainAnswer> {
  return { status: response.status, statusText: response.statusText, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) };
}

const encoder = new TextEncoder();

/**
 * A response read once: its status, headers and body bytes. The engine reads every answer (for the
 * judge's notes, idempotent replays and persistent faults) and hands the agent a fresh `Response` of it,
 * instead of cloning the handler's response (a tee of its body stream) for each reader.
 */
export class Answer {
  private decoded: string | undefined;
  private constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    private readonly bytes: Uint8Array<ArrayBuffer> | null,
    /** A network error (`Response.error()`): delivered as it is. */
    private readonly error?: Response,
  ) {}

  static async of(response: Response): Promise<Answer> {
    if (response.type === 'error') return new Answer(0, '', response.headers, null, response);
    // A response `json` made: its bytes from the text it was made of, as reading its body would give them.
    const text = jsonTextOf(response);
    if (text !== undefined) return new Answer(response.status, response.statusText, response.headers, encoder.encode(text));
    const bytes = response.body === null ? null : new Uint8Array(await response.arrayBuffer());
    return new Answer(response.status, response.statusText, response.headers, bytes);
  }

  /** An answer made here (an error, a replay): the body is JSON or text. */
  static make(body: string, status: number, headers: HeadersInit): Answer {
    return new Answer(status, '', new Headers(headers), encoder.encode(body));
  }

  /** As `Response.json`: a value JSON cannot hold is a TypeError. */
  static json(body: unknown, status: number): Answer {
    const text = JSON.stringify(body) as string | undefined;
    if (text === undefined) throw new TypeError('Value is not JSON serializable');
    return Answer.make(text, status, { 'content-type': 'application/json' });
  }

  /** The body as text (UTF-8), decoded once. */
  text(): string {
    this.decoded ??= this.bytes === null ? '' : new TextDecoder().decode(this.bytes);
    return this.decoded;
  }

  /**
   * The answer as a delivery path sends it on: status, headers as a `Response` of it would list them
   * (lower case, sorted, with `date` from `date()` where the answer has none, as the session's fetch
   * adds), and its bytes. Undefined for a network error, which only a `Response` can stand for.
   */
  plain(date: () => string): PlainAnswer | undefined {
    if (this.error) return undefined;
    const headers = new Headers(this.headers);
    if (!headers.has('date')) headers.set('date', date());
    return { status: this.status, statusText: this.statusText, headers: [...headers], body: this.bytes ?? new Uint8Array(0) };
  }

  /** A fresh Response of this answer, for an agent to read. */
  response(): Response {
    if (this.error) return this.error.clone();
    const init = { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) };
    return this.bytes === null ? new Response(null, init) : lazyResponse(this.bytes, init);
  }
}

/**
 * A request's body as text: the string the caller passed when there is one, or the one a request of
 * `requestOf` holds, else read from a copy of the request.
 */
export async function bodyText(request: Request, init: RequestInit | undefined): Promise<string | undefined> {
  if (typeof init?.body === 'string') return init.body;
  return peekText(request) ?? request.clone().text().catch(() => undefined);
}

/** A fault's 2xx answer as the judge's notes read it, from a copy: the agent reads the response itself, or meets its broken body. */
export async function notedText(response: Response): Promise<string> {
  return response.status < 200 || response.status >= 300 ? '' : response.clone().text().catch(() => '');
}
