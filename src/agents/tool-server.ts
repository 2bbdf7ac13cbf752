/**
 * A real loopback HTTP server for the tools of open episodes, for agents in other processes and other
 * languages (DESIGN decision 11). `http://127.0.0.1:PORT/<episode>/api/...` answers as
 * `http://<episode>.<world>.shakedown.test/api/...` does through the injected fetch: the same handlers,
 * faults and idempotency. A connection reset is a real TCP reset, so a client's own fetch rejects as it
 * would against a production API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
/** What a tool server serves: a runtime, or any router of episode requests with the same behaviour. */
export interface ToolSource {
  /** The episode's tool base URL on its own host, e.g. `http://e1.retail.shakedown.test/api`. */
  baseUrl(episodeId: string): string;
  /** Answers a request addressed to an episode's tool host; rejects as that episode's fetch does. */
  route(request: Request): Promise<Response>;
}

export interface ToolServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The base URL an out-of-process agent uses for an episode opened on the runtime. */
  baseUrlFor(episodeId: string): string;
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
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const m = /^\/([a-z0-9-]+)(\/api(?:\/.*)?)$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not_found', message: 'Use /<episode>/api/<tool path>.' }));
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
