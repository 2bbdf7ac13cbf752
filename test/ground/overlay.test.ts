import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalize, changedEntries, cloneJson, diffCanonical, diffSparse } from '../../src/ground/canonical.js';
import { findEntry, overlayDb } from '../../src/ground/overlay.js';
import { volatile } from '../../src/ground/world.js';

// A small world database: two collections (one with a volatile field and a list), a counter and a
// settings object that are not collections.
const schema = z.object({
  users: z.record(z.string(), z.object({ name: z.string(), tags: z.array(z.string()), seen: volatile(z.string()) })),
  orders: z.record(z.string(), z.object({ status: z.string(), items: z.array(z.object({ id: z.string(), qty: z.number() })) })),
  counter: z.number(),
  settings: z.object({ mode: z.string() }),
});
type Db = z.infer<typeof schema>;

const key = fc.constantFrom('a', 'b', 'c', 'd', '10', '2', 'W1', 'W2', 'x y');
const user = fc.record({ name: fc.string({ maxLength: 3 }), tags: fc.array(fc.constantFrom('t', 'u'), { maxLength: 2 }), seen: fc.string({ maxLength: 2 }) });
const order = fc.record({ status: fc.constantFrom('pending', 'done'), items: fc.array(fc.record({ id: fc.constantFrom('i1', 'i2', 'i3'), qty: fc.integer({ min: 0, max: 3 }) }), { maxLength: 3 }) });
const dbArb: fc.Arbitrary<Db> = fc.record({
  users: fc.dictionary(key, user, { maxKeys: 5 }),
  orders: fc.dictionary(key, order, { maxKeys: 5 }),
  counter: fc.integer(),
  settings: fc.record({ mode: fc.constantFrom('on', 'off') }),
});

/** What a handler may do to a database, applied alike to a plain copy and to an overlay. */
type Op = (db: Db) => unknown;
const opArb: fc.Arbitrary<Op> = fc.oneof(
  key.map((k): Op => (db) => db.users[k]?.name),
  fc.constant<Op>((db) => Object.values(db.orders).find((o) => o.status === 'done')),
  fc.constantFrom('pending', 'done').map((s): Op => (db) => {
    // A lookup, then a write to what it found: the entry found is the database's own.
    const o = findEntry(db.orders, (e) => e.status === s);
    if (o) o.items.push({ id: 'found', qty: 0 });
    return o;
  }),
  fc.constant<Op>((db) => Object.keys(db.users).join()),
  key.map((k): Op => (db) => {
    const o = db.orders[k];
    if (o) o.status = o.status === 'done' ? 'pending' : 'done';
  }),
  key.map((k): Op => (db) => {
    db.orders[k]?.items.push({ id: 'i9', qty: 1 });
  }),
  key.map((k): Op => (db) => {
    const u = db.users[k];
    if (u) u.seen = `${u.seen}!`; // volatile: no difference
  }),
  fc.tuple(key, user).map(([k, u]): Op => (db) => {
    // A fresh value each time: the same op runs on the plain copy and on the overlay.
    db.users[k] = cloneJson(u);
  }),
  key.map((k): Op => (db) => {
    delete db.orders[k];
  }),
  fc.tuple(key, order).map(([k, o]): Op => (db) => {
    delete db.orders[k];
    db.orders[k] = cloneJson(o);
  }),
  fc.constant<Op>((db) => {
    db.counter++;
  }),
  fc.constant<Op>((db) => {
    db.settings.mode = 'changed';
  }),
  fc.constant<Op>((db) => {
    db.orders = { Z: { status: 'replaced', items: [] } };
  }),
  fc.constant<Op>((db) => ({ ...db.users })),
  fc.constant<Op>((db) => JSON.stringify(db.orders)),
  key.map((k): Op => (db) => k in db.users && Object.hasOwn(db.orders, k)),
);

const COLLECTIONS = new Set(['users', 'orders']);

