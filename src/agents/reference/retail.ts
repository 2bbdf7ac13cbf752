import type { ToolResult } from '../../ground/tools.js';
import type { AgentContext } from '../contract.js';
import type { Strategy, ToolCall, WriteCheck } from '../strategies.js';
import { Failure, isObj, NotFound, ReferenceAgentBase } from './base.js';
import { retailAlternative, verifyRetailWrite } from './retail-recovery.js';
import { money } from './text.js';
import type { Understanding } from './understanding.js';
import { ADDRESS, amountIn, detectIntent, itemScore, matchLines, mentionsOption, ORDER_DIGITS, ORDER_PREFIX, type AddressInput, type Intent, type Reason } from './retail-understanding.js';
import { asOrder, asOrderList, asPaymentMethods, asVariants, optionText, pmLabel, type Line, type OrderView, type PaymentMethodView } from './retail-views.js';

interface Task {
  intent: Intent;
  orderId?: string;
  /** Everything the user said about this task, for item and option matching. */
  text: string;
  reason?: Reason;
  refund?: 'gift' | 'original' | 'other';
  address?: AddressInput;
  /** The amount of a top-up. */
  amount?: number;
}

/**
 * The scripted reference agent for the retail world: an intent parser and slot extractor of its own,
 * the policy followed step by step, and a fallback strategy around every tool call. It handles
 * ordinary variation in wording, not magic.
 */
export class RetailReferenceAgent extends ReferenceAgentBase {
  /** The order as it was when the agent planned a write, to tell afterwards whether the write took effect. */
  private planned: OrderView | undefined;
  private zip: string | undefined;
  /** The gift card balance when the agent planned a top-up. */
  private plannedBalance: number | undefined;
  private task: Task | undefined;

  constructor(ctx: AgentContext, strategies: readonly Strategy[], understanding: Understanding, params: Readonly<Record<string, unknown>> = {}) {
    super(
      ctx,
      strategies,
      understanding,
      {
        giveUp: "I'm sorry, I couldn't understand your request, so I can't help with it here. Please contact us again with your order number and what you need.",
        identityAsk: 'your email address, or your first and last name and zip code',
        accountMissing: 'this order',
        system: 'order system',
      },
      params,
    );
  }

  protected dropTask(): void {
    this.task = undefined;
  }

  protected override taskSignature(): string {
    // What the change is, not how the user put it: a "no" that only adds words (or a reason) declines.
    if (!this.task) return 'null';
    const { text: _text, reason: _reason, ...what } = this.task as Task & { text?: string };
    return JSON.stringify(what);
  }

  protected async verifyWrite(tool: string, args: Readonly<Record<string, unknown>>): Promise<WriteCheck> {
    if (tool === 'add_gift_card_funds') {
      // The balance tells: as planned, the top-up did not happen; planned plus the amount, it did.
      const r = await this.call('get_user', { userId: String(args.userId ?? '') });
      const card = r.ok ? asPaymentMethods(r.body)?.find((p) => p.id === args.giftCardId) : undefined;
      if (!card || this.plannedBalance === undefined) return 'unknown';
      const balance = card.balance ?? 0;
      return Math.abs(balance - (this.plannedBalance + Number(args.amount))) < 0.005 ? 'done' : Math.abs(balance - this.plannedBalance) < 0.005 ? 'not-done' : 'unknown';
    }
    return verifyRetailWrite(this.call, tool, args, this.planned);
  }

  protected alternative(tool: string, args: Readonly<Record<string, unknown>>, call: ToolCall): Promise<ToolResult | undefined> {
    return retailAlternative(call, tool, args, this.userId);
  }

