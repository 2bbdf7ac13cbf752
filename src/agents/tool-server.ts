/**
 * A real loopback HTTP server for the tools of open episodes, for agents in other processes and other
 * languages (DESIGN decision 11). `http://127.0.0.1:PORT/<episode>/api/...` answers as
 * `http://<episode>.<world>.shakedown.test/api/...` does through the injected fetch: the same handlers,
 * faults and idempotency. A connection reset is a real TCP reset, so a client's own fetch rejects as it
 * would against a production API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpToolSource } from './mcp.js';
import type { AgentContext } from './contract.js';
/** What a tool server serves: a runtime, or any router of episode requests with the same behaviour. */
export interface ToolSource {
  /** The episode's tool base URL on its own host, e.g. `http://e1.retail.shakedown.test/api`. */
  baseUrl(episodeId: string): string;
  /** Answers a request addressed to an episode's tool host; rejects as that episode's fetch does. */
  route(request: Request): Promise<Response>;
  /** The open episode's clock, for the clock endpoints (absent: the server has none). */
  clockOf?(episodeId: string): { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> } | undefined;
  /** The open episode's tools for its MCP endpoint (absent: the server serves no MCP). */
  mcpOf?(episodeId: string): McpToolSource | undefined;
}

/** Longest wait one request to the clock endpoint may ask for, in simulated ms. */
const MAX_SLEEP_MS = 3_600_000;

export interface ToolServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The base URL an out-of-process agent uses for an episode opened on the runtime. */
  baseUrlFor(episodeId: string): string;
  /** The episode's clock endpoint: `GET` tells its time, `POST .../sleep {"ms": N}` waits on it. */
  clockUrlFor(episodeId: string): string;
  /** The episode's tools over MCP (Streamable HTTP). */
  mcpUrlFor(episodeId: string): string;
  close(): Promise<void>;
}

export interface ToolServerOptions {
  /** Let the process exit while the server is open (for a server that lives as long as a run). @default false */
  readonly unref?: boolean;
  /** Port to listen on; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** Interface to listen on; loopback only unless told otherwise. @default "127.0.0.1" */
  readonly host?: string;
}

const isReset = (error: unknown): boolean => error instanceof TypeError && (error.cause as { code?: unknown } | undefined)?.code === 'ECONNRESET';

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a loopback server for the tools of `runtime`'s open episodes (or any other tool source). */
export async function startToolServer(runtime: ToolSource, options: ToolServerOptions = {}): Promise<ToolServer> {
  const json = (res: ServerResponse, status: number, body: unknown, date?: number) =>
    res.writeHead(status, { 'content-type': 'application/json', ...(date !== undefined ? { date: new Date(date).toUTCString() } : {}) }).end(JSON.stringify(body));
  /** `GET /<episode>/clock` tells the episode's time; `POST /<episode>/clock/sleep {"ms": N}` waits N simulated ms. */
  const clockRoute = async (req: IncomingMessage, res: ServerResponse, episodeId: string, sleep: boolean) => {
    const clock = runtime.clockOf?.(episodeId);
    if (!clock) return json(res, 404, { error: 'not_found', message: `No open episode ${episodeId}.` });
    if (sleep) {
      if (req.method !== 'POST') return json(res, 405, { error: 'method_not_allowed', message: 'POST {"ms": N} to wait N simulated ms.' });
      let ms: unknown;
      try {
        const body = JSON.parse((await readBody(req)).toString() || '{}') as { ms?: unknown; seconds?: unknown };
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
   * `/<episode>/mcp`: the episode's tools over MCP's Streamable HTTP transport, stateless (each request a
   * fresh server on the episode's tools, JSON answers), for MCP clients in other processes.
   */
  const mcpRoute = async (req: IncomingMessage, res: ServerResponse, episodeId: string) => {
    const source = runtime.mcpOf?.(episodeId);
    if (!source) return json(res, 404, { error: 'not_found', message: `No open episode ${episodeId} serves MCP.` });
    const [{ StreamableHTTPServerTransport }, { mcpServerFor }] = await Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./mcp.js')]);
    const body = req.method === 'POST' ? JSON.parse((await readBody(req)).toString() || 'null') : undefined;
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
    const c = /^\/([a-z0-9-]+)\/clock(\/sleep)?\/?$/.exec(req.url ?? '');
    if (c) return clockRoute(req, res, c[1] as string, !!c[2]);
    const mcp = /^\/([a-z0-9-]+)\/mcp\/?$/.exec(req.url ?? '');
    if (mcp) return mcpRoute(req, res, mcp[1] as string);
    const m = /^\/([a-z0-9-]+)(\/api(?:\/.*)?)$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not_found', message: 'Use /<episode>/api/<tool path>, or /<episode>/clock.' }));
      return;
    }
    const target = new URL(`${runtime.baseUrl(m[1] as string).replace(/\/api$/, '')}${m[2] as string}`);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length') headers.set(k, v);
    const method = req.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
    try {
      const response = await runtime.route(new Request(target, { method, headers, ...(body ? { body: new Uint8Array(body) } : {}) }));
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
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal_error', message: String(error) }));
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
    baseUrlFor: (episodeId) => `${url}/${episodeId}/api`,
    clockUrlFor: (episodeId) => `${url}/${episodeId}/clock`,
    mcpUrlFor: (episodeId) => `${url}/${episodeId}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Where an out-of-process agent reaches one episode: its tool API, its clock and its MCP endpoint. */
export interface EpisodeEndpoints {
  readonly toolBaseUrl: string;
  readonly clockUrl: string;
  readonly mcpUrl: string;
}

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
 * `open` serves an episode's tools, clock and MCP endpoint from its context until `close`; the server
 * starts with the first episode and lives until `dispose`.
 */
export function episodeToolHost(): { open(ctx: AgentContext): Promise<EpisodeEndpoints>; close(ctx: AgentContext): void; dispose(): Promise<void> } {
  /** Open episodes' contexts by id; everything the tool server needs of an episode is in its context. */
  const episodes = new Map<string, AgentContext>();
  /** The same contexts by tool host, for routing each call without a search. */
  const byHost = new Map<string, AgentContext>();
  let server: Promise<ToolServer> | undefined;
  const source: ToolSource = {
    baseUrl: (episodeId) => episodes.get(episodeId)?.baseUrl ?? `http://${episodeId}.unknown.invalid/api`,
    clockOf: (episodeId) => episodes.get(episodeId)?.clock,
    mcpOf: (episodeId) => episodes.get(episodeId),
    route: async (request) => {
      const host = new URL(request.url).host;
      const episode = byHost.get(host);
      if (!episode) throw new TypeError(`fetch failed: no open episode serves ${host}`);
      return episode.fetch(request);
    },
  };
  return {
    async open(ctx) {
      server ??= startToolServer(source, { unref: true });
      const tools = await server;
      episodes.set(ctx.episodeId, ctx);
      byHost.set(new URL(ctx.baseUrl).host, ctx);
      return { toolBaseUrl: tools.baseUrlFor(ctx.episodeId), clockUrl: tools.clockUrlFor(ctx.episodeId), mcpUrl: tools.mcpUrlFor(ctx.episodeId) };
    },
    close(ctx) {
      episodes.delete(ctx.episodeId);
      byHost.delete(new URL(ctx.baseUrl).host);
    },
    async dispose() {
      if (server) await (await server).close();
    },
  };
}
