/**
 * A real loopback HTTP server for the tools of open episodes, for agents in other processes and other
 * languages (DESIGN decision 11). Each episode is reached only through a capability granted to it: an
 * unguessable token, the first segment of every path (`http://127.0.0.1:PORT/<token>/api/...` answers as
 * `http://<episode>.<world>.shakedown.test/api/...` does through the episode's fetch: the same handlers,
 * faults and idempotency). A request without a granted token is refused and counted, never routed: an
 * agent reaches its own episode, and no other (DESIGN decision 19). A connection reset is a real TCP
 * reset, so a client's own fetch rejects as it would against a production API.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpToolSource } from './mcp.js';
import type { AgentContext } from './contract.js';

/** What a granted episode serves: its tool API (through its own fetch), and optionally its clock and MCP tools. */
export interface EpisodeAccess {
  /** The episode's tool base URL on its own host, e.g. `http://e1.retail.shakedown.test/api`. */
  readonly baseUrl: string;
  /** The episode's fetch: answers a request addressed to its tool host; rejects as it does. */
  readonly fetch: typeof fetch;
  /** The episode's clock, for the clock endpoints (absent: none). */
  readonly clock?: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> } | undefined;
  /** The episode's tools for its MCP endpoint (absent: no MCP). */
  readonly mcp?: McpToolSource | undefined;
  /** Most bytes of all requests to the episode together (the agent's limit); past it, 413. @default no limit */
  readonly maxBytes?: number;
}

/** Longest wait one request to the clock endpoint may ask for, in simulated ms. */
const MAX_SLEEP_MS = 3_600_000;

/** Where an out-of-process agent reaches one episode: its tool API, its clock and its MCP endpoint. */
export interface EpisodeEndpoints {
  readonly toolBaseUrl: string;
  readonly clockUrl: string;
  readonly mcpUrl: string;
}

/** A granted episode: its endpoints, which carry its capability, and the revocation. */
export interface Grant extends EpisodeEndpoints {
  revoke(): void;
}

export interface ToolServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Makes an episode reachable under a new capability until `revoke()`. */
  grant(access: EpisodeAccess): Grant;
  /** Requests refused since the server started because they named no granted capability. */
  refused(): number;
  close(): Promise<void>;
}

export interface ToolServerOptions {
  /** Let the process exit while the server is open (for a server that lives as long as a run). @default false */
  readonly unref?: boolean;
  /** Port to listen on; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** Interface to listen on; loopback only unless told otherwise. @default "127.0.0.1" */
  readonly host?: string;
  /** Largest request body, in bytes. @default 1048576 */
  readonly maxRequestBytes?: number;
}

/** Requests refused in this process for naming no granted capability (a harness security event, charged to no agent). */
let refusedHere = 0;
export const refusedRequests = (): number => refusedHere;

const isReset = (error: unknown): boolean => error instanceof TypeError && (error.cause as { code?: unknown } | undefined)?.code === 'ECONNRESET';

class TooLarge extends Error {}

