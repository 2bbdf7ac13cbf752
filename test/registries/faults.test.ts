import { describe, expect, it } from 'vitest';
import { faultKinds, faultProfiles, getFaultProfile } from '../../faults/index.js';
import { FaultInjector, faultSchedule, transientSchedule, type FaultProfile } from '../../src/ground/faults.js';
import { createClock } from '../../src/ground/clock.js';
import { callTool } from '../../src/ground/tools.js';
import { WorldHarness } from '../../src/run/episode.js';
import { cloneJson } from '../../src/ground/canonical.js';
import type { RetailDb } from '../../scenarios/retail/schema.js';
import { retail, scenario } from '../helpers.js';

const tool = (name: string) => {
  const t = retail.tools.find((x) => x.name === name);
  if (!t) throw new Error(name);
  return t;
};
const only = (id: string): FaultProfile => ({ id: `only-${id}`, description: id, weights: { [id]: 1 } });

async function openEpisode(id: string, lambda: number, profile: FaultProfile, seed = 'f') {
  const harness = new WorldHarness(retail, '42');
  const prepared = await harness.prepare(scenario('return-one-of-two'));
  const faults = new FaultInjector({ seed, lambda, profile, kinds: faultKinds });
  const db = cloneJson(prepared.initial) as RetailDb;
  const session = harness.runtime.open({ episodeId: id, db, clock: createClock(), faults });
  return { session, db, faults, prepared, harness };
}

describe.each(faultKinds.map((k) => [k.id, k] as const))('fault kind %s', (id, kind) => {
  const eligible = retail.tools.filter((t) => kind.appliesTo === 'any' || (kind.appliesTo === 'write') === t.write);

  it('declares scope, touches and valid default parameters', () => {
    expect(['transient', 'persistent']).toContain(kind.scope);
    expect(kind.touches.length).toBeGreaterThan(0);
    expect(() => kind.params.parse({})).not.toThrow();
  });

  it('injects nothing at λ = 0', async () => {
    const { session } = await openEpisode(`z-${id}`, 0, only(id));
    for (const t of eligible.filter((x) => !x.write)) await callTool(session.fetch, session.baseUrl, t, { userId: 'jack_sorensen_4003', orderId: 'W9000403', productId: 'tee', email: 'x@y.z', first: 'a', last: 'b', zip: '00000' });
    expect(session.faults).toEqual([]);
    session.close();
  });

  it('records what fired, with the call it struck', async () => {
    const { session } = await openEpisode(`r-${id}`, 1, only(id));
    const struck = kind.appliesTo === 'write' ? 'return_items' : 'get_order';
    const args = struck === 'return_items' ? { orderId: 'W9000403', itemIds: ['bottle-steel-500ml'], paymentMethodId: 'credit_card_4003' } : { orderId: 'W9000403' };
    await callTool(session.fetch, session.baseUrl, tool(struck), args);
    expect(session.faults[0]).toMatchObject({ kind: id, tool: struck, ordinal: 0, scope: kind.scope });
    expect(session.trace[0]?.fault).toBe(id);
    session.close();
  });

  it('injects on every eligible call at λ = 1', async () => {
    const injector = new FaultInjector({ seed: 's', lambda: 1, profile: only(id), kinds: faultKinds });
    for (const t of eligible) {
      if (kind.scope === 'transient') {
        for (let i = 0; i < 5; i++) expect(injector.decide(t, i)?.kind.id).toBe(id);
      } else {
        expect(injector.persistentFor(t)?.kind.id).toBe(id);
      }
    }
  });

  it('draws its schedule from the seed', () => {
    const schedule = (seed: string) => {
      const inj = new FaultInjector({ seed, lambda: 0.4, profile: only(id), kinds: faultKinds });
      return kind.scope === 'transient' ? transientSchedule(inj, retail.tools, 6) : retail.tools.map((t) => inj.persistentFor(t)?.variant ?? null);
    };
    expect(schedule('a')).toEqual(schedule('a'));
    const others = ['b', 'c', 'd', 'e'].map((s) => JSON.stringify(schedule(s)));
    expect(others.some((o) => o !== JSON.stringify(schedule('a')))).toBe(true);
  });
});

