/** The shapes the retail reference agent reads from tool responses, checked before use (a drifted schema fails the check). */
import { isObj } from './base.js';

export interface Line {
  itemId: string;
  productId: string;
  name: string;
  options: Record<string, string>;
  price: number;
  quantity: number;
  returned: number;
  exchanged: number;
}

export interface OrderView {
  id: string;
  userId: string;
  status: string;
  items: Line[];
  payments: { type: string; amount: number; paymentMethodId: string }[];
  total: number;
  address?: { address1: string; zip: string };
  placedAt?: string;
  /** Rebuilt from the order list when the order itself could not be read: status and total only. */
  partial?: boolean;
}

export type PaymentMethodView = { id: string; source: string; brand?: string; last4?: string; balance?: number };

const isLine = (v: unknown): v is Line =>
  isObj(v) && typeof v.itemId === 'string' && typeof v.productId === 'string' && typeof v.name === 'string' && isObj(v.options) && typeof v.price === 'number' && typeof v.quantity === 'number';

export function asOrder(body: unknown): OrderView | undefined {
  if (!isObj(body) || typeof body.id !== 'string' || typeof body.userId !== 'string' || typeof body.status !== 'string') return undefined;
  if (!['pending', 'processed', 'delivered', 'cancelled'].includes(body.status)) return undefined;
  if (!Array.isArray(body.items) || !body.items.every(isLine) || !Array.isArray(body.payments) || typeof body.total !== 'number') return undefined;
  return body as unknown as OrderView;
}

export function asOrderList(body: unknown): { orderId: string; status: string; placedAt: string; items: { name: string; options: Record<string, string> }[] }[] | undefined {
  if (!isObj(body) || !Array.isArray(body.orders)) return undefined;
  const ok = body.orders.every((o) => isObj(o) && typeof o.orderId === 'string' && typeof o.status === 'string' && Array.isArray(o.items));
  return ok ? (body.orders as never) : undefined;
}

export function asPaymentMethods(body: unknown): PaymentMethodView[] | undefined {
  if (!isObj(body) || !isObj(body.paymentMethods)) return undefined;
  const list = Object.values(body.paymentMethods);
  return list.every((p) => isObj(p) && typeof p.id === 'string' && typeof p.source === 'string') ? (list as PaymentMethodView[]) : undefined;
}

export function asVariants(body: unknown): { itemId: string; options: Record<string, string>; price: number; available: boolean }[] | undefined {
  if (!isObj(body) || !isObj(body.variants)) return undefined;
  const list = Object.values(body.variants);
  return list.every((v) => isObj(v) && typeof v.itemId === 'string' && isObj(v.options) && typeof v.price === 'number' && typeof v.available === 'boolean') ? (list as never) : undefined;
}

export const optionText = (options: Record<string, string>) => Object.values(options).join(', ');
export const pmLabel = (pm: PaymentMethodView | undefined) =>
  !pm ? 'the original payment method' : pm.source === 'gift_card' ? 'your gift card' : pm.source === 'paypal' ? 'your PayPal account' : `your ${pm.brand ?? 'credit'} card ending in ${pm.last4 ?? '????'}`;