/** A request's body, refused past `max` bytes without holding more of it. */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) throw new TooLarge(`${declared}`);
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of req) {
    n += (chunk as Buffer).length;
    if (n > max) throw new TooLarge(`${n}`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Starts a loopback server; episodes become reachable as they are granted. */
export async function startToolServer(options: ToolServerOptions = {}): Promise<ToolServer> {
  const maxRequestBytes = options.maxRequestBytes ?? 1_048_576;
  const granted = new Map<string, EpisodeAccess & { bytes: number }>();
  const json = (res: ServerResponse, status: number, body: unknown, date?: number) =>
    res.writeHead(status, { 'content-type': 'application/json', ...(date !== undefined ? { date: new Date(date).toUTCString() } : {}) }).end(JSON.stringify(body));
  /** `GET /<token>/clock` tells the episode's time; `POST /<token>/clock/sleep {"ms": N}` waits N simulated ms. */
  const clockRoute = async (req: IncomingMessage, res: ServerResponse, episode: EpisodeAccess, sleep: boolean) => {
    const clock = episode.clock;
    if (!clock) return json(res, 404, { error: 'not_found', message: 'This episode has no clock endpoint.' });
    if (sleep) {
      if (req.method !== 'POST') return json(res, 405, { error: 'method_not_allowed', message: 'POST {"ms": N} to wait N simulated ms.' });
      let ms: unknown;
      try {
        const body = JSON.parse((await readBody(req, 4_096)).toString() || '{}') as { ms?: unknown; seconds?: unknown };
        ms = body.ms ?? (typeof body.seconds === 'number' ? body.seconds * 1000 : undefined);
      } catch {
        ms = undefined;
      }
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_SLEEP_MS) {
        return json(res, 400, { error: 'bad_request', message: `Send {"ms": N} (or {"seconds": S}) with 0 <= N <= ${MAX_SLEEP_MS}.` });
      }
      try {
        await clock.sleep(ms);
      } catch (error) {
        return json(res, 410, { error: 'episode_over', message: (error as Error).message ?? 'The episode is over.' });
      }
    } else if (req.method !== 'GET') return json(res, 405, { error: 'method_not_allowed', message: 'GET the clock, or POST {"ms": N} to /clock/sleep.' });
    const now = clock.now();
    return json(res, 200, { now: new Date(now).toISOString(), epochMs: now }, now);
  };
  /**
   * `/<token>/mcp`: the episode's tools over MCP's Streamable HTTP transport, stateless (each request a
   * fresh server on the episode's tools, JSON answers), for MCP clients in other processes.
   */
  const mcpRoute = async (req: IncomingMessage, res: ServerResponse, episode: EpisodeAccess) => {
    const source = episode.mcp;
    if (!source) return json(res, 404, { error: 'not_found', message: 'This episode serves no MCP.' });
    const [{ StreamableHTTPServerTransport }, { mcpServerFor }] = await Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./mcp.js')]);
    const body = req.method === 'POST' ? JSON.parse((await readBody(req, maxRequestBytes)).toString() || 'null') : undefined;
    const server = mcpServerFor(source);
    // No session id: stateless, one server per request.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const m = /^\/([a-f0-9]{32})(\/.*)?$/.exec(req.url ?? '');
    const episode = m ? granted.get(m[1] as string) : undefined;
    if (!episode) {
      refusedHere++;
      req.resume();
      return json(res, 403, { error: 'forbidden', message: 'No episode is granted under this path. Use the URLs your episode was given.' });
    }
    const rest = m?.[2] ?? '';
    // Every byte the agent sends counts against its episode's limit, whatever the endpoint.
    const declared = Number(req.headers['content-length']) || 0;
    episode.bytes += (req.url?.length ?? 0) + declared;
    if (episode.maxBytes !== undefined && episode.bytes > episode.maxBytes) {
      req.resume();
      return json(res, 413, { error: 'too_large', message: `This episode's requests passed ${episode.maxBytes} bytes together (\`limits.episodeBytes\`).` });
    }
    const c = /^\/clock(\/sleep)?\/?$/.exec(rest);
    if (c) return clockRoute(req, res, episode, !!c[1]);
    if (/^\/mcp\/?$/.test(rest)) return mcpRoute(req, res, episode);
    if (!/^\/api(?:\/.*)?$/.test(rest)) return json(res, 404, { error: 'not_found', message: 'Use <token>/api/<tool path>, <token>/clock or <token>/mcp.' });
    const target = new URL(`${episode.baseUrl.replace(/\/api$/, '')}${rest}`);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length') headers.set(k, v);
    const method = req.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req, maxRequestBytes);
    try {
      const response = await episode.fetch(new Request(target, { method, headers, ...(body ? { body: new Uint8Array(body) } : {}) }));
      const text = Buffer.from(await response.arrayBuffer());
      const out: Record<string, string> = {};
      response.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding') out[k] = v;
      });
      res.writeHead(response.status, { ...out, 'content-length': String(text.length) }).end(text);
    } catch (error) {
      if (isReset(error)) {
        // A real reset: the client sees ECONNRESET, as from a production API.
        req.socket.resetAndDestroy();
        return;
      }
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad_gateway', message: (error as Error).message }));
    }
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof TooLarge) return json(res, 413, { error: 'too_large', message: `The request body has ${error.message} bytes; the limit is ${maxRequestBytes} (\`limits.requestBytes\`).` });
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal_error', message: String(error) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  if (options.unref) server.unref();
  const { port, address } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    url,
    grant(access) {
      // Not derived from anything an agent can see: 128 random bits per episode.
      const token = randomBytes(16).toString('hex');
      granted.set(token, { ...access, bytes: 0 });
      return { toolBaseUrl: `${url}/${token}/api`, clockUrl: `${url}/${token}/clock`, mcpUrl: `${url}/${token}/mcp`, revoke: () => void granted.delete(token) };
    },
    refused: () => refusedHere,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The access a context gives to its own episode, for a tool server's grant. */
export const accessOf = (ctx: AgentContext, maxBytes?: number): EpisodeAccess => ({
  baseUrl: ctx.baseUrl,
  fetch: ctx.fetch,
  clock: ctx.clock,
  mcp: ctx,
  ...(maxBytes !== undefined ? { maxBytes } : {}),
});

/** The episode context an out-of-process agent is given (posted to a service, written to a file for a command). */
export const episodeContext = (ctx: AgentContext, endpoints: EpisodeEndpoints) => ({
  episodeId: ctx.episodeId,
  world: ctx.world,
  policy: ctx.policy,
  tools: ctx.tools,
  ...endpoints,
  now: new Date(ctx.clock.now()).toISOString(),
  seed: ctx.seed,
});

/**
 * One loopback tool server for the open episodes of a run's out-of-process agents (services, commands):
 * `open` grants an episode's tools, clock and MCP endpoint from its context until `close`; the server
 * starts with the first episode and lives until `dispose`.
 */
export function episodeToolHost(limits: { readonly requestBytes?: number; readonly episodeBytes?: number } = {}): { open(ctx: AgentContext): Promise<EpisodeEndpoints>; close(ctx: AgentContext): void; dispose(): Promise<void> } {
  const grants = new Map<string, Grant>();
  let server: Promise<ToolServer> | undefined;
  return {
    async open(ctx) {
      server ??= startToolServer({ unref: true, ...(limits.requestBytes !== undefined ? { maxRequestBytes: limits.requestBytes } : {}) });
      const grant = (await server).grant(accessOf(ctx, limits.episodeBytes));
      grants.set(ctx.episodeId, grant);
      return { toolBaseUrl: grant.toolBaseUrl, clockUrl: grant.clockUrl, mcpUrl: grant.mcpUrl };
    },
    close(ctx) {
      grants.get(ctx.episodeId)?.revoke();
      grants.delete(ctx.episodeId);
    },
    async dispose() {
      if (server) await (await server).close();
    },
  };
}
