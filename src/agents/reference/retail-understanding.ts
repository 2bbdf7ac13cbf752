/** How the retail reference agent understands the user: intents, entities, items and options. */
import { hasAny, tokens, wordMatches } from './text.js';
import type { Line, OrderView } from './retail-views.js';

export type Intent = 'order_status' | 'order_total' | 'gift_card_balance' | 'cancel' | 'change_address' | 'return' | 'exchange';
export type Reason = 'no longer needed' | 'ordered by mistake';

export interface AddressInput {
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
}

export const ORDER_ID = /#?\s?\b(W\d{7})\b/gi;
export const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
export const ADDRESS = /\b(\d+\s[^,\n]+?),\s*(?:((?:apt|apartment|suite|unit|#)[^,\n]*?),\s*)?([A-Za-z][A-Za-z .'-]*?),\s*([A-Za-z]{2})\s+(\d{5})\b/i;
export const NAME = /(?:\bi'?m|\bi am|\bname is|\bunder|\bthis is)\s+([a-z][a-z'-]+)\s+([a-z][a-z'-]+)/i;

const INTENTS: readonly [Intent, readonly string[]][] = [
  ['exchange', ['exchange', 'swap', 'switch', 'trade']],
  ['return', ['return', 'send back', 'refund']],
  ['cancel', ['cancel', 'call off']],
  ['change_address', ['shipping address', 'delivery address', 'ships to', 'ship to', 'change the address', 'update the address', 'new address']],
  ['gift_card_balance', ['gift card balance', 'balance', 'left on my gift card']],
  ['order_total', ['how much', 'total', 'cost']],
  ['order_status', ['status', 'where is', 'where my order', 'track', 'shipped', 'check on', 'arrived']],
];

export function detectIntent(toks: readonly string[]): Intent | undefined {
  for (const [intent, phrases] of INTENTS) if (hasAny(toks, phrases)) return intent;
  return undefined;
}

export function mentionsOption(toks: readonly string[], axis: string, value: string): boolean {
  const v = value.toLowerCase();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] ?? '';
    if (v.length <= 2) {
      // Short values ("l", "uk") count only next to their axis name: "size L", "UK layout".
      if (t === v && (toks[i - 1] === axis || toks[i + 1] === axis)) return true;
    } else if (wordMatches(t, v)) return true;
  }
  return false;
}

export function itemScore(toks: readonly string[], name: string, options: Record<string, string>): number {
  const nameWords = tokens(name).filter((w) => w.length >= 4);
  const nameHit = nameWords.some((w) => toks.some((t) => wordMatches(t, w) || (w.endsWith('s') && wordMatches(t, w.slice(0, -1)))));
  if (!nameHit) return 0;
  return 10 + Object.entries(options).filter(([axis, v]) => mentionsOption(toks, axis, v)).length;
}

export function matchLines(order: OrderView, text: string): Line[] {
  const toks = tokens(text);
  const scored = order.items.map((l) => ({ l, score: itemScore(toks, l.name, l.options) })).filter((x) => x.score > 0);
  // Lines of different products all count; among lines of one product, the best-matching options win.
  const best = new Map<string, number>();
  for (const { l, score } of scored) best.set(l.productId, Math.max(best.get(l.productId) ?? 0, score));
  return scored.filter(({ l, score }) => score === best.get(l.productId)).map((x) => x.l);
}
