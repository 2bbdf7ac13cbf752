/**
 * The HTTP client of the model APIs (an LLM agent's, the LLM user's, an LLM judge's): one JSON POST over
 * `node:http` or `node:https`, on keep-alive sockets of its own.
 *
 * Node's `fetch` builds a WHATWG Request, Response, body streams and abort signals per call; with 64 LLM
 * episodes in flight against a 50 ms model those were about a quarter of the engine's CPU, and the
 * engine's one thread was what bounded the sweep (docs/performance.md, "The third round": 118 episodes/s
 * with `fetch`, 176 with this, back to back). The request functions are taken when this module loads,
 * before any agent module, as the bound `fetch` was: an agent that replaces them, or a global
 * interception applied later (agents/intercept.ts), cannot see or break the model's requests, nor read
 * the key in their headers.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

const requestOver = { 'http:': http.request, 'https:': https.request } as const;
const sockets = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) } as const;

/**
 * Redirects a POST follows: 307 and 308 keep the method and body, and only within the API's own origin,
 * so that the key in the headers never reaches another host.
 */
const MAX_REDIRECTS = 5;

/** What the API answered: its status and its body as text. */
export interface ApiAnswer {
  readonly status: number;
  readonly text: string;
  /** The headers pacing reads (Retry-After and the rate-limit headers), lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** Whether a header is one pacing reads (src/model/pace.ts). */
const PACING = /^(?:retry-after|x-ratelimit-|anthropic-ratelimit-)/;

/**
 * POSTs `body` to `url` and reads the answer whole. Rejects when no answer comes: a connection error, the
 * `timeoutMs` deadline for the whole exchange (`timed out after N ms`), `signal` (with its reason), or a
 * redirect to another origin. A kept-alive socket that the server closed as the request went out (a reset
 * before any answer) is not an answer: the request goes once more on a new socket, as Node advises for
 * keep-alive agents.
 */
export function postJson(url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number, signal?: AbortSignal): Promise<ApiAnswer> {
  return new Promise<ApiAnswer>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let settled = false;
    let current: http.ClientRequest | undefined;
    const finish = (error: unknown, answer?: ApiAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      if (answer) resolve(answer);
      else reject(error);
    };
    const onAbort = () => {
      current?.destroy();
      finish(signal?.reason);
    };
    // clock: a real API's deadline is wall time by definition; the episode's simulated clock is not involved.
    const deadline = setTimeout(() => {
      current?.destroy();
      finish(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    const send = (target: URL, hops: number, resent = false) => {
      const protocol = target.protocol === 'https:' ? 'https:' : target.protocol === 'http:' ? 'http:' : undefined;
      if (!protocol) return finish(new Error(`the URL ${target.origin} is neither http nor https`));
      let answered = false;
      const req = requestOver[protocol](target, { method: 'POST', agent: sockets[protocol], headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if ((status === 307 || status === 308) && location && hops < MAX_REDIRECTS) {
          res.resume();
          let next: URL;
          try {
            next = new URL(location, target);
          } catch {
            return finish(new Error(`the API at ${target.origin} redirected to an address that is not a URL (${location.slice(0, 200)})`));
          }
          if (next.origin !== target.origin) return finish(new Error(`the API at ${target.origin} redirected to another origin (${next.origin}); not followed, so that its key stays with ${target.origin}`));
          return send(next, hops + 1);
        }
        const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
        const stream = encoding === 'gzip' ? res.pipe(createGunzip()) : encoding === 'br' ? res.pipe(createBrotliDecompress()) : encoding === 'deflate' ? res.pipe(createInflate()) : res;
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (PACING.test(name) && value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : value;
        stream.on('end', () => finish(undefined, { status, text: Buffer.concat(chunks).toString('utf8'), headers: kept }));
        stream.on('error', (error) => finish(error));
        // A decoder does not pass on the answer's own errors.
        if (stream !== res) res.on('error', (error) => finish(error));
      });
      current = req;
      req.on('error', (error) => {
        if (!answered && !resent && req.reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET' && !settled) return send(target, hops, true);
        finish(error);
      });
      req.end(body);
    };
    try {
      send(new URL(url), 0);
    } catch (error) {
      finish(error);
    }
  });
}
