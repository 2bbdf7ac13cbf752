import { z } from 'zod';
import type { ToolSpec } from '../../src/ground/world.js';
import { orderSchema, orderStatus, productSchema, userSchema } from './schema.js';

const orderId = z.string().describe('order id, e.g. "#W9000001" (the "#" is optional)');
const userId = z.string().describe('user id as returned by the find_user tools');

const found = z.object({ userId: z.string() });
const orderView = orderSchema.extend({ orderId: z.string(), total: z.number() });
const orderSummary = z.object({
  orderId: z.string(),
  status: orderStatus,
  placedAt: z.string(),
  total: z.number(),
  items: z.array(z.object({ itemId: z.string(), name: z.string(), options: z.record(z.string(), z.string()), quantity: z.number().int() })),
});

/** What each tool answers on success: schema drift and empty results derive their changes from it. */
const OUTPUTS: Readonly<Record<string, z.ZodType>> = {
  find_user_by_email: found,
  find_user_by_name_zip: found,
  get_user: userSchema,
  list_user_orders: z.object({ orders: z.array(orderSummary) }),
  get_order: orderView,
  get_product: productSchema,
  cancel_order: orderView,
  change_order_address: orderView,
  return_items: z.object({ order: orderView, refund: z.object({ amount: z.number(), paymentMethodId: z.string() }) }),
  exchange_items: z.object({ order: orderView, priceDifference: z.number(), paymentMethodId: z.string() }),
  add_gift_card_funds: z.object({ giftCardId: z.string(), amount: z.number(), balance: z.number(), paymentMethodId: z.string() }),
};

/** The retail tool API, as agents see it. */
export const retailTools: readonly ToolSpec[] = ([
  {
    name: 'find_user_by_email',
    description: "Finds a user's id by e-mail address. 404 if no user has it.",
    method: 'GET',
    path: '/users/by-email',
    input: z.object({ email: z.string().describe('e-mail address') }),
    write: false,
  },
  {
    name: 'find_user_by_name_zip',
    description: "Finds a user's id by first name, last name and zip code. 404 if none matches.",
    method: 'GET',
    path: '/users/by-name',
    input: z.object({ first: z.string(), last: z.string(), zip: z.string() }),
    write: false,
  },
  {
    name: 'get_user',
    description: "Gets a user's profile: name, e-mail, default address, payment methods (with gift card balances) and order ids.",
    method: 'GET',
    path: '/users/{userId}',
    input: z.object({ userId }),
    write: false,
  },
  {
    name: 'list_user_orders',
    description: "Lists a user's orders with status, date and items.",
    method: 'GET',
    path: '/users/{userId}/orders',
    input: z.object({ userId }),
    write: false,
  },
  {
    name: 'get_order',
    description: 'Gets an order: status, items, shipping address, payments and refunds, total.',
    method: 'GET',
    path: '/orders/{orderId}',
    input: z.object({ orderId }),
    write: false,
  },
  {
    name: 'get_product',
    description: 'Gets a product with all its variants (item ids, options, price, availability).',
    method: 'GET',
    path: '/products/{productId}',
    input: z.object({ productId: z.string().describe('product id, e.g. "tee"') }),
    write: false,
  },
  {
    name: 'cancel_order',
    description: 'Cancels a pending order and refunds its payments. Honours Idempotency-Key.',
    method: 'POST',
    path: '/orders/{orderId}/cancel',
    input: z.object({ orderId, reason: z.enum(['no longer needed', 'ordered by mistake']) }),
    write: true,
    money: true,
  },
  {
    name: 'change_order_address',
    description: 'Changes the shipping address of a pending order. Honours Idempotency-Key.',
    method: 'POST',
    path: '/orders/{orderId}/address',
    input: z.object({
      orderId,
      address1: z.string(),
      address2: z.string().optional(),
      city: z.string(),
      state: z.string().describe('two-letter state code'),
      zip: z.string().describe('five-digit zip code'),
      country: z.string().optional(),
    }),
    write: true,
  },
  {
    name: 'return_items',
    description: 'Returns delivered items (one unit per listed item id; repeat an id to return two units) and refunds them to a payment method of the user. Honours Idempotency-Key.',
    method: 'POST',
    path: '/orders/{orderId}/return',
    input: z.object({ orderId, itemIds: z.array(z.string()).min(1), paymentMethodId: z.string() }),
    write: true,
    money: true,
  },
  {
    name: 'exchange_items',
    description: 'Exchanges delivered items for other available variants of the same products; the price difference is charged or refunded to a payment method. Honours Idempotency-Key.',
    method: 'POST',
    path: '/orders/{orderId}/exchange',
    input: z.object({ orderId, itemIds: z.array(z.string()).min(1), newItemIds: z.array(z.string()).min(1), paymentMethodId: z.string() }),
    write: true,
    money: true,
  },
  {
    name: 'add_gift_card_funds',
    description: "Adds funds to a user's gift card, charged to another payment method of the user (a credit card or PayPal); from 10 to 500 per top-up. Not idempotent without a key: the same call made twice adds (and charges) twice. Honours Idempotency-Key.",
    method: 'POST',
    path: '/users/{userId}/gift-cards/{giftCardId}/funds',
    input: z.object({ userId, giftCardId: z.string().describe('the gift card payment method id, e.g. "gift_card_1234"'), amount: z.number().min(10).max(500), paymentMethodId: z.string().describe('the credit card or PayPal payment method to charge') }),
    write: true,
    money: true,
  },
] as const satisfies readonly Omit<ToolSpec, 'output'>[]).map((t): ToolSpec => {
  const output = OUTPUTS[t.name];
  return output ? { ...t, output } : t;
});
