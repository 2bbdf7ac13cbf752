import { http, type RequestHandler } from 'msw';
import { apiError, json, readInput } from '../../src/ground/handlers.js';
import type { WorldInstance } from '../../src/ground/world.js';
import { findEntry } from '../../src/ground/overlay.js';
import { cents, orderTotal, type Order, type RetailDb } from './schema.js';
import { retailTools } from './tools.js';

type Instance = WorldInstance<RetailDb>;

const inputOf = (name: string) => {
  const spec = retailTools.find((t) => t.name === name);
  if (!spec) throw new Error(`no retail tool ${name}`);
  return spec.input;
};

const normOrderId = (id: string) => id.trim().replace(/^#/, '').toUpperCase();

function orderView(order: Order) {
  return { ...order, orderId: `#${order.id}`, total: orderTotal(order) };
}

function findOrder(w: Instance, rawId: string): Order | Response {
  const order = w.db.orders[normOrderId(rawId)];
  return order ?? apiError(404, 'order_not_found', `No order ${rawId}.`);
}

/**
 * The shared start of every order write: parse the input, find the order, check its status. Returns
 * the context, or the error response to send.
 */
async function beginOrderWrite(
  w: Instance,
  request: Request,
  params: Record<string, unknown>,
  tool: string,
  allowed: Order['status'],
  refusal: { code: string; rule: string },
): Promise<{ order: Order; input: Record<string, unknown> } | Response> {
  const input = await readInput(request, inputOf(tool), { orderId: params.orderId });
  if (!input.ok) return input.response;
  const order = findOrder(w, String(params.orderId));
  if (order instanceof Response) return order;
  if (order.status !== allowed) return apiError(409, refusal.code, `Order #${order.id} is ${order.status}; ${refusal.rule}.`);
  return { order, input: input.value as Record<string, unknown> };
}

/** Checks that each listed unit is in the order and not yet returned or exchanged. */
function checkUnitsLeft(order: Order, itemIds: readonly string[], verb: string): Map<string, number> | Response {
  const want = countBy(itemIds);
  for (const [itemId, n] of want) {
    const line = order.items.find((i) => i.itemId === itemId);
    if (!line) return apiError(400, 'item_not_in_order', `Item ${itemId} is not in order #${order.id}.`);
    if (line.quantity - line.returned - line.exchanged < n) return apiError(409, `nothing_left_to_${verb}`, `Item ${itemId} of order #${order.id} has no unit left to ${verb}.`);
  }
  return want;
}

function customerPaymentMethod(w: Instance, order: Order, paymentMethodId: string) {
  return w.db.users[order.userId]?.paymentMethods[paymentMethodId] ?? apiError(400, 'invalid_payment_method', `Payment method ${paymentMethodId} does not belong to the order's customer.`);
}

/** The retail API as msw handlers over the episode's database, found from the request's host. */
export function retailHandlers(instance: (request: Request) => Instance): RequestHandler[] {
  return [
    http.get('*/api/users/by-email', async ({ request }) => {
      const w = instance(request);
      const input = await readInput(request, inputOf('find_user_by_email'), {});
      if (!input.ok) return input.response;
      const email = String(input.value.email).trim().toLowerCase();
      const user = findEntry(w.db.users, (u) => u.email === email);
      return user ? json({ userId: user.id }) : apiError(404, 'user_not_found', `No user with e-mail ${email}.`);
    }),
    http.get('*/api/users/by-name', async ({ request }) => {
      const w = instance(request);
      const input = await readInput(request, inputOf('find_user_by_name_zip'), {});
      if (!input.ok) return input.response;
      const { first, last, zip } = input.value as { first: string; last: string; zip: string };
      const user = findEntry(w.db.users, (u) => u.name.first.toLowerCase() === first.trim().toLowerCase() && u.name.last.toLowerCase() === last.trim().toLowerCase() && u.address.zip === zip.trim());
      return user ? json({ userId: user.id }) : apiError(404, 'user_not_found', 'No user with that name and zip code.');
    }),
    http.get('*/api/users/:userId/orders', ({ request, params }) => {
      const w = instance(request);
      const user = w.db.users[String(params.userId)];
      if (!user) return apiError(404, 'user_not_found', `No user ${String(params.userId)}.`);
      const orders = user.orders
        .map((id) => w.db.orders[id])
        .filter((o): o is Order => !!o)
        .map((o) => ({ orderId: `#${o.id}`, status: o.status, placedAt: o.placedAt, total: orderTotal(o), items: o.items.map((i) => ({ itemId: i.itemId, name: i.name, options: i.options, quantity: i.quantity })) }));
      return json({ orders });
    }),
    http.get('*/api/users/:userId', ({ request, params }) => {
      const w = instance(request);
      const user = w.db.users[String(params.userId)];
      if (!user) return apiError(404, 'user_not_found', `No user ${String(params.userId)}.`);
      return json({ ...user, orders: user.orders.map((id) => `#${id}`) });
    }),
    http.get('*/api/orders/:orderId', ({ request, params }) => {
      const order = findOrder(instance(request), String(params.orderId));
      return order instanceof Response ? order : json(orderView(order));
    }),
    http.get('*/api/products/:productId', ({ request, params }) => {
      const product = instance(request).db.products[String(params.productId)];
      return product ? json(product) : apiError(404, 'product_not_found', `No product ${String(params.productId)}.`);
    }),

    http.post('*/api/orders/:orderId/cancel', async ({ request, params }) => {
      const w = instance(request);
      const begun = await beginOrderWrite(w, request, params, 'cancel_order', 'pending', { code: 'not_cancellable', rule: 'only pending orders can be cancelled' });
      if (begun instanceof Response) return begun;
      const { order, input } = begun;
      order.status = 'cancelled';
      order.cancelReason = String(input.reason);
      const at = new Date(w.clock.now()).toISOString();
      for (const p of order.payments.filter((x) => x.type === 'payment')) {
        order.payments.push({ id: w.nextId('txn'), type: 'refund', amount: p.amount, paymentMethodId: p.paymentMethodId, at });
        const pm = w.db.users[order.userId]?.paymentMethods[p.paymentMethodId];
        if (pm?.source === 'gift_card') pm.balance = cents(pm.balance + p.amount);
      }
      return json(orderView(order));
    }),

    http.post('*/api/orders/:orderId/address', async ({ request, params }) => {
      const w = instance(request);
      const begun = await beginOrderWrite(w, request, params, 'change_order_address', 'pending', { code: 'address_locked', rule: "only a pending order's address can change" });
      if (begun instanceof Response) return begun;
      const { order } = begun;
      const v = begun.input as { address1: string; address2?: string; city: string; state: string; zip: string; country?: string };
      if (!/^\d{5}$/.test(v.zip.trim())) return apiError(400, 'invalid_zip', 'A zip code has five digits.');
      order.address = { address1: v.address1.trim(), address2: (v.address2 ?? '').trim(), city: v.city.trim(), state: v.state.trim().toUpperCase(), zip: v.zip.trim(), country: v.country ?? 'USA' };
      return json(orderView(order));
    }),

    http.post('*/api/orders/:orderId/return', async ({ request, params }) => {
      const w = instance(request);
      const begun = await beginOrderWrite(w, request, params, 'return_items', 'delivered', { code: 'not_returnable', rule: 'only delivered orders can be returned' });
      if (begun instanceof Response) return begun;
      const { order } = begun;
      const { itemIds, paymentMethodId } = begun.input as { itemIds: string[]; paymentMethodId: string };
      const pm = customerPaymentMethod(w, order, paymentMethodId);
      if (pm instanceof Response) return pm;
      const want = checkUnitsLeft(order, itemIds, 'return');
      if (want instanceof Response) return want;
      let amount = 0;
      for (const [itemId, n] of want) {
        const line = order.items.find((i) => i.itemId === itemId);
        if (!line) continue;
        line.returned += n;
        amount += line.price * n;
      }
      amount = cents(amount);
      order.payments.push({ id: w.nextId('txn'), type: 'refund', amount, paymentMethodId, at: new Date(w.clock.now()).toISOString() });
      if (pm.source === 'gift_card') pm.balance = cents(pm.balance + amount);
      return json({ order: orderView(order), refund: { amount, paymentMethodId } });
    }),

    http.post('*/api/orders/:orderId/exchange', async ({ request, params }) => {
      const w = instance(request);
      const begun = await beginOrderWrite(w, request, params, 'exchange_items', 'delivered', { code: 'not_exchangeable', rule: 'only delivered orders can be exchanged' });
      if (begun instanceof Response) return begun;
      const { order } = begun;
      const { itemIds, newItemIds, paymentMethodId } = begun.input as { itemIds: string[]; newItemIds: string[]; paymentMethodId: string };
      if (itemIds.length !== newItemIds.length) return apiError(400, 'length_mismatch', 'itemIds and newItemIds must have the same length.');
      const pm = customerPaymentMethod(w, order, paymentMethodId);
      if (pm instanceof Response) return pm;
      const want = checkUnitsLeft(order, itemIds, 'exchange');
      if (want instanceof Response) return want;
      let difference = 0;
      const pairs: { from: string; to: string }[] = [];
      for (let i = 0; i < itemIds.length; i++) {
        const from = itemIds[i] as string;
        const to = newItemIds[i] as string;
        const line = order.items.find((x) => x.itemId === from);
        const variant = line ? w.db.products[line.productId]?.variants[to] : undefined;
        if (!line || !variant) return apiError(400, 'invalid_new_item', `Item ${to} is not a variant of the same product as ${from}.`);
        if (to === from) return apiError(400, 'same_item', `Item ${to} is the item being exchanged.`);
        if (!variant.available) return apiError(409, 'unavailable', `Item ${to} is out of stock.`);
        difference += variant.price - line.price;
        pairs.push({ from, to });
      }
      difference = cents(difference);
      if (pm.source === 'gift_card' && difference > 0 && pm.balance < difference) return apiError(402, 'insufficient_balance', `Gift card ${paymentMethodId} has ${pm.balance} left; the difference is ${difference}.`);
      for (const [itemId, n] of want) {
        const line = order.items.find((i) => i.itemId === itemId);
        if (line) line.exchanged += n;
      }
      const at = new Date(w.clock.now()).toISOString();
      order.exchanges.push({ id: w.nextId('exc'), items: pairs, priceDifference: difference, paymentMethodId, at });
      if (difference !== 0) {
        order.payments.push({ id: w.nextId('txn'), type: difference > 0 ? 'payment' : 'refund', amount: Math.abs(difference), paymentMethodId, at });
        if (pm.source === 'gift_card') pm.balance = cents(pm.balance - difference);
      }
      return json({ order: orderView(order), priceDifference: difference, paymentMethodId });
    }),

    http.post('*/api/users/:userId/gift-cards/:giftCardId/funds', async ({ request, params }) => {
      const w = instance(request);
      const input = await readInput(request, inputOf('add_gift_card_funds'), { userId: params.userId, giftCardId: params.giftCardId });
      if (!input.ok) return input.response;
      const { amount, paymentMethodId } = input.value as { amount: number; paymentMethodId: string };
      const user = w.db.users[String(params.userId)];
      if (!user) return apiError(404, 'user_not_found', `No user ${String(params.userId)}.`);
      const card = user.paymentMethods[String(params.giftCardId)];
      if (!card || card.source !== 'gift_card') return apiError(404, 'gift_card_not_found', `User ${user.id} has no gift card ${String(params.giftCardId)}.`);
      const source = user.paymentMethods[paymentMethodId];
      if (!source || source.source === 'gift_card') return apiError(400, 'invalid_payment_method', `Payment method ${paymentMethodId} is not a credit card or PayPal account of user ${user.id}.`);
      // Each call adds funds: a top-up sent twice without an Idempotency-Key charges twice.
      card.balance = cents(card.balance + amount);
      (card.topUps ??= []).push({ id: w.nextId('topup'), amount: cents(amount), paymentMethodId, at: new Date(w.clock.now()).toISOString() });
      return json({ giftCardId: card.id, amount: cents(amount), balance: card.balance, paymentMethodId });
    }),
  ];
}

function countBy(ids: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return m;
}
