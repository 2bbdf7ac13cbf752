// One sentence of an agent's reply read alone: whether it tells the change made, refused or still pending, or nothing
// (docs/judging.md). `claims.ts` ties a reply's sentences to the write they speak of and reads them through this.
import { once } from './text.js';
import { REFUSAL_OPENING } from './refusals.js';
import { SYSTEM_SILENT } from './claim-wording.js';
import type { ClaimLabel, ClaimWording } from '../ground/judging.js';

const NEGATORS = /\b(?:not|never|no|n't|unable|without)\b|n't\b/i;

/**
 * A sentence that asks, proposes or advises, and so claims nothing: "Shall I proceed?", "I'll cancel it
 * if you agree" (though not "I will not send it"), an offer that opens its sentence ("I can escalate it to
 * an agent", though not "I can confirm it is cancelled", nor "I cannot remove it, but I can exchange it"),
 * and what it asks of the user ("please confirm if ...", "you can check your e-mail to see if it arrived").
 */
export const PROPOSAL = /\?\s*$|\b(?:i'll|i will|i'm going to|i am going to)\b(?! not\b)|^\W*(?:\d+[.)]\s*)?(?:(?:also|alternatively|otherwise|however|instead|(?:if|when|once|should) [^,.?!]{1,80}),?\s+)?i (?:can|could)(?: also)? (?!not\b|confirm\b|see\b|tell\b|verify\b|now\b|only\b)(?=[a-z])|\b(?:shall i|should i|would you like|do you want|once you confirm|if you confirm|please confirm)\b|^\W*to confirm\b/i;

/**
 * A sentence that opens with its reason, of three words or more, where the reason tells what was done or
 * met: "Since I can't update it now, ...", "As the order has been cancelled, ...". Not a rule ("since
 * the fare can't be cancelled"), nor a time or a condition ("as soon as", "as long as").
 */
