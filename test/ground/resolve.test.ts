/**
 * The direct path to a tool's msw handlers (src/ground/resolve.ts) against msw's own `getResponse`: every
 * tool of every world, each with valid, invalid and odd requests, under every fault kind, answer for
 * answer; and the handler shapes the direct path must reproduce or leave to msw.
 */
import { getResponse, http, HttpHandler, HttpResponse, matchRequestUrl, passthrough, type RequestHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import { faultKinds, faultProfiles } from '../../faults/index.js';
import { getWorld, loadScenarios } from '../../scenarios/index.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { cloneJson } from '../../src/ground/canonical.js';
import { createClock } from '../../src/ground/clock.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { type EpisodeRecord } from '../../src/ground/record.js';
import { FaultInjector } from '../../src/ground/faults.js';
import { resolveFamilies } from '../../src/ground/perturb.js';
import { directResolver, pathMatcher, type PlainAnswer } from '../../src/ground/resolve.js';
import { plainFetchOf } from '../../src/ground/runtime.js';
import type { WorldDefinition } from '../../src/ground/world.js';
import { perturbationFamilies } from '../../perturbations/index.js';
import type { Scenario } from '../../src/ground/scenario.js';
import library from '../fixtures/worlds/library/index.js';
import { fileURLToPath } from 'node:url';

const worlds: WorldDefinition[] = [getWorld('retail'), getWorld('travel'), library];
const scenariosOf = (world: WorldDefinition): Scenario[] => (world === library ? loadScenarios(library, fileURLToPath(new URL('../fixtures/worlds/library/tasks', import.meta.url))) : loadScenarios(world));

interface Call {
  readonly path: string;
  readonly init?: RequestInit;
}

/** Requests for a scenario's tools: its gold arguments, then (with `odd`) the odd ones a careless agent sends to every tool. */
function callsOf(world: WorldDefinition, scenario: Scenario, odd: boolean): Call[] {
  const calls: Call[] = [];
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  const fill = (path: string, args: Record<string, unknown>) => {
    const rest = { ...args };
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = rest[name];
      delete rest[name];
      return encodeURIComponent(String(v ?? ''));
    });
    return { filled, rest };
  };
  let n = 0;
  {
    for (const g of scenario.gold) {
      const tool = world.tools.find((t) => t.name === g.tool);
      if (!tool) continue;
      const { filled, rest } = fill(tool.path, g.args);
      if (tool.method === 'GET') {
        const q = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)]));
        calls.push({ path: `${filled}${q.size ? `?${q}` : ''}` });
        calls.push({ path: `${filled}/${q.size ? `?${q}&extra=1` : '?extra=1'}` }); // trailing slash, an unknown query field
      } else {
        const key = `key-${++n}`;
        const body = JSON.stringify(rest);
        calls.push({ path: filled, init: { method: 'POST', headers: { ...json, 'idempotency-key': key }, body } });
        calls.push({ path: filled, init: { method: 'POST', headers: { ...json, 'idempotency-key': key }, body } }); // replayed
        calls.push({ path: filled, init: { method: 'POST', headers: json, body: '{"broken' } });
        calls.push({ path: filled, init: { method: 'POST', headers: json, body: '' } });
        calls.push({ path: filled, init: { method: 'POST', headers: { ...json, cookie: 'session=abc; theme="dark"' }, body: '{}' } });
        calls.push({ path: filled }); // GET on a write's path: no tool, every handler tried
      }
    }
  }
  if (odd) for (const tool of world.tools) {
    // Unknown, oddly written and encoded identifiers; a write with the key another tool used.
    const odd = fill(tool.path, Object.fromEntries([...tool.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1], ' #zz 9%/x '])));
    calls.push(tool.method === 'GET' ? { path: odd.filled } : { path: odd.filled, init: { method: 'POST', headers: { ...json, 'idempotency-key': 'key-1' }, body: '{}' } });
    calls.push({ path: `${odd.filled}/nothing-here` });
  }
  if (odd) calls.push({ path: '/no/such/endpoint' });
  return calls;
}

/** What an agent can see of an answer: status, status text, headers, body; or the rejection. */
async function seen(p: Promise<Response>): Promise<unknown> {
  try {
    const r = await p;
    return { status: r.status, statusText: r.statusText, headers: [...r.headers].sort(), body: await r.text().catch((e: Error) => `unreadable: ${e.message}`) };
  } catch (error) {
    return { rejected: String(error), cause: String((error as { cause?: unknown }).cause ?? '') };
  }
}

