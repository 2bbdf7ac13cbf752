/**
 * The messages between a module agent's host process (host/entry.ts, where the agent's code runs) and the
 * episode runner that drives it (hosted.ts): one JSON object a line over a pipe. Everything the host
 * sends is untrusted: each line is bounded before it is read, parsed, and checked against these schemas;
 * a line that is not one of them ends the host (a protocol breach).
 */
import { z } from 'zod';

/** An error as it crosses the pipe. */
export const wireError = z.object({ name: z.string().max(200), message: z.string().max(20_000), code: z.string().max(100).optional(), stack: z.string().max(20_000).optional() });
export type WireError = z.infer<typeof wireError>;

const handle = z.number().int().nonnegative();
const id = z.number().int().nonnegative();
const headers = z.array(z.tuple([z.string().max(1_000), z.string().max(16_000)])).max(200);

/** What the host may say. */
export const hostMessage = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), agent: z.object({ id: z.string().min(1).max(80), description: z.string().max(1_000), worlds: z.array(z.string().max(80)).max(100).optional(), time: z.unknown().optional(), needsGold: z.boolean().optional() }) }),
  z.object({ t: z.literal('load-failed'), error: wireError }),
  z.object({ t: z.literal('created'), h: handle }),
  z.object({ t: z.literal('create-failed'), h: handle, error: wireError }),
  z.object({ t: z.literal('replied'), h: handle, text: z.string() }),
  z.object({ t: z.literal('reply-failed'), h: handle, error: wireError }),
  z.object({ t: z.literal('closed'), h: handle }),
  z.object({ t: z.literal('fetch'), h: handle, id, url: z.string().max(16_384), method: z.string().max(16), headers, body: z.string().optional() }),
  z.object({ t: z.literal('sleep'), h: handle, id, ms: z.number() }),
  z.object({ t: z.literal('usage'), h: handle, usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), calls: z.number() }) }),
  z.object({ t: z.literal('escalate'), h: handle, reason: z.string().max(2_000) }),
  z.object({ t: z.literal('pong'), n: z.number().int() }),
]);
export type HostMessage = z.infer<typeof hostMessage>;

/**
 * The episode context the host rebuilds an agent's context from (its functions are calls over the pipe).
 * The world's policy and tools are those of the `world` message numbered `k`, sent once per host.
 */
export interface WireContext {
  readonly episodeId: string;
  readonly world: string;
  readonly k: number;
  readonly baseUrl: string;
  readonly seed: string;
  readonly now: number;
  /** `model` agent time: the host's clock adds this per model call the agent reports. */
  readonly msPerModelCall?: number;
}

/** What the runner says to the host. */
export type RunnerMessage =
  /** A world's policy and tools, numbered for the episodes that follow: several kilobytes not sent with each. */
  | { readonly t: 'world'; readonly k: number; readonly policy: string; readonly tools: readonly unknown[] }
  | { readonly t: 'create'; readonly h: number; readonly ctx: WireContext }
  | { readonly t: 'reply'; readonly h: number; readonly message: string; readonly now: number }
  | { readonly t: 'close'; readonly h: number }
  | { readonly t: 'abort'; readonly h: number; readonly error: WireError }
  | { readonly t: 'fetched'; readonly id: number; readonly now: number; readonly status: number; readonly statusText: string; readonly headers: readonly (readonly [string, string])[]; readonly body: string }
  | { readonly t: 'fetch-failed'; readonly id: number; readonly now: number; readonly error: WireError }
  | { readonly t: 'slept'; readonly id: number; readonly now: number }
  | { readonly t: 'sleep-failed'; readonly id: number; readonly error: WireError }
  | { readonly t: 'ping'; readonly n: number };

/** An error in the form that crosses the pipe, whatever was thrown. */
export function toWire(error: unknown): WireError {
  const e = error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'a non-Error value was thrown');
  const code = (e as { code?: unknown }).code ?? (e.cause as { code?: unknown } | undefined)?.code;
  return {
    name: String(e.name).slice(0, 200),
    message: String(e.message).slice(0, 20_000),
    ...(typeof code === 'string' ? { code: code.slice(0, 100) } : {}),
    ...(typeof e.stack === 'string' ? { stack: e.stack.slice(0, 20_000) } : {}),
  };
}

/** The error a wire error stands for: its name, message and code, as an agent's code sees it. */
export function fromWire(w: WireError): Error {
  // Without a stack: it would be this process's, not where the error was thrown, and taking one costs ten
  // times the rest (the end of every contained episode makes one, for its signal's abort).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const e = w.name === 'TypeError' ? new TypeError(w.message, w.code ? { cause: Object.assign(new Error(w.code), { code: w.code }) } : undefined) : new Error(w.message);
    if (w.name !== 'TypeError') e.name = w.name;
    return e;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Splits a byte stream into lines of at most `maxBytes`, handing each to `onLine`; a longer line is not
 * buffered: `onTooLong` is told once and the reader stops.
 */
export function lineReader(maxBytes: number, onLine: (line: string) => void, onTooLong: (bytes: number) => void): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let held = 0;
  let stopped = false;
  return (chunk) => {
    if (stopped) return;
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, i);
      if (held + piece.length > maxBytes) {
        stopped = true;
        onTooLong(held + piece.length);
        return;
      }
      const line = parts.length === 0 ? piece.toString('utf8') : Buffer.concat([...parts, piece]).toString('utf8');
      parts = [];
      held = 0;
      start = i + 1;
      onLine(line);
      if (stopped) return;
    }
    const rest = chunk.subarray(start);
    if (held + rest.length > maxBytes) {
      stopped = true;
      onTooLong(held + rest.length);
      return;
    }
    if (rest.length > 0) {
      parts.push(rest);
      held += rest.length;
    }
  };
}

