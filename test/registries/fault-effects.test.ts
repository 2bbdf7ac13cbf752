import { afterEach, describe, expect, it, vi } from 'vitest';
import { faultKinds, getFaultProfile } from '../../faults/index.js';
import { FaultInjector, type FaultProfile } from '../../src/ground/faults.js';
import { createClock } from '../../src/ground/clock.js';
import { callTool } from '../../src/ground/tools.js';
import { WorldHarness } from '../../src/run/episode.js';
import { cloneJson } from '../../src/ground/canonical.js';
import { ShakedownError } from '../../src/ground/errors.js';
import type { RetailDb } from '../../scenarios/retail/schema.js';
import { retail, scenario } from '../helpers.js';

const tool = (name: string) => retail.tools.find((x) => x.name === name) ?? (() => { throw new Error(name); })();
const only = (id: string, extra: Partial<FaultProfile> = {}): FaultProfile => ({ id: `only-${id}`, description: id, weights: { [id]: 1 }, ...extra });

let opened = 0;
const harness = new WorldHarness(retail, '42');
async function open(profile: FaultProfile, lambda = 1, options: { realWaitScale?: number; params?: Record<string, unknown>; seed?: string } = {}) {
  const prepared = await harness.prepare(scenario('return-one-of-two'));
  const faults = new FaultInjector({ seed: options.seed ?? 'effects', lambda, profile, kinds: faultKinds, params: options.params ?? {} });
  const db = cloneJson(prepared.initial) as RetailDb;
  const session = harness.runtime.open({ episodeId: `fx-${++opened}`, db, clock: createClock(), faults, ...(options.realWaitScale ? { realWaitScale: options.realWaitScale } : {}) });
  const call = (name: string, args: Record<string, unknown>, key?: string) => callTool(session.fetch, session.baseUrl, tool(name), args, key ? { idempotencyKey: key } : {});
  return { session, db, call };
}

const RETURN = { orderId: '#W9000403', itemIds: ['bottle-steel-500ml'], paymentMethodId: 'credit_card_4003' };

afterEach(() => {
  vi.useRealTimers();
});

