import { z } from 'zod';
import { volatile } from '../../src/ground/world.js';

export const addressSchema = z.object({
  address1: z.string().min(1),
  address2: z.string().default(''),
  city: z.string().min(1),
  state: z.string().min(2),
  zip: z.string().regex(/^\d{5}$/, 'a zip code has five digits'),
  country: z.string().default('USA'),
});
export type Address = z.infer<typeof addressSchema>;

export const paymentMethodSchema = z.discriminatedUnion('source', [
  z.object({ id: z.string(), source: z.literal('credit_card'), brand: z.string(), last4: z.string().regex(/^\d{4}$/) }),
  z.object({ id: z.string(), source: z.literal('paypal') }),
  z.object({
    id: z.string(),
    source: z.literal('gift_card'),
    balance: z.number().nonnegative(),
    /** Funds added to the card, each charged to another payment method; a duplicate shows here. */
    topUps: z.array(z.object({ id: volatile(z.string()), amount: z.number().positive(), paymentMethodId: z.string(), at: volatile(z.string()) })).optional(),
  }),
]);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const userSchema = z.object({
  id: z.string(),
  name: z.object({ first: z.string(), last: z.string() }),
  email: z.string(),
  address: addressSchema,
  paymentMethods: z.record(z.string(), paymentMethodSchema),
  orders: z.array(z.string()),
});
export type User = z.infer<typeof userSchema>;

export const variantSchema = z.object({
  itemId: z.string(),
  options: z.record(z.string(), z.string()),
  price: z.number().positive(),
  available: z.boolean(),
});
export type Variant = z.infer<typeof variantSchema>;

export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  variants: z.record(z.string(), variantSchema),
});
export type Product = z.infer<typeof productSchema>;

export const orderStatus = z.enum(['pending', 'processed', 'delivered', 'cancelled']);
export type OrderStatus = z.infer<typeof orderStatus>;

export const orderItemSchema = z.object({
  itemId: z.string(),
  productId: z.string(),
  name: z.string(),
  options: z.record(z.string(), z.string()),
  price: z.number(),
  quantity: z.number().int().positive(),
  /** Units returned so far. */
  returned: z.number().int().nonnegative(),
  /** Units exchanged so far. */
  exchanged: z.number().int().nonnegative(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

export const transactionSchema = z.object({
  id: volatile(z.string()),
  type: z.enum(['payment', 'refund']),
  amount: z.number(),
  paymentMethodId: z.string(),
  at: volatile(z.string()),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const exchangeSchema = z.object({
  id: volatile(z.string()),
  items: z.array(z.object({ from: z.string(), to: z.string() })),
  /** Positive: the customer paid more; negative: the customer was refunded. */
  priceDifference: z.number(),
  paymentMethodId: z.string(),
  at: volatile(z.string()),
});

export const orderSchema = z.object({
  id: z.string(),
  userId: z.string(),
  status: orderStatus,
  address: addressSchema,
  items: z.array(orderItemSchema),
  payments: z.array(transactionSchema),
  exchanges: z.array(exchangeSchema),
  placedAt: z.string(),
  cancelReason: z.string().optional(),
});
export type Order = z.infer<typeof orderSchema>;

export const retailDbSchema = z.object({
  users: z.record(z.string(), userSchema),
  products: z.record(z.string(), productSchema),
  orders: z.record(z.string(), orderSchema),
});
export type RetailDb = z.infer<typeof retailDbSchema>;

/** Rounds to cents; every amount the API computes goes through it. */
export const cents = (x: number): number => Math.round(x * 100) / 100;

export const orderTotal = (order: Order): number => cents(order.items.reduce((s, i) => s + i.price * i.quantity, 0));
