import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultKinds } from '../../faults/index.js';
import { interceptGlobally, type GlobalInterception } from '../../src/agents/intercept.js';
import { startToolServer, type ToolServer } from '../../src/agents/tool-server.js';
import { cloneJson } from '../../src/ground/canonical.js';
import { createClock, REFERENCE_EPOCH_MS } from '../../src/ground/clock.js';
import { WorldHarness } from '../../src/run/episode.js';
import { FaultInjector, type FaultProfile } from '../../src/ground/faults.js';
import type { EpisodeSession } from '../../src/ground/runtime.js';
import type { RetailDb } from '../../scenarios/retail/schema.js';
import { retail, scenario } from '../helpers.js';

/** One fault case: a profile that makes the first call to a tool fault, and the request to make. */
interface Case {
  readonly name: string;
  readonly profile: FaultProfile;
  readonly path: string;
  readonly init?: RequestInit;
}

const only = (id: string, params: Record<string, Record<string, unknown>> = {}): FaultProfile => ({ id, description: id, weights: { [id]: 1 }, params });
const RETURN: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ itemIds: ['bottle-steel-500ml'], paymentMethodId: 'credit_card_4003' }) };

const CASES: readonly Case[] = [
  { name: 'timeout', profile: only('timeout'), path: '/orders/%23W9000403' },
  { name: 'rate limit', profile: only('rate-limit'), path: '/orders/%23W9000403' },
  { name: 'server error', profile: only('server-error', { 'server-error': { retryAfter: 1 } }), path: '/orders/%23W9000403' },
  { name: 'connection reset', profile: only('connection-reset'), path: '/orders/%23W9000403' },
  { name: 'truncated body', profile: only('truncated-body'), path: '/orders/%23W9000403' },
  { name: 'latency spike', profile: only('latency-spike'), path: '/orders/%23W9000403' },
  { name: 'schema drift', profile: only('schema-drift'), path: '/orders/%23W9000403' },
  { name: 'empty result', profile: only('empty-result'), path: '/users/jack_sorensen_4003/orders' },
  { name: 'reset after a write committed', profile: only('connection-reset', { 'connection-reset': { afterCommit: 1 } }), path: '/orders/%23W9000403/return', init: RETURN },
];

type Observation = Record<string, unknown>;

async function observe(call: () => Promise<Response>): Promise<Observation> {
  try {
    const r = await call();
    const text = await r.text();
    return { status: r.status, retryAfter: r.headers.get('retry-after'), date: r.headers.get('date'), contentType: r.headers.get('content-type')?.split(';')[0] ?? null, text };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return { rejected: e.name, message: e.message, cause: e.cause?.code ?? null };
  }
}

const harness = new WorldHarness(retail, '42');
let server: ToolServer;
let opened = 0;

beforeAll(async () => {
  server = await startToolServer();
});
afterAll(async () => {
  await server.close();
});

async function openSession(profile: FaultProfile): Promise<{ session: EpisodeSession; db: RetailDb }> {
  const prepared = await harness.prepare(scenario('return-one-of-two'));
  const db = cloneJson(prepared.initial) as RetailDb;
  const faults = new FaultInjector({ seed: 'delivery', lambda: 1, profile, kinds: faultKinds });
  return { session: harness.runtime.open({ episodeId: `d${++opened}`, db, clock: createClock(), faults }), db };
}

/** Runs a case through one delivery path and returns what the client saw, the faults logged and the database effect. */
async function run(c: Case, path: 'injected' | 'global' | 'loopback') {
  const { session, db } = await openSession(c.profile);
  let interception: GlobalInterception | undefined;
  try {
    if (path === 'global') interception = interceptGlobally([harness.runtime]);
    const url = path === 'loopback' ? server.grant(harness.runtime.access(session.instance.episodeId)).toolBaseUrl + c.path : session.baseUrl + c.path;
    const client = path === 'injected' ? session.fetch : globalThis.fetch;
    const seen = await observe(() => client(url, c.init));
    return {
      seen,
      faults: session.faults.map((f) => ({ kind: f.kind, phase: f.phase, variant: f.variant, detail: f.detail })),
      simulatedMs: session.instance.clock.elapsed(),
      returned: db.orders.W9000403?.items[0]?.returned,
    };
  } finally {
    interception?.close();
    session.close();
  }
}

describe('three delivery paths, one behaviour', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s: the injected fetch, global interception and the loopback server agree', async (_name, c) => {
    const injected = await run(c, 'injected');
    expect(injected.faults.length).toBeGreaterThan(0);
    // Every answer carries the episode's time, never the machine's, whichever way it travels.
    if ('status' in injected.seen) expect(injected.seen.date).toBe(new Date(REFERENCE_EPOCH_MS + injected.simulatedMs).toUTCString());
    expect(await run(c, 'global')).toEqual(injected);
    expect(await run(c, 'loopback')).toEqual(injected);
  });

  it('a reset reaches each client as its own stack reports one', async () => {
    const reset = await run(CASES.find((c) => c.name === 'connection reset') as Case, 'loopback');
    expect(reset.seen).toEqual({ rejected: 'TypeError', message: 'fetch failed', cause: 'ECONNRESET' });
    // node:http under global interception gets the system error itself, as from a real socket.
    const { session } = await openSession(only('connection-reset'));
    const interception = interceptGlobally([harness.runtime]);
    try {
      const error = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
        const req = httpRequest(`${session.baseUrl}/orders/%23W9000403`, () => reject(new Error('expected a reset')));
        req.on('error', (e: NodeJS.ErrnoException) => resolve(e));
        req.end();
      });
      expect(error.code).toBe('ECONNRESET');
    } finally {
      interception.close();
      session.close();
    }
  });

  it('the loopback server refuses a path that names no granted episode, and counts it; global interception leaves other hosts alone', async () => {
    const before = server.refused();
    const r = await fetch(`${server.url}/nowhere`);
    expect(r.status).toBe(403);
    // Neither an episode id nor a guessed token opens an episode: only a granted capability does.
    const prepared = await harness.prepare(scenario('return-one-of-two'));
    const session = harness.runtime.open({ episodeId: `d${++opened}`, db: cloneJson(prepared.initial), clock: createClock() });
    try {
      const guessed = await fetch(`${server.url}/${session.instance.episodeId}/api/orders/%23W9000101`);
      expect(guessed.status).toBe(403);
      const grant = server.grant(harness.runtime.access(session.instance.episodeId));
      const forged = grant.toolBaseUrl.replace(/\/([a-f0-9]{32})\//, (_, t: string) => `/${t.slice(0, 31)}${t.endsWith('0') ? '1' : '0'}/`);
      expect((await fetch(`${forged}/orders/%23W9000101`)).status).toBe(403);
      // The granted capability reaches the episode: the world answers, and the episode's trace has the call.
      expect((await fetch(`${grant.toolBaseUrl}/orders/%23W9000101`)).status).not.toBe(403);
      expect(session.trace).toHaveLength(1);
      grant.revoke();
      expect((await fetch(`${grant.toolBaseUrl}/orders/%23W9000101`)).status).toBe(403);
    } finally {
      session.close();
    }
    expect(server.refused() - before).toBe(4);
    const interception = interceptGlobally([harness.runtime]);
    try {
      const other = await fetch(`${server.url}/nowhere`);
      expect(other.status).toBe(403);
      const closed = await fetch('http://gone.retail.shakedown.test/api/orders/x').catch((e: Error) => e.message);
      expect(closed).toMatch(/no open episode/);
    } finally {
      interception.close();
    }
  });

});
