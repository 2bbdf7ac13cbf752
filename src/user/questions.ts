// Questions a message puts to the user, and questions it asks and answers itself: the user's own voice as an FAQ puts it, a check
// the agent tells as it makes it, a teaser. src/user/reading.ts asks `usersOwnQuestion` of each unit that asks, and `questionsPut`
// of a list item with more after its question mark.
import type { Unit } from './units.js';

/**
 * A question in the user's own voice, as an FAQ or a list of answers puts it: "Do I need to check in again?", "Will I get a
 * confirmation?", "Is my bag still checked through?", "What happens next?", "How do I print the label?". Not the agent's own
 * questions of the user ("Did I get that right?", "Do I have the right order?", "Can I get your email?").
 */
const USERS_OWN_QUESTION = /^(?:[^:?]{1,40}:\s*)?\W*(?:do i (?:need|keep|still|lose|get|pay|have to)|what do i (?:need|do|bring|pay)|will i (?:get|receive|be|need|have|lose|earn|still|keep|pay)|(?:is|are|does|do|will|did) my|how (?:do|can|will) i|how (?:long|soon) (?:will|does|until)|what happens|what if|when (?:will|do|can) (?:i|my)|where do i|why (?:did|was|is|were) my|can i still|what about my|where(?:'s| is| are) my|(?:didn'?t|did not|haven'?t|have not|never) (?:get|receive|got)|need to (?:make|change) (?:more|other|further|any ?more|additional)|(?:got|have|still have) (?:more |other |further )?questions)\b[^?]*\?/i;

/**
 * Whether a unit is a question in the user's own voice that the message answers: a line of its own with more after it, or a list
 * item with its answer after the question and no question put to the user.
 */
export const usersOwnQuestion = (u: Unit, next: Unit | undefined): boolean => {
  // What follows a question in its unit, its closing quote or bracket aside; and its answer: that, or the next unit's text.
  const restAfter = (m: RegExpExecArray): string => u.text.slice((m.index ?? 0) + m[0].length).replace(/^["'\u201d)\]*\s]+/, '');
  const answerAfter = (m: RegExpExecArray): string => {
    const rest = restAfter(m);
    return rest === '' ? (next?.text ?? '') : rest;
  };
  // A check the agent tells as it makes it, not put to the user, with its answer at once ("Quick check on my side — does the gift
  // card cover the difference? Yes, $62 remains", "Querying availability: are there seats on HAT204? Result: 3 left").
  const checked = SELF_CHECK.exec(u.text);
  if (checked && !/\byou(?:r|rs)?\b/i.test(checked[0]) && SELF_CHECK_ANSWER.test(answerAfter(checked))) return true;
  // A teaser the message answers itself ("Curious what changed? Here's the summary", "— want the details? They're below").
  const teaser = TEASER.exec(u.text);
  if (teaser && TEASER_ANSWER.test(answerAfter(teaser))) return true;
  // A question of what something means to the user, that the message answers at once and asks nothing more ("What does this
  // mean for your reservation? Because the airline cancelled the flight, …", "Wondering about your bags? As a gold member you
  // have 3 free", "What if you change your mind later? You're always welcome to …").
  const forYou = FOR_YOU.exec(u.text);
  if (forYou) {
    const answer = answerAfter(forYou);
    if (answer !== '' && !answer.includes('?') && !ASKS_BACK.test(answer)) return true;
  }
  const own = USERS_OWN_QUESTION.exec(u.text);
  const canI = own ? null : CAN_I_QUESTION.exec(u.text);
  const q = own ?? canI ?? ANSWERED_QUESTION.exec(u.text);
  // A question of what the user must do, answered yes or no at once in the same unit ("Do you need to include the original box?
  // No — any sturdy packaging works"): the message's own FAQ.
  const youAnswered = q ? null : YOU_ANSWERED.exec(u.text);
  if (youAnswered) return YES_OR_NO_ANSWER.test(answerAfter(youAnswered));
  // A question that names "you" is put to the user, whatever its opening ("Do I need to update your address too?").
  if (!q || /\byou(?:r|rs)?\b/i.test(q[0])) return false;
  const answer = canI ? YES_OR_NO_OPENING : ANSWER_OPENING;
  const rest = restAfter(q);
  if (rest !== '') return u.item && !rest.includes('?') && answer.test(rest);
  // On a line of its own, answered by what follows: any line for the user's own voice, an answer or a list for the rest.
  return next !== undefined && (own !== null || (!canI && next.item) || answer.test(next.text));
};
/**
 * A question a message asks and answers itself, not in the user's voice: "Why isn't it the full €212? Because …", "What's next?"
 * over a list, "Does this apply to sale items? Yes, …".
 */
const ANSWERED_QUESTION = /^(?:[^:?]{1,40}:\s*)?\W*(?:why(?! (?:not|don't|wouldn't)\b)|what(?:'s| is) next|what now|what to expect|what changed|what goes|what(?:'s| is) included|wondering|does (?:this|that|it)|will (?:the|it|this|that) |when (?:does|do|is|are) (?:the|it|this|online|my))\b[^?]*\?/i;
/** "Can I …?" in the user's voice, as an FAQ asks it and answers it yes or no at once; else it is the agent's offer ("Can I cancel it?"). */
const CAN_I_QUESTION = /^(?:[^:?]{1,40}:\s*)?\W*can i\b[^?]*\?/i;
/** A yes-or-no question of a thing, after a label or a dash or none: "are there seats on HAT204?", "does the card cover it?". */
const SELF_CHECK = /^(?:[^:?]{1,40}(?::|\s[\u2014\u2013-])\s*)?\W*(?:is|are|does|do|did|was|were|has|have|will|can) (?!i\b)[^?]*\?["')\]]?$/i;
/** Its answer, at once: "Yes, $62 remains", "No — it's sold out", "Result: 3 seats". */
const SELF_CHECK_ANSWER = /^(?:(?:yes|no|yep|nope)\b\s*[,.:;!\u2014\u2013-]|(?:result|answer|response)\s*:)/i;
/** A question that teases what follows: "Curious what changed?", "Wondering about your bags?", "— want the details?". Not "want me to …?". */
const TEASER = /(?:^\W*|[\u2014\u2013]\s*|\s-\s+)(?:curious|wondering|want|need|looking for|interested in)\b(?!\s+(?:me|us|to have me)\b)[^?]*\?["')\]]?$/i;
/** A question of what a thing means to the user, as the message puts it before its answer; not one that asks what the user wants or which. */
const FOR_YOU = new RegExp(
  String.raw`^(?:[^:?]{1,40}:\s*)?\W*(?:what does (?:this|that|it) mean for you(?:r\b[^?]*)?|(?:wondering|curious) (?:about|what|how|why)\b(?![^?]*\b(?:which|whether|you(?:'d| would)? (?:like|want|prefer))\b)[^?]*|what if you\b[^?]*)\?["')\]]?`,
  'i',
);
/** An answer that is the agent's offer or ask: "I can check", "Let me know", "Would you like …", "whichever you prefer". */
const ASKS_BACK = /^\W*(?:i|we) (?:can|could|would)\b|\blet (?:me|us) know\b|\bplease\b|\b(?:would|do|shall|should|can|could) (?:you|i)\b|\bjust (?:say|reply|tell)\b|\b(?:whichever|prefer|your (?:choice|call|pick)|choose|pick one|decide)\b/i;
/** What answers a teaser at once: "Here's the summary", "They're below:", "I've already checked". */
const TEASER_ANSWER = /^(?:here(?:'s| is| are)\b|(?:they|it)(?:'re|'s| are| is) (?:below|above|listed)\b|see (?:below|above)\b|(?:i|we)(?:'ve| have) (?:already|just) (?:checked|looked|listed|added|summari[sz]ed)\b)/i;
/** A question of what the user must do or gets, put as the user would ask it: "Do you need to include the box?", "Will you be charged?". */
const YOU_ANSWERED = /^(?:[^:?]{1,40}:\s*)?\W*(?:do|does|will|are|is|should) you (?:need|have to|still|be|get|lose|keep)\b[^?]*\?/i;
/** An answer at once: "No — any box works", "Yes, …". Not "No worries", "No problem if not". */
const YES_OR_NO_ANSWER = /^(?:yes|no|nope|yep)\s*[\u2014\u2013,:-]\s*(?!(?:worries|problem|rush|pressure)\b)\S/i;
const YES_OR_NO_OPENING = /^(?:yes|no|nope|yep|not|absolutely|sure|of course|definitely|unfortunately)\b/i;
/** How an answer to the user's own question opens: "Yes, …", "No, …", "Your seat …", "Within 5 days". Not the agent's offer ("I can …"). */
const ANSWER_OPENING = /^(?:yes|no|nope|yep|not|nothing|none|just|only|your|you|it|they|the|this|that|there|within|in|after|once|about|around|usually|typically|because|absolutely|sure|of course|definitely|select|enter|check[- ]in|on|by|at|from|\d)\b/i;

/** A question put to the user that opens a sentence: "Would you …", "Do you want …", "Shall I …", "Which color …", "Is size M still right …". */
const PUT_QUESTION_BODY = String.raw`(?:(?:would|do|did|are|were|will|could|can|may|have|shall) you|(?:shall|should|may) (?:i|we)|want me|which\b|what (?:would|do|time|day|date|size|colou?r|seat)\b|is (?:this|that|it|size|the|everything)\b|how would you|does (?:that|this|it) (?:work|sound|suit)|(?:ok(?:ay)?|alright|all right) (?:to|if)\b)\b`;
const PUT_QUESTION = new RegExp(String.raw`^(?:[^:?]{1,40}:\s*)?\W*${PUT_QUESTION_BODY}`, 'i');
/** The same after the clause or the note that leads its sentence: "Since the flight lands later, do you still want …?", "… — which one would you like?". */
const PUT_QUESTION_LATER = new RegExp(String.raw`(?:[,;:\u2014\u2013]|\s-)\s*(?:and |so |but )?${PUT_QUESTION_BODY}[^.!?]*\?`, 'i');

/** Whether one of a unit's sentences that end in a question mark is put to the user (`PUT_QUESTION`, `PUT_QUESTION_LATER`). */
export const questionsPut = (text: string): boolean =>
  text
    .replace(/\*\*/g, '')
    .split(/(?<=[.?!]["')\]]?)\s+/)
    .some((s) => /\?["')\]]?$/.test(s) && (PUT_QUESTION.test(s.replace(/^\W*["'\u201c]/, '')) || PUT_QUESTION_LATER.test(s)) && !/["\u201c][^"\u201d]*\?["\u201d]/.test(s));
