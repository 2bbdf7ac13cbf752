import { messageText } from '../ground/json-text.js';
import type { Scenario, ScenarioRequest } from '../ground/scenario.js';
import { slotsOf } from '../ground/scenario.js';
import type { MessageAbout, Segment } from '../ground/perturb.js';
import { pick, type Rng } from '../ground/seeds.js';
import type { UserLanguage } from '../ground/world.js';
import { readAgentMessage, type Reading } from './reading.js';
import { renderTemplate, type Confusion, type UserMessage, type UserSimulator, type UserStep } from '../ground/simulator.js';
import { globalOf, regex } from '../ground/regex.js';
import { squash } from '../ground/canonical.js';
import { memoizedBy } from '../ground/memo.js';

const anyMatch = (patterns: readonly RegExp[], text: string): boolean =>
  patterns.some((p) => {
    p.lastIndex = 0;
    return p.test(text);
  });

/**
 * Offers no scripted user's request wants, whatever the world: a hand-off to a person, an upgrade,
 * insurance, a new booking or purchase, a membership or a subscription, a discount. A go-ahead that makes one is
 * declined (a world may add its own, `UserLanguage.unsolicited`).
 */
const HAND_OFF = new RegExp(
  [
    String.raw`\b(?:transfer|connect|escalate|hand)\w*\b[^.?!]{0,40}\b(?:human|live|real|another|customer service|support)\b[^.?!]{0,20}\b(?:agent|representative|person|specialist|team|colleague)\b`,
    // "connect you with a specialist", "hand your case over to one of my colleagues on the care team".
    String.raw`\b(?:transfer(?:ring|red)?|connect(?:ing|ed)?|escalat(?:e|es|ing|ed)|hand(?:ing|ed)? (?:you|this|it|your case|the case)(?: over| off)?|pass(?:ing)? (?:you|this|it|your case) (?:on|along|over)|put(?:ting)? you through)\b[^.?!]{0,30}\b(?:to|with)\s+(?:a |an |one of (?:my|our) |our |the )?(?:[\w-]+ ){0,2}(?:specialists?|supervisors?|representatives?|humans?|colleagues?|team)\b`,
    String.raw`\bget (?:a|someone|somebody|an?(?: \w+)?) (?:real |live )?(?:person|human|agent|representative|specialist|supervisor)\b[^.?!]{0,20}\b(?:on the line|to help|involved)\b`,
    // "A specialist on our team can pick this up from here", "I can loop in a human agent".
    String.raw`\b(?:specialist|supervisor|colleague|human agent|live agent|(?:someone|a person) (?:from|on) (?:our|the) team)\b[^.?!]{0,40}\b(?:pick (?:this|it) up|take (?:this|it) over|take over)\b|\bloop(?:ing)? in (?:a |an |one of (?:my|our) )?(?:human|live|specialist|supervisor|colleague|agent)\b`,
  ].join('|'),
  'i',
);
/** An upgrade, or a cabin change to business or first class within one sentence, a table's lines included ("Cabin change summary: … | New cabin | business |"). */
const UPGRADE = /\bupgrad(?:e|ing)\b|\b(?:cabin change|change (?:the |your )?cabin|new cabin)\b[^.?!]{0,300}?\b(?:business|first class|first cabin)\b(?! days?\b)/i;
// Lower-case "new": "the New York address" is no new booking. An order placed is a new one ("to place the order"), as is a thing ordered
// ("and order the t-shirt") or ordered again ("cancel the garden hose and reorder the correct one"); not what the user may do
// itself ("so you can reorder the right one", "no need to reorder it").
const NEW_BOOKING = /\b(?:book|make|create|place|purchase|buy)\w*\s+(?:you\s+)?(?:a|another)\s+(?:separate\s+)?new\s+(?:[\w-]+\s+){0,2}?(?:booking|reservation|order|trip|ticket|purchase)\b|\bnew (?:booking|reservation|purchase)\b|\b[Pp]lac(?:e|ing)\s+(?:an?|the|this|that|your)\s+(?:[\w-]+\s+){0,2}?order\b|\b(?:and|to|then) order (?:a|an|the|this|that|one|it)\b|(?<!\b(?:you|no need to|not need to|n't need to|n't have to)\b[^.?!,;]{0,25})\bre-?order(?:ing)?\s+(?:a|an|the|this|that|one|it|them)\b/;
const UNSOLICITED: readonly RegExp[] = [
  HAND_OFF,
  UPGRADE,
  /\binsurance\b/i,
  NEW_BOOKING,
  /\b(?:membership|subscription|subscribe|newsletter|sign (?:you )?up)\b/i,
  /\b(?:discount|coupon|promo(?:tional)? code)\b/i,
  // A request of the trip beside the booking: a special meal, a seat assignment, assistance at the airport.
  /\b(?:(?:vegetarian|vegan|kosher|halal|gluten[- ]free|special|child|diabetic) meals?|meal (?:request|preference)|seat (?:selection|assignment|request)|wheelchair|special assistance)\b/i,
  // A service beside the request, offered as the go-ahead's own step: "Want me to re-send the receipt?".
  /\b(?:shall i|should i|can i|may i|i can|i could|want me to|would you like me to|do you want me to)\s+(?:also\s+)?(?:re-?send|resend|e-?mail|forward)\b/i,
];
/**
 * The offers that, spoken of around a go-ahead that names no change ("the cost of moving the flight and
 * upgrading all three passengers is $795; shall I proceed with this change?"), are part of what it would
 * authorise. Insurance and membership are left out: a summary names them as the record stands.
 */
const UNASKED_AROUND: readonly RegExp[] = [HAND_OFF, UPGRADE, NEW_BOOKING];

/** "Transfer you", "connect your call": a hand-off when the message names who to (`SOMEONE_ELSE`). */
const TRANSFER_YOU = /\b(?:transfer|connect|escalate)\s+(?:you|your (?:call|case|request|chat))\b/i;
/** A person a customer is handed to. */
const SOMEONE_ELSE = /\b(?:human|live) (?:agents?|representatives?|person|people)\b|\b(?:supervisor|specialist)s?\b/i;

/**
 * Verbs of a change to an account, whatever the world: a go-ahead whose own words use one and name none of
 * the user's requests proposes something else. Means of a change (refund, charge, use a card) are left out:
 * they serve a request as often as not; so is a change already spoken of ("proceed with the changes").
 */