/** What a delivery path that sends an answer on as bytes sees of it (an agent's host): the bytes, or the rejection when they cannot be read. */
async function sentOn(p: Promise<Response | PlainAnswer>): Promise<unknown> {
  try {
    const r = await p;
    const body = r instanceof Response ? new Uint8Array(await r.arrayBuffer()) : r.body;
    return { status: r.status, statusText: r.statusText, headers: r instanceof Response ? [...r.headers] : r.headers, body: Buffer.from(body).toString('base64') };
  } catch (error) {
    return { rejected: String(error), cause: String((error as { cause?: unknown }).cause ?? '') };
  }
}

async function replay(world: WorldDefinition, direct: boolean, profileId: string | undefined, via: 'fetch' | 'sent on' | 'plain' = 'fetch', limit = Number.POSITIVE_INFINITY): Promise<{ answers: unknown[]; trace: unknown; faults: unknown; errors: unknown; db: unknown }> {
  const harness = new WorldHarness(world, '42', { direct });
  const profile = faultProfiles.find((p) => p.id === profileId);
  const out = { answers: [] as unknown[], trace: [] as unknown[], faults: [] as unknown[], errors: [] as unknown[], db: [] as unknown[] };
  const all = scenariosOf(world);
  // The last scenario's calls add the odd requests to every tool.
  const scenarios = all.length > limit ? [...all.slice(0, limit - 1), all[all.length - 1] as Scenario] : all;
  for (const [i, scenario] of scenarios.entries()) {
    // Each scenario's calls on its own database, so that its gold arguments name records that exist.
    const prepared = await harness.prepare(scenario);
    const db = cloneJson(prepared.initial);
    const faults = profile ? new FaultInjector({ seed: `conformance-${profileId}-${i}`, lambda: 0.5, profile, kinds: faultKinds, params: {} }) : undefined;
    const session = harness.runtime.open({ episodeId: `conformance-${i}`, db, clock: createClock(), ...(faults ? { faults } : {}), observer: { turn: () => 0, reveals: (text) => (text.includes('"status"') ? [0] : []) } });
    const plain = plainFetchOf(session.fetch);
    if (!plain) throw new Error('a session fetch without its plain call');
    for (const call of callsOf(world, scenario, i === scenarios.length - 1)) {
      const url = `${session.baseUrl}${call.path}`;
      out.answers.push(via === 'fetch' ? await seen(session.fetch(url, call.init)) : await sentOn(via === 'plain' ? plain(url, call.init) : session.fetch(url, call.init)));
    }
    session.close();
    out.trace.push(session.trace);
    out.faults.push(session.faults);
    out.errors.push(session.worldErrors);
    out.db.push(db);
  }
  return out;
}

describe('direct resolution of tool handlers', () => {
  for (const world of worlds) {
    for (const profileId of [undefined, ...faultProfiles.map((p) => p.id)]) {
      it(`answers as msw's getResponse does: ${world.id}, ${profileId ?? 'no faults'}`, async () => {
        const direct = await replay(world, true, profileId);
        const msw = await replay(world, false, profileId);
        expect(direct.answers.length).toBeGreaterThan(world.tools.length * 3);
        expect(direct).toEqual(msw);
        if (profileId === undefined) {
          // The requests reach every tool, and the odd ones get the world's refusals.
          const statuses = new Set((direct.answers as { status?: number }[]).map((a) => a.status));
          for (const s of [200, 400, 404]) expect(statuses).toContain(s);
        }
      });
    }
  }

  for (const world of worlds) {
    it(`gives a delivery path the same bytes without a Response, and the same episode: ${world.id}, every profile`, async () => {
      for (const profileId of [undefined, ...faultProfiles.map((p) => p.id)]) {
        const plain = await replay(world, true, profileId, 'plain', 12);
        const viaResponse = await replay(world, true, profileId, 'sent on', 12);
        expect(plain, profileId ?? 'no faults').toEqual(viaResponse);
      }
    });
  }
  it('has no plain call for a fetch that is not a session\'s own', () => {
    expect(plainFetchOf(fetch)).toBeUndefined();
    expect(plainFetchOf(async () => new Response('x'))).toBeUndefined();
    expect(plainFetchOf(undefined)).toBeUndefined();
  });

  it('gives every fault kind the same episodes as msw (reference agents, every profile)', async () => {
    const retail = getWorld('retail');
    const scenarios = loadScenarios(retail).slice(0, 12);
    const families = resolveFamilies(perturbationFamilies);
    const kinds = new Set<string>();
    const run = async (direct: boolean) => {
      const harness = new WorldHarness(retail, '42', { direct });
      const out: EpisodeRecord[] = [];
      for (const profile of faultProfiles)
        // Lies on writes are rarer than on reads (most tasks write once): every task for them.
        for (const s of profile.id === 'lying' ? loadScenarios(retail) : scenarios) {
          const prepared = await harness.prepare(s);
          const record = await runEpisode(harness, prepared, resolveAgent('reference:robust'), { scenario: s.id, agent: 'reference:robust', eps: 0.5, lambda: 0.5, trial: 0 }, { runSeed: '42', families, faultKinds, profile });
          for (const f of record.faults) kinds.add(f.kind);
          out.push({ ...record, wallMs: 0 });
        }
      return out;
    };
    const direct = await run(true);
    expect(direct).toEqual(await run(false));
    expect([...kinds].sort()).toEqual(faultKinds.map((k) => k.id).sort());
  });
});

