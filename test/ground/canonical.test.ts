import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalize, diffCanonical, outputMatches, parseAmount } from '../../src/ground/canonical.js';
import { cloneJson } from '../../src/ground/canonical.js';
import { WorldHarness } from '../../src/run/episode.js';
import { compareState } from '../../src/judge/index.js';
import { callTool } from '../../src/ground/tools.js';
import { createClock } from '../../src/ground/clock.js';
import type { RetailDb } from '../../scenarios/retail/schema.js';
import { volatile } from '../../src/ground/world.js';
import { retail, scenario } from '../helpers.js';

/** A scenario's prepared gold state and a fresh copy of its initial database. */
async function goldAndFinal(id: string) {
  const harness = new WorldHarness(retail, '42');
  const prepared = await harness.prepare(scenario(id));
  return { prepared, db: cloneJson(prepared.initial) as RetailDb };
}

async function applyGold(harness: WorldHarness, db: RetailDb, id: string, times = 1) {
  const session = harness.runtime.open({ episodeId: `t-${id}-${times}`, db, clock: createClock() });
  try {
    for (let i = 0; i < times; i++) {
      for (const action of scenario(id).gold) {
        const spec = retail.tools.find((t) => t.name === action.tool);
        if (!spec) throw new Error(action.tool);
        await callTool(session.fetch, session.baseUrl, spec, action.args);
      }
    }
  } finally {
    session.close();
  }
}

describe('comparator', () => {
  it('passes when the final state equals the gold state, ignoring volatile ids and timestamps', async () => {
    const harness = new WorldHarness(retail, '42');
    const prepared = await harness.prepare(scenario('return-to-original'));
    const db = cloneJson(prepared.initial) as RetailDb;
    await applyGold(harness, db, 'return-to-original');
    // A different refund id and time than the gold run's must not count.
    const refund = db.orders.W9000401?.payments.at(-1);
    if (refund) {
      refund.id = 'txn_999';
      refund.at = '2030-01-01T00:00:00.000Z';
    }
    const verdict = compareState(retail, db, prepared);
    expect(verdict).toEqual({ diff: [], wrongActions: 0 });
  });

  it('names a duplicated refund', async () => {
    const harness = new WorldHarness(retail, '42');
    const prepared = await harness.prepare(scenario('return-one-of-two'));
    const db = cloneJson(prepared.initial) as RetailDb;
    await applyGold(harness, db, 'return-one-of-two', 2);
    const { diff, wrongActions } = compareState(retail, db, prepared);
    // Both entries changed the database away from the start and from the goal: wrong actions, not omissions.
    expect(wrongActions).toBe(2);
    expect(compareState(retail, cloneJson(prepared.initial), prepared).wrongActions).toBe(0);
    expect(diff.map((d) => d.message)).toMatchInlineSnapshot(`
      [
        "orders.W9000403.items[bottle-steel-500ml].returned: 2 != 1 (actual != expected)",
        "orders.W9000403.payments: {"amount":25.99,"paymentMethodId":"credit_card_4003","type":"refund"} duplicated",
      ]
    `);
    expect(diff.map((d) => d.kind)).toContain('duplicated');
  });

  it('names a wrong field', async () => {
    const { prepared, db } = await goldAndFinal('cancel-pending-mistake');
    const harness = new WorldHarness(retail, '42');
    await applyGold(harness, db, 'cancel-pending-mistake');
    const order = db.orders.W9000201;
    if (order) order.cancelReason = 'no longer needed';
    const { diff } = compareState(retail, db, prepared);
    expect(diff).toHaveLength(1);
    expect(diff[0]?.message).toBe('orders.W9000201.cancelReason: "no longer needed" != "ordered by mistake" (actual != expected)');
  });

  it('compares unkeyed arrays as multisets and keyed ones by key', () => {
    expect(diffCanonical({ a: [1, 2, 3] }, { a: [3, 1, 2] })).toEqual([]);
    expect(diffCanonical({ a: [1, 2] }, { a: [1, 2, 2] }).map((d) => d.kind)).toEqual(['duplicated']);
    const d = diffCanonical({ xs: [{ id: 'a', v: 1 }, { id: 'b', v: 2 }] }, { xs: [{ id: 'b', v: 3 }, { id: 'a', v: 1 }] });
    expect(d.map((x) => x.message)).toEqual(['xs[b].v: 3 != 2 (actual != expected)']);
  });

  it('drops volatile fields from the canonical form', async () => {
    const db = retail.generate('42') as RetailDb;
    const canon = canonicalize(retail.dbSchema, db) as RetailDb;
    const someOrder = Object.values(canon.orders)[0];
    expect(someOrder?.payments[0]).not.toHaveProperty('id');
    expect(someOrder?.payments[0]).not.toHaveProperty('at');
    expect(someOrder).toHaveProperty('placedAt');
  });
});