const CHANGES = /(?<!\b(?:the|this|that|these|those)\s+)\b(?:re-?book(?:s|ed|ing)?|adjust(?:s|ed|ing)? (?:your|the) (?:payment|amount|charge|booking|reservation|order)\b|book(?:ed|ing)?|downgrad(?:e|es|ed|ing)|upgrad(?:e|es|ed|ing)|add(?:s|ed|ing)?|remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|updat(?:e|es|ed|ing)|modif(?:y|ies|ied|ying|ications?)|chang(?:e|es|ed|ing)|switch(?:es|ed|ing)?|swap(?:s|ped|ping)?|exchang(?:e|es|ed|ing)|replac(?:e|es|ed|ing)|return(?:s|ed|ing)?|cancel(?:s|led|ling|ed|ing)?|transfer(?:s|red|ring)?|purchas(?:e|es|ed|ing)|buy(?:s|ing)?|order(?:ing)?(?= (?:a|an|the|new)\b)|reinstat(?:e|es|ed|ing)|reactivat(?:e|es|ed|ing)|split(?:s|ting)?|merg(?:e|es|ed|ing)|mov(?:e|es|ed|ing)(?! (?:forward|on|ahead)\b)|void(?:s|ed|ing)?|scrap(?:s|ped|ping)?|reschedul(?:e|es|ed|ing)|redirect(?:s|ed|ing)?|re-?rout(?:e|es|ed|ing)|bump(?:s|ed|ing)?|drop(?:s|ped|ping)?(?! (?:it |them |the \w+ |your \w+ )?off\b)|correct(?:s|ed|ing)? (?:it|that|this|the|your)|fix(?:es|ed|ing)? (?:it|that|this|the|your))\b/i;
/**
 * A change told as the state it would bring, with no verb of a change: "the lamp would become the LED one",
 * "the package would head to Austin", "your sister would fly in your place", "you'd ship the 10s back", or
 * as what going ahead would bring ("if I go ahead, the order will no longer ship", "will be charged to your
 * gift card instead of your card", "after this, you'll be flying SK 045"), or as a value and what it becomes
 * ("DOB 1985-03-12 → 1985-12-03"; not a route, "JFK→SEA"). Not where a refund would go.
 */