describe('directResolver against getResponse, handler by handler', () => {
  const same = async (handlers: RequestHandler[], make: () => Request) => {
    const resolve = directResolver(handlers);
    expect(resolve).toBeDefined();
    const a = await resolve?.(make());
    const b = await getResponse(handlers, make());
    expect(a === undefined).toBe(b === undefined);
    if (a && b) {
      expect([a.status, a.statusText, [...a.headers].sort(), await a.text()]).toEqual([b.status, b.statusText, [...b.headers].sort(), await b.text()]);
    }
  };
  const url = 'http://ep.w.shakedown.test/api';

  it('passes the same params, decoded, and cookies', async () => {
    const echo = [http.get('*/api/items/:id/parts/:part', ({ params, cookies, request }) => HttpResponse.json({ params, cookies, url: request.url }))];
    await same(echo, () => new Request(`${url}/items/%23A%201/parts/x%2Fy?q=1`, { headers: { cookie: 'a=1; b=%7Bx%7D; a=2; c="q"' } }));
    await same(echo, () => new Request(`${url}/items/A1/parts/`));
  });

  it('passes a request none answers to the next handler, and takes a thrown Response as the answer', async () => {
    const handlers = [
      http.post('*/api/x', () => undefined),
      http.all('*/api/x', () => passthrough()),
      http.post('*/api/x', async ({ request }) => {
        const body = (await request.json()) as { fail?: boolean };
        if (body.fail) throw HttpResponse.json({ error: 'thrown' }, { status: 409 });
        return HttpResponse.text('plain', { status: 201, statusText: 'Made', headers: { 'x-a': '1' } });
      }),
    ];
    await same(handlers, () => new Request(`${url}/x`, { method: 'POST', body: '{"fail":true}' }));
    await same(handlers, () => new Request(`${url}/x`, { method: 'POST', body: '{}' }));
    await same(handlers, () => new Request(`${url}/y`, { method: 'POST', body: '{}' }));
    await same(handlers, () => new Request(`${url}/x`, { method: 'DELETE' }));
  });

  it('rethrows what a resolver throws and runs its cleanups', async () => {
    let cleaned = 0;
    const handlers = [
      http.get('*/api/boom', () => {
        throw new Error('boom');
      }),
      http.get('*/api/done', ({ finalize }) => {
        finalize(() => void cleaned++);
        return HttpResponse.json({ ok: true });
      }),
    ];
    const resolve = directResolver(handlers);
    await expect(resolve?.(new Request(`${url}/boom`))).rejects.toThrow('boom');
    expect(await (await resolve?.(new Request(`${url}/done`)))?.json()).toEqual({ ok: true });
    expect(cleaned).toBe(1);
  });

  it("leaves to msw the handlers it does not reproduce: once, generators, custom predicates, RegExp paths", () => {
    expect(directResolver([http.get('*/api/a', () => HttpResponse.json({}), { once: true })])).toBeUndefined();
    expect(
      directResolver([
        http.get('*/api/a', function* () {
          yield HttpResponse.json({});
        }),
      ]),
    ).toBeUndefined();
    expect(directResolver([http.get(({ request }) => request.url.endsWith('/a'), () => HttpResponse.json({}))])).toBeUndefined();
    expect(directResolver([http.get(/\/api\/a$/, () => HttpResponse.json({}))])).toBeUndefined();
    expect(directResolver([http.get('*/api/a', () => HttpResponse.json({}))])).toBeDefined();
  });
});