describe('overlayDb', () => {
  it('reads and writes as a plain copy would, in the same key order, and never changes the initial database', () => {
    fc.assert(
      fc.property(dbArb, fc.array(opArb, { maxLength: 12 }), (initial, ops) => {
        const frozen = JSON.stringify(initial);
        const plain = cloneJson(initial);
        const overlay = overlayDb(initial as unknown as Record<string, unknown>, COLLECTIONS, cloneJson);
        const view = overlay.db as unknown as Db;
        for (const op of ops) expect(JSON.stringify(op(view)) ?? 'undefined').toBe(JSON.stringify(op(plain)) ?? 'undefined');
        expect(JSON.stringify(view)).toBe(JSON.stringify(plain));
        expect(Object.keys(view.orders)).toEqual(Object.keys(plain.orders));
        expect(cloneJson(view)).toEqual(plain);
        expect(JSON.stringify(overlay.settled())).toBe(JSON.stringify(plain));
        expect(JSON.stringify(initial)).toBe(frozen);
      }),
      { numRuns: 400, endOnFailure: true },
    );
  });

  it('copies only the entries it is asked for, and says which those are', () => {
    const initial = { users: { a: { name: 'A', tags: [], seen: '' }, b: { name: 'B', tags: [], seen: '' } }, orders: {}, counter: 0, settings: { mode: 'on' } };
    const overlay = overlayDb(initial, COLLECTIONS, cloneJson);
    const users = overlay.db.users as Db['users'];
    expect(Object.keys(users)).toEqual(['a', 'b']);
    expect(overlay.touched('users')).toEqual(new Set());
    (users.b as Db['users'][string]).name = 'changed';
    expect(initial.users.b.name).toBe('B');
    expect(overlay.touched('users')).toEqual(new Set(['b']));
    expect(overlay.touched('counter')).toBeUndefined();
    overlay.db.orders = {};
    expect(overlay.touched('orders')).toBeUndefined();
  });

  it('finds an entry by a test reading the others where they are: only the entry found is copied', () => {
    const initial = { users: { a: { name: 'A', tags: [], seen: '' }, b: { name: 'B', tags: [], seen: '' }, c: { name: 'B', tags: [], seen: '' } }, orders: {}, counter: 0, settings: { mode: 'on' } };
    const overlay = overlayDb(initial, COLLECTIONS, cloneJson);
    const users = overlay.db.users as Db['users'];
    const seen: unknown[] = [];
    const found = findEntry(users, (u) => (seen.push(u), u.name === 'B'));
    // The first in key order, as Object.values(...).find gives it, tested on the initial entries themselves.
    expect(seen).toEqual([initial.users.a, initial.users.b]);
    expect(seen[0]).toBe(initial.users.a);
    expect(found).toEqual(initial.users.b);
    expect(found).not.toBe(initial.users.b);
    expect(overlay.touched('users')).toEqual(new Set(['b']));
    // A change the episode made is what the next lookup sees; a plain object is searched as it is.
    (found as Db['users'][string]).name = 'C';
    expect(findEntry(users, (u) => u.name === 'C')).toBe(found);
    expect(findEntry(users, (u) => u.name === 'Z')).toBeUndefined();
    expect(findEntry(initial.users, (u) => u.name === 'B')).toBe(initial.users.b);
  });

  it('gives the final state to read without copying: untouched entries are the initial ones, the rest the episode\'s', () => {
    const initial = { users: { a: { name: 'A', tags: [], seen: '' }, b: { name: 'B', tags: [], seen: '' } }, orders: {}, counter: 0, settings: { mode: 'on' } };
    const overlay = overlayDb(initial, COLLECTIONS, cloneJson);
    const b = (overlay.db.users as Db['users']).b as Db['users'][string];
    b.name = 'changed';
    const settled = overlay.settled() as unknown as Db;
    expect(settled.users.a).toBe(initial.users.a);
    expect(settled.users.b).toBe(b);
    expect(overlay.touched('users')).toEqual(new Set(['b']));
    expect(settled.counter).toBe(0);
  });
});

describe('diffSparse', () => {
  it('finds exactly the differences a whole-database comparison finds', () => {
    fc.assert(
      fc.property(dbArb, fc.array(opArb, { maxLength: 8 }), fc.array(opArb, { maxLength: 8 }), (initial, goldOps, episodeOps) => {
        // The gold state: the initial database after other operations, canonical, as the harness prepares it.
        const gold = cloneJson(initial);
        for (const op of goldOps) op(gold);
        const initialCanonical = canonicalize(schema, initial);
        const goldCanonical = canonicalize(schema, gold);
        const goldChanged = changedEntries(schema, initialCanonical, goldCanonical);
        const overlay = overlayDb(initial as unknown as Record<string, unknown>, COLLECTIONS, cloneJson);
        const plain = cloneJson(initial);
        for (const op of episodeOps) {
          op(overlay.db as unknown as Db);
          op(plain);
        }
        const candidates = (field: string) => {
          const touched = overlay.touched(field);
          return touched && new Set([...touched, ...(goldChanged.get(field) ?? [])]);
        };
        for (const expected of [goldCanonical, initialCanonical]) {
          expect(diffSparse(schema, expected, overlay.db, candidates)).toEqual(diffCanonical(expected, canonicalize(schema, plain)));
        }
      }),
      { numRuns: 400, endOnFailure: true },
    );
  });
});
