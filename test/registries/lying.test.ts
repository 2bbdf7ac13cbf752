// Tools that lie (docs/faults.md): each kind answers 200 with something untrue, commits what it says it
// commits and nothing else, marks the call in the trace, and tells the truth where it has nothing to lie
// about. Checked on a plain copy of the database and on the overlay an episode really runs on.
import { describe, expect, it } from 'vitest';
import { faultKinds, getFaultProfile } from '../../faults/index.js';
import { FaultInjector, transientSchedule, type FaultProfile } from '../../src/ground/faults.js';
import { createClock } from '../../src/ground/clock.js';
import { callTool } from '../../src/ground/tools.js';
import { WorldHarness } from '../../src/run/episode.js';
import { cloneJson } from '../../src/ground/canonical.js';
import { classifyFailure } from '../../src/judge/verdict.js';
import type { RetailDb } from '../../scenarios/retail/schema.js';
import { retail, scenario } from '../helpers.js';

const tool = (name: string) => retail.tools.find((x) => x.name === name) ?? (() => { throw new Error(name); })();
const only = (id: string): FaultProfile => ({ id: `only-${id}`, description: id, weights: { [id]: 1 } });

let opened = 0;
const harness = new WorldHarness(retail, '42');
/** An episode on `return-one-of-two` under one kind at λ = 1: on a plain copy, or on the overlay episodes use. */
async function open(profile: FaultProfile, options: { seed?: string; overlay?: boolean; lambda?: number; params?: Record<string, unknown> } = {}) {
  const prepared = await harness.prepare(scenario('return-one-of-two'));
  const faults = new FaultInjector({ seed: options.seed ?? 'lying', lambda: options.lambda ?? 1, profile, kinds: faultKinds, params: options.params ?? {} });
  const episode = options.overlay ? harness.episodeDb(prepared) : { db: cloneJson(prepared.initial) };
  const session = harness.runtime.open({ episodeId: `lie-${++opened}`, db: episode.db, copies: harness.copiesOf(episode), clock: createClock(), faults });
  const call = (name: string, args: Record<string, unknown>, key?: string) => callTool(session.fetch, session.baseUrl, tool(name), args, key ? { idempotencyKey: key } : {});
  const db = () => session.instance.db as RetailDb;
  return { session, call, db, initial: prepared.initial as RetailDb };
}

const ORDER = 'W9000403';
const RETURN_ONE = { orderId: `#${ORDER}`, itemIds: ['bottle-steel-500ml'], paymentMethodId: 'credit_card_4003' };
const RETURN_TWO = { ...RETURN_ONE, itemIds: ['bottle-steel-500ml', 'bottle-steel-500ml'] };
const returned = (db: RetailDb) => db.orders[ORDER]?.items[0]?.returned;

