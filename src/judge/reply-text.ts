// A reply as the claim reader reads it: the text a JSON reply holds, with the typography and phrasing that do not change what
// it says made plain, so that the wording's patterns meet one form of each (test/judge/rewrites.test.ts holds the reader to
// reading each form alike).
import { plainQuotes } from '../ground/canonical.js';
import { messageText } from '../ground/json-text.js';

/** "Our system", "our booking system", "our records": the system the agent speaks for, as "the system". */
const OUR_SYSTEM = /\b([Oo])ur (?:[a-z]+ )?(system|tool|records?)\b/g;

/** A numbered list's mark at a line's start: "1. ", "2) ". */
const LIST_NUMBER = /^([ \t]*)\d{1,2}[.)][ \t]+(?=\S)/gm;

/**
 * A hyphen or an en dash between spaces within a line: a dash ("cancelled - the refund is on its way"), not a list's mark nor a
 * range of numbers ("5 - 7 business days").
 */
const SPACED_DASH = /(?<=[^\s\d])[ \t]+[-\u2013][ \t]+(?=[^\s\d])/g;

/** A negation and the adverb after it: "won't currently", "can't actually", "is not presently". */
const NEGATION_ADVERB = /\b((?:won't|wouldn't|can't|cannot|couldn't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|hasn't|haven't|(?:will|would|could|can|does|do|did|is|are|was|were|has|have) not)) (?:currently|presently|actually|really|simply|technically|directly|automatically)\b/gi;

/**
 * The reply's text made plain:
 * - a message written as JSON ({"message": "Done.\nOrder ..."}) is the text it holds, a record's status and a reason said with
 *   their keys;
 * - typographic apostrophes and quotes are plain ones ("I’ve cancelled" is "I've cancelled", “cancelled” is "cancelled");
 * - a hyphen or an en dash with a space on each side within a line is the dash it stands for;
 * - an adverb between a negation and its verb is as if it were not there ("the system won't currently let me"): the refusal
 *   is the same;
 * - a numbered list's items are a bulleted list's (a number split off as a sentence of its own would stand between an item
 *   and what it follows);
 * - "our system" is "the system".
 */
export function plainReply(text: string): string {
  return plainQuotes(messageText(text, { keys: true }))
    .replace(SPACED_DASH, ' \u2014 ')
    .replace(NEGATION_ADVERB, '$1')
    .replace(LIST_NUMBER, '$1- ')
    .replace(OUR_SYSTEM, (_m, o: string, w: string) => `${o === 'O' ? 'T' : 't'}he ${w}`);
}