  protected absorb(message: string): void {
    // The last e-mail and the last order id win: "#W9000440, sorry, I mean #W9000404".
    let text = this.absorbEmail(message);
    const addr = ADDRESS.exec(text);
    let address: AddressInput | undefined;
    if (addr) {
      address = { address1: (addr[1] ?? '').trim(), address2: (addr[2] ?? '').trim(), city: (addr[3] ?? '').trim(), state: (addr[4] ?? '').toUpperCase(), zip: addr[5] ?? '' };
      text = text.replace(ADDRESS, ' ');
    }
    const amount = amountIn(text);
    const orderIds = this.u.ids(text, ORDER_PREFIX, ORDER_DIGITS);
    text = this.u.withoutIds(text, ORDER_PREFIX, ORDER_DIGITS);
    const zip = /\b(\d{5})\b/.exec(text)?.[1];
    if (zip) {
      this.zip = zip;
      this.absorbName(text);
    }
    const toks = this.u.tokens(text);
    if (!this.task && !this.pending) {
      const intent = detectIntent(this.u, toks);
      if (intent) this.task = { intent, text: '' };
    }
    const task = this.task;
    if (!task) return;
    task.text += ` ${text}`;
    const lastOrderId = orderIds.at(-1);
    if (lastOrderId) task.orderId = lastOrderId;
    if (address) task.address = address;
    if (amount !== undefined) task.amount = amount;
    if (this.u.hasAny(toks, ['mistake', 'by accident', 'accidentally', 'wrong order'])) task.reason = 'ordered by mistake';
    else if (this.u.hasAny(toks, ['no longer', "don't need", 'do not need', 'not need', 'changed my mind', "don't want", 'any more', 'anymore'])) task.reason = 'no longer needed';
    if (this.u.hasAny(toks, ['gift card', 'giftcard'])) task.refund = 'gift';
    else if (this.u.hasAny(toks, ['original', 'same card', 'same payment', 'paid with'])) task.refund = 'original';
  }

  protected async step(): Promise<string> {
    const task = this.task;
    if (!task) return this.notUnderstood('Could you tell me what you need help with today?');
    this.placed();
    const userId = await this.identify();
    if (!userId) return this.identityQuestion();
    if (task.intent === 'gift_card_balance') return this.done(await this.giftCardBalance(userId));
    if (task.intent === 'top_up') return this.planTopUp(task, userId);
    if (!task.orderId) {
      const question = await this.findOrder(userId, task);
      if (question) return question;
    }
    const order = await this.loadNamed(this.getOrder(task.orderId as string), (id) => `I'm sorry, I still can't find order #${id} in our system, so I can't help with it here.`);
    if (order instanceof NotFound) return `I couldn't find order #${order.entityId}. Could you check the order number and give it to me again?`;
    if (order.partial && task.intent !== 'order_status' && task.intent !== 'order_total') {
      throw new Failure(`I'm sorry, I can't see the details of order #${order.id} right now, so I can't change it.`, true);
    }
    this.planned = order;
    if (order.userId !== userId) {
      throw new Failure(`I'm sorry, order #${order.id} is not on your account, so I can't look into it or change it.`);
    }
    switch (task.intent) {
      case 'order_status':
        return this.done(`Order #${order.id} is ${order.status}.`);
      case 'order_total':
        return this.done(`The total of order #${order.id} is ${money(order.total)}.`);
      case 'cancel':
        return this.planCancel(order, task);
      case 'change_address':
        return this.planAddress(order, task);
      case 'return':
        return this.planReturn(order, task, userId);
      case 'exchange':
        return this.planExchange(order, task, userId);
    }
  }

  private identify(): Promise<string | undefined> {
    const lookups = [];
    if (this.email) lookups.push({ key: this.email, tool: 'find_user_by_email', args: { email: this.email } });
    if (this.name && this.zip) lookups.push({ key: `${this.name.first} ${this.name.last} ${this.zip}`.toLowerCase(), tool: 'find_user_by_name_zip', args: { first: this.name.first, last: this.name.last, zip: this.zip } });
    return this.lookUpUser(lookups);
  }

  private async giftCardBalance(userId: string): Promise<string> {
    const pms = await this.paymentMethods(userId);
    const cards = pms.filter((p) => p.source === 'gift_card');
    if (cards.length === 0) return "You don't have a gift card on your account.";
    return cards.length === 1 ? `Your gift card balance is ${money(cards[0]?.balance ?? 0)}.` : `Your gift card balances are ${cards.map((c) => money(c.balance ?? 0)).join(' and ')}.`;
  }

  /** A top-up of the user's gift card, charged to their credit card (PayPal when they have no card). */
  private async planTopUp(task: Task, userId: string): Promise<string> {
    if (task.amount === undefined) return 'How much would you like to add to your gift card?';
    const pms = await this.paymentMethods(userId);
    const card = pms.find((p) => p.source === 'gift_card');
    if (!card) throw new Failure("I'm sorry, you don't have a gift card on your account, so I can't add funds to one.");
    const source = pms.find((p) => p.source === 'credit_card') ?? pms.find((p) => p.source === 'paypal');
    if (!source) throw new Failure("I'm sorry, you have no credit card or PayPal account on file to charge for a top-up.");
    const amount = task.amount;
    if (amount < 10 || amount > 500) throw new Failure(`I'm sorry, a top-up must be between $10.00 and $500.00; ${money(amount)} is not.`);
    const before = card.balance ?? 0;
    this.plannedBalance = before;
    return this.confirm(`To confirm: I'll add ${money(amount)} to your gift card (balance ${money(before)}), charged to ${pmLabel(source)}.`, {
      tool: 'add_gift_card_funds',
      args: { userId, giftCardId: card.id, amount, paymentMethodId: source.id },
      what: `adding ${money(amount)} to your gift card`,
      success: (body) => {
        const balance = isObj(body) && typeof body.balance === 'number' ? body.balance : Math.round((before + amount) * 100) / 100;
        return `Done: ${money(amount)} has been added to your gift card, charged to ${pmLabel(source)}. Its balance is now ${money(balance)}.`;
      },
    });
  }