/** A tool request as it crosses the pipe: what `new Request(input, init)` would hold, as plain values. */
export interface WireRequest {
  readonly url: string;
  readonly method: string;
  /** Lower case, sorted, as a `Headers` lists them. */
  readonly headers: [string, string][];
  /** UTF-8 bytes; absent for no body. */
  readonly body?: Buffer;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The methods `Request` writes in upper case whatever case they were given in (the Fetch standard's list). */
const NORMALISED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);
const PLAIN_INIT = new Set(['method', 'headers', 'body', 'signal']);

/**
 * The wire form of a call made the common way, a URL and an init of method, headers, a string body and a
 * signal, without making a `Request` (a body stream and an abort signal each): the same URL, method,
 * headers and bytes a `Request` of them gives, `content-type: text/plain;charset=UTF-8` added for a string
 * body as `Request` adds it. Undefined for anything else, or anything `Request` would refuse: the caller
 * then makes the `Request`, which reads other bodies and throws its own errors.
 */
export function plainWireRequest(input: unknown, init: RequestInit | undefined): WireRequest | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  if (init !== undefined) {
    if (init === null || typeof init !== 'object') return undefined;
    const proto = Object.getPrototypeOf(init) as unknown;
    if (proto !== Object.prototype && proto !== null) return undefined;
    for (const key of Object.keys(init)) if (!PLAIN_INIT.has(key)) return undefined;
  }
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== 'string') return undefined;
  const signal = init?.signal;
  if (signal !== undefined && signal !== null && !(signal instanceof AbortSignal)) return undefined;
  const given = init?.method;
  if (given !== undefined && typeof given !== 'string') return undefined;
  let method = given ?? 'GET';
  if (!TOKEN.test(method)) return undefined;
  const upper = method.toUpperCase();
  if (FORBIDDEN.has(upper)) return undefined;
  if (NORMALISED.has(upper)) method = upper;
  if ((method === 'GET' || method === 'HEAD') && typeof body === 'string') return undefined;
  let url: URL;
  try {
    url = new URL(typeof input === 'string' ? input : input.href);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  let headers = plainHeaderList(init?.headers);
  if (!headers) {
    let made: Headers;
    try {
      made = new Headers(init?.headers);
    } catch {
      return undefined;
    }
    headers = [...made];
  }
  if (typeof body === 'string' && !headers.some(([name]) => name === 'content-type')) headers = sortedByName([...headers, ['content-type', 'text/plain;charset=UTF-8']]);
  return { url: url.href, method, headers, ...(typeof body === 'string' ? { body: Buffer.from(body, 'utf8') } : {}) };
}

/** A header value `Headers` keeps as it is given: no leading or trailing space or tab, no line break or NUL, no character past U+00FF. */
const PLAIN_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

const sortedByName = (list: [string, string][]): [string, string][] => list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/**
 * The list `[...new Headers(given)]` gives, for headers given the common way (none, or a plain object of
 * token names and string values that need no trimming, no two names the same but for case), without a
 * `Headers`: names in lower case, sorted. Undefined for any other, which `Headers` reads.
 */
export function plainHeaderList(given: unknown): [string, string][] | undefined {
  if (given === undefined) return [];
  if (given === null || typeof given !== 'object') return undefined;
  const proto = Object.getPrototypeOf(given) as unknown;
  if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(given).length > 0) return undefined;
  const list: [string, string][] = [];
  // Every own name, as undici's Headers reads a record (those not enumerable too).
  for (const name of Object.getOwnPropertyNames(given)) {
    const value = (given as Record<string, unknown>)[name];
    if (typeof value !== 'string' || !TOKEN.test(name) || !PLAIN_VALUE.test(value)) return undefined;
    list.push([name.toLowerCase(), value]);
  }
  if (list.length > 1) {
    sortedByName(list);
    for (let i = 1; i < list.length; i++) if ((list[i] as [string, string])[0] === (list[i - 1] as [string, string])[0]) return undefined;
  }
  return list;
}

/**
 * Messages written a line each, those of one turn of the event loop together: each write to the pipe is a
 * system call that wakes the other side. `flush` writes what waits at once (a process about to die).
 */
export function lineBatcher(write: (lines: string) => void): { send(message: unknown): void; flush(): void } {
  let outbox: string[] = [];
  const flush = () => {
    if (outbox.length === 0) return;
    const lines = outbox.join('');
    outbox = [];
    write(lines);
  };
  return {
    send(message) {
      if (outbox.push(`${JSON.stringify(message)}\n`) === 1) setImmediate(flush);
    },
    flush,
  };
}

