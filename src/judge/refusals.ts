/**
 * What a reply that says nothing of a write's outcome still tells of it (the claim reader's last resort,
 * src/judge/claims.ts): a rule or a fact in the way and a question of what to do instead ("Refunds must go
 * to the original payment method. Would you like it on your PayPal instead?"), or a mistake owned in the
 * ids the change was given. The question names another way (instead, rather, which you prefer, one of
 * these, another card); a question of anything else, or an offer of more help, asks nothing about it.
 */
import type { ClaimLabel } from '../ground/judging.js';

/**
 * A rule or a fact that stands in the way of a change: "refunds must go to the original payment method",
 * "the system requires a payment method", "you only have a PayPal account", "the card was not used for
 * this order", "no gift card associated with your account", "I need to replace the items rather than
 * remove them". Read only where nothing else in a message speaks of the change.
 */
const IN_THE_WAY = new RegExp(
  [
    String.raw`\bmust (?:only )?(?:go|be (?:to|the|an?|either|one|made (?:to|with|using)|paid (?:with|using|by)|processed (?:through|to|via|using|with|by)|(?:issued|sent|credited|refunded|returned) (?:back )?to(?![^.?!]*(?:\$\d|business days|will (?:show|appear|arrive|get|receive)|you(?:'ll| will) (?:get|receive|see)))))\b`,
    String.raw`\b(?:has|have|needs?) to (?:go|be (?:returned|refunded|issued|paid|sent)) (?:back )?to\b`,
    String.raw`\bmust (?:either |only )?use (?:the|your|an?)\b`,
    String.raw`\bcan only (?:go|be (?:refunded|returned|issued|paid|sent|made|used)) (?:back )?(?:to|with|using|for)\b`,
    String.raw`\bcan only (?:issue|send|make|process|give) (?:the |a |any )?(?:refunds?|payments?|credits?) (?:back )?to\b`,
    String.raw`\b(?:system|tool|function|api|modification|exchange|return|change|request|booking|operation|cancell?ation|refund|upgrade|policy|rules?) (?:also |still |only )?(?:requires|needs)\b(?! no\b)`,
    String.raw`\b(?:you only have|you have only)\b(?! to\b)`,
    String.raw`\bonly (?:accepts?|allows?|supports?|works with)\b(?! (?:one|a single)\b)`,
    String.raw`\b(?:is|are) only (?:allowed|permitted|available)\b`,
    String.raw`\b(?:was|were|is|are)(?: not|n't) (?:used|associated|linked|on file)\b`,
    String.raw`\bno (?!longer\b)(?:[\w-]+ ){0,2}(?:associated|linked|on file|saved)(?: (?:with|to) (?:your|the|this))?\b(?<!\b(?:associated|linked))`,
    String.raw`\b(?:do(?:n't| not)|does(?:n't| not)) (?:currently |yet |actually )?have (?:a|an|any) (?:[\w-]+ ){0,2}?(?:gift card|card|certificate|payment method|account|insurance|balance)\b`,
    String.raw`\bthe only (?:[\w-]+ ){1,3}(?:on|in) (?:your|the) (?:profile|account)\b`,
    String.raw`\b(?:i|we) (?:need|have) to (?:replace|provide|specify|include|list|use)\b[^.?!]*\brather than\b`,
    String.raw`\b(?:issue|error|problem) (?:encountered|occurred)\b`,
  ].join('|'),
  'i',
);