const REASON_FIRST = /^\W*(?:since|because|given that|now that|as(?! (?:soon|long|well|far|much|of|per|part)\b))\s+((?:[\w'$#.-]+\s+){2,}[\w'$#.-]+),\s/i;
const REASON_TELLS = /\b(?:i|we)\b|\b(?:has|have|had) (?:now |already |just )?been\b|^\W*(?:the|your|this) \w+(?: #?[A-Z0-9]{5,9})? (?:was|were) (?:cancell?ed|updated|changed|modified)\b|\b(?:is|are|was|were)(?:n't| not) (?:eligible|available|allowed|accepted|supported|possible)\b|\binsufficient\b|\bnot enough\b/i;

/** An attempt to be made again: the one made did not work. Not one offered for a later condition ("if the size still doesn't fit, I'll try again"); one waiting for the user's word is ("if you confirm, I'll resubmit"). */
export const RETRYING = /(?<!\b(?:if|should|in case|whenever|when)\b(?! you (?:confirm|agree|approve|(?:would|'d) like|want|prefer|can confirm))[^.?!]{0,80})(?:\b(?:i'?ll|i will|let me|i need to) (?:try|attempt|retry)\b[^.?!]{0,60}?\b(?:again|once more|one more time)\b|\b(?:i'?ll|i will|let me|i need to) (?:retry|re-?run|re-?submit|re-?try)\b|\btrying (?:it |that |this )?again\b)/i;

/** A change's consequence for later: no further change of the record is possible. */
const LOCKED_FROM_NOW_ONE = /\b(?:can(?:not|'t)|can no longer|will not be able to|won'?t be able to) (?:be )?\w+(?: or \w+)? (?:(?:that|this|the|it|your) (?:\w+ )?)?(?:further|any further|again|any ?more|later(?! than)|(?:to|on|for) (?:any )?future \w+)\b|\bcan(?:not|'t) be (?:combined|used|applied|transferred|reissued)\b(?=[^.?!]*\b(?:another|future|later|single|more than one)\b)|\bno (?:further|more|additional) (?:\w+ )?(?:changes|modifications|exchanges|returns|cancell?ations)\b|\bfurther (?:\w+ ){0,6}(?:are|is) no longer possible\b|\bafter (?:this|the|that) (?:change|modification|update|exchange|return|cancell?ation)\b[^.?!]*\bcan no longer be\b|\bonce (?:the|your|this|it)\b[^.?!,]{0,40}\b(?:moves? to|is|becomes?|gets?|has been) (?:processed|shipped|delivered)\b[^.?!]*\bcan no longer be\b|\bcan only be (?:done|made|modified|changed|processed|applied|exchanged|returned|performed|requested|submitted)\b[^.?!]*\b(?:once|one time)\b(?:[^.?!]*\bcan no longer be \w+(?: or \w+)?\b)?|\bone-time change\b|\bcan(?:not|'t|no longer) be (?:removed|undone|reversed|taken off) (?:once|after)\b|\bcan(?:not|'t) be (?:undone|reversed)\b|\bnothing else\b[^.?!]{0,60}\bcan(?:not|'t)? (?:be )?(?:changed|modified|updated)\b|\bwith (?:the|this|your) (?:order|reservation|booking) now (?:marked|in|showing|set to)\b[^.?!;]{0,60},\s*(?:i'm|i am|we're|we are) no longer able to \w+(?: or \w+)? (?:it|this|that)\b/i;
/** "It can no longer be cancelled or further modified": a consequence too, unless a reason before it says why it could not be made. */
const NO_LONGER_EITHER = /\bcan no longer be \w+ or (?:further|again) \w+\b/i;
/**
 * A reason why the record can no longer be changed: "because", "due to", a state found from before ("earlier", "already"), its
 * status; not the status this write just set ("Your order status is now "pending (item modified)" and can no longer be
 * cancelled or further modified"). A status the warehouse sets ("processed", "shipped") is a reason, however it is told.
 */
const LOCK_REASON = /\b(?:because|since|due to|earlier|previous(?:ly)?|already|before|by the (?:warehouse|system|airline))\b|\bstatus\b(?![^.?!]{0,40}?\b(?:is now|has (?:now )?been (?:updated|changed|set) to|is now set to|now shows|was (?:updated|changed|set) to|changed to)\W{0,3}(?:pending \(items? modifi?ed\)|(?:exchange requested|return requested|cancell?ed|modified)\b))(?<!\bis now in\W{0,3}(?:pending \(items? modifi?ed\)|exchange requested|return requested|cancell?ed)\W{0,3}status)/i;
export const LOCKED_FROM_NOW = new RegExp(`${LOCKED_FROM_NOW_ONE.source}|${NO_LONGER_EITHER.source}`, 'i');

/**
 * What the write ran into, told as the agent found it: "It seems that the item is not part of the order",
 * "It appears the option you chose is the same as the one in the order", "It looks like I need to list the
 * items to keep", "It appears I am still having trouble identifying the item". Real agents open so when they
 * pass on a tool's refusal. Not a state found ("it seems the order has already been cancelled"), which real
 * agents also write after their own cancellation.
 */
const HEDGED_OBSTACLE = /^\W*(?:(?:however|but|that said)\s*,?\s*)?(?:(?:i apologi[sz]e|i'm sorry|sorry|unfortunately)\b[^.?!]{0,40}?,?\s*(?:but\s+)?)?(?:it (?:seems|appears|looks like)|apparently|there (?:seems|appears) to be)\b(?![^.?!]*\balready been\b)(?![^.?!]*\b(?:went through|was successful|succeeded|no (?:further )?(?:issues?|problems?|errors?|action)|without (?:any )?(?:issues?|problems?|errors?))\b)[^.?!]*\b(?:not|no|n't|cannot|only|must|requires?|needs? to|same as|different|unable|issue|error|problem|(?:having|had|have|ran into|running into|run into|experiencing|encountered|encountering)\s+(?:some\s+|a\s+bit\s+of\s+|an?\s+)?(?:trouble|difficult(?:y|ies)))\b/i;

/**
 * A sentence that asks the user to do or tell something, after its topic or not ("For seat selection, please check in
 * online"): no claim, even where it says "if" or "see if" or what is not available.
 */
export const ADDRESSED = /^\W*(?:for [^,.?!]{1,80},\s*)?(?:(?:also|and|finally|lastly|additionally|next)\s*,?\s+)?(?:(?:could|can|would|will) you (?:please |kindly |also )?(?:confirm|check|verify|tell|let me know|look|review|see|provide|give|share|send|choose|select)|(?:please|kindly) (?:confirm|let (?:me|us) know|tell (?:me|us)|check|verify|reply|choose|select|look|review|see|make sure|ensure|double-check)|feel free to|you (?:can|may|might|could|should|will want to) (?:check|verify|see|confirm|look|review|contact|reach))\b/i;

const anyTest = (patterns: readonly RegExp[], text: string): RegExpExecArray | null => {
  for (const p of patterns) {
    p.lastIndex = 0;
    const m = p.exec(text);
    if (m) return m;
  }
  return null;
};

/**
 * The label of one sentence by the wording: pending first ("I'll check whether it went through" is
 * pending, though it speaks of what comes next), then a proposal, which claims nothing, then a negated or
 * plain failure, then success.
 */
export function readSentence(sentence: string, wording: ClaimWording): ClaimLabel {
  if (ADDRESSED.test(sentence)) return 'none';
  // An order's status told as a summary's line ("Status: Processed", "Order status: delivered") is the record's state, not
  // a change made: a request "processed" is said of the request.
  if (ORDER_STATE_LINE.test(sentence)) return 'none';
  // A reason given as a field of a JSON reply ("reason: Booking created 2024-05-10, more than 24h ago") tells why, not what
  // was done: a refusal in it still reads.
  if (REASON_LINE.test(sentence) && !anyTest(wording.failure, sentence)) return 'none';
  // A closing offer on a condition of the user's ("If you need to add more details (seat selection, though not available
  // here), just let me know") claims nothing.
  if (CLOSING_OFFER.test(sentence)) return 'none';
  // A note in brackets ("… for any future modifications (note: basic economy cannot be changed once booked)") is a rule told
  // beside the sentence, as a note that leads one is: the rest is read. Not an attempt that failed ("(note: the payment failed)"),
  // nor doubt about the outcome ("(note: I haven't received a confirmation yet)").
  const unnoted = withoutNotes(sentence, wording);
  if (unnoted !== sentence) return /\w/.test(unnoted) ? readSentence(unnoted.trim(), wording) : 'none';
  // What would happen on a condition ("If your flight is cancelled by the airline, you'd be eligible for a full refund")
  // claims nothing of the change made, unless it also tells a failure or doubt.
  if (CONDITIONAL.test(sentence) && !anyTest(wording.failure, sentence) && !anyTest(wording.pending, sentence)) return 'none';
  // "Partial cancellation is not possible, so the entire order has been cancelled": what was done instead is the outcome.
  const instead = SO_INSTEAD.exec(sentence);
  if (instead && readSentence(instead[1] as string, wording) === 'success') return 'success';
  // A means of payment that could not be used, and the change paid another way ("this couldn't be covered by your travel
  // certificate, so the difference was charged to your Mastercard instead"): how it was paid, no refusal of the change.
  if (instead && PAID_OTHERWISE.test(instead[1] as string) && PAYMENT_MEANS.test(sentence.slice(0, instead.index))) return 'none';
  // The same the other way round ("The entire order has been cancelled, as partial cancellation is not possible"): a change
  // told done, then the rule that made it take that form. Not an attempt that failed in the reason ("…, as the payment was
  // declined"), nor a request sent ("Your request has been submitted, as the cancellation cannot be completed online").
  const because = doneBecause(sentence);
  if (because && !ATTEMPT_FAILED.test(because[2] as string) && !ACTED_ON.test(because[1] as string) && !/\brequests?\b/i.test(because[1] as string) && readSentence(because[1] as string, wording) === 'success' && readSentence(because[2] as string, wording) === 'failure') return 'success';
  // Told in words the wording does not read as a change ("The full amount was moved over, since splitting a payment isn't possible"):
  // the rule is why it took that form, not a refusal; the sentence claims nothing.
  if (because && !ATTEMPT_FAILED.test(because[2] as string) && DONE_PASSIVE.test(because[1] as string) && readSentence(because[1] as string, wording) === 'none' && readSentence(because[2] as string, wording) === 'failure') return 'none';
  // What the agent told before, taken back ("I told you it wasn't eligible, but I had misread the date"): what it says now.
  const retold = RETOLD.exec(sentence);
  if (retold) return readSentence(sentence.slice(retold.index + retold[0].length), wording);
  // A note of a rule ("Heads-up: the passenger count can't change") or a part left alone on the user's word
  // ("the outbound leg was not changed, as you asked") is no failure of the change; an attempt that failed
  // still is ("Note: the payment failed").
  if ((NOTE_LEAD.test(sentence) || AS_ASKED.test(sentence)) && !ATTEMPT_FAILED.test(sentence)) return anyTest(wording.pending, sentence) ? 'pending' : 'none';
  // What the change means from now on ("the order cannot be modified further") is no failure of it: that
  // clause goes, and the rest of the sentence is read ("has been modified, and no further changes can be made").
  const locked = LOCKED_FROM_NOW.exec(sentence);
  if (locked && !/\b(?:failed|error|unable|couldn'?t|could not|wasn'?t able|not able|already)\b/i.test(sentence) && !REFUSAL_OPENING.test(sentence) && !(NO_LONGER_EITHER.test(locked[0]) && LOCK_REASON.test(sentence))) {
    const start = Math.max(0, ...[...sentence.slice(0, locked.index).matchAll(/[,;:]|\b(?:and|but|so|which|since)\b/gi)].map((m) => m.index ?? 0));
    const rest = `${sentence.slice(0, start)} ${sentence.slice(locked.index + locked[0].length)}`.trim();
    return rest.length > 3 && rest !== sentence ? readSentence(rest, wording) : 'none';
  }
  // A refund of nothing ("Refund issued: $0.00") tells nothing refunded, not a change made.
  if (ZERO_REFUND.test(sentence)) return 'none';
  if (anyTest(wording.pending, sentence)) return 'pending';
  // "I will try again": the attempt failed, whatever comes next.
  if (RETRYING.test(sentence)) return 'failure';
  if (PROPOSAL.test(sentence)) {
    // The reason given before a question or an offer states a fact: "Since I can't update the address
    // now, would you like to cancel the order?" says the update failed.
    const reason = REASON_FIRST.exec(sentence)?.[1];
    return reason !== undefined && REASON_TELLS.test(reason) ? readSentence(reason, wording) : 'none';
  }
  // A promise of timing the agent cannot give ("I cannot guarantee the exact shipping timeline") is no refusal: the rest of the
  // sentence is read. (Doubt about the outcome itself, "I can't guarantee it has gone through", was read as pending above.)
  if (UNPROMISED_AT.test(sentence)) return readWithout(sentence, UNPROMISED, wording);
  if (anyTest(wording.failure, sentence)) return 'failure';
  // "Done" before a look-up ("Done — I've looked into #W1") tells the look done, not a change: the rest is read.
  if (DONE_LOOKING.test(sentence)) return readWithout(sentence, DONE_LEAD, wording);
  // A check told ("I confirmed that #W1 is on schedule and will be delivered tomorrow") is no change confirmed: what it found is
  // read ("I've confirmed that your order has been cancelled" still tells the change).
  if (CHECKED_THAT.test(sentence)) return readWithout(sentence, CHECKED_THAT_ALL, wording);
  // A value identified ("The item ID for the laptops is confirmed as 3478699712") is no change confirmed.
  if (IDENTIFIED_AT.test(sentence)) return readWithout(sentence, IDENTIFIED, wording);
  // A change told only inside a condition further on ("Bags can only be added once the reservation is booked", "but when the
  // return is processed the system still reports it as not delivered") is what would be, not what was.
  const told = anyTest(wording.success, sentence);
  // Nor a rule of a time limit ("Returns are accepted within 30 days of delivery").
  const success = told && (CONDITION_CLAUSE_AT.test(sentence) || TIME_RULE_AT.test(sentence)) ? anyTest(wording.success, sentence.replace(CONDITION_CLAUSE, ' ').replace(TIME_RULE, ' ')) : told;
  // An obstacle found, unless the sentence tells the change done ("it looks like the cancellation went
  // through, and no further action is needed").
  if (!success && HEDGED_OBSTACLE.test(sentence)) return 'failure';
  // What a rule requires of a change ("the system requires that each item is swapped for another variant")
  // is no claim that it was made.
  if (success && REQUIRED.test(sentence.slice(0, success.index).split(/[,;:]|\b(?:and|but|so)\b/).at(-1) ?? '')) return 'none';
  if (success) {
    // "has not been cancelled": a negator in the few words before a success phrase turns it into a failure.
    // Only within its own part: a record's label before its outcome ("UDMOP1 (no insurance): Canceled successfully") negates
    // nothing after its colon or bracket.
    const window = sentence.slice(Math.max(0, success.index - 24), success.index);
    // Nor a label before a value led by its colon or dash ("Items not yet shipped: Cancelled"): the phrase begins the value.
    const own = /^[:\u2014\u2013]/.test(success[0]) ? '' : window.slice(Math.max(...[...window.matchAll(/[:;()[\]]/g)].map((m) => (m.index ?? 0) + 1), 0));
    if (NEGATORS.test(`${own}${success[0]}`.replace(/\bnow\b/gi, ''))) return 'failure';
    // "Nothing new was submitted": nothing done, where nothing else is said to have stayed ("nothing else was changed").
    if (/\bnothing(?: new| further)? (?:was|were|has been|got)\b/i.test(`${own}${success[0]}`)) return 'failure';
    return 'success';
  }
  return 'none';
}

/** A thing told done in the passive: "was moved over", "has been switched"; not a look ("has been reviewed"). */
const DONE_PASSIVE = /\b(?:was|were|has been|have been|is now|are now)\s+(?:\w+ly\s+)?(?!(?:reviewed|checked|looked|examined|verified|confirmed|found|located|investigated|noted|considered|assessed|evaluated)\b)\w+ed\b/i;

/** A refund line of no amount: "Refund issued: $0.00", "refunded $0". */
const ZERO_REFUND = /^\W*(?:(?:total|amount)\s+)?refund(?:ed| issued| amount| total)?\s*[:=\u2014\u2013-]?\s*\$\s?0(?:\.00)?\W*$/i;

/** A sentence read without what `phrase` (global) matches in it; nothing left, or no word, says nothing. */
function readWithout(sentence: string, phrase: RegExp, wording: ClaimWording): ClaimLabel {
  const rest = sentence.replace(phrase, ' ').trim();
  return rest.length > 3 && /\w/.test(rest) ? readSentence(rest, wording) : 'none';
}

/**
 * A condition within a sentence, from its word to the clause's end: "once the reservation is booked", "if each item you change
 * is swapped", and what "only" happens "after" something ("the ID only appears after the card is confirmed"). Not at the
 * sentence's start (`CONDITIONAL` reads those), nor "once again", "once more", "once before".
 */
const CONDITION_CLAUSE = /(?<=\S\s+)\b(?:once|if|unless|until|whenever|when|(?<=\bonly (?:\w+ )?)after)\b(?! (?:again|more|before|already|you (?:confirm|agree|approve))\b)[^,;:.?!\u2014\u2013()]*?(?=[,;:.?!\u2014\u2013()]|\s(?:and|but|so|then)\s|$)/gi;
const CONDITION_CLAUSE_AT = once(CONDITION_CLAUSE);
/** The rest of a clause, up to a word that joins another to it ("because", "and", "since", ...) or its punctuation. */
const CLAUSE_REST = String.raw`(?:(?!\s(?:and|but|so|because|since|as|while|though|although|due to|yet)\s)[^,;:.?!\u2014\u2013()])*`;
/**
 * A promise of timing the agent cannot give or keep, to the clause's end: "I cannot guarantee the exact shipping timeline",
 * "the three-day guarantee cannot be met". Only of timing: "I cannot guarantee the cancellation" is not one, nor anything in
 * a clause joined to it ("… because I couldn't update the address").
 */
const TIMING = String.raw`(?:dates?|times?|timelines?|timing|timeframes?|windows?|days?|delivery|arrival|speed|schedules?|estimates?|deadlines?|eta|when\b)`;
const UNPROMISED = new RegExp(
  String.raw`\b(?:i|we)\s+(?:can(?:not|'t)|can not|am unable to|'m unable to|am not able to|'m not able to|won't be able to)\s+(?:\w+\s+)?(?:guarantee|promise)\s+(?:(?:the|a|an|any|your|that|this|exact|exactly|specific|precise|particular)\s+)*(?:[\w\u2011-]+\s+){0,2}?${TIMING}` +
    String.raw`${CLAUSE_REST}|\b(?:the |your |this |that |a |any )?(?:[\w\u2011-]+ )?(?:guarantee|promise|deadline|timeline|estimate)\b[^,;:.?!]{0,30}?\b(?:cannot|can't|can not|won't|will not|could not|couldn't) be (?:met|honou?red|kept|guaranteed)\b${CLAUSE_REST}`,
  'gi',
);
const UNPROMISED_AT = once(UNPROMISED);
/** A value identified, up to the value: "The item ID for the laptops is confirmed as 3478699712". */
const IDENTIFIED = /\b(?:(?:item|product|order|user|variant|option|reservation|payment(?: method)?|card)\s+)?(?:ids?|numbers?|codes?)\b[^,;:.?!]{0,60}?\b(?:is|are|has been|have been)\s+(?:now\s+)?confirmed\s+(?:as|to be)\s+[`'"*]*#?(?=[\w-]*\d)[\w-]+[`'"*]*/gi;
const IDENTIFIED_AT = once(IDENTIFIED);
/** A rule of a time limit, said of a kind of change: "Returns are accepted within 30 days", "cancellations are only processed within 24 hours". */
const TIME_RULE = /\b[\w-]+s (?:are|is) (?:only )?(?:accepted|allowed|permitted|processed|possible|approved)\b[^,;.?!]*?\bwithin (?:the first )?\d+(?:\s*[-\u2013]\s*\d+)? (?:business |calendar )?(?:days?|hours?|weeks?)\b/gi;
const TIME_RULE_AT = once(TIME_RULE);

/** "Done" that opens a sentence telling a look-up: "Done — I've looked into #W1", "Done, I checked the order". */
const DONE_LOOKING = /^\W*(?:all )?done\b\W+(?:i|we)(?:'ve| have)? (?:just )?(?:looked (?:into|at|up)|checked|reviewed|pulled up|located|found|investigated|gone through|went through)\b/i;
const DONE_LEAD = /^\W*(?:all )?done\b\W+/i;
/** A check the agent made, up to what it found: "I confirmed that", "we've verified whether", "I checked that"; or what it checked: "confirmed the item details". */
const CHECKED_THAT_ALL = /\b(?:i|we)(?:'ve| have)? (?:just |now |also |first )?(?:confirmed|verified|checked|double-checked|made sure) (?:that|whether|if)\b|\b(?:confirmed|verified|checked|double-checked|reviewed) (?:the|your) (?:[\w-]+ )?(?:details|information|info|availability|status|eligibility|balance|identity)\b/gi;
const CHECKED_THAT = once(CHECKED_THAT_ALL);

/** A reason's line, as a JSON reply's reason field is said (src/ground/json-text.ts). */
const REASON_LINE = /^\W*reason:/i;

/** A closing offer on the user's condition: "If you have any questions or need more changes, let me know." */
const CLOSING_OFFER = /^\W*if you (?:have|need|want|would like|'d like|wish|require)\b[^?!]*\b(?:let (?:me|us) know|just ask|feel free|reach out|i(?:'m| am)? (?:here|happy|glad)|(?:just )?provide|just (?:share|send|tell|give|reply|say))\b/i;
/** A sentence that opens on a condition and goes on to what would then be: "If X, you'd get Y", "Should you need to, we can ...". */
export const CONDITIONAL = /^\W*(?:if|should|in case|in the event)\b[^,.?!]{0,120},\s*(?:then\s+)?(?:you|we|i|it|the|your|this|that|they|there)\b[^.?!]{0,30}?(?:\b(?:would|will|could|can|may|might)\b|'d\b|'ll\b)/i;

/** What was done instead, after a refusal in the same sentence: "..., so the entire order has been cancelled". */
const SO_INSTEAD = /[,;]?\s+so\s+((?:the|your|i|we|it|this|that)\b.+)$/i;
/** A charge made another way than the one asked: "the difference was charged to your Mastercard instead". */
const PAID_OTHERWISE = /\b(?:was|were|has been|have been|is|will be|got) (?:charged|billed|paid)\b[^.?!]{0,80}?\binstead\b|\b(?:charged|billed|paid) (?:it |the (?:difference|balance|amount|fare difference|remainder) )?(?:to|with|from) (?:your|the) [^.?!]{0,50}?\binstead\b/i;
/** A means of payment: what could not cover a change. */
const PAYMENT_MEANS = /\b(?:certificates?|gift cards?|credit cards?|cards?|balance|vouchers?|points|payment methods?|funds)\b/i;
/** A change told done, then its reason: "… has been cancelled, as partial cancellation is not possible". */
const DONE_BECAUSE = /^(.+?\b(?:(?:has|have|had) been|was|were|(?:is|are) now) \w+[^;]{0,80}?)(?:,\s+as|,?\s+(?:since|because))\s+(.+?(?:\b(?:is|are)(?:n't| not)|'s not) (?:possible|allowed|permitted|supported|available)\b.*|.+?\b(?:can't|cannot|can not) be [a-z]+\b.*)$/i;
/** `DONE_BECAUSE` in a sentence short enough to be one change and its rule: its lazy parts would take long on a long one. */
export const doneBecause = (sentence: string): RegExpExecArray | null => (sentence.length <= 400 ? DONE_BECAUSE.exec(sentence) : null);

/** An earlier statement taken back, up to the "but" that corrects it: "I told you X was not eligible, but". */
export const RETOLD = /\b(?:i|we) (?:earlier |previously |mistakenly |wrongly |incorrectly )?(?:told|informed) you\b[^.?!]*?\bbut\b/i;

/** A request acted on, told without its outcome: "I have processed your request", "I've sent the exchange request", "Submitted ...". */
export const ACTED_ON = /\b(?:processed|submitted|sent|initiated|updated|placed|filed|made|started) (?:your |the |a |an |my |this )?(?:[\w-]+ ){0,2}?(?:(?:details|information|paperwork) for (?:your |the |this )?)?(?:request|submission|attempt|process|update|change|cancell?ation|exchange|return|booking)\b|\b(?:i|we)(?:'ve| have)? updated (?:your |the )?(?:order|reservation|booking) #?[A-Z0-9]{5,9} with\b|\b(?:i|we)(?:'ve| have)? (?:attempted|tried) to\b|^\W*(?:action taken|submitted)\b/i;

/**
 * A record's id as replies write it: a letter or three, then four digits or more (#W9000201, R961601), or a booking code of six
 * letters and digits mixed (59XX6W); not a flight number (HAT266), nor a word. Case-sensitive: use it in patterns without `i`.
 */
export const RECORD_ID = String.raw`#?\b[A-Z]{1,3}\d{4,}\b|\b(?=[A-Z0-9]{6}\b)(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])(?![A-Z]{2,3}\d{3,4}\b)[A-Z0-9]{6}\b`;

/** A sentence that opens as a note: "Heads-up:", "Please note:", "FYI,", "Keep in mind". */
export const NOTE_LEAD = /^\W*(?:(?:(?:just )?(?:a )?heads[- ]?up|(?:please )?note(?: that)?|(?:a )?quick note|fyi|keep in mind|bear in mind|for your information|(?:a )?(?:quick )?reminder|as (?:i|we) (?:mentioned|said|noted|explained)(?: (?:earlier|before|above))?)\b\s*[:,\u2014-]|(?:(?:please )?note|keep in mind|bear in mind|remember) that\b|please note (?:this|it|these)\b|note (?:i|we)\b|(?:please )?be aware(?: that)?\b|just so you know\b)/i;
/** A note in brackets: "(note: basic economy cannot be changed once booked)", "(please note that …)", "[FYI …]". */
const BRACKET_NOTE_ALL = /\(\s*(?:(?:please )?note|n\.?b\.?|fyi|heads[- ]?up|reminder|keep in mind)\b[^()]*\)|\[\s*(?:(?:please )?note|n\.?b\.?|fyi|heads[- ]?up|reminder|keep in mind)\b[^[\]]*\]/gi;
/** A qualifier in brackets between a record's id and its label's colon: "#W1 [cannot be split across payment methods]: switched to …". */
const ID_LABEL_NOTE_ALL = new RegExp(String.raw`(${RECORD_ID})(\s*(?:\[[^[\]\n]{1,120}\]|\([^()\n]{1,120}\)))(?=\W{0,3}:)`, 'g');
const BRACKET_NOTE = once(BRACKET_NOTE_ALL);
/** Words of a rule: "cannot", "not possible", "no longer". */
const RULE_WORDS = /\b(?:cannot|can't|can not|no longer|(?:is|are)(?:n't| not)|not (?:possible|allowed|eligible|available|permitted|supported|refundable))\b/i;
/** Text without its notes in brackets, but for those that tell an outcome after all: an attempt that failed, or doubt about it. */
export const withoutNotes = (text: string, wording: ClaimWording): string => {
  const aside = (note: string) => (ATTEMPT_FAILED.test(note) || OUTCOME_DOUBT.test(note) || anyTest(wording.pending, note) !== null ? note : ' ');
  const unnoted = BRACKET_NOTE.test(text) ? text.replace(BRACKET_NOTE_ALL, aside) : text;
  // A label's qualifier is set aside only where it tells a rule ("[cannot be split …]"); a status in it is the record's ("(status:
  // exchange requested)").
  return unnoted.includes('[') || unnoted.includes('(') ? unnoted.replace(ID_LABEL_NOTE_ALL, (_, id: string, note: string) => `${id}${RULE_WORDS.test(note) ? aside(note) : note}`) : unnoted;
};
/** A part left as it was on the user's word: "was not changed, as you asked". */
export const AS_ASKED = /(?:\bnot\b|n't\b|\bunchanged\b|\bas it was\b|\bas is\b)[^.?!]{0,40},?\s+as you (?:asked|requested|chose|wanted|preferred|wished|said)\b/i;
/** An attempt that did not work, whatever leads the sentence. */
export const ATTEMPT_FAILED = /\b(?:failed|error|declined|rejected|unable to|wasn'?t able|weren'?t able|couldn'?t|could not|did(?:n'?t| not) go through)\b|\b(?:hasn'?t|has not|haven'?t|have not|wasn'?t|was not) been (?:issued|made|processed|applied|changed|updated|cancell?ed|sent|submitted|created|added|booked)\b/i;

/**
 * A summary's line of an order's status: "Status: Processed", "Current status: delivered", "Order #W1 status: processed (packed
 * on May 19)", "Order status: processed — shipping Monday via UPS"; not "pending (item modified)".
 */
export const ORDER_STATE_LINE = /^\W*(?:(?:current|order|new|the order's|order's) )?(?:(?:order |reservation )?#?[A-Z0-9]{5,9}(?:'s)? )?status\s*[:\u2014\u2013=-]\s*\**\s*["']?(?:processed|pending|delivered|shipped)\b(?!["'*]?\s*\(?\s*(?:item|items|return|exchange)\b)["'*]*\s*(?:\([^()]*\))?(?:\s*[\u2014\u2013]\s*(?:shipping|ships|shipped|arriving|arrives|delivered|out for delivery|in transit|packed|on its way|estimated)\b[^.?!]{0,80})?\W*$/i;
/** A requirement in the clause before a change: "requires that", "must be", "needs to be". */
const REQUIRED = /\b(?:requires?|required|requiring|needs? to be|must be|has to be|have to be|should be)\b/i;

/** Doubt about whether a change took effect, as opposed to a check of something else still to come. */
const DOUBT_WORDS = /\b(?:not (?:100% |entirely |completely |totally |quite )?sure|unsure|not certain|uncertain) (?:whether|if|that|it)\b|\b(?:system|tool|server)(?:'s)? (?:response|reply|answer|confirmation) (?:is )?still pending\b|\b(?:system|tool|response)\b[^.?!]{0,40}\bnot (?:yet )?confirmed\b|\bmay take (?:a (?:moment|minute|few minutes|while)|some time) for the system to (?:reflect|show|register|update)\b|\bcan(?:'t|not) (?:yet )?(?:say|tell)(?: (?:for (?:certain|sure)|with certainty|definitively|yet))* (?:that|whether|if) (?:it|the (?:\w+ )?(?:change|update|cancell?ation|booking|request|exchange|return))\b|\bwaiting (?:for|on) (?:a |the )?confirmation (?:from|back from) the (?:system|tool|airline)\b|\bcan(?:'t|not) (?:yet )?confirm (?:that )?it(?:'s| is| has| was)\b|\b(?:may|might) (?:or may not |or might not )?(?:have|not have) (?:gone through|been (?:applied|processed|recorded|made)|taken effect|worked)\b|\b(?:check|verify|confirm|see|find out)(?:s|ing)? (?:whether|if) (?:it|the|that|this|your)\b[^.?!]*\b(?:went through|was (?:applied|recorded|made|processed|completed|registered|created|booked)|took effect|worked|succeeded)\b|\b(?:system|tool) is still processing (?:it\b|them\b|(?:the|your|my|this) (?:request|change|update|booking|cancell?ation)\b)|\b(?:couldn'?t|could not|can'?t|cannot|unable to|wasn'?t able to|not able to) (?:yet )?(?:confirm|verify|tell|see|know)(?: yet)? (?:whether|if)\b|\bno (?:response|reply|answer|confirmation)\b[^.?!]*\b(?:whether|if)\b|\bnever (?:answered|responded|replied)\b|\b(?:got|received|had|heard) no (?:reply|response|answer)\b|\b(?:didn'?t|did not) (?:respond|answer|reply|come back)\b|\b(?:hasn'?t|has not|haven'?t|have not) (?:yet )?confirmed (?:it|anything|the \w+|this|that)(?: yet)?\b/i;
/** Doubt in the agent's words, or the system that has not answered yet (`SYSTEM_SILENT`, claim-wording.ts). */
export const OUTCOME_DOUBT = new RegExp(`${DOUBT_WORDS.source}|${SYSTEM_SILENT.source}`, 'i');
