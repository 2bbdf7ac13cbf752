/** How the retail reference agent understands the user: intents, entities, items and options. */
import type { Understanding } from './understanding.js';
import type { Line, OrderView } from './retail-views.js';

export type Intent = 'order_status' | 'order_total' | 'gift_card_balance' | 'top_up' | 'cancel' | 'change_address' | 'return' | 'exchange';
export type Reason = 'no longer needed' | 'ordered by mistake';

export interface AddressInput {
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
}

/** Retail order ids: `W` and seven digits. */
export const ORDER_PREFIX = 'W';
export const ORDER_DIGITS = 7;
/** A street address; the street has no digits after its number, so a zip code before it is not taken for one. */
export const ADDRESS = /\b(\d+\s[^,\n\d]+?),\s*(?:((?:apt|apartment|suite|unit|#)[^,\n]*?),\s*)?([A-Za-z][A-Za-z .'-]*?),\s*([A-Za-z]{2})\s+(\d{5})\b/i;

/** Cue phrases per intent, most specific first; general English, not any generator's templates. */
const INTENTS: readonly [Intent, readonly string[]][] = [
  ['exchange', ['exchange', 'swap', 'switch', 'trade', 'instead of', 'different size', 'different color', 'different colour']],
  ['return', ['return', 'send back', 'send it back', 'send them back', 'refund', 'money back']],
  ['cancel', ['cancel', 'cancelled', 'canceled', 'call off', 'called off']],
  ['change_address', ['shipping address', 'delivery address', 'ships to', 'ship to', 'change the address', 'update the address', 'new address', 'wrong address', 'different address', 'old address']],
  ['top_up', ['top up', 'top-up', 'topped up', 'add', 'put', 'load', 'more on my gift card', 'some money on']],
  ['gift_card_balance', ['gift card balance', 'balance', 'left on my gift card', 'on my gift card']],
  ['order_total', ['how much', 'total', 'cost', 'amount']],
  ['order_status', ['status', 'where is', 'where my order is', 'track', 'shipped', 'check on', 'arrived', 'arrive', 'any news', 'any update', 'waiting for', 'going on with']],
];

/** The intent of a message: the most specific intent with a cue in it (a write before a read). */
export function detectIntent(u: Understanding, toks: readonly string[]): Intent | undefined {
  for (const [intent, phrases] of INTENTS) if (u.hasAny(toks, phrases)) return intent;
  return undefined;
}

export function mentionsOption(u: Understanding, toks: readonly string[], axis: string, value: string): boolean {
  const v = value.toLowerCase();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] ?? '';
    if (v.length <= 2) {
      // Short values ("l", "uk") count only next to their axis name: "size L", "UK layout".
      if (t === v && (toks[i - 1] === axis || toks[i + 1] === axis)) return true;
    } else if (u.wordMatches(t, v)) return true;
  }
  return false;
}

export function itemScore(u: Understanding, toks: readonly string[], name: string, options: Record<string, string>): number {
  const nameWords = u.tokens(name).filter((w) => w.length >= 4);
  const nameHit = nameWords.some((w) => toks.some((t) => u.wordMatches(t, w) || (w.endsWith('s') && u.wordMatches(t, w.slice(0, -1)))));
  if (!nameHit) return 0;
  return 10 + Object.entries(options).filter(([axis, v]) => mentionsOption(u, toks, axis, v)).length;
}

export function matchLines(u: Understanding, order: OrderView, text: string): Line[] {
  const toks = u.tokens(text);
  const scored = order.items.map((l) => ({ l, score: itemScore(u, toks, l.name, l.options) })).filter((x) => x.score > 0);
  // Lines of different products all count; among lines of one product, the best-matching options win.
  const best = new Map<string, number>();
  for (const { l, score } of scored) best.set(l.productId, Math.max(best.get(l.productId) ?? 0, score));
  return scored.filter(({ l, score }) => score === best.get(l.productId)).map((x) => x.l);
}

/** An amount of money the user names: "$50", "$50.00", "50 dollars". */
export function amountIn(text: string): number | undefined {
  const m = /\$\s?(\d{1,4}(?:\.\d{1,2})?)\b|\b(\d{1,4}(?:\.\d{1,2})?)\s*(?:dollars|usd)\b/i.exec(text);
  const v = m ? Number(m[1] ?? m[2]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : undefined;
}