describe('pathMatcher against matchRequestUrl', () => {
  // Every string path of every world's handlers, and paths with what msw's own steps rewrite: wildcards,
  // a port, an optional or repeated parameter, an absolute URL.
  const worldPaths = worlds.flatMap((w) => w.handlers(() => { throw new Error("no instance"); }).flatMap((h) => (h instanceof HttpHandler && typeof h.info.path === 'string' ? [h.info.path] : [])));
  const odd = ['*', '*/api/*', '*/api/**', '*/api/files/*/raw', '*/api/:id?', '*/api/:ids+', '*/api/:rest*', 'http://localhost:3000/api/:id', 'https://*.example.test/api/:id', '*/api/items/:a-:b', '*/api/a.json', '*/api/:id/'];
  const urls = [
    'http://e1.retail.shakedown.test/api/orders/%23W2378156',
    'http://e1.retail.shakedown.test/api/orders/%23W2378156/',
    'http://e1.retail.shakedown.test/api/orders/W1/cancel?reason=x#frag',
    'http://e1.retail.shakedown.test/api/users/by-email?email=a%40b.c',
    'http://e1.retail.shakedown.test/api/users/u%2F1/orders',
    'http://e1.retail.shakedown.test/api/users/%E2%82%AC',
    'http://e1.retail.shakedown.test/api/',
    'http://e1.retail.shakedown.test/api',
    'http://e1.travel.shakedown.test/api/reservations/ZK4M7P/flights',
    'http://localhost:3000/api/42',
    'http://localhost:3001/api/42',
    'https://a.example.test/api/7',
    'http://e1.retail.shakedown.test/api/files/x/raw',
    'http://e1.retail.shakedown.test/api/items/3-4',
    'http://e1.retail.shakedown.test/api/a.json',
    'http://e1.retail.shakedown.test/API/orders/W1',
    'http://e1.retail.shakedown.test/api/orders/%zz',
  ];

  it('compiles msw\'s own steps once (msw\'s files are where msw 2.15 keeps them)', () => {
    expect(pathMatcher('*/api/orders/:orderId').compiled).toBe(true);
  });

  it('gives matchRequestUrl\'s answer and params for every world path and odd path, on every URL', () => {
    expect(worldPaths.length).toBeGreaterThan(20);
    let compared = 0;
    for (const path of new Set([...worldPaths, ...odd])) {
      const matcher = pathMatcher(path);
      for (const raw of [...urls, ...worldPaths.map((p) => `http://e2.retail.shakedown.test${p.replace(/^\*/, '').replace(/:(\w+)/g, 'v-$1')}`)]) {
        const url = new URL(raw);
        let want: unknown;
        let got: unknown;
        try {
          want = matchRequestUrl(url, path);
        } catch (error) {
          want = { threw: (error as Error).message };
        }
        try {
          got = matcher(url);
        } catch (error) {
          got = { threw: (error as Error).message };
        }
        expect(got, `${path} on ${raw}`).toEqual(want);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('builds a matcher for a path path-to-regexp cannot read, which fails on each call with msw\'s own error', () => {
    const url = new URL('http://e1.retail.shakedown.test/api/a');
    for (const path of ['*/api/:', '*/api/(', '*/api/{a']) {
      let message = '';
      try {
        matchRequestUrl(url, path);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, path).not.toBe('');
      const matcher = pathMatcher(path);
      expect(matcher.compiled).toBe(false);
      expect(() => matcher(url)).toThrow(message);
    }
  });

  it('would catch a matcher that drops a parameter', () => {
    const url = new URL('http://e1.retail.shakedown.test/api/orders/W1');
    const broken = (u: URL) => ({ ...pathMatcher('*/api/orders/:orderId')(u), params: {} });
    expect(broken(url)).not.toEqual(matchRequestUrl(url, '*/api/orders/:orderId'));
    expect(pathMatcher('*/api/orders/:orderId')(url)).toEqual(matchRequestUrl(url, '*/api/orders/:orderId'));
  });
});