  private async paymentMethods(userId: string): Promise<PaymentMethodView[]> {
    const r = await this.call('get_user', { userId });
    if (!r.ok) throw this.systemFailure(r);
    return asPaymentMethods(r.body) ?? (() => { throw this.malformed(); })();
  }

  private async getOrder(orderId: string): Promise<OrderView> {
    const r = await this.call('get_order', { orderId: `#${orderId}` });
    if (r.status === 404) {
      if (this.task) delete this.task.orderId;
      throw new NotFound(orderId, `I couldn't find order #${orderId}.`);
    }
    if (!r.ok) throw this.systemFailure(r);
    return asOrder(r.body) ?? (() => { throw this.malformed(); })();
  }

  /** Resolves the order from the items the user mentioned; returns a question when it cannot. */
  private async findOrder(userId: string, task: Task): Promise<string | undefined> {
    const toks = this.u.tokens(task.text);
    const r = await this.call('list_user_orders', { userId });
    if (!r.ok) throw this.systemFailure(r);
    const orders = asOrderList(r.body);
    if (!orders) throw this.malformed();
    const scored = orders
      .map((o) => ({ o, score: Math.max(0, ...o.items.map((i) => itemScore(this.u, toks, i.name, i.options))) }))
      .filter((x) => x.score > 0);
    const top = Math.max(0, ...scored.map((x) => x.score));
    const candidates = scored.filter((x) => x.score === top).map((x) => x.o);
    if (candidates.length === 1) {
      task.orderId = (candidates[0]?.orderId ?? '').replace(/^#/, '');
      return undefined;
    }
    if (candidates.length > 1) {
      const list = candidates.map((o) => `${o.orderId} (${o.status}, placed ${o.placedAt.slice(0, 10)})`).join(' and ');
      return `I found several orders that match: ${list}. Which order do you mean?`;
    }
    return 'Which order is it? Please give me the order number.';
  }

  private planCancel(order: OrderView, task: Task): string {
    if (order.status !== 'pending') {
      throw new Failure(`I'm sorry, order #${order.id} is ${order.status}, so it can't be cancelled; only pending orders can be cancelled.`);
    }
    if (!task.reason) return 'What is the reason for cancelling: no longer needed, or ordered by mistake?';
    const reason = task.reason;
    return this.confirm(`To confirm: I'll cancel order #${order.id} (reason: ${reason}); ${money(order.total)} will be refunded to the original payment method.`, {
      tool: 'cancel_order',
      args: { orderId: `#${order.id}`, reason },
      what: `the cancellation of order #${order.id}`,
      success: () => `Order #${order.id} is now cancelled, and ${money(order.total)} will be refunded to the original payment method.`,
    });
  }

  private planAddress(order: OrderView, task: Task): string {
    if (order.status !== 'pending') {
      throw new Failure(`I'm sorry, order #${order.id} is ${order.status}, so its shipping address can't be changed; only pending orders can be changed.`);
    }
    const a = task.address;
    if (!a) return `What is the new shipping address for order #${order.id}?`;
    const line = [a.address1, a.address2, a.city, `${a.state} ${a.zip}`].filter(Boolean).join(', ');
    return this.confirm(`To confirm: I'll change the shipping address of order #${order.id} to ${line}.`, {
      tool: 'change_order_address',
      args: { orderId: `#${order.id}`, ...a },
      what: `the address change of order #${order.id}`,
      success: () => `The shipping address of order #${order.id} is now ${line}.`,
    });
  }

  private async refundTarget(order: OrderView, task: Task, userId: string): Promise<PaymentMethodView | undefined> {
    const pms = await this.paymentMethods(userId);
    const originalId = order.payments.find((p) => p.type === 'payment')?.paymentMethodId;
    const original = pms.find((p) => p.id === originalId);
    if (task.refund === 'gift') {
      const gift = pms.find((p) => p.source === 'gift_card');
      if (!gift) throw new Failure("I'm sorry, you don't have a gift card on your account; I can only refund to the original payment method or an existing gift card.");
      return gift;
    }
    if (!original) throw this.malformed();
    return original;
  }

  private async planReturn(order: OrderView, task: Task, userId: string): Promise<string> {
    if (order.status !== 'delivered') {
      throw new Failure(`I'm sorry, order #${order.id} is ${order.status}, so its items can't be returned; only delivered orders can be returned.`);
    }
    const lines = matchLines(this.u, order, task.text).filter((l) => l.quantity - l.returned - l.exchanged > 0);
    if (lines.length === 0) return `Which items of order #${order.id} would you like to return?`;
    const pm = await this.refundTarget(order, task, userId);
    const amount = Math.round(lines.reduce((s, l) => s + l.price, 0) * 100) / 100;
    const what = lines.map((l) => `the ${l.name} (${optionText(l.options)})`).join(' and ');
    return this.confirm(`To confirm: I'll return ${what} from order #${order.id} and refund ${money(amount)} to ${pmLabel(pm)}.`, {
      tool: 'return_items',
      what: `the return from order #${order.id}`,
      args: { orderId: `#${order.id}`, itemIds: lines.map((l) => l.itemId), paymentMethodId: pm?.id },
      success: (body) => {
        const refunded = isObj(body) && isObj(body.refund) && typeof body.refund.amount === 'number' ? body.refund.amount : amount;
        return `The return is registered: ${money(refunded)} will be refunded to ${pmLabel(pm)}.`;
      },
    });
  }

  private async planExchange(order: OrderView, task: Task, userId: string): Promise<string> {
    if (order.status !== 'delivered') {
      throw new Failure(`I'm sorry, order #${order.id} is ${order.status}, so its items can't be exchanged; only delivered orders can be exchanged.`);
    }
    const lines = matchLines(this.u, order, task.text).filter((l) => l.quantity - l.returned - l.exchanged > 0);
    if (lines.length === 0) return `Which items of order #${order.id} would you like to exchange?`;
    const toks = this.u.tokens(task.text);
    const pairs: { line: Line; to: { itemId: string; options: Record<string, string>; price: number } }[] = [];
    for (const line of lines) {
      const r = await this.call('get_product', { productId: line.productId });
      if (!r.ok) throw this.systemFailure(r);
      const variants = asVariants(r.body);
      if (!variants) throw this.malformed();
      const wanted: Record<string, string> = { ...line.options };
      let changed = false;
      for (const axis of Object.keys(line.options)) {
        const values = [...new Set(variants.map((v) => v.options[axis]).filter((v): v is string => !!v && v !== line.options[axis]))];
        const said = values.filter((v) => mentionsOption(this.u, toks, axis, v));
        if (said.length === 1) {
          wanted[axis] = said[0] as string;
          changed = true;
        }
      }
      if (!changed) return `Which option of the ${line.name} would you like instead (for example another color or size)?`;
      const target = variants.find((v) => Object.entries(wanted).every(([k, val]) => v.options[k] === val));
      if (!target) throw new Failure(`I'm sorry, the ${line.name} doesn't come in ${optionText(wanted)}.`);
      if (!target.available) throw new Failure(`I'm sorry, the ${line.name} in ${optionText(wanted)} is out of stock, so I can't exchange it.`);
      pairs.push({ line, to: target });
    }
    const pm = await this.refundTarget(order, task, userId);
    const diff = Math.round(pairs.reduce((s, p) => s + p.to.price - p.line.price, 0) * 100) / 100;
    const what = pairs.map((p) => `the ${p.line.name} (${optionText(p.line.options)}) for ${optionText(p.to.options)}`).join(' and ');
    const money_ = diff === 0 ? 'There is no price difference.' : diff > 0 ? `The price difference of ${money(diff)} will be charged to ${pmLabel(pm)}.` : `The price difference of ${money(-diff)} will be refunded to ${pmLabel(pm)}.`;
    return this.confirm(`To confirm: I'll exchange ${what} in order #${order.id}. ${money_}`, {
      tool: 'exchange_items',
      what: `the exchange in order #${order.id}`,
      args: { orderId: `#${order.id}`, itemIds: pairs.map((p) => p.line.itemId), newItemIds: pairs.map((p) => p.to.itemId), paymentMethodId: pm?.id },
      success: () => `The exchange is registered. ${money_}`,
    });
  }
}