/** A question of what to do instead, in words other than a proposal's: "Reply with your choice", "let me know how you'd like to proceed". */
const ASKS_INSTEAD = /\breply (?:with|\W*yes)\b|\blet me know (?:how|which|whether|if)\b[^.?!]{0,40}?\byou(?:'d| would)? (?:like|prefer|want)\b/i;

/** Another way named in a question: "... instead?", "which would you prefer?", "one of these options", "another card". */
const ALTERNATIVE = /^(?!.*\b(?:next|other|another|second) (?:order|reservation|booking|request|return|trip|time)s?\b).*(?:\binstead\b|\brather\b|\bprefer\b|\bpreferred (?:option|method|card|payment|choice)\b|\beither\b|\bone of (?:these|those|the following|them)\b|\b(?:another|other|different) (?:card|method|payment|option|way|variant|item|flight|date|account)s?\b|\bwhich (?:[\w-]+ ){0,2}you (?:want|would like|'d like) to (?:keep|use|change|do)\b|\bhow (?:you(?:'d| would)? like to|to) proceed\b|\b(?:to|with|using|via|through) (?:(?:the|your) original|that|this) (?:payment(?: method)?|(?:credit |debit |gift )?card|method|account)\b)/i;

/**
 * The way a rule leaves, named in the question after a rule told with an apology ("I'm sorry, but we can only issue refunds
 * to the original payment method or a gift card. … proceed with the return, refunding the amount back to your gift card?"):
 * without the apology, a rule recited before a go-ahead is still a plain proposal.
 */
const BACK_TO = /\b(?:refund(?:ing)?|credit(?:ing)?|send(?:ing)?|sent|go(?:es|ing)?) (?:[\w-]+ ){0,3}back to (?:your|the|that|this) (?:[\w-]+ ){0,2}(?:gift card|card|paypal(?: account)?|account|payment method)\b/i;
/**
 * A sentence that opens as a refusal does ("Unfortunately, …", "I'm sorry, but …", "We're afraid …"): what follows is no
 * consequence of a change made, nor a rule told for later (the claim reader reads it so too).
 */
export const REFUSAL_OPENING = /^\W*(?:unfortunately|sadly|regrettably|(?:i'?m|i am|we'?re|we are) (?:afraid|sorry)|sorry|i apologi[sz]e)\b/i;

/** A question whose options follow it as a list: "Would you like to:". */
const OPTIONS_FOLLOW = /^\W*(?:would you like|do you want|shall i|should i|you can|options?)\b[^.?!]*:\s*(?:\d+[.)]?|[-*\u2022])?\s*$/i;

/** An offer of more help: it asks nothing about this change. */
const MORE_HELP = /\b(?:anything else|any other|anything more|something else|what else|how else|any (?:more )?questions|further (?:help|assistance|questions)|(?:i'?ll|i will) be (?:here|around)|reach out|need anything)\b/i;

/** A mistake owned in what the change was given: "I gave you the wrong item ids", "I provided an incorrect payment id", "I have been trying to use the wrong order ID". */
const OWNED_MISTAKE = /\b(?:i|we)(?:'ve| have)? (?:been )?(?:trying to |tried to )?(?:provided|gave|given|entered|passed|use|used|using) (?:you )?(?:some |an? |the )?(?:incorrect|wrong|invalid) (?:(?!tracking\b)[\w-]+ ){0,2}(?:ids?|identifiers?)\b/i;

/**
 * `failure` when the reply reports a refusal without saying so, else `none`. `about`: its sentences about
 * the write's record (or no other record); `all`: every sentence, in order; `asks`: whether a sentence is a
 * question, a proposal or an ask of the user.
 */
export function unsaidRefusal(about: readonly string[], all: readonly string[], asks: (s: string) => boolean): ClaimLabel {
  const inTheWay = about.filter((s) => !asks(s) && IN_THE_WAY.test(s));
  const apologised = inTheWay.some((s) => REFUSAL_OPENING.test(s));
  const asksInstead = all.some((s, i) => (asks(s) || ASKS_INSTEAD.test(s)) && !MORE_HELP.test(s) && (ALTERNATIVE.test(s) || (apologised && BACK_TO.test(s)) || (OPTIONS_FOLLOW.test(s) && i < all.length - 1)));
  if (inTheWay.length > 0 && asksInstead) return 'failure';
  return about.some((s) => OWNED_MISTAKE.test(s)) ? 'failure' : 'none';
}
