/** What the retail reference agent knows about recovering: how to check a write, and other routes to a fact. */
import type { ToolResult } from '../../ground/tools.js';
import type { ToolCall, WriteCheck } from '../strategies.js';
import { fallbackResult, isObj } from './base.js';
import { asOrder, asOrderList, type OrderView } from './retail-views.js';

/**
 * Reads the order to tell whether a write took effect: a cancellation shows in the status, an address in
 * the order's address, a return or exchange in the line counts against the order as it was planned.
 */
export async function verifyRetailWrite(call: ToolCall, tool: string, args: Readonly<Record<string, unknown>>, planned: OrderView | undefined): Promise<WriteCheck> {
  const r = await call('get_order', { orderId: String(args.orderId ?? '') });
  const order = r.ok ? asOrder(r.body) : undefined;
  if (!order || order.partial) return 'unknown';
  const counts = (field: 'returned' | 'exchanged') => {
    const ids = Array.isArray(args.itemIds) ? (args.itemIds as string[]) : [];
    if (!planned || ids.length === 0) return 'unknown' as const;
    const grew = ids.every((id) => (order.items.find((l) => l.itemId === id)?.[field] ?? 0) > (planned.items.find((l) => l.itemId === id)?.[field] ?? 0));
    return grew ? ('done' as const) : ('not-done' as const);
  };
  switch (tool) {
    case 'cancel_order':
      return order.status === 'cancelled' ? 'done' : 'not-done';
    case 'change_order_address':
      return order.address?.address1 === args.address1 && order.address?.zip === args.zip ? 'done' : 'not-done';
    case 'return_items':
      return counts('returned');
    case 'exchange_items':
      return counts('exchanged');
    default:
      return 'unknown';
  }
}

/**
 * Another route to a fact a read did not return: the order list rebuilt from the user's profile and
 * each order, or an order's status and total from the order list (marked `partial`: enough to answer,
 * not to act on).
 */
export async function retailAlternative(call: ToolCall, tool: string, args: Readonly<Record<string, unknown>>, userId: string | undefined): Promise<ToolResult | undefined> {
  if (tool === 'list_user_orders') {
    const user = await call('get_user', { userId: String(args.userId ?? '') });
    const ids = user.ok && isObj(user.body) && Array.isArray(user.body.orders) ? (user.body.orders as unknown[]).filter((x): x is string => typeof x === 'string') : [];
    if (ids.length === 0) return undefined;
    const orders = [];
    for (const id of ids) {
      const r = await call('get_order', { orderId: id });
      const o = r.ok ? asOrder(r.body) : undefined;
      if (!o) return undefined;
      orders.push({ orderId: `#${o.id}`, status: o.status, placedAt: o.placedAt ?? '', total: o.total, items: o.items.map((l) => ({ itemId: l.itemId, name: l.name, options: l.options, quantity: l.quantity })) });
    }
    return fallbackResult({ orders });
  }
  if (tool === 'get_order' && userId) {
    const list = await call('list_user_orders', { userId });
    const wanted = String(args.orderId ?? '').replace(/^#/, '').toUpperCase();
    const found = (list.ok ? asOrderList(list.body) : undefined)?.find((o) => o.orderId.replace(/^#/, '').toUpperCase() === wanted);
    if (!found) return undefined;
    return fallbackResult({ id: wanted, userId, status: found.status, total: (found as { total?: number }).total ?? 0, items: [], payments: [], placedAt: found.placedAt, partial: true });
  }
  return undefined;
}
