import type { Faker } from '@faker-js/faker';
import { englishFaker } from '../../src/ground/faker.js';
import { hash53 } from '../../src/ground/seeds.js';
import { REFERENCE_EPOCH_MS } from '../../src/ground/clock.js';
import { buildCatalog } from './catalog.js';
import { cents, orderStatus, type Order, type PaymentMethod, type RetailDb, type User } from './schema.js';

/** Sizes of the generated base database. */
export interface RetailSize {
  /** @default 50 */
  readonly users: number;
  /** @default 200 */
  readonly orders: number;
}

export const DEFAULT_RETAIL_SIZE: RetailSize = { users: 50, orders: 200 };

/**
 * Generates the base retail database for a seed: the fixed catalogue, then users and orders drawn by
 * a Faker instance of its own with a fixed reference date. Generated order ids stay below W9000000,
 * which scenarios keep for themselves.
 */
export function generateRetail(seed: string, size: RetailSize = DEFAULT_RETAIL_SIZE): RetailDb {
  const faker = englishFaker();
  faker.seed(hash53(`retail|${seed}`) % 2 ** 32);
  faker.setDefaultRefDate(new Date(REFERENCE_EPOCH_MS));
  const products = buildCatalog();
  const items = Object.values(products).flatMap((p) => Object.values(p.variants).map((v) => ({ product: p, variant: v })));

  const users: Record<string, User> = {};
  for (let i = 0; i < size.users; i++) {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    let id = `${first}_${last}_${faker.string.numeric(4)}`.toLowerCase().replace(/[^a-z0-9_]/g, '');
    while (users[id]) id = `${id}x`;
    const paymentMethods: Record<string, PaymentMethod> = {};
    const cardCount = faker.number.int({ min: 1, max: 2 });
    for (let c = 0; c < cardCount; c++) {
      const pmId = `credit_card_${faker.string.numeric(7)}`;
      paymentMethods[pmId] = { id: pmId, source: 'credit_card', brand: faker.helpers.arrayElement(['visa', 'mastercard', 'amex']), last4: faker.string.numeric(4) };
    }
    if (faker.datatype.boolean()) {
      const pmId = `gift_card_${faker.string.numeric(7)}`;
      paymentMethods[pmId] = { id: pmId, source: 'gift_card', balance: faker.number.int({ min: 0, max: 200 }) };
    }
    if (faker.datatype.boolean({ probability: 0.3 })) {
      const pmId = `paypal_${faker.string.numeric(7)}`;
      paymentMethods[pmId] = { id: pmId, source: 'paypal' };
    }
    users[id] = {
      id,
      name: { first, last },
      email: `${first}.${last}${faker.string.numeric(3)}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, ''),
      address: {
        address1: faker.location.streetAddress(),
        address2: faker.datatype.boolean({ probability: 0.3 }) ? faker.location.secondaryAddress() : '',
        city: faker.location.city(),
        state: faker.location.state({ abbreviated: true }),
        zip: faker.location.zipCode('#####'),
        country: 'USA',
      },
      paymentMethods,
      orders: [],
    };
  }

  const userIds = Object.keys(users);
  const orders: Record<string, Order> = {};
  for (let i = 0; i < size.orders && userIds.length > 0; i++) {
    let id = `W${faker.number.int({ min: 1_000_000, max: 8_999_999 })}`;
    while (orders[id]) id = `W${faker.number.int({ min: 1_000_000, max: 8_999_999 })}`;
    const user = users[faker.helpers.arrayElement(userIds)] as User;
    const lineCount = faker.number.int({ min: 1, max: 4 });
    const chosen = faker.helpers.arrayElements(items, lineCount);
    const lines = chosen.map(({ product, variant }) => ({
      itemId: variant.itemId,
      productId: product.id,
      name: product.name,
      options: { ...variant.options },
      price: variant.price,
      quantity: faker.datatype.boolean({ probability: 0.1 }) ? 2 : 1,
      returned: 0,
      exchanged: 0,
    }));
    const pm = faker.helpers.arrayElement(Object.values(user.paymentMethods));
    const placed = faker.date.recent({ days: 60 }).toISOString();
    const order: Order = {
      id,
      userId: user.id,
      status: faker.helpers.arrayElement(orderStatus.options),
      address: { ...user.address },
      items: lines,
      payments: [{ id: `txn_${id}_1`, type: 'payment', amount: cents(lines.reduce((s, l) => s + l.price * l.quantity, 0)), paymentMethodId: pm.id, at: placed }],
      exchanges: [],
      placedAt: placed,
    };
    if (order.status === 'cancelled') {
      order.cancelReason = 'no longer needed';
      order.payments.push({ id: `txn_${id}_2`, type: 'refund', amount: order.payments[0]?.amount ?? 0, paymentMethodId: pm.id, at: placed });
    }
    orders[id] = order;
    user.orders.push(id);
  }
  return { users, products, orders };
}
