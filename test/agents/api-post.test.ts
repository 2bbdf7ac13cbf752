/**
 * The model APIs' HTTP client (src/model/post.ts) against a local server: the request it sends, the
 * answer it reads (compressed or not), kept-alive sockets, redirects, its deadline, an abort, a refused
 * connection, and its indifference to a later patch of `node:http`.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../src/model/post.js';

const seen: { path: string; headers: IncomingMessage['headers']; body: string; port: number }[] = [];
const held: ServerResponse[] = [];
let server: Server;
let base = '';

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      seen.push({ path: req.url ?? '', headers: req.headers, body, port: req.socket.remotePort ?? 0 });
      if (req.url === '/echo') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ got: JSON.parse(body) as unknown }));
      if (req.url === '/gzip') return res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"packed":"ü"}'));
      if (req.url === '/moved') return res.writeHead(307, { location: '/echo' }).end();
      if (req.url === '/found') return res.writeHead(302, { location: '/echo' }).end();
      if (req.url === '/elsewhere') return res.writeHead(307, { location: `http://localhost:${(server.address() as AddressInfo).port}/echo` }).end();
      if (req.url === '/busy') return res.writeHead(429, { 'retry-after': '2', 'x-ratelimit-remaining-requests': '0', 'x-request-id': 'r1' }).end('slow down');
      // '/hold': no answer until the test is over.
      held.push(res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

describe('the model APIs’ HTTP client', () => {
  it('posts the body with its headers and reads the answer, on one kept-alive socket', async () => {
    seen.length = 0;
    const first = await postJson(`${base}/echo`, { 'content-type': 'application/json', authorization: 'Bearer k' }, '{"a":"é"}', 5_000);
    const second = await postJson(`${base}/echo`, { 'content-type': 'application/json' }, '{"a":2}', 5_000);
    expect(first).toEqual({ status: 200, text: '{"got":{"a":"é"}}', headers: {} });
    expect(second.text).toBe('{"got":{"a":2}}');
    expect(seen[0]?.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer k', 'content-length': String(Buffer.byteLength('{"a":"é"}')) });
    expect(seen[1]?.port).toBe(seen[0]?.port);
  });

  it('decodes a compressed answer and hands back a status it does not follow', async () => {
    expect(await postJson(`${base}/gzip`, {}, '{}', 5_000)).toEqual({ status: 200, text: '{"packed":"ü"}', headers: {} });
    // The headers pacing reads come back, and only they.
    expect(await postJson(`${base}/busy`, {}, '{}', 5_000)).toEqual({ status: 429, text: 'slow down', headers: { 'retry-after': '2', 'x-ratelimit-remaining-requests': '0' } });
    expect((await postJson(`${base}/found`, {}, '{}', 5_000)).status).toBe(302);
  });

  it('follows a redirect that keeps the method, with the body', async () => {
    seen.length = 0;
    expect(await postJson(`${base}/moved`, {}, '{"again":true}', 5_000)).toEqual({ status: 200, text: '{"got":{"again":true}}', headers: {} });
    expect(seen.map((s) => [s.path, s.body])).toEqual([
      ['/moved', '{"again":true}'],
      ['/echo', '{"again":true}'],
    ]);
  });

  it('never follows a redirect to another origin, where the key in the headers would go too', async () => {
    seen.length = 0;
    await expect(postJson(`${base}/elsewhere`, { authorization: 'Bearer secret' }, '{}', 5_000)).rejects.toThrow(/redirected to another origin \(http:\/\/localhost:\d+\); not followed/);
    expect(seen.map((s) => s.path)).toEqual(['/elsewhere']);
  });

  it('sends a request again on a new socket when the kept-alive one was reset under it, once', async () => {
    // A server that answers the first request on each connection, keeps it alive, and resets it when a
    // second request comes on it: what a client meets when the server's idle timeout strikes as it sends.
    let connections = 0;
    let resets = 0;
    const raw = createNetServer((socket) => {
      connections++;
      let requests = 0;
      socket.on('data', (chunk: Buffer) => {
        if (!chunk.includes('\r\n\r\n')) return;
        if (++requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\n{"ok":true}');
        else {
          resets++;
          socket.resetAndDestroy();
        }
      });
      socket.on('error', () => undefined);
    });
    raw.listen(0, '127.0.0.1');
    await once(raw, 'listening');
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
    try {
      expect(await postJson(url, {}, '{}', 5_000)).toEqual({ status: 200, text: '{"ok":true}', headers: {} });
      // The second goes out on the kept-alive socket, is reset there, and is sent again on a new one.
      expect(await postJson(url, {}, '{}', 5_000)).toEqual({ status: 200, text: '{"ok":true}', headers: {} });
      expect(resets).toBe(1);
      expect(connections).toBe(2);
    } finally {
      raw.close();
    }
  });

  it('gives up at its deadline, on an abort (with its reason), and on a refused connection', async () => {
    await expect(postJson(`${base}/hold`, {}, '{}', 150)).rejects.toThrow('timed out after 150 ms');
    const stop = new AbortController();
    const pending = postJson(`${base}/hold`, {}, '{}', 60_000, stop.signal);
    stop.abort(new Error('the sweep stopped'));
    await expect(pending).rejects.toThrow('the sweep stopped');
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    await expect(postJson(`http://127.0.0.1:${port}/`, {}, '{}', 5_000)).rejects.toThrow(/ECONNREFUSED/);
    await expect(postJson('ftp://127.0.0.1/', {}, '{}', 5_000)).rejects.toThrow('neither http nor https');
  });

  it('keeps the request function it loaded with when node:http is patched afterwards', async () => {
    const cjs = createRequire(import.meta.url)('node:http') as { request: unknown };
    const original = cjs.request;
    cjs.request = () => {
      throw new Error('patched');
    };
    syncBuiltinESMExports();
    try {
      expect((await postJson(`${base}/echo`, {}, '{"x":1}', 5_000)).status).toBe(200);
    } finally {
      cjs.request = original;
      syncBuiltinESMExports();
    }
  });
});