const STATE_CHANGE = /\b(?:would|will|'d) (?:now )?(?:become|head|fly|be (?:moved|switched|changed|replaced|corrected))\b|\bin (?:your|his|her|their) place\b|\bin place of\b|\b(?:ship|send|mail) (?:the |your |it |them )?(?:[\w-]+ ){0,3}back\b|\b(?:go|goes|come|comes) back to us\b|\bwill no longer (?:ship|be shipped|go out|arrive)\b|\bwill be released\b|(?:\bwill|'ll|\bwould|'d)\b[^.?!]{0,80}\binstead of\b|\b(?:if|once|when|after) (?:i|we) (?:go ahead|proceed|confirm (?:this|that|it)|do (?:this|that|it)|make (?:this|that|the) (?:change|update|switch))\b|^\W*after (?:this|that)\b|\bwhat (?:will|would) happen if you (?:confirm|agree|say yes)\b/im;
/** A value and what it becomes ("size M → L", "1985-03-12 → 1985-12-03"); not a route between airport codes ("JFK→SEA"), told by case. */
const VALUE_CHANGE = /(?<![A-Z]{3}\s?)(?:\u2192|->|\u27f6)(?!\s?[A-Z]{3}\b)/;
/**
 * A change told by what it does to a value, with no verb of a change: "would go from economy to business", "trade
 * the 8-inch for the 10-inch", the value it was ("May 19 (was May 17)"), an old and a new value ("Old: ... New:
 * ...", "Current flight: ... New flight: ..."), a new way to pay ("will then be paid via PayPal"), a thing tacked on.
 */
// A table of the record before and after ("| Now | After |"), a thing that replaces the current one, and paying with another
// card instead ("I can pay for it with your Mastercard instead"), are a change too.
const EFFECT_CHANGE = /\b(?:pay for it|charge it|put (?:it|the charge)) (?:with|on|to) (?:your|the|a)\b[^.?!]{0,40}\binstead\b|\bmove the (?:\$[\d.,]+ )?charge\b|\|\s*\**(?:now|before|current|old)\**\s*\|\s*\**(?:after|new|then)\**\s*\||\breplaces? (?:your|the) (?:current|existing|old)\b|\b(?:would|will|'d|'ll) (?:now |then )?go from\b|\btrad(?:e|es|ed|ing)\b[^.?!]{0,60}\bfor\b|\(was [^)]{1,40}\)|^\W*(?:old|previous|current|original)\b[^:\n]{0,30}:[^\n]*\n(?:[^\n]*\n){0,6}?\W*(?:new|updated)\b[^:\n]{0,30}:|\b(?:will|would) (?:then |now )?be (?:paid|charged|billed) (?:via|with|through|by|on|to)\b|\btack(?:s|ed|ing)? (?:(?:it|them|'em|\w+(?: \w+)?) )?on\b|\b(?:go|goes|going) back\b|\b(?:take|takes|taking|took) (?:it |them |(?:the |your )?\w+ )?back\b|\bdrop (?:it|them|\w+) off\b|\b(?:return|shipping|prepaid) label\b|\blabel instructions\b|\bonce (?:the|your) (?:\w+ )?items? (?:is|are|has been|have been) received\b|\b(?:get|put) you on\b/im;
/**
 * A plan's step: a list item that opens with a change in the imperative and its object ("Switch the payment
 * method to PayPal", "Book SK 150 on May 24"). Not a label or a fact about the record ("Return flight: SK 123",
 * "Exchanges for a delivered order can only be made once", "Refund: $50").
 */
const STEP = /^(?:re-?book|book|downgrade|upgrade|add|remove|delete|update|modify|change|switch|swap|exchange|replace|return|cancel|issue|send|transfer|apply|move)\s+(?!(?:flights?|trip|legs?|policy|window|fee|dates?|label|shipping|requests?|options?|instructions|process)\b)(?:the|your|this|that|these|those|an?|both|all|it|them|order|reservation|booking|item|#|[A-Z0-9]{2,})\b/i;
/** A list item that starts with a verb of a change: an action of a plan ("1. Exchange the laptop"). */
/** A change named only as a modification of the record. */
const MODIFICATION = /\bmodif(?:y|ying|ication|ications)\b/i;
const LEADING_CHANGE = new RegExp(`^${CHANGES.source}`, 'i');
/** A list item's start: a bullet or a number ("- ", "\u2022 ", "* ", "2. ", "3) "). */
const ITEM_START = String.raw`^\s*(?:[-\u2022*]|\d+[.)])\s+`;
/** A plan's step, not a label and its value ("- Fare: $189"). */
const PLAN_STEP = new RegExp(`${ITEM_START}(?![^:\n]{1,60}:)`);
/** The first words of each list item, a plan's heads. */
const ITEM_HEADS = new RegExp(`${ITEM_START}([^\n]{0,40})`, 'gm');

/**
 * Insurance told as the record stands ("the booking has travel insurance, so it is refundable"), not offered
 * ("adding insurance would make it refundable", "with a membership the shipping is free").
 */
const AS_IT_STANDS = /\b(?:has|had|have|includes?|included|with(?:out)?|purchased|bought)\b[^.?!]{0,30}\binsurance\b(?![^.?!]*\b(?:add|adding|added|buy|get|sign|offer|would|could|if|instead)\b)|\binsurance\b[^.?!]{0,12}\b(?:yes|no|none|included)\b/i;

/** The way out offered beside a go-ahead: "or no to cancel the change", "reply no if you'd like to stop", "or NO if you'd like to adjust/cancel". */
const WAY_OUT = /,?\s*(?:\bor\s+)?(?:\b(?:reply|say|type|respond|answer)(?:ing)?\s+)?["']?\bno\b["']?\s+(?:to|if you(?: would|'d)? (?:like|want|prefer|rather)(?: to)?)\s+(?:\w+(?:\s*\/\s*|\s+or\s+))?(?:cancel|stop|decline|abort)\b[^.?!\n]*/gi;

/**
 * Another way offered beside the proposal ("If you'd prefer to cancel the order instead, let me know", "unless
 * you would rather cancel"), and what the change leaves as it is ("this does not affect your ability to
 * cancel"): neither is the change proposed.
 */
const ALTERNATIVE = /\b(?:if|unless) you(?:'d| would)? (?:rather|prefer(?: to)?|instead want to|would like to instead)\b[^.?!\n]*|\b(?:instead of|rather than)\s+\w+ing\b[^,.;:?!\n]*|\b(?:there(?:'s| is) )?no need to (?!worry\b)\w+\b[^,.;:?!\n]*|\byou (?:don't|do not) (?:need|have) to (?!worry\b)\w+\b[^,.;:?!\n]*|[^.?!;\n]*\b(?:does not|doesn't|do not|don't|won't|will not) (?:affect|change|apply)\b[^.?!;\n]*/gi;

/**
 * A rule of a kind of change in general beside the proposal, noted or not ("Please note: cancellations are only
 * refundable within 24 hours", "Cancellations after this change are subject to the usual policy"): no change
 * proposed. A note that tells the change itself ("Please note: once the return is processed, ...") still does.
 */
const RULE_NOTE = /(?:^|(?<=[.!?:])\s+)\W*(?:(?:(?:please |just )?note(?: that)?|keep in mind(?: that)?|bear in mind(?: that)?|heads[- ]?up|fyi|(?:a )?(?:quick )?reminder)\W*\s*)?(?:cancell?ations|refunds|changes|modifications|returns|exchanges) (?:are|after|made|within|outside|of)\b[^\n]*?(?:[.!?](?=\s|$)|$)/gim;

/**
 * What a change rules out from then on ("after which no further item changes, cancellations, or other mods will
 * be possible", "no further changes or cancellations can be made afterward", "it cannot be cancelled or modified again"), and a change it makes unneeded ("with no cancellation or
 * reorder needed", "without cancelling"): a consequence told, not a change proposed.
 */
const RULED_OUT = /\bno (?:further|more|additional|other) [^.?!()]{0,80}?\b(?:(?:will|would) be (?:possible|allowed|permitted)|can be (?:made|done|processed|requested)(?:\s+(?:afterwards?|after that|later|then))?)\b|\b(?:with )?no (?:need (?:for|to) )?(?:cancell?(?:ation|ing|ed)?|re-?order(?:ing)?|return(?:ing)?|exchang(?:e|ing)|new order)s?(?: (?:or|and|nor) (?:cancell?(?:ation|ing)?|re-?order(?:ing)?|return(?:ing)?|exchang(?:e|ing)|new order)s?)?(?: (?:needed|required|necessary))?(?=[\s,.;:!?)]|$)|\bwithout (?:(?:having|needing) to )?(?:cancell?(?:ing|ation)|re-?order(?:ing)?)\b[^.?!,;]{0,30}|\bcan(?:not|'t| no longer) be (?:\w+ (?:or|and) )?(?:modified|changed|cancell?ed|returned|exchanged|updated)\b(?:\s+(?:or|and) \w+)?(?:\s+(?:again|further|later|any ?more))?/gi;

/** An amount of money above nothing: "$19.04", "$1,340", "$ 24", "48 dollars". */
const AMOUNT = String.raw`(?:\$\s?(?:[1-9][\d,]*(?:\.\d{1,2})?|0\.(?!00?\b)\d{1,2})|\b[1-9][\d,]*(?:\.\d{1,2})? (?:dollars|usd)\b)`;
/** A new cost told as extra, beside an amount above nothing: "for an extra $19.04", "$48 more", "+$14.95", "an additional $1,380.00". */
const EXTRA_AMOUNT = new RegExp(
  [String.raw`\b(?:an? )?(?:extra|additional)\s+${AMOUNT}`, String.raw`${AMOUNT}\s*(?:more|extra|additional|higher|on top)\b`, String.raw`\+\s?${AMOUNT}`].join('|'),
  'i',
);
/**
 * What going ahead would charge, told with an amount after it: "Fare difference: $24 (to be charged to your credit card)", "I'll
 * charge your Visa $182", "you'd pay $48", "Total due today: $182.00", "it will cost you $50".
 */
const CHARGE_CUE = /\b(?:will|would|'ll|'d|to)\s+(?:(?:now|then|also|only)\s+)?be\s+(?:charged|billed|debited)\b|\b(?:i|we)(?:'ll| will|'d| would| am going to| are going to)\s+(?:(?:need to|have to|then|also)\s+)?(?:charge|bill|debit)\b|\byou(?:'ll| will|'d| would)\s+(?:(?:need to|have to|only|then|also)\s+)*(?:pay|be paying)\b|\b(?:total |amount )?due (?:now|today|at (?:booking|checkout))\b|\bout of pocket\b|\b(?:fare|price) diff(?:erence)?\b|\b(?:will|would|'ll|'d) cost(?: you)?\b|\bat an? (?:extra|additional) cost\b/i;
/** An amount somewhere after a cue, within its sentence. */
const AMOUNT_AFTER = new RegExp(String.raw`^[^?!\n]*${AMOUNT}`, 'i');
/** Whether a sentence tells a new cost: an amount told as extra, or a charge cue with an amount after it (read in linear time). */
const newCost = (sentence: string): boolean => {
  if (EXTRA_AMOUNT.test(sentence)) return true;
  const cue = CHARGE_CUE.exec(sentence);
  return cue !== null && AMOUNT_AFTER.test(sentence.slice(cue.index));
};
/**
 * A sentence that tells no new cost: a charge said absent, zero or waived ("you won't be charged", "there won't be an extra $75
 * fee", "you'll pay nothing", "billed $0.00"); money coming to the user or back ("refunded", "you get an extra $50 per passenger",
 * "an extra $10 in store credit", "a $100 certificate"); the order or booking as it stands or as planned ("the $418 you paid",
 * "includes an additional $40 for insurance", "will be charged $149 upon shipment"); a sum or an item's line ("$189 + $40
 * insurance = $418", "Shipping: +$5.99"); or a charge only on a condition, as a rule or as a comparison ("if the clock arrives
 * damaged, ...", "any fare above the certificate would be charged as usual", "by comparison, changing the flight would cost
 * $75").
 */
const NO_CHARGE = /(?:\b(?:no|not|never|without|nothing|zero|free|none)\b|n't\b)[^.?!\n]{0,60}\b(?:charg|bill|cost|fee|pay|differ|debit|owe|appl)\w*|\b(?:charg|bill|pay|cost|debit)\w*\s+(?:you\s+)?(?:nothing|zero|\$\s?0(?:\.00?)?\b|0 dollars)|\b(?:refund|reimburs|credit(?![\s_-]*cards?\b)|back to your|returned to your|sent (?:back )?to your|(?:toward|towards|for|on) your next\b|(?:to|on|onto) your (?:profile|account|wallet)\b|releas|revers|waiv|avoid|stop|sav(?:e|es|ing)\b|receiv|earn|entitled|back\b|certificate|voucher|bonus|goodwill|compensat|off your|includ|upon|as planned)\w*|\byou(?:'ll| will| would|'d| can| could)?\s+(?:also\s+)?get\b|\b(?:paid|originally|original|already|previously|was charged|were charged|stays|remains|unchanged)\b|\b(?:if|when|once|unless|should|otherwise|normally|usually|typically|as usual|in case|in the future|future|later|any (?:remaining|other|further|fare|difference|amount|balance)|by comparison|compared|versus|vs\.?|had you|would have|rather than|instead of|just say the word)\b|[=\u00d7]|\btotal\b[^.?!\n]*\+|\+[^.?!\n]*\btotal\b|^\W*(?:shipping|tax|taxes|insurance|fare|fee|fees|subtotal|balance)\s*:/i;
/** Whether a message tells of a new cost to the user if it goes ahead, in a sentence that tells nothing of the kinds above. */
const tellsCharge = (text: string): boolean =>
  text
    .replace(/[ \t]+/g, ' ')
    .split(/(?<=[.?!])\s+|\n/)
    .some((sentence) => newCost(sentence) && !NO_CHARGE.test(sentence));

/** A further change a summary says the user wants: "Additionally, you want to cancel ...", "You also asked to return ...". */
const ALSO_WANTED = /(?:\b(?:additionally|also|in addition|besides)\b,?[^.?!\n]{0,20}?\byou (?:also )?|\byou also )(?:want(?:ed)?|would like|'d like|asked) to\b([^.?!\n]*)/gi;

/** A change named only as the one told before: "make that change to the order", "apply this change". */
const THAT_CHANGE = /\b(?:make|apply|do|process|submit|go ahead with|proceed with) (?:that|this|the) change\b(?: (?:to|on|for) (?:the|your|this) (?:order|reservation|booking|account))?/gi;
/** A go-ahead for two changes or more, in so many words: "Shall I do both?", "apply both changes", "want me to do all three?". */
const BOTH = /\b(?:do|apply|make|process|submit|handle|complete|update|proceed with|go ahead with) (?:both|all (?:three|four|of (?:them|these|those)))\b|\bboth (?:changes|updates|requests|steps|actions|of (?:them|these|those))\b|\b(?:do|want) (?:them )?both\?|\b(?:want|get) (?:them )?both (?:done|processed|made|handled)\b/i;
/** Changes a go-ahead takes in without naming them: "and the other requests", "along with the remaining changes". */
const AND_THE_REST = /\b(?:and|along with|together with|plus) (?:the|all|any) (?:other|rest of the|remaining) (?:requests?|changes?|updates?|steps?|actions?|modifications?)\b/i;

/** Where a proposal's action is said: after these words, to the end of their sentence. */
const PROPOSING = /\b(?:i'll|i will|i can(?!'t|not)|i could|i'd|i would|i am going to|i'm going to|we'll|we will|we can|let me|allow (?:me|us) to|shall i|should i|may i|can i|would you like(?: me)? to|do you want(?: me)? to|want me to|(?:do|may|can) i have your (?:permission|approval|go-?ahead|ok(?:ay)?) to|(?:by\s+)?(?:reply|replying|respond|responding|say|saying|type|typing)\s+["']?yes["']?\s+to|go ahead and|go ahead with|proceed with|proceed to|confirm (?:the|that|this|you want)|to confirm)\b/gi;

/**
 * A sentence that speaks of a change only as its ground: the change refused or out of reach, or what another change
 * would stand in for ("not allowed", "I can't cancel it", "before we cancel", "rather than cancelling").
 */
const GROUND = /\b(?:not (?:allowed|possible|eligible|permitted|refundable|an option|able to)|(?:can(?:no|')?t|cannot|unable to|isn'?t|is not|doesn'?t|does not|won'?t|will not|wouldn'?t|would not)\b|\bbefore (?:we|i|you) (?:\w+ )?(?:cancel|proceed|go ahead)|\binstead of\b|\brather than\b|\bso (?:that )?you(?:'re| are) (?:never|not)\b)/i;
/** A rule told in general ("Once the order ships, the carrier can't reroute it", "Address updates are only possible while ..."): no refusal of this request. */
const GENERAL_RULE = /^\W*(?:once|if|after|when|until|unless|whenever)\b|\b(?:only (?:possible|allowed|be|if|while|when)|can only)\b/i;
/** The user's wish reported ("I understand you'd like to cancel", "you mentioned", "you're thinking of cancelling"); not "you'd like me to". */
const WISH_REPORTED = /\byou(?:'d| would)? (?:like|want(?:ed)?|wish(?:ed)?)(?! me\b)\b|\byou (?:asked|were hoping|are hoping|'re hoping|mentioned|'re thinking|are thinking|were thinking|were planning|'re planning|are planning|intended|planned)\b|\byou're (?:looking|wanting|trying) to\b|\b(?:thinking|considering) (?:of |about )?\w+ing\b/i;

/** Another way offered in so many words: "One alternative that keeps your order", "you'd get the 8GB one instead". */
const OFFERED_INSTEAD = /\b(?:alternatives?|alternatively|instead)\b/i;
/** Every verb of a change in a text. */
const CHANGES_ALL = new RegExp(CHANGES.source, 'gi');
/** A verb of a change with a thing of its own as its object ("change the payment method"; not "add them", "make the change"). */
const CHANGE_OF_A_THING = new RegExp(`(?:${CHANGES.source})\\s+(?:the|your|its|his|her|their|a|an)\\s+(?!(?:change|changes|update|request|same)\\b)[\\w-]+`, 'gi');

/**
 * Whether the user's own change (`own` tells a text that names it) is spoken of only as the ground of another:
 * every sentence that names it refuses it now (`GROUND`, not a rule in general) or reports the user's wish, and
 * another sentence tells another change. After a refusal, any change told counts (a verb of a change that is not
 * its own, inflected or not; a state, a value or an effect it would bring); after a wish only reported, only a
 * change of a thing named ("switch its payment method") or a way offered instead: agents report the wish and then
 * propose it, often told by its effect.
 */
function ownOnlyAsGround(text: string, own: (t: string) => boolean): boolean {
  const sentences = text.split(/(?<=[.?!])\s+|\n+/).filter((x) => x.trim() !== '');
  const naming = sentences.filter(own);
  const refused = (x: string) => GROUND.test(x) && !GENERAL_RULE.test(x);
  if (naming.length === 0 || !naming.every((x) => refused(x) || WISH_REPORTED.test(x))) return false;
  const rest = sentences.filter((x) => !own(x)).join('\n');
  // A verb of its own change, inflected ("it can be cancelled"), is no other change.
  const notOwn = (m: RegExpMatchArray) => !own(m[0]) && !own((m[0].split(/\s/)[0] ?? '').replace(/(?:l?ed|l?ing|e?s)$/i, ''));
  if (!naming.some(refused)) return [...rest.matchAll(CHANGE_OF_A_THING)].some(notOwn) || OFFERED_INSTEAD.test(rest);
  return [...rest.matchAll(CHANGES_ALL)].some(notOwn) || STATE_CHANGE.test(rest) || VALUE_CHANGE.test(rest) || EFFECT_CHANGE.test(rest);
}

/** An id as compared: no leading `#`, no spaces, upper case ("#w 9000201" is W9000201). */
const normId = (id: string): string => id.replace(/^#/, '').replace(/\s+/g, '').toUpperCase();
/** An id's kind, its leading letters: an order (W) is never a reservation (R). */
const idKind = (id: string): string => normId(id).replace(/\d.*$/, '');

/** An id written with underscores or digits ("gift_card_7245904", "credit card ending in 9375"). */
const ID_LIKE = /\b[a-z]+_[a-z_]*\d{3,}\b|\bending (?:in|with) \d{3,}\b/i;

const sentenceJoin = (parts: Segment[][]): Segment[] => parts.flatMap((p, i) => (i === 0 ? p : [{ text: ' ' }, ...p]));

/**
 * The scripted user: opens with the goal in one of several phrasings, answers the agent's questions from
 * the profile, reveals only what it is asked where the scenario says so, confirms only the action it
 * wants, and ends when its requests are done or at the turn limit.
 */
/** What `wants` answered, per user language: message and open requests to its answer. */
const wantsMemos = new WeakMap<UserLanguage, (asked: { readonly open: string; readonly agentText: string; readonly user: ScriptedUser }) => 'yes' | 'no' | 'unsure'>();

export class ScriptedUser implements UserSimulator {
  readonly id = 'scripted';
  readonly closedWhileAsked: Confusion[] = [];
  readonly perturbable = true;
  readonly confusions: Confusion[] = [];
  private requestIndex = 0;

  /** The index of the request the user is on (it moves when one is closed). */
  get currentRequest(): number {
    return this.requestIndex;
  }
  private turn = 0;
  private identityGiven = 0;
  private readonly scenario: Scenario;
  private readonly lang: UserLanguage;
  private readonly rng: Rng;
  private readonly maxTurns: number;

  constructor(scenario: Scenario, lang: UserLanguage, rng: Rng, maxTurns = 12) {
    this.scenario = scenario;
    this.lang = lang;
    this.rng = rng;
    this.maxTurns = maxTurns;
  }

  private get request(): ScenarioRequest | undefined {
    return this.scenario.user.requests[this.requestIndex];
  }

  /**
   * The user's identity: the preferred alternative first; asked again, the next alternative the profile
   * can fill (as a person whose e-mail was not found offers name and zip code), round and round.
   */
  private identitySegments(asked: readonly string[] = []): Segment[] {
    const preferred = this.scenario.user.identity;
    const profile = this.scenario.user.profile;
    const usable = [preferred, ...Object.keys(this.lang.identity).filter((k) => k !== preferred)].filter((k) =>
      (this.lang.identity[k] ?? []).every((t) => slotsOf(t).every((slot) => profile[slot] !== undefined)),
    );
    // The alternative the agent asked for by name, when it named exactly one the user can give.
    const named = usable.filter((k) => asked.some((text) => anyMatch(this.lang.identityKindAsked?.[k] ?? [], text)));
    const kind = named.length === 1 ? (named[0] as string) : (usable[this.identityGiven % Math.max(1, usable.length)] ?? preferred);
    this.identityGiven++;
    return renderTemplate(pick(this.rng, this.lang.identity[kind] ?? []), profile, 'identity');
  }

  private slotSegments(slot: string, request: ScenarioRequest): Segment[] {
    const templates = this.lang.slots[slot]?.answers ?? [`{${slot}}.`];
    return renderTemplate(pick(this.rng, templates), request.slots, `slot:${slot}`);
  }

  /** What a message about a request is about; only a message that states the request may hold details back. */
  private about(request: ScenarioRequest, states: boolean): MessageAbout {
    const deferrable = states
      ? [
          ...Object.keys(request.slots).filter((slot) => (this.lang.slots[slot]?.asked.length ?? 0) > 0 && !this.lang.slots[slot]?.optional),
          ...(this.lang.identityAsked.length > 0 ? [...new Set(Object.values(this.lang.identity).flatMap((ts) => ts.flatMap(slotsOf)))] : []),
        ]
      : [];
    return { intent: request.intent, slots: request.slots, states, deferrable };
  }

  /** The opening of a request: a phrasing that uses only what the user tells upfront, then the rest. */
  private openingOf(request: ScenarioRequest, withIdentity: boolean): Segment[] {
    const tell = new Set(request.tell ?? Object.keys(request.slots));
    const phrasings = (this.lang.intents[request.intent] ?? []).filter((p) => slotsOf(p).every((s) => tell.has(s)));
    if (phrasings.length === 0) throw new Error(`no phrasing of intent \`${request.intent}\` fits tell=[${[...tell].join(', ')}]`);
    // Prefer phrasings that carry the most of what the user tells, as a person who knows the order id says it.
    const best = Math.max(...phrasings.map((p) => slotsOf(p).length));
    const phrasing = pick(this.rng, phrasings.filter((p) => slotsOf(p).length === best));
    const used = new Set(slotsOf(phrasing));
    const parts: Segment[][] = [renderTemplate(phrasing, request.slots, 'request')];
    if (withIdentity) parts.push(this.identitySegments());
    for (const slot of Object.keys(request.slots)) if (tell.has(slot) && !used.has(slot)) parts.push(this.slotSegments(slot, request));
    return sentenceJoin(parts);
  }

  /** The first message of the conversation. */
  opening(): UserMessage {
    const first = this.request;
    if (!first) throw new Error('a scenario needs at least one request');
    return { segments: this.openingOf(first, this.scenario.user.tellIdentity), about: this.about(first, true) };
  }

  /** The user's answer to the agent's reply. */
  respond(agentText: string): UserStep {
    this.turn++;
    if (this.turn >= this.maxTurns) return { kind: 'end', reason: 'turn-limit' };
    const request = this.request;
    if (!request) return { kind: 'end', reason: 'done' };
    const reading = readAgentMessage(agentText, this.lang);
    this.lastReading = reading;
    const asks = reading.asks;
    const parts: Segment[][] = [];

    if (asks.some((a) => a.kind === 'identity')) parts.push(this.identitySegments(asks.filter((a) => a.kind === 'identity').map((a) => a.text)));
    const unheld: string[] = [];
    const given = new Set<string>();
    for (const a of asks) {
      if (a.kind !== 'slot') continue;
      given.add(a.slot);
      // A detail the user holds is given; one the policy has a default for, left to it; any other the
      // user does not hold is answered below, as a person who does not know it would.
      if (request.slots[a.slot] !== undefined) parts.push(this.slotSegments(a.slot, request));
      else if (this.lang.slots[a.slot]?.optional) parts.push([{ text: pick(this.rng, ['Whatever is usual is fine.', 'The usual way is fine.']), part: `slot:${a.slot}` }]);
      else unheld.push(a.slot);
    }
    let restate = false;
    const held = Object.entries(request.slots);
    const message = squash(agentText);
    // Records are picked from the options; other held values (a card's id) from the message.
    const record = regex(`^(?:${this.lang.entityPattern.source})$`, this.lang.entityPattern.flags.replace('g', ''));
    for (const a of asks) {
      if (a.kind !== 'choose') continue;
      // "Which one would you like?" over listed records: the detail of the request that is one of them,
      // or of their kind; over other alternatives ("which gift card?"), a detail of the request the
      // message names. None: alternatives that are records or ids the user cannot pick from are a detail
      // it does not have; alternatives that are actions ("cancel it or modify it?") are answered by
      // saying what it wants.
      const options = a.options.map(normId);
      const slot =
        held.find(([, v]) => options.includes(normId(v)))?.[0] ??
        held.find(([, v]) => options.some((o) => idKind(o) === idKind(v) && idKind(v) !== ''))?.[0] ??
        held.find(([s, v]) => !given.has(s) && !record.test(v) && squash(v).length >= 5 && /\d/.test(v) && message.includes(squash(v)))?.[0];
      if (slot) {
        if (!given.has(slot)) parts.push(this.slotSegments(slot, request));
        given.add(slot);
      } else if (options.length > 0 || ID_LIKE.test(agentText)) unheld.push('choice');
      else restate = true;
    }
    let act: 'accept' | 'decline' | undefined;
    // A go-ahead asked beside a detail waits for the detail: the user gives it first.
    const detailAsked = asks.some((a) => a.kind === 'slot' || a.kind === 'identity');
    if (!detailAsked && asks.some((a) => a.kind === 'confirm')) {
      const answer = this.confirmation(agentText, request);
      act = answer.act;
      parts.push(answer.segments);
    }
    if (parts.length > 0) return { kind: 'message', segments: sentenceJoin(parts), about: this.about(request, false), ...(act ? { act } : {}) };
    if (restate || asks.some((a) => a.kind === 'help')) return { kind: 'message', segments: this.openingOf(request, false), about: this.about(request, true) };
    if (unheld.length > 0) {
      // Asked for a detail this request does not have (the agent took it for another request): the
      // user says so and says again what they want. Understood, so no confusion of the simulator.
      return { kind: 'message', segments: [{ text: pick(this.rng, ["Sorry, I don't know that.", "I'm not sure, sorry; I don't have that."]), part: 'aside' }, { text: ' ' }, ...this.openingOf(request, false)], about: this.about(request, true) };
    }

    if (asks.length > 0) {
      // Asked something it cannot place: never a goodbye. Neutral, and no hint beyond what the user
      // wants: a person restates the request.
      this.confusions.push({ turn: this.turn, agentText });
      const restated = [{ text: "Sorry, I'm not sure what you're asking.", part: 'aside' }, { text: ' ' }, ...this.openingOf(request, false)];
      return { kind: 'message', segments: restated, about: this.about(request, true) };
    }
    if (reading.progress) {
      // "Let me check": the agent is at work. A neutral word, and the request stays open.
      return { kind: 'message', segments: [{ text: pick(this.rng, ['Sure, take your time.', 'OK, thanks.', 'Sure.']), part: 'aside' }], about: this.about(request, false) };
    }
    // A statement that reports the request done or refused, or answers it, closes it.
    if (reading.units.some((u) => /\?\s*["')\]]?\s*$/.test(u) && !anyMatch(this.lang.anythingElse, u))) this.closedWhileAsked.push({ turn: this.turn, agentText });
    this.requestIndex++;
    const next = this.request;
    if (!next) return { kind: 'end', reason: 'done' };
    return { kind: 'message', segments: this.openingOf(next, false), about: this.about(next, true) };
  }

  /** How the user read the agent's last message (for `shakedown user`). */
  lastReading: Reading | undefined;

  /**
   * What the user says to a go-ahead: `yes` to one whose words name its open request and nothing else
   * (or name nothing, in a message that speaks of its request or of nothing at all), `no` to one that
   * names only another change or an offer nobody asked for, and `unsure` otherwise (a plan of its change
   * and another, a change no world has words for): it then says what it wants (docs/user.md).
   */
  private wants(agentText: string): 'yes' | 'no' | 'unsure' {
    // The answer depends on the message, the language and which of its requests are open, nothing else:
    // remembered per language, since the same go-ahead comes back in episode after episode.
    const open = [...new Set(this.scenario.user.requests.slice(this.requestIndex).map((r) => r.intent))].sort().join('\u0001');
    let remembered = wantsMemos.get(this.lang);
    if (!remembered) wantsMemos.set(this.lang, (remembered = memoizedBy(({ open: o, agentText: t }) => `${o}\u0000${t}`, ({ user, agentText: t }) => user.wantsOnce(t), 10_000)));
    return remembered({ open, agentText, user: this });
  }

  private wantsOnce(agentText: string): 'yes' | 'no' | 'unsure' {
    const plain = messageText(agentText).replace(/[*_`#>]/g, ' ').replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"');
    // What it proposes: the words after "I'll", "shall I", "would you like me to", "proceed with", ...
    // (a reason or a fact told beside them proposes nothing); the whole message when it has no such cue.
    // A cue that ends in a colon ("to confirm, you want to:") proposes the list that follows it. The way
    // out offered beside it ("reply yes to proceed with the exchange, or no if you want to cancel this
    // request", "reply yes to confirm, or no to cancel") proposes nothing.
    const clauses = [...plain.matchAll(PROPOSING)].map((m) => {
      const rest = plain.slice(m.index ?? 0);
      const line = rest.split('\n')[0] ?? '';
      if (/:\s*$/.test(line)) {
        // Only the items that are actions ("1. Exchange the laptop", "- Cancel order #W1"); items that
        // describe the record ("Insurance: none", "Flights: ...") propose nothing.
        const list = (rest.split(/\n\s*\n(?!\s*(?:[-•]|\d+[.)]))/)[0] ?? line).split('\n').slice(1);
        const actions = list.map((l) => l.replace(/^\s*(?:[-•]|\d+[.)])?\s*/, '')).filter((l) => LEADING_CHANGE.test(l));
        return [line, ...actions].join(' ');
      }
      return ((rest.slice(0, 400).split(/(?<=[.?!])\s|\n/)[0] ?? '').split(/,?\s+or\b(?:[^.?!]{0,40}?\bif you\b|\s+(?:(?:reply|say|type|respond|answer)(?:ing)?\s+)?["']?no["']?(?=[\s,.]))/i)[0] ?? '');
    });
    // The message without what proposes nothing: the way out offered, a consequence told, another way offered, what
    // the change leaves as it is, a rule of a kind of change ("after which no further cancellations are possible",
    // "this does not affect your ability to cancel", "cancellations are refundable within 24 hours").
    const aroundText = plain.replace(WAY_OUT, ' ').replace(RULED_OUT, ' ').replace(ALTERNATIVE, ' ').replace(RULE_NOTE, ' ');
    // "Want me to make that change to the order?" names the change told before it, not a change of its own: the message around
    // the go-ahead says which. (Left out of the message around it as well, it let one more held-out proposal of another change be
    // accepted.)
    const text = clauses.length > 0 ? clauses.join(' ').replace(THAT_CHANGE, ' ') : aroundText;
    const unsolicited = [...UNSOLICITED, ...(this.lang.unsolicited ?? [])];
    const proposals = this.lang.proposals ?? {};
    const open = new Set(this.scenario.user.requests.slice(this.requestIndex).map((r) => r.intent));
    const matching = (t: string) => Object.keys(proposals).filter((intent) => anyMatch(proposals[intent] ?? [], t));
    const namesOwn = (t: string) => matching(t).some((intent) => open.has(intent));
    const inText = matching(text);
    // "Would you allow me to transfer you?" after "speaking with a human agent is the best next step": the
    // hand-off named by the message around its go-ahead.
    const handOff = TRANSFER_YOU.test(text) && (HAND_OFF.test(plain) || SOMEONE_ELSE.test(plain));
    if (anyMatch(unsolicited, text) || handOff) {
      // An offer nobody asked for, and not its own change: no. Beside its own change ("I can exchange it
      // for the larger model, essentially an upgrade; shall I go ahead with the exchange?"): not plainly
      // either; it says what it wants. A whole message read for want of a cue, naming its own change and
      // insurance the booking has ("since the booking has insurance, it is refundable; would that work for
      // you?"), offers nothing; insurance added, a membership or a discount there is an offer.
      if (!inText.some((intent) => open.has(intent))) return 'no';
      const offered = text.split(/(?<=[.?!])\s+|\n/).filter((sentence) => anyMatch(unsolicited, sentence));
      if (clauses.length > 0 || anyMatch([...UNASKED_AROUND, ...(this.lang.unsolicited ?? [])], text) || !offered.every((sentence) => AS_IT_STANDS.test(sentence))) return 'unsure';
    }
    // A new cost to a user none of whose open requests costs anything (it wants a cancellation, or a return), in a message that
    // names no change of its own: the go-ahead is for another change, whatever it is called ("get both of you into the lie-flat
    // seats for an extra $1,340"). Where its own change is named, money told beside it is read as part of it, as before.
    const payless = this.lang.payless ?? [];
    if (payless.length > 0 && [...open].every((intent) => payless.includes(intent) || !(intent in proposals))) {
      const ownNamed = [...inText, ...matching(aroundText)].some((intent) => open.has(intent));
      if (!ownNamed && tellsCharge(aroundText)) return 'no';
      // Beside its own change, a new cost told in the go-ahead's own words, or as a step of a plan ("1. Lock in SK203 for an extra
      // $312. 2. Then cancel R1."), is another change in the plan: not plainly its request.
      if (ownNamed && ((clauses.length > 0 && tellsCharge(text)) || plain.split('\n').some((line) => PLAN_STEP.test(line) && tellsCharge(line)))) return 'unsure';
    }
    // A plan in a list whose items are headed by changes ("1. Exchange on order #W1 ...", "3. Cancellation
    // on order #W3 ..."): a go-ahead authorises every one of them, whatever its own words name.
    const heads = [...plain.matchAll(ITEM_HEADS)].map((m) => m[1] as string);
    const plan = heads.length >= 2 ? [...new Set(heads.flatMap(matching))] : [];
    // A step the summary adds in its own sentence ("Additionally, you want to cancel the skateboard from
    // order #W3"): the go-ahead takes it in too.
    const added = inText.length > 0 ? [...plain.matchAll(ALSO_WANTED)].flatMap((m) => matching(m[1] as string)) : [];
    const named = [...new Set([...inText, ...(plan.length >= 2 ? plan : []), ...added])];
    // No go-ahead words to read, and its own change named only as the ground of another told around it: not plainly its request.
    if (clauses.length === 0 && named.some((intent) => open.has(intent)) && ownOnlyAsGround(aroundText, namesOwn)) return 'unsure';
    // A change its request does not want, proposed in so many words: no. Beside its own ("exchange the
    // laptop and cancel the other order" to a user who wants only the cancellation): not a yes; it says
    // what it wants.
    const foreign = named.filter((intent) => !open.has(intent));
    // One it may take for its own (the default address, to a user who wants an order's address changed): it asks.
    const akin = (intent: string) => (this.lang.akin?.[intent] ?? []).some((own) => open.has(own));
    if (foreign.length > 0) return foreign.length === named.length && !foreign.every(akin) ? 'no' : 'unsure';
    // A plan of two steps or more whose other step is a change the world has no words for ("1. Update the
    // address 2. Switch the payment to PayPal"): a yes would authorise it too. Not plainly its request.
    const steps = heads.map((h) => h.replace(/[*_`]/g, '').trim()).filter((h) => STEP.test(h));
    const unnamedSteps = steps.some((h) => matching(h).some((intent) => open.has(intent))) ? steps.filter((h) => matching(h).length === 0) : [];
    // "... the cancellation of the bookshelf and the other requests": more than it can see, under its own.
    // "Shall I do both?" to a user with one request: more than it asked for, whatever the go-ahead names.
    const andTheRest = AND_THE_REST.test(text) || (BOTH.test(text) && open.size < 2);
    if (named.length > 0) return unnamedSteps.length > 0 || andTheRest ? 'unsure' : 'yes';
    // A change spoken of only as a modification ("proceed with the modification using the current gift card"): one of
    // the world's modifying changes, which a user who wants none of them did not ask for.
    const modifying = this.lang.modifying ?? [];
    if (MODIFICATION.test(text) && modifying.length > 0 && !modifying.some((intent) => open.has(intent))) return 'no';
    // The go-ahead's own words name no change ("shall I proceed with this change?"): what the message
    // around them speaks of decides ("the fee for changing the flight is $50"). Its own change there: yes.
    // The way out offered beside it ("reply no to cancel the change") speaks of no cancellation.
    const around = matching(aroundText);
    // Its own change spoken of only as the ground of another ("Cancellation of R1 is not allowed", "I understand
    // you'd like to cancel", "before we cancel the order, here's a quicker fix") beside a change told in other
    // words ("I can switch its payment method", "you'd be flying Sunday instead"): the go-ahead is for that one.
    if (around.some((intent) => open.has(intent))) return !ownOnlyAsGround(aroundText, namesOwn) && around.every((intent) => open.has(intent)) && unnamedSteps.length === 0 && !andTheRest && !anyMatch([...UNASKED_AROUND, ...(this.lang.unsolicited ?? [])], plain) ? 'yes' : 'unsure';
    // Another change spoken of around it, an offer nobody asked for ("the price includes the upgrade"),
    // or a change the world has no words for ("book the same flights", "this change will update the
    // passenger's name"): not plainly what it asked for, nor plainly something else. A person asks.
    if (around.length > 0 || anyMatch(unsolicited, plain) || CHANGES.test(aroundText) || STATE_CHANGE.test(aroundText) || VALUE_CHANGE.test(aroundText) || EFFECT_CHANGE.test(aroundText)) return 'unsure';
    // Nothing named at all ("shall I proceed?"): taken as its request.
    return 'yes';
  }

  private confirmation(agentText: string, request: ScenarioRequest): { segments: Segment[]; act?: 'accept' | 'decline' } {
    const pattern = globalOf(this.lang.entityPattern);
    const mentioned = [...agentText.matchAll(pattern)].map((m) => normId(m[0]));
    // An id is checked only against ids of its own kind (its leading letters): a proposal that names a
    // flight says nothing about which reservation.
    for (const slot of this.lang.confirmSlots) {
      const value = request.slots[slot];
      const sameKind = value === undefined ? [] : mentioned.filter((m) => idKind(m) === idKind(value));
      if (value === undefined || sameKind.length === 0) continue;
      if (!sameKind.includes(normId(value))) {
        return { segments: [{ text: "No, that's not the one. ", part: 'confirm' }, ...renderTemplate(this.lang.slots[slot]?.answers[0] ?? `{${slot}}.`, request.slots, 'confirm')], act: 'decline' };
      }
    }
    const wanted = this.wants(agentText);
    if (wanted === 'no') {
      // Something it never asked for: a person says no and says again what they want.
      return { segments: [{ text: pick(this.rng, ["No, I don't want that.", "No, that's not what I asked for.", 'No, thanks, I only want what I asked for.']), part: 'confirm' }, { text: ' ' }, ...this.openingOf(request, false)], act: 'decline' };
    }
    if (wanted === 'unsure') {
      // Neither plainly its request nor plainly something else: no yes and no no; it says what it wants
      // and waits for a go-ahead that names it.
      return { segments: [{ text: pick(this.rng, ["Sorry, I'm not sure what that would change.", 'Just to be clear, before I say yes:']), part: 'confirm' }, { text: ' ' }, ...this.openingOf(request, false)] };
    }
    if (request.declines) return { segments: [{ text: pick(this.rng, ["No, please don't do that after all.", "No, I've changed my mind; please leave it as it is.", 'No, please leave it as it is.']), part: 'confirm' }], act: 'decline' };
    return { segments: [{ text: pick(this.rng, ['Yes, please go ahead.', 'Yes, please.', 'Yes, that is right.']), part: 'confirm' }], act: 'accept' };
  }
}