describe('transient kinds', () => {
  it('a server error is 500, 502 (an HTML page) or 503, and a 503 may carry Retry-After', async () => {
    const seen = new Map<number, string | null>();
    for (let i = 0; i < 40; i++) {
      const { session, call } = await open(only('server-error', { params: { 'server-error': { retryAfter: 1 } } }), 1, { seed: `s${i}` });
      const r = await call('get_order', { orderId: 'W9000403' });
      seen.set(r.status, r.headers.get('retry-after'));
      if (r.status === 502) expect(String(r.body)).toMatch(/<h1>502 Bad Gateway<\/h1>/);
      expect(session.faults[0]?.detail?.status).toBe(r.status);
      session.close();
    }
    expect([...seen.keys()].sort()).toEqual([500, 502, 503]);
    expect(Number(seen.get(503))).toBeGreaterThanOrEqual(1);
    expect(seen.get(500)).toBeNull();
  });

  it('a connection reset rejects as Node fetch does: TypeError "fetch failed", cause ECONNRESET', async () => {
    const { session } = await open(only('connection-reset'));
    const error = await session.fetch(`${session.baseUrl}/orders/W9000403`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect((error as TypeError).cause).toMatchObject({ code: 'ECONNRESET', syscall: 'read', message: 'read ECONNRESET' });
    expect(session.trace[0]).toMatchObject({ status: 0, fault: 'connection-reset' });
    session.close();
  });

  it('a reset on a write strikes before or after the commit, as its parameter says', async () => {
    for (const [afterCommit, returned, phase] of [[0, 0, 'before'], [1, 1, 'after']] as const) {
      const { session, db, call } = await open(only('connection-reset'), 1, { params: { 'connection-reset': { afterCommit } } });
      const r = await call('return_items', RETURN);
      expect(r.status).toBe(0);
      expect(db.orders.W9000403?.items[0]?.returned).toBe(returned);
      expect(session.faults[0]).toMatchObject({ kind: 'connection-reset', phase });
      session.close();
    }
  });

  it('a truncated body is a 200 whose JSON stops midway, and a write behind it has committed', async () => {
    const { session, db, call } = await open(only('truncated-body'));
    const r = await call('return_items', RETURN);
    expect(r.status).toBe(200);
    expect(typeof r.body).toBe('string');
    expect(() => JSON.parse(r.body as string)).toThrow();
    expect(db.orders.W9000403?.items[0]?.returned).toBe(1);
    expect(session.faults[0]).toMatchObject({ kind: 'truncated-body', phase: 'after', detail: { status: 200 } });
    session.close();
  });

  it('a latency spike is slow on the episode clock but correct', async () => {
    const { session, call } = await open(only('latency-spike'));
    const clock = session.instance.clock;
    const before = clock.now();
    const r = await call('get_order', { orderId: 'W9000403' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ orderId: '#W9000403' });
    const delay = session.faults[0]?.detail?.delayMs as number;
    expect(delay).toBeGreaterThanOrEqual(2000);
    expect(clock.now() - before).toBe(delay);
    session.close();
  });

  it('a rate limit may give Retry-After as an HTTP date on the episode clock, no earlier than its window ends', async () => {
    const { session, call } = await open(only('rate-limit', { params: { 'rate-limit': { retryAfterFormat: 'http-date' } } }));
    const r = await call('get_order', { orderId: 'W9000403' });
    const date = Date.parse(r.headers.get('retry-after') ?? '');
    const seconds = session.faults[0]?.detail?.retryAfterSeconds as number;
    expect(date).toBeGreaterThanOrEqual(session.instance.clock.now() + seconds * 1000);
    await session.instance.clock.sleep(date - session.instance.clock.now());
    expect(session.faults).toHaveLength(1);
    session.close();
  });

  it('waits real time, scaled down, only when asked: for agents that keep their own timers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { session, call } = await open(only('timeout'), 1, { realWaitScale: 0.001 });
    let settled = false;
    const pending = call('get_order', { orderId: 'W9000403' }).then((r) => {
      settled = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(29);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(504);
    session.close();
  });
});

describe('persistent kinds', () => {
  const leaves = (v: unknown): string[] =>
    Array.isArray(v) ? v.flatMap(leaves) : v !== null && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [String(v).toLowerCase()];

  it.each(['rename', 'nest', 'flatten', 'currency-string', 'enum-case', 'extra-fields'])('schema drift %s changes the shape and keeps every value', async (variant) => {
    const plain = await open(only('schema-drift'), 0);
    const original = (await plain.call('get_order', { orderId: 'W9000403' })).body;
    plain.session.close();
    const { session, call } = await open(only('schema-drift'), 1, { params: { 'schema-drift': { variants: [variant] } } });
    const drifted = (await call('get_order', { orderId: 'W9000403' })).body;
    expect(drifted).not.toEqual(original);
    const text = JSON.stringify(drifted).toLowerCase();
    for (const v of leaves(original)) expect(text).toContain(v.replace(/^(\d+\.\d)$/, '$10').replace(/^(\d+)\.(\d\d)\d*$/, '$1.$2'));
    expect(session.faults[0]).toMatchObject({ kind: 'schema-drift', scope: 'persistent', variant });
    session.close();
  });

  it('schema drift follows the response schema: enums change case, free text does not', async () => {
    const { session, call } = await open(only('schema-drift'), 1, { params: { 'schema-drift': { variants: ['enum-case'] } } });
    const body = (await call('get_order', { orderId: 'W9000403' })).body as { status: string; items: { name: string; productId: string }[]; payments: { type: string }[] };
    expect(body.status).toBe('DELIVERED');
    expect(body.payments[0]?.type).toBe('PAYMENT');
    expect(body.items[0]?.productId).toBe('bottle');
    session.close();
  });

  it('schema drift drops only what the schema calls optional', async () => {
    const { session, db, call } = await open(only('schema-drift'), 1, { params: { 'schema-drift': { variants: ['drop-optional'] } } });
    (db.orders.W9000403 as { cancelReason?: string }).cancelReason = 'no longer needed';
    const body = (await call('get_order', { orderId: 'W9000403' })).body as Record<string, unknown>;
    expect(body).not.toHaveProperty('cancelReason');
    expect(body).toHaveProperty('status');
    session.close();
  });

  it('an empty result may leave a field null, as a lagging replica does', async () => {
    const { session, call } = await open(only('empty-result'), 1, { params: { 'empty-result': { variants: ['null-field'] } } });
    const r = await call('get_order', { orderId: 'W9000403' });
    const variant = session.faults[0]?.variant ?? '';
    expect(variant).toMatch(/^null-field:/);
    expect((r.body as Record<string, unknown>)[variant.slice('null-field:'.length)]).toBeNull();
    session.close();
  });
});

describe('profiles', () => {
  it('target faults by tool, or by reads and writes', async () => {
    const byTool = await open(only('server-error', { target: { tools: ['get_product'] } }));
    expect((await byTool.call('get_order', { orderId: 'W9000403' })).status).toBe(200);
    expect((await byTool.call('get_product', { productId: 'tee' })).status).toBeGreaterThanOrEqual(500);
    byTool.session.close();
    const writes = await open(only('server-error', { target: { access: 'write' } }));
    expect((await writes.call('get_order', { orderId: 'W9000403' })).status).toBe(200);
    expect((await writes.call('return_items', RETURN)).status).toBeGreaterThanOrEqual(500);
    writes.session.close();
  });

  it('bursty: a fault opens an outage in which every call fails the same way, until it has passed', async () => {
    const profile = only('server-error', { target: { tools: ['get_order'] }, burst: { outageMs: 20_000 } });
    const { session, call } = await open(profile, 1);
    expect((await call('get_order', { orderId: 'W9000403' })).status).toBeGreaterThanOrEqual(500);
    // get_product is not targeted, yet the outage takes it down too.
    expect((await call('get_product', { productId: 'tee' })).status).toBeGreaterThanOrEqual(500);
    expect(session.faults[1]).toMatchObject({ tool: 'get_product', window: true });
    await session.instance.clock.sleep(20_000);
    expect((await call('get_product', { productId: 'tee' })).status).toBe(200);
    session.close();
  });

  it('timeout-after-commit strikes writes only, always after the commit', () => {
    const inj = new FaultInjector({ seed: 's', lambda: 1, profile: getFaultProfile('timeout-after-commit'), kinds: faultKinds });
    for (const t of retail.tools) {
      const d = inj.decide(t, 0);
      if (t.write) expect(d).toMatchObject({ phase: 'after' });
      else expect(d).toBeNull();
    }
  });

  it('refuse an unknown kind or a bad parameter, saying what to fix', () => {
    const make = (params: Record<string, unknown>) => () => new FaultInjector({ seed: 's', lambda: 0.1, profile: getFaultProfile('mixed'), kinds: faultKinds, params });
    expect(make({ meteor: {} })).toThrow(/Valid fault kind ids: timeout/);
    expect(make({ timeout: { afterCommit: 2 } })).toThrow(ShakedownError);
    expect(make({ timeout: { afterCommit: 2 } })).toThrow(/faultParams.timeout/);
    expect(make({ 'server-error': { statuses: [418] } })).toThrow(/statuses/);
  });
});
