// A team's own running service behind the fault injector (docs/your-tools.md): an OpenAPI document and a
// base URL, a reset hook between episodes, the state read back through the API. The test runs a small real
// HTTP service of its own (tickets, in memory) on a loopback port.
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../src/ground/record.js';
import { shakedown } from '../cli-run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const OPENAPI = `openapi: 3.0.3
info: { title: Help desk, version: '1' }
paths:
  /tickets:
    get:
      operationId: listTickets
      responses: { '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Ticket' } } } } } }
    post:
      operationId: openTicket
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }
      responses: { '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }, '409': { description: exists } }
  /tickets/{ticketId}:
    get:
      operationId: getTicket
      parameters: [{ name: ticketId, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }, '404': { description: none } }
    delete:
      operationId: closeTicket
      parameters: [{ name: ticketId, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: closed }, '404': { description: none } }
components:
  schemas:
    Ticket:
      type: object
      required: [id, title]
      properties:
        id: { type: string, pattern: '^T[0-9]{4}$' }
        title: { type: string, minLength: 3, maxLength: 12, pattern: '^[a-z]+$' }
        priority: { type: string, enum: [low, high] }
`;

/** The service: tickets in memory; POST /reset empties them. It counts the calls it was made. */
function service(): { server: Server; calls: string[] } {
  let tickets = new Map<string, Record<string, unknown>>();
  const calls: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      calls.push(`${req.method} ${url.pathname}`);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const one = /^\/tickets\/([^/]+)$/.exec(url.pathname)?.[1];
      if (req.method === 'POST' && url.pathname === '/reset') return (tickets = new Map()), send(200, { reset: true });
      if (req.method === 'GET' && url.pathname === '/tickets') return send(200, [...tickets.values()]);
      if (req.method === 'POST' && url.pathname === '/tickets') {
        const t = JSON.parse(text || '{}') as Record<string, unknown>;
        if (tickets.has(String(t.id))) return send(409, { error: 'exists' });
        tickets.set(String(t.id), t);
        return send(201, t);
      }
      if (one && req.method === 'GET') return tickets.has(one) ? send(200, tickets.get(one)) : send(404, { error: 'not_found' });
      if (one && req.method === 'DELETE') return tickets.delete(one) ? send(200, { closed: one }) : send(404, { error: 'not_found' });
      send(404, { error: 'no_route' });
    });
  });
  return { server, calls };
}

describe('a world over a running HTTP service', () => {
  const svc = service();
  let baseUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => svc.server.listen(0, '127.0.0.1', resolve));
    const address = svc.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => svc.server.close(() => resolve())));

  it('is written from the document and a base URL, validates, and sweeps with the fault injector in front of the service', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-http-world-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'shakedown'), 'dir');
    writeFileSync(join(dir, 'desk.yaml'), OPENAPI);
    const world = join(dir, 'desk');
    const init = await shakedown('world', 'init', world, '--from-openapi', join(dir, 'desk.yaml'), '--base-url', baseUrl, '--reset', 'POST /reset');
    expect(init.stderr).toBe('');
    expect(readFileSync(join(world, 'index.ts'), 'utf8')).toMatch(/httpApiWorld\(/);
    const v = await shakedown('validate', '--world', join(world, 'index.ts'));
    expect(v.stdout + v.stderr).toMatch(/2 of 2 scenarios of world desk hold/);
    const before = svc.calls.length;
    const out = join(dir, 'run');
    const s = await shakedown('sweep', '--world', join(world, 'index.ts'), '--agent', 'oracle,noop', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--out', out);
    expect(s.code).toBe(0);
    expect(s.stdout).toMatch(/oracle\s+1\.000 at ε 0, λ 0/);
    expect(s.stdout).toMatch(/noop\s+0\.000 at ε 0, λ 0/);
    const rs = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as EpisodeRecord);
    // Faults struck in front of the service, and what got through reached it; every episode began with a reset.
    expect(rs.some((r) => r.faults.length > 0)).toBe(true);
    const made = svc.calls.slice(before);
    expect(made.filter((c) => c === 'POST /reset').length).toBeGreaterThanOrEqual(rs.length);
    expect(made.some((c) => c.startsWith('DELETE /tickets/'))).toBe(true);
    // The state was read through the API: a ticket that the noop agent never closed is still listed.
    const noopFail = rs.find((r) => r.key.agent === 'noop' && r.diff.length > 0);
    expect(noopFail?.diff[0]?.message).toMatch(/list_tickets/);
  }, 180_000);

  it('says what to fix without a reset hook or with a base URL that is not one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-http-world-'));
    writeFileSync(join(dir, 'desk.yaml'), OPENAPI);
    const noReset = await shakedown('world', 'init', join(dir, 'a'), '--from-openapi', join(dir, 'desk.yaml'), '--base-url', baseUrl);
    expect(noReset.code).toBe(2);
    expect(noReset.stderr).toMatch(/--reset "POST \/reset"/);
    const badUrl = await shakedown('world', 'init', join(dir, 'b'), '--from-openapi', join(dir, 'desk.yaml'), '--base-url', 'localhost:8080', '--reset', 'POST /reset');
    expect(badUrl.stderr).toMatch(/--base-url http:\/\/127\.0\.0\.1:8080/);
  });
});