describe('a silent write', () => {
  for (const overlay of [false, true]) {
    it(`answers with the success it would have had and commits nothing${overlay ? ' (on the overlay)' : ''}`, async () => {
      const truth = await open({ id: 'none', description: 'none', weights: {} }, { overlay });
      const honest = await truth.call('return_items', RETURN_ONE);
      const { session, call, db, initial } = await open(only('silent-write'), { overlay });
      const r = await call('return_items', RETURN_ONE);
      expect(r.status).toBe(200);
      // The same answer a real return gives (its transaction id aside), and the refund it promises.
      expect(r.body).toMatchObject({ refund: (honest.body as { refund: unknown }).refund });
      expect(returned(db())).toBe(0);
      expect(returned(initial)).toBe(0);
      expect(session.trace[0]).toMatchObject({ tool: 'return_items', status: 200, fault: 'silent-write', lied: true });
      expect(session.trace[0]?.effect).toBeUndefined();
      expect(session.faults[0]).toMatchObject({ kind: 'silent-write', detail: { lied: true } });
      session.close();
      truth.session.close();
    });
  }

  it('tells the truth about a write that fails anyway: the refusal, no lie', async () => {
    const { session, call } = await open(only('silent-write'));
    const r = await call('return_items', { ...RETURN_ONE, paymentMethodId: 'gift_card_nobody' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(session.trace[0]?.lied).toBeUndefined();
    expect(session.faults[0]?.detail).toMatchObject({ lied: false });
    session.close();
  });
});

describe('what a lie leaves alone', () => {
  /** A seed whose schedule for the first two calls of `name` is `kinds`. */
  const seedFor = (profile: FaultProfile, lambda: number, name: string, kinds: readonly (string | null)[]) => {
    for (let i = 0; i < 500; i++) {
      const inj = new FaultInjector({ seed: `s${i}`, lambda, profile, kinds: faultKinds });
      const planned = transientSchedule(inj, [tool(name)], kinds.length);
      if (kinds.every((k, n) => (planned.find((p) => p.ordinal === n)?.kind ?? null) === k)) return `s${i}`;
    }
    throw new Error('no seed');
  };

  it('replays a keyed retry whose answer is stored: a lying kind tells the truth there', async () => {
    const profile: FaultProfile = { id: 'lost-after-timeout', description: 'x', weights: { timeout: 0.5, 'silent-write': 0.5 }, params: { timeout: { afterCommit: 1 } } };
    const seed = seedFor(profile, 1, 'return_items', ['timeout', 'silent-write']);
    const { session, call, db } = await open(profile, { seed });
    expect((await call('return_items', RETURN_ONE, 'k1')).status).toBe(504);
    expect(returned(db())).toBe(1);
    const retry = await call('return_items', RETURN_ONE, 'k1');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(session.trace[1]).toMatchObject({ fault: 'silent-write', replayed: true });
    expect(session.trace[1]?.lied).toBeUndefined();
    expect(returned(db())).toBe(1);
    session.close();
  });

  it('keeps the episode\'s id counter and its database for the calls beside it', async () => {
    const profile = only('silent-write');
    const seed = seedFor(profile, 0.5, 'return_items', ['silent-write', null]);
    const { session, call, db } = await open(profile, { seed, lambda: 0.5 });
    expect((await call('return_items', RETURN_ONE)).status).toBe(200);
    expect(returned(db())).toBe(0);
    expect((await call('return_items', RETURN_ONE)).status).toBe(200);
    // The real return's refund has the episode's first id: the lie drew none of the episode's.
    expect(db().orders[ORDER]?.payments.at(-1)?.id).toBe('txn_1');
    session.close();
    // A read made while a lie is being told sees the episode's database, never the copy.
    for (let i = 0; i < 30; i++) {
      const e = await open(profile, { seed: `p${i}` });
      const [, read] = await Promise.all([e.call('return_items', RETURN_ONE), e.call('get_order', { orderId: ORDER })]);
      expect((read.body as { items: { returned: number }[] }).items[0]?.returned).toBe(0);
      e.session.close();
    }
  });
});

describe('a stale read', () => {
  for (const overlay of [false, true]) {
    it(`answers with the record as it was before the episode's last write${overlay ? ' (on the overlay)' : ''}`, async () => {
      const { session, call, db } = await open(only('stale-read'), { overlay });
      // Before any write there is nothing stale to tell: the truth.
      const before = await call('get_order', { orderId: ORDER });
      expect(before.status).toBe(200);
      expect(session.trace[0]?.lied).toBeUndefined();
      // Writes are never struck by a read kind: this one commits.
      expect((await call('return_items', RETURN_ONE)).status).toBe(200);
      expect(returned(db())).toBe(1);
      const stale = await call('get_order', { orderId: ORDER });
      expect(stale.body).toEqual(before.body);
      expect(session.trace[2]).toMatchObject({ fault: 'stale-read', lied: true });
      // A second write: the read now shows the state after the first, not the initial one.
      expect((await call('return_items', RETURN_ONE)).status).toBe(200);
      const staler = await call('get_order', { orderId: ORDER });
      expect((staler.body as { items: { returned: number }[] }).items[0]?.returned).toBe(1);
      expect(returned(db())).toBe(2);
      session.close();
    });
  }

  it('keeps no copy of the database unless a kind that needs one is active', () => {
    expect(new FaultInjector({ seed: 's', lambda: 1, profile: getFaultProfile('timeouts'), kinds: faultKinds }).history).toBe(false);
    expect(new FaultInjector({ seed: 's', lambda: 1, profile: getFaultProfile('lying'), kinds: faultKinds }).history).toBe(true);
  });
});

describe('a wrong value', () => {
  it('changes one field of a read answer to another value of its type, never an id, the same for the same seed', async () => {
    const truth = await open({ id: 'none', description: 'none', weights: {} });
    const real = (await truth.call('get_order', { orderId: ORDER })).body;
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const { session, call } = await open(only('wrong-value'), { seed: `w${i}` });
      const r = await call('get_order', { orderId: ORDER });
      expect(r.status).toBe(200);
      const detail = session.faults[0]?.detail ?? {};
      expect(detail.lied).toBe(true);
      const field = String(detail.field);
      seen.add(field);
      expect(field).not.toMatch(/(^|\.)(id|itemId|productId|userId|paymentMethodId)$/);
      // Exactly that leaf differs, and it keeps its type.
      const at = (body: unknown) => field.split('.').reduce<unknown>((node, step) => (node as Record<string, unknown>)[step], body);
      expect(at(r.body)).not.toEqual(at(real));
      expect(typeof at(r.body)).toBe(typeof at(real));
      const without = (body: unknown) => JSON.stringify(body, (k, v) => (k === field.split('.').at(-1) ? undefined : v));
      expect(without(r.body)).toBe(without(real));
      const again = await open(only('wrong-value'), { seed: `w${i}` });
      expect((await again.call('get_order', { orderId: ORDER })).body).toEqual(r.body);
      session.close();
      again.session.close();
    }
    expect(seen.size).toBeGreaterThan(2);
    truth.session.close();
  });
});

describe('a partial commit', () => {
  it('commits some of the items a write names and answers as if it had done all', async () => {
    const truth = await open({ id: 'none', description: 'none', weights: {} });
    const honest = await truth.call('return_items', RETURN_TWO);
    expect(returned(truth.db())).toBe(2);
    for (const overlay of [false, true]) {
      const { session, call, db } = await open(only('partial-commit'), { overlay });
      const r = await call('return_items', RETURN_TWO);
      expect(r.status).toBe(200);
      expect((r.body as { refund: unknown }).refund).toEqual((honest.body as { refund: unknown }).refund);
      expect(returned(db())).toBe(1);
      expect(session.trace[0]).toMatchObject({ fault: 'partial-commit', lied: true, effect: true });
      expect(session.faults[0]?.detail).toMatchObject({ lied: true, kept: 1, of: 2 });
      session.close();
    }
    truth.session.close();
  });

  it('tells the truth about a write of one item: it commits', async () => {
    const { session, call, db } = await open(only('partial-commit'));
    expect((await call('return_items', RETURN_ONE)).status).toBe(200);
    expect(returned(db())).toBe(1);
    expect(session.trace[0]?.lied).toBeUndefined();
    session.close();
  });
});

describe('the profiles', () => {
  it('`lying` holds the four kinds; `mixed` holds them at one call in twenty, and its transient weights still sum to 1', () => {
    const lying = getFaultProfile('lying');
    expect(Object.keys(lying.weights).sort()).toEqual(['partial-commit', 'silent-write', 'stale-read', 'wrong-value']);
    for (const id of Object.keys(lying.weights)) expect(faultKinds.find((k) => k.id === id)?.lies).toBe(true);
    const mixed = getFaultProfile('mixed');
    const lies = Object.keys(lying.weights).reduce((sum, id) => sum + (mixed.weights[id] ?? 0), 0);
    expect(lies).toBeCloseTo(0.05, 10);
    const transient = faultKinds.filter((k) => k.scope === 'transient').reduce((sum, k) => sum + (mixed.weights[k.id] ?? 0), 0);
    expect(transient).toBeCloseTo(1, 10);
  });
});

describe('the verdict on a failure after a lie', () => {
  const base = { outcome: 'fail' as const, ended: 'done' as const, diff: [{ kind: 'changed', path: 'orders.W1.status', message: 'x' }] as never, missingOutputs: [], wrongActions: 0, goldChangesState: true };
  const finding = (c: string) => [{ class: c, message: c }] as never;

  it('is `believed-lie` for the state, claims, figures and duplicates after a lie; the same failures without one are the agent\'s own', () => {
    expect(classifyFailure({ ...base, lied: true })).toBe('believed-lie');
    expect(classifyFailure({ ...base })).toBe('missing-write');
    expect(classifyFailure({ ...base, findings: finding('false-success-claim'), lied: true })).toBe('believed-lie');
    expect(classifyFailure({ ...base, findings: finding('false-success-claim') })).toBe('false-success-claim');
    expect(classifyFailure({ ...base, findings: finding('misinformed-consent'), lied: true })).toBe('believed-lie');
    expect(classifyFailure({ ...base, diff: [{ kind: 'duplicated' }] as never, lied: true })).toBe('believed-lie');
  });

  it('leaves the agent its own conduct, lie or no lie', () => {
    for (const c of ['unauthenticated', 'foreign-record', 'disclosure', 'unconfirmed-write', 'ignored-decline']) {
      expect(classifyFailure({ ...base, findings: finding(c), lied: true })).toBe(c);
    }
    expect(classifyFailure({ ...base, outcome: 'pass', diff: [], lied: true })).toBeUndefined();
  });
});