describe('canonical form of a union', () => {
  // Each variant drops a volatile field of its own, so the variant a value parses as decides what goes.
  const card = z.object({ kind: z.literal('card'), id: volatile(z.string()), last4: z.string().regex(/^\d{4}$/) });
  const credit = z.object({ kind: z.literal('credit'), balance: z.number(), issuedAt: volatile(z.string()) });
  const either = z.object({ kind: z.literal(['voucher', 'coupon']), code: z.string(), at: volatile(z.string()) });
  const untagged = z.object({ note: z.string(), stamp: volatile(z.string()) });
  const schema = z.record(z.string(), z.union([card, credit, either, untagged]));
  /** The canonical form as the union's definition gives it: the first variant that parses the value walks it. */
  const reference = (value: unknown): unknown => {
    for (const variant of [card, credit, either, untagged]) if (variant.safeParse(value).success) return canonicalize(variant, value);
    return value;
  };

  it('walks each value by the variant it parses as, literal tags or none', () => {
    const values: Record<string, unknown> = {
      a: { kind: 'card', id: 'pm_1', last4: '4242' },
      b: { kind: 'credit', balance: 5, issuedAt: '2026-01-01' },
      c: { kind: 'coupon', code: 'X', at: 't' },
      d: { kind: 'voucher', code: 'Y', at: 't' },
      e: { note: 'hello', stamp: 's' },
      // The card's tag with a last4 the card refuses: no tagged variant parses it, the untagged one does not either.
      f: { kind: 'card', id: 'pm_2', last4: 'abcd' },
      // A tag no variant names, with the untagged variant's fields: the untagged variant parses it.
      g: { kind: 'cheque', note: 'n', stamp: 's' },
      // The credit's tag with the card's fields: the card cannot parse it (wrong tag), the credit cannot (no balance).
      h: { kind: 'credit', id: 'pm_3', last4: '1111', note: 'x', stamp: 'y' },
      // Not an object at all.
      i: 'plain',
      // The tag read through the prototype, as the object schema reads it.
      j: Object.assign(Object.create({ kind: 'card' }) as object, { id: 'pm_4', last4: '0000' }),
    };
    const canon = canonicalize(schema, values) as Record<string, unknown>;
    for (const [k, v] of Object.entries(values)) expect(canon[k], k).toEqual(reference(v));
    expect(canon.a).toEqual({ kind: 'card', last4: '4242' });
    expect(canon.b).toEqual({ kind: 'credit', balance: 5 });
    expect(canon.c).toEqual({ kind: 'coupon', code: 'X' });
    expect(canon.e).toEqual({ note: 'hello' });
    expect(canon.f).toEqual(values.f);
    expect(canon.g).toEqual({ kind: 'cheque', note: 'n' });
    expect(canon.h).toEqual({ kind: 'credit', id: 'pm_3', last4: '1111', note: 'x' });
    expect(canon.j).toEqual({ last4: '0000' });
  });
});

describe('required outputs', () => {
  it('match amounts numerically, whatever the currency format', () => {
    expect(outputMatches('$1,234.50', 'You will get 1234.5 dollars back.')).toBe(true);
    expect(outputMatches('1234.50', 'Refund: $1,234.50')).toBe(true);
    expect(outputMatches('25.99', 'Refund: $25.98')).toBe(false);
    expect(outputMatches('5.00', 'a difference of $5')).toBe(true);
    expect(parseAmount('12.5 dollars')).toBe(12.5);
    expect(parseAmount('USD 7')).toBe(7);
    expect(parseAmount('pending')).toBeUndefined();
  });

  it('match text case-insensitively on word boundaries', () => {
    expect(outputMatches('delivered', 'It was Delivered yesterday.')).toBe(true);
    expect(outputMatches('delivered', 'It was undelivered.')).toBe(false);
    expect(outputMatches('out of stock', 'It is   OUT of\nstock.')).toBe(true);
  });
});