describe('fault schedules', () => {
  it('key decisions by (tool, ordinal): an extra call to one tool shifts no fault of another', () => {
    const inj = new FaultInjector({ seed: 'k', lambda: 0.5, profile: getFaultProfile('mixed'), kinds: faultKinds });
    const before = [0, 1, 2, 3].map((i) => inj.decide(tool('get_order'), i)?.kind.id ?? null);
    inj.decide(tool('get_user'), 0);
    inj.decide(tool('get_user'), 1);
    expect([0, 1, 2, 3].map((i) => inj.decide(tool('get_order'), i)?.kind.id ?? null)).toEqual(before);
  });

  it('are pinned for seed 42, so that an upgrade of seedrandom cannot silently change the chaos', () => {
    const inj = new FaultInjector({ seed: '42', lambda: 0.5, profile: getFaultProfile('mixed'), kinds: faultKinds });
    expect(faultSchedule(inj, retail.tools, 3).map((f) => `${f.tool}${f.ordinal === undefined ? '' : `#${f.ordinal}`} ${f.kind}${f.phase ? ` ${f.phase}` : ''}${f.variant ? ` ${f.variant}` : ''}`)).toMatchInlineSnapshot(`
      [
        "find_user_by_email#0 latency-spike",
        "find_user_by_email#1 timeout",
        "find_user_by_email#2 connection-reset",
        "find_user_by_name_zip#0 server-error",
        "find_user_by_name_zip#1 server-error",
        "find_user_by_name_zip#2 latency-spike",
        "get_user#0 truncated-body",
        "get_user#1 server-error",
        "get_user#2 server-error",
        "list_user_orders empty-result null-field:orders",
        "list_user_orders#0 server-error",
        "get_order#0 server-error",
        "get_order#1 server-error",
        "get_product empty-result empty",
        "cancel_order#0 silent-write",
        "cancel_order#2 server-error",
        "return_items#2 truncated-body",
        "exchange_items#1 server-error",
        "exchange_items#2 timeout before",
        "add_gift_card_funds#0 latency-spike",
        "add_gift_card_funds#1 timeout before",
      ]
    `);
  });

  it('refuse a profile that names an unknown kind, listing the valid ones', () => {
    expect(() => new FaultInjector({ seed: 's', lambda: 0.1, profile: only('meteor'), kinds: faultKinds })).toThrow(/timeout, rate-limit, server-error, connection-reset, truncated-body, latency-spike, schema-drift, empty-result/);
  });

  it('validate a kind\'s parameters once per kinds, profile and parameters, frozen, and refuse bad ones every time', () => {
    let parses = 0;
    const counted = faultKinds.map((k) => (k.id === 'rate-limit' ? { ...k, params: k.params.transform((v: unknown) => (parses++, v)) } : k)) as typeof faultKinds;
    const profile = only('rate-limit');
    const params = { 'rate-limit': { retryAfterFormat: 'seconds' } };
    const a = new FaultInjector({ seed: 'a', lambda: 0.5, profile, kinds: counted, params });
    const b = new FaultInjector({ seed: 'b', lambda: 0.5, profile, kinds: counted, params });
    expect(parses).toBe(1);
    const kind = counted.find((k) => k.id === 'rate-limit') as (typeof faultKinds)[number];
    expect(b.paramsOf(kind)).toBe(a.paramsOf(kind));
    expect(a.paramsOf(kind)).toMatchObject({ retryAfterFormat: 'seconds' });
    expect(Object.isFrozen(a.paramsOf(kind))).toBe(true);
    // Other parameters, or none, are validated on their own.
    new FaultInjector({ seed: 'c', lambda: 0.5, profile, kinds: counted, params: { 'rate-limit': { retryAfterFormat: 'http-date' } } });
    new FaultInjector({ seed: 'd', lambda: 0.5, profile, kinds: counted });
    new FaultInjector({ seed: 'd', lambda: 0.5, profile, kinds: counted, params: {} });
    expect(parses).toBe(3);
    const bad = { 'rate-limit': { retryAfterFormat: 'sometime' } };
    for (let i = 0; i < 2; i++) expect(() => new FaultInjector({ seed: 'e', lambda: 0.5, profile, kinds: counted, params: bad })).toThrow(/faultParams\.rate-limit/);
  });

  it('every profile names known kinds', () => {
    for (const p of faultProfiles) expect(() => new FaultInjector({ seed: 's', lambda: 0.1, profile: p, kinds: faultKinds })).not.toThrow();
  });
});

describe('fault effects', () => {
  it('a rate limit answers 429 with Retry-After and refuses calls inside its window', async () => {
    const { session } = await openEpisode('rl', 1, { ...only('rate-limit'), params: { 'rate-limit': { retryAfterFormat: 'seconds' } } });
    const r = await callTool(session.fetch, session.baseUrl, tool('get_order'), { orderId: 'W9000403' });
    expect(r.status).toBe(429);
    const seconds = Number(r.headers.get('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(session.faults).toEqual([{ kind: 'rate-limit', tool: 'get_order', ordinal: 0, scope: 'transient', detail: { status: 429, retryAfterSeconds: seconds } }]);
    // A second call at the same simulated instant falls inside the window the first 429 opened, and
    // lengthens it by a second (a client that keeps calling waits longer).
    const inWindow = await callTool(session.fetch, session.baseUrl, tool('get_product'), { productId: 'tee' });
    expect(inWindow.status).toBe(429);
    expect(Number(inWindow.headers.get('retry-after'))).toBe(seconds + 1);
    expect(session.faults[1]).toMatchObject({ kind: 'rate-limit', tool: 'get_product', window: true });
    // Past ten calls inside windows the client is blocked for the episode: an hour, every call after.
    for (let i = 0; i < 9; i++) await callTool(session.fetch, session.baseUrl, tool('get_product'), { productId: 'tee' });
    const blocked = await callTool(session.fetch, session.baseUrl, tool('get_product'), { productId: 'tee' });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('3600');
    expect(session.faults.at(-1)?.detail).toMatchObject({ blocked: true, retryAfterSeconds: 3600 });
    await session.instance.clock.sleep(3_600_000);
    expect((await callTool(session.fetch, session.baseUrl, tool('get_product'), { productId: 'tee' })).status).toBe(429);
    session.close();
  });

  it('a timeout costs simulated time, not wall time', async () => {
    const { session } = await openEpisode('to', 1, only('timeout'));
    const clock = session.instance.clock;
    const before = clock.now();
    const r = await callTool(session.fetch, session.baseUrl, tool('get_order'), { orderId: 'W9000403' });
    expect(r.status).toBe(504);
    expect(clock.now() - before).toBe(30_000);
    session.close();
  });

  it('a timeout after commit leaves the write done; a retry without a key duplicates it, one with the same key does not', async () => {
    const harness = new WorldHarness(retail, '42');
    const prepared = await harness.prepare(scenario('return-one-of-two'));
    const write = tool('return_items');
    const params = { timeout: { afterCommit: 1 } };
    const profile: FaultProfile = { id: 'network', description: 'timeouts', weights: { timeout: 1 } };
    // A seed whose schedule times out the first return call and lets the second through.
    const seed = Array.from({ length: 200 }, (_, i) => `s${i}`).find((s) => {
      const inj = new FaultInjector({ seed: s, lambda: 0.5, profile, kinds: faultKinds, params });
      return inj.decide(write, 0) !== null && inj.decide(write, 1) === null;
    });
    expect(seed).toBeDefined();
    const args = { orderId: '#W9000403', itemIds: ['bottle-steel-500ml'], paymentMethodId: 'credit_card_4003' };
    const run = async (id: string, key?: string) => {
      const faults = new FaultInjector({ seed: seed as string, lambda: 0.5, profile, kinds: faultKinds, params });
      const db = cloneJson(prepared.initial) as RetailDb;
      const session = harness.runtime.open({ episodeId: id, db, clock: createClock(), faults });
      const options = key ? { idempotencyKey: key } : {};
      const first = await callTool(session.fetch, session.baseUrl, write, args, options);
      const second = await callTool(session.fetch, session.baseUrl, write, args, options);
      session.close();
      return { first, second, db, fired: session.faults };
    };
    const naive = await run('naive');
    expect(naive.first.status).toBe(504);
    expect(naive.fired).toEqual([{ kind: 'timeout', tool: 'return_items', ordinal: 0, scope: 'transient', phase: 'after', detail: { status: 504, gatewayMs: 30_000 } }]);
    expect(naive.second.status).toBe(200);
    expect(naive.db.orders.W9000403?.items[0]?.returned).toBe(2);
    expect(naive.db.orders.W9000403?.payments.filter((p) => p.type === 'refund')).toHaveLength(2);

    const keyed = await run('keyed', 'return-1');
    expect(keyed.first.status).toBe(504);
    expect(keyed.second.status).toBe(200);
    expect(keyed.second.headers.get('idempotent-replayed')).toBe('true');
    expect(keyed.db.orders.W9000403?.items[0]?.returned).toBe(1);
    expect(keyed.db.orders.W9000403?.payments.filter((p) => p.type === 'refund')).toHaveLength(1);
  });

  it('an Idempotency-Key replays the stored response instead of writing twice', async () => {
    const harness = new WorldHarness(retail, '42');
    const prepared = await harness.prepare(scenario('return-one-of-two'));
    const db = cloneJson(prepared.initial) as RetailDb;
    const session = harness.runtime.open({ episodeId: 'idem', db, clock: createClock() });
    const args = { orderId: '#W9000403', itemIds: ['bottle-steel-500ml'], paymentMethodId: 'credit_card_4003' };
    const a = await callTool(session.fetch, session.baseUrl, tool('return_items'), args, { idempotencyKey: 'k1' });
    const b = await callTool(session.fetch, session.baseUrl, tool('return_items'), args, { idempotencyKey: 'k1' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);
    expect(db.orders.W9000403?.items[0]?.returned).toBe(1);
    const reused = await callTool(session.fetch, session.baseUrl, tool('cancel_order'), { orderId: '#W9000403', reason: 'no longer needed' }, { idempotencyKey: 'k1' });
    expect(reused.status).toBe(422);
    session.close();
  });

  it('schema drift keeps the information, in another shape', async () => {
    const { session } = await openEpisode('drift', 1, only('schema-drift'), 'drift-seed');
    const r = await callTool(session.fetch, session.baseUrl, tool('get_order'), { orderId: 'W9000403' });
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    expect(text).toMatch(/W9000403/);
    expect(text.toLowerCase()).toMatch(/delivered/);
    expect(session.faults[0]).toMatchObject({ kind: 'schema-drift', scope: 'persistent' });
    session.close();
  });

  it('an empty result hides records that exist', async () => {
    const { session } = await openEpisode('empty', 1, only('empty-result'));
    const order = await callTool(session.fetch, session.baseUrl, tool('get_order'), { orderId: 'W9000403' });
    expect(order.status).toBe(404);
    const list = await callTool(session.fetch, session.baseUrl, tool('list_user_orders'), { userId: 'jack_sorensen_4003' });
    expect(list.body).toEqual({ orders: [] });
    session.close();
  });
});
