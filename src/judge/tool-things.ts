// What a write tool changes, read from its name, for the claim reader (src/judge/claims.ts): the thing
// ("modify_pending_order_address": the address), the other things whose change is another change, the
// same thing of a sibling tool (a person's address beside an order's), and the words of its action.
import { memoizedBy } from '../ground/memo.js';

/** A person's own address, not an order's ("your default address", "the address on your profile"). */
const USER_ADDRESS = /\b(?:default|user|profile|account|home)(?:'s)? (?:shipping |mailing |delivery )?address\b|\baddress (?:on|in|of) (?:your|the) (?:user )?(?:profile|account)\b/i;
/** A sentence that speaks of an order's address beside a person's ("the default address, and the order's too"). */
const ORDER_SIDE = /\b(?:shipping|delivery) address\b|\border\b/i;
/** An order's address, not a person's ("the order's shipping address", "the address on order #W1"). */
const ORDER_ADDRESS = /\border(?:'s)? (?:shipping |delivery )?address\b|\baddress (?:of|on|for) (?:the |your |this |that )?(?:pending )?order\b/i;

/**
 * What a change can be to, as tools name it. A flight change carries its cabin: one kind of change, as τ's
 * and our travel tools make it.
 */
const THINGS: readonly RegExp[] = [/\baddress(?:es)?\b/i, /\bitems?\b/i, /\bpayment(?: method)?s?\b/i, /\b(?:flights?|cabin|(?:business|economy|first) class)\b/i, /\b(?:bags?|baggage|luggage(?! sets?\b)|suitcases?)\b/i, /\bpassengers?\b/i, /\binsurance\b/i];

/** Words that change a thing, as verbs or nouns ("updated the items", "the baggage update", "item modifications"). */
const CHANGE_WORD = String.raw`(?:updat|chang|modif|exchang|remov|replac|swap|switch|upgrad|downgrad|correct)\w*|add(?:s|ed|ing|ition)?|mov(?:e|es|ed|ing)|fix(?:es|ed|ing)?`;

/**
 * Each thing as the object or subject of a change, a few words apart at most and no bracket between: not
 * a thing a sentence names as the means or the context of a change ("charged to your payment method",
 * "for both passengers", "order #W1 (2 items)").
 */
const THINGS_CHANGED: readonly { thing: RegExp; changed: RegExp }[] = THINGS.map((thing) => {
  const t = thing.source.replace(/^\\b|\\b$/g, '');
  const gap = String.raw`\s+(?:[^\s()]+\s+){0,3}?`;
  // Or the thing as the subject that opens a sentence, its change told in the passive a few words after it ("Your payment
  // method for the order has been successfully changed"); not a thing changed in a clause of reason further on ("I couldn't
  // update the items because the payment method on the order was removed").
  const passive = String.raw`\s+(?:[^\s(),;]+\s+){0,4}?(?:has|have|was|were|is|are)\s+(?:now\s+)?(?:been\s+)?(?:now\s+|also\s+|successfully\s+)?`;
  // Or its new value told as it now stands ("Your shipping address for order #W1 is now 12 River Rd"); not a state ("is now
  // pending").
  const nowIs = String.raw`^\W*(?:(?:your|the|this|that)\s+)?(?:[\w-]+\s+)?${t}\s+(?:[^\s(),;]+\s+){0,4}?(?:is|are) now\b(?!\s+(?:in|pending|processed|shipped|delivered|cancell?ed|active|confirmed|being|locked|fixed|expected|estimated|delayed|on time|on (?:its|their) way)\b)`;
  // Or a summary's label and its change ("Shipping address: Updated to 418 Larkspur Lane").
  const labelled = String.raw`\b${t}\s*[:\u2014\u2013]\W{0,3}(?:${CHANGE_WORD})\b`;
  return { thing, changed: new RegExp(String.raw`\b(?:${CHANGE_WORD})${gap}${t}\b|\b${t}${gap}(?:${CHANGE_WORD})\b|^\W*(?:(?:your|the|this|that)\s+)?${t}${passive}(?:${CHANGE_WORD})\b|${nowIs}|${labelled}`, 'i') };
});

/** Words of a tool's name that say what it changes rather than which record: not the verb, not the record's kind. */
const GENERIC = new Set(['order', 'orders', 'pending', 'delivered', 'reservation', 'reservations', 'user', 'users', 'item', 'items', 'to', 'of', 'the', 'a', 'for', 'funds', 'details', 'info', 'by', 'id']);

/** What a tool changes, as `thingOfTool` reads it from the tool's name. */
export interface ToolThing {
  readonly pattern?: RegExp;
  readonly othersChanged: readonly RegExp[];
  /** The same thing of a sibling tool (a person's address for an order's), and the words of this tool's own. */
  readonly sibling?: { readonly theirs: RegExp; readonly ours: RegExp };
  /** "No further changes, including address updates": this tool's thing named as what can no longer be done. */
  readonly lockedOut?: RegExp;
}

/** What a question's action changes: its tool's name decides it. */
export const thingOfAction = (action: string | undefined): ToolThing => thingOfTool(action?.split(/\s+/)[0] ?? '');

/**
 * What a tool changes, by the words of its name after the verb ("modify_pending_order_address": address),
 * with the other words for it ("baggage": bags, luggage); and, when it is one of `THINGS`, the patterns of
 * a change to each of the others (none for a thing outside them, such as compensation). Compiled once per
 * tool: every reply of every episode asks it again.
 */
const thingOfTool = memoizedBy((tool: string) => tool, (tool: string): ToolThing => {
  if (!/^[a-z]+_/.test(tool)) return { othersChanged: [] };
  const parts = tool.split('_');
  const words = parts.slice(1).filter((w) => w.length > 2 && !GENERIC.has(w));
  if (words.length === 0) {
    // A tool that modifies and whose name says only its record and its items ("modify_pending_order_items"): "items" is too
    // common a word to read first, but a sentence about changing another thing (the address, the payment)
    // is still about another change.
    const items = THINGS_CHANGED.find((t) => t.thing.test(parts.at(-1) as string));
    // Only for a verb that modifies what follows it: "exchange_" and "return_" name a kind of change of their own.
    return { othersChanged: items && parts.length > 2 && /^(?:modify|update|change|edit)$/.test(parts[0] as string) ? THINGS_CHANGED.filter((t) => t !== items).map((t) => t.changed) : [] };
  }
  const stems = words.map((w) => w.replace(/ies$/, 'y').replace(/(ss|x|ch|sh)es$/, '$1').replace(/([^s])s$/, '$1'));
  const kin = THINGS_CHANGED.filter((t) => stems.some((w) => t.thing.test(w)));
  // An address is a person's or an order's: a tool that changes one does not change the other.
  const address = stems.includes('address');
  const sibling = address && parts.includes('order') ? { theirs: USER_ADDRESS, ours: ORDER_SIDE } : address && parts.includes('user') ? { theirs: ORDER_ADDRESS, ours: USER_ADDRESS } : undefined;
  const pattern = new RegExp([`\\b(?:${stems.join('|')})(?:s|es)?\\b`, ...kin.map((t) => t.thing.source)].join('|'), 'i');
  return {
    pattern,
    othersChanged: kin.length === 0 ? [] : THINGS_CHANGED.filter((t) => !kin.includes(t)).map((t) => t.changed),
    ...(sibling ? { sibling } : {}),
    lockedOut: new RegExp(String.raw`\bincluding (?:the |any |your )?(?:[\w-]+ )?(?:${pattern.source})|(?:${pattern.source}) (?:[\w-]+ )?included\b`, 'i'),
  };
}, 500);

const defaultWords = new Map<string, RegExp>();

/**
 * The words that say a sentence speaks of a write tool's action, when a world does not give them: the
 * first word of the tool's name, inflected (`cancel_order`: cancel, cancelled, cancellation;
 * `update_baggage`: update, updated, updating).
 */
export function defaultActionWords(tool: string): RegExp {
  // Asked for every write tool of every episode: built once per tool name.
  let words = defaultWords.get(tool);
  if (!words) {
    const verb = (tool.split(/[^a-zA-Z]+/).find((w) => w.length > 0) ?? tool).toLowerCase().replace(/[^a-z]/g, '');
    const last = verb.slice(-1);
    const irregular = IRREGULAR[verb];
    words = verb.endsWith('e')
      ? new RegExp(`\\b(?:${verb.slice(0, -1)}(?:e|es|ed|ing|ation|ations)${irregular ? `|${irregular}` : ''})\\b`, 'i')
      : /[^aeiou]y$/.test(verb)
        ? new RegExp(`\\b${verb.slice(0, -1)}(?:y|ies|ied|ying|ication|ications)\\b`, 'i')
        : new RegExp(`\\b(?:${verb}(?:${last})?(?:s|ed|ing|ation|ations)?${irregular ? `|${irregular}` : ''})\\b`, 'i');
    defaultWords.set(tool, words);
  }
  return words;
}

/** Pasts that no ending gives. */
const IRREGULAR: Readonly<Record<string, string>> = { send: 'sent', make: 'made', pay: 'paid', set: 'set', buy: 'bought', give: 'gave|given', put: 'put' };
