import { z } from 'zod';
import { addressSchema, cents, orderStatus, type Address, type Order, type PaymentMethod, type RetailDb } from './schema.js';

const ADDRESS_LINE = /^\s*([^,]+?)\s*,\s*(?:([^,]+?)\s*,\s*)?([^,]+?)\s*,\s*([A-Z]{2})\s+(\d{5})\s*$/;

/** Parses "742 Evergreen Terrace, Apt 2, Springfield, IL 62704" into an address. */
export function parseAddressLine(line: string): Address | undefined {
  const m = ADDRESS_LINE.exec(line);
  if (!m) return undefined;
  return addressSchema.parse({ address1: m[1], address2: m[2] ?? '', city: m[3], state: m[4], zip: m[5] });
}

export const formatAddress = (a: Address): string =>
  [a.address1, a.address2, a.city, `${a.state} ${a.zip}`].filter((x) => x && x.length > 0).join(', ');

const addressLine = z.string().refine((s) => parseAddressLine(s) !== undefined, {
  message: 'write the address as "street, [apartment,] city, ST 12345"',
});

const setupPayment = z.discriminatedUnion('kind', [
  z.object({ id: z.string(), kind: z.literal('credit_card'), brand: z.string().default('visa'), last4: z.string().regex(/^\d{4}$/) }),
  z.object({ id: z.string(), kind: z.literal('gift_card'), balance: z.number().nonnegative() }),
  z.object({ id: z.string(), kind: z.literal('paypal') }),
]);

/** A scenario's own entities, written compactly; `applyRetailSetup` expands them into records. */
export const retailSetupSchema = z.object({
  users: z
    .array(
      z.object({
        id: z.string().regex(/^[a-z0-9_]+$/, 'a user id is lower-case letters, digits and underscores'),
        name: z.string().regex(/^\S+ \S+$/, 'write the name as "First Last"'),
        email: z.email(),
        address: addressLine,
        payment: z.array(setupPayment).min(1),
      }),
    )
    .default([]),
  orders: z
    .array(
      z.object({
        id: z.string().regex(/^W9\d{6}$/, 'scenario order ids are W9 followed by six digits (generated ones stay below W9000000)'),
        user: z.string(),
        status: orderStatus,
        items: z.array(z.object({ item: z.string(), quantity: z.number().int().positive().default(1) })).min(1),
        payment: z.string(),
        placedAt: z.iso.date().default('2026-01-10'),
        address: addressLine.optional(),
      }),
    )
    .default([]),
});
export type RetailSetup = z.infer<typeof retailSetupSchema>;

/** Adds a scenario's users and orders to the database. Throws, naming the entity, on any conflict. */
export function applyRetailSetup(db: RetailDb, setup: RetailSetup): void {
  for (const u of setup.users) {
    if (db.users[u.id]) throw new Error(`user \`${u.id}\` already exists in the base database; choose another id`);
    const email = u.email.toLowerCase();
    if (Object.values(db.users).some((x) => x.email === email)) throw new Error(`e-mail \`${u.email}\` is already taken`);
    const [first, last] = u.name.split(' ') as [string, string];
    const paymentMethods: Record<string, PaymentMethod> = {};
    for (const p of u.payment) {
      paymentMethods[p.id] =
        p.kind === 'credit_card' ? { id: p.id, source: 'credit_card', brand: p.brand, last4: p.last4 } : p.kind === 'gift_card' ? { id: p.id, source: 'gift_card', balance: p.balance } : { id: p.id, source: 'paypal' };
    }
    db.users[u.id] = { id: u.id, name: { first, last }, email, address: parseAddressLine(u.address) as Address, paymentMethods, orders: [] };
  }
  for (const o of setup.orders) {
    if (db.orders[o.id]) throw new Error(`order \`${o.id}\` already exists`);
    const user = db.users[o.user];
    if (!user) throw new Error(`order \`${o.id}\` names user \`${o.user}\`, who is not in the setup or the base database`);
    if (!user.paymentMethods[o.payment]) throw new Error(`order \`${o.id}\` is paid with \`${o.payment}\`, which user \`${o.user}\` does not have`);
    const items = o.items.map(({ item, quantity }) => {
      const productId = item.split('-')[0] ?? '';
      const product = db.products[productId];
      const variant = product?.variants[item];
      if (!product || !variant) throw new Error(`order \`${o.id}\` names item \`${item}\`, which is not in the catalogue (ids look like tee-blue-m)`);
      return { itemId: item, productId, name: product.name, options: { ...variant.options }, price: variant.price, quantity, returned: 0, exchanged: 0 };
    });
    const at = `${o.placedAt}T12:00:00.000Z`;
    const total = cents(items.reduce((s, i) => s + i.price * i.quantity, 0));
    const order: Order = {
      id: o.id,
      userId: user.id,
      status: o.status,
      address: o.address ? (parseAddressLine(o.address) as Address) : { ...user.address },
      items,
      payments: [{ id: `txn_${o.id}_1`, type: 'payment', amount: total, paymentMethodId: o.payment, at }],
      exchanges: [],
      placedAt: at,
    };
    if (o.status === 'cancelled') {
      order.cancelReason = 'no longer needed';
      order.payments.push({ id: `txn_${o.id}_2`, type: 'refund', amount: total, paymentMethodId: o.payment, at });
    }
    db.orders[o.id] = order;
    user.orders.push(o.id);
  }
}
