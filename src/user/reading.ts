// How the scripted user reads an agent's message: every ask in it, wherever it stands (questions,
// imperatives, lists, markdown, several asks at once, references back to listed items), and whether the
// message is only a progress note. The world's user language says which ask names which slot.
import type { UserLanguage } from '../ground/world.js';
import { globalOf } from '../ground/regex.js';
import { PLACEHOLDER, unitsOf, type Unit } from './units.js';
import { questionsPut, usersOwnQuestion } from './questions.js';
import { memoized } from '../ground/memo.js';
import { deepFreeze } from '../ground/freeze.js';

/** One thing the agent asks the user for. */
export type Ask =
  | { readonly kind: 'identity'; readonly text: string }
  | { readonly kind: 'slot'; readonly slot: string; readonly text: string }
  | { readonly kind: 'confirm'; readonly text: string }
  | { readonly kind: 'help'; readonly text: string }
  /** "Which one would you like?" over records the message lists: the user picks the one it means. */
  | { readonly kind: 'choose'; readonly options: readonly string[]; readonly text: string }
  /** An ask the user cannot place: it asks, but for nothing the world's language names. */
  | { readonly kind: 'unplaced'; readonly text: string };

/** What a message asks, and whether it is only a note that the agent is working on it. */
export interface Reading {
  readonly asks: readonly Ask[];
  /** "Let me check that", "one moment": asks nothing and reports nothing done or refused. */
  readonly progress: boolean;
  /** The units the message was read in: sentences and list items, markdown removed. */
  readonly units: readonly string[];
}

/** "Reply YES to proceed": a request, and a go-ahead. */
const REPLY_YES = /\b(?:reply|respond|answer|say|type|confirm)\b[^.?!]{0,25}["'\u201c]?yes\b/i;

/**
 * The rest of a sentence that sends the user elsewhere or to later: an airport, a courier, an insurer, the app, a future
 * order. Not insurance asked as a detail ("provide your user ID, bags, insurance (yes/no)").
 */
const ELSEWHERE_LATER = String.raw`(?![^.?!]*\b(?:(?:at|to) (?:the )?(?:airport|check-?in|gate|counter|kiosk|store|checkout|desk)|check-?in|boarding|courier|driver|carrier|insurer|(?:to|with|from|by) (?:the |your )?insurance|insurance (?:company|provider|claim)|bank|staff|crew|in-store|in the app|when you|if you call|next (?:flight|time|booking|order|trip)|future|which you can do|account page|on (?:our|the) website)\b)`;

/**
 * What the user does for itself, not what the agent needs: its inbox, a statement, a label, a package to send
 * back, the time to wait ("double-check your inbox", "send the package back", "give it 5-7 days").
 */
const NOT_FOR_ME = String.raw`(?![^.?!]*\b(?:inbox|spam|junk|statement|tracking|label|package|parcel|slip|correspondence|receipt|(?:it|them|items?|order) back|drop (?:it |them )?off)\b)(?!\s+it\s+\d)`;

/** "(yes/no)", "yes or no": a go-ahead asked for. */
/** "Awaiting your confirmation.", "Waiting on your go-ahead." */
const AWAITING = /^\W*(?:(?:i'?m |i am |now )?(?:awaiting|waiting (?:for|on)))\s+your (?:confirmation|go-?ahead|approval|ok(?:ay)?|reply|answer|response|decision)\b/i;

/** A go-ahead word to send back, quoted: "Reply "confirm" and I'll process both". */
const REPLY_WORD = /\b(?:reply|respond|answer|say|type)\b[^.?!]{0,10}["'\u201c](?:confirm|ok(?:ay)?|go|proceed|approve|agree)["'\u201d]/i;

const YES_OR_NO = /\(yes\/no\)|\byes or no\b|^\W*yes\s*\/\s*no\s*\?/i;

/** "Say the word": a go-ahead asked now, not one offered for later ("if you change your mind, just say the word"). */
const SAY_THE_WORD = /(?<!\b(?:if|whenever|should)\b[^.?!]{0,60})\bsay the word\b/i;

/** Phrases that ask for something without a question mark. */
const REQUEST: readonly RegExp[] = [  /\b(?:please|kindly) (?:also |just |now |first |then )?(?:provide|give|tell|share|confirm|send|let me know|enter|specify|reply|choose|select|pick|spell|type|include|advise|state|clarify)\b/i,
  new RegExp(String.raw`\b(?:please|kindly) (?:indicate|describe|verify|list|mention|explain)\b${NOT_FOR_ME}`, 'i'),
  /\b(?:could|can|would|will|may) you (?:please |kindly |also )?(?:provide|give|tell|share|confirm|send|let me know|clarify|specify|choose|select|pick|reply|spell|type|advise|state|include)\b/i,
  // Not a question in the user's own voice ("Do I need to ship it back?").
  /(?<!\b(?:information|everything|all|what|details|anything|do|does|did|will|would|should|shall)\s)\b(?:i|we)(?:'ll| will| would|'d)? (?:also |just |only |still )?(?:need|require)\b/i,
  /\b(?:i|we) (?:just |first |also |still |now |then )?need (?:your|the|a|an|to (?:know|have|confirm|verify))\b/i,
  /\blet me know\b/i,
  // "Just say so if you'd like me to go ahead with both", "say the word and I'll submit it"; not "if you change your mind,
  // just say the word", which offers and asks nothing.
  /\b(?:just )?say (?:so|the word)\b(?=[^.?!]*\b(?:if you(?:'d| would) like me to|and i(?:'ll| will)|to (?:go ahead|proceed|confirm))\b)/i,
  // "First step: your user ID.", "Your name and date of birth should do it.", "... will let me find it.",
  // "hit me with your email".
  // Not a statement after the lead-in ("Next step: the label will be sent to your email", "Next step: the refund goes to ...").
  /^(?:first(?: step)?|next(?: step)?|step one|to start|to begin)[,:]\s+(?:your|the) (?![^.?!]*\b(?:is|are|was|were|will|goes|go|arrives?|gets?|has|have)\b)[^.?!]{2,60}[.!]?$/i,
  /^(?:just\s+)?(?:your|the)\b[^.?!]{2,120}\b(?:should|will|would|'ll) (?:do it|do the trick|work|be enough|suffice|let me (?:find|locate|look up|pull up|verify|check))\b/i,
  /\b(?:hit|shoot) me with\b|\bsend over your\b|\bdrop me your\b|^\W*(?:just\s+)?drop (?:me )?(?:your|the) (?:[\w-]+ ){0,3}(?:ids?|numbers?|e-?mail(?: address)?|names?|zip(?: code)?|address|codes?|details)\b(?=\s*(?:[,.;:!?(]|and\b|or\b|$))/i,
  // "It would help to know which card", "Once I have the reservation number, I can check", "Once I have those, ...",
  // "Next step is the new shipping address", "The only thing missing is the date", "Drop me the order number",
  // "Need your zip code to finish verifying".
  /\bit (?:would|will|'d) help (?:to know|if you (?:could )?(?:tell|share|let me know|confirm|provide))\b|\bonce i (?:have|get|receive) (?:those|these|them|(?:your|the|his|her|their|(?:(?:mr|mrs|ms|dr)\.? )?[\w-]+'s) (?:[\w-]+ ){0,2}(?:number|id|e-?mail|address|name|zip(?: code)?|date|details|reason|order|reservation))\b|^(?:the )?(?:next|first|only) (?:step|thing) (?:is|i need is) (?:your|the)\b|\b(?:the )?only thing (?:missing|left|i need|needed)\b[^.?!]{0,60}\bis (?:your|the)\b|\bdrop me (?:the|your|a)\b|(?:^|[,;:\u2014]\s*)(?:just |only )?need (?:your|the|a|an)\b/i,
  AWAITING,
  // "Drop either one here."
  /^(?:just\s+)?(?:drop|pop|paste|post|leave) (?:either|one|it|them|that|those|your|the)\b[^.?!]{0,40}\b(?:here|below|in (?:the )?chat)\b/i,
  // "If you have your email, that would be the quickest way to find your account."
  /\bif you have (?:your|the|a|an|any)\b[^.?!]{0,40},\s*(?:that|it|this)(?:'d| would| will| is) (?:be|help|speed)\b/i,
  // "Alternatively, if you remember your email address, you can share that": an ask put as what the user may
  // do. Not a condition ("if you can send the box back within 14 days, ...").
  /(?<!\b(?:if|when|once|whether)\s+)\byou (?:can|could|may) (?:also |simply |just )?(?:share|provide|send|give|tell) (?:me |us )?(?:that|it|them|those|these)\b/i,
  /\bonce you(?:'ve| have)? (?:provide|provided|have|share|shared|send|sent|give|given|confirm|confirmed|tell|told)\b/i,
  /\b(?:provide|share|send|give|tell) (?:me|us) (?:with )?(?!a (?:moment|sec|second|minute|few)\b)(?:your|the|a|an|which|what|how)\b/i,
  // "Also confirm if you want to proceed with the cancellation."
  new RegExp(String.raw`^(?:(?:also|and|then|finally|lastly|additionally)\s*,?\s+)?(?:just |simply )?(?:provide|share|send|give|tell|confirm|specify|choose|select|pick|enter|reply with)\b${NOT_FOR_ME}`, 'i'),
  new RegExp(String.raw`^(?:just |simply )?(?:indicate|describe|double-?check|verify)\b${ELSEWHERE_LATER}${NOT_FOR_ME}`, 'i'),
  // "Your user ID, please.", "The order number, please.", "Your call.", "Say the word and it's done."
  /^(?:(?:and|also|then|first(?: step)?|next)[,:]?\s+)?(?:your|the) [^.?!]{2,60}?,?\s+please[.!]?$/i,
  /^(?:it(?:'s| is) )?your (?:call|choice)[.!]?$/i,
  SAY_THE_WORD,
  YES_OR_NO,
  /\b(?:required|needed)\s*:\s*$/i,
  // "Action needed: choose a payment method", "Your input required"; not "no action needed".
  /(?<!\b(?:no|not|nothing|zero)\s(?:further\s|more\s|other\s)?)\b(?:action|input|response|reply|decision|confirmation|answer)\s+(?:needed|required)\b(?!\s*(?:from you\s*)?[:\u2014\u2013-]?\s*(?:none|nothing|n\/a|no)\b)/i,
  // "Please fill in the blank", "Just fill in your new color", "_please fill in_" in a table's row.
  /\b(?:please|kindly) (?:fill (?:in|out)|complete (?:the|this|these))\b|^(?:just |simply )?fill (?:in|out) (?:the|this|these|your)\b/i,
  // A question in its word order inside a run-on sentence: "sure i can change it which date do you want to fly".
  /\b(?:which|what|when|where|how many) (?:[\w-]+ ){0,3}?(?:do|would|will) you (?:want|like|prefer|need|choose|plan)\b/i,
  // "A simple 'yes' from you and I'll book them."
  /\b(?:a |just a )?(?:simple |quick )?["']?yes["']? from you\b/i,
  // "I still don't have the passenger's date of birth."
  /\bi still (?:don'?t|do not) have (?:the|your|his|her|their|(?:[\w-]+ )?[\w-]+'s) (?:[\w'-]+ ){0,3}?(?:numbers?|ids?|e-?mail(?: address)?|address|names?|zip(?: code)?|date of birth|birth ?date|dob|details|reason|choice|preference)\b/i,
  /\bwhat(?:'s| is| are) (?:your|the)\b/i,
  /\bi(?:'d| would) like to (?:know|confirm|verify|check) (?:your|the|which|what|whether|if)\b/i,
  // "Please try to remember your e-mail address", "let me verify your account by getting your e-mail".
  new RegExp(String.raw`\bplease (?:try to )?(?:remember|recall|look up|find|double-?check|re-?check)\b${ELSEWHERE_LATER}`, 'i'),
  // "Reply YES to proceed!", "Reply "confirm" and I'll process both".
  REPLY_YES,
  REPLY_WORD,
  // "Just share them with me", "send it over".
  /\b(?:just |simply )?(?:share|send|provide|give) (?:them|it|those|these)(?: (?:with|to) (?:me|us)| over)\b/i,
  // A question in its word order, whatever ends it ("To confirm, would you like to change it to these flights:").
  /^(?:[^,.?!]{0,30},\s*)?(?:would|do|does|did|shall|should|can|could|may|will|is|are) (?:you|i|we|that|this|everything)\b/i,
  /\bby (?:getting|having|asking for) your\b/i,
  // An ask put as a condition or a need, or after a lead-in: "If you can provide either of those, I can
  // help", "If you'd share which item arrived broken, I can start the return", "to cancel it, you will need to provide the reservation id", "When you're ready, share the order
  // id". Not advice for later or for someone else ("you'll need to provide your ID at check-in", "if you can
  // send it back within 14 days, the refund ...", "At the kiosk, enter your code").
  new RegExp(String.raw`\bif you(?: (?:can|could|would)|'d) (?:please )?(?:provide|share|give|send|tell|confirm|remember|find|check|let me know)\b${ELSEWHERE_LATER}[^.?!]*?,\s*(?:(?:i|we)(?:'ll| will| can| could| may|'d be| would be)\b|that (?:would|will|'d) (?:be great|help))`, 'i'),
  new RegExp(String.raw`(?<!\b(?:at that time|later|then|when|once|after|afterwards|upon|before boarding|next time|in the future|future|keep in mind|note that|reminder|should you|if (?:it|the|they|your))\b[^.?!]{0,60})\byou(?:'ll| will)? (?:need|have) to (?:provide|give|share|send|tell (?:me|us)|confirm|specify)\b${ELSEWHERE_LATER}`, 'i'),
  new RegExp(String.raw`^(?:when(?:ever)? you(?:'re| are) ready|when you (?:have|get) a (?:moment|chance)|if you can|if possible|in the meantime|meanwhile|first(?: of all)?|also|next|(?:in order )?to (?:[\w']+\s?){1,4}|for (?:verification|security|authentication)(?: purposes)?|(?:sure|okay|ok|great|alright|thanks|thank you|got it|no problem)(?: [\w']+){0,2}|if (?:that|this|everything|all of (?:that|this)) (?:sounds|looks|seems) (?:right|good|ok(?:ay)?|correct|fine)|if you(?:'d| would) (?:like|prefer|want)(?: to)? [^,.?!]{1,80}|if none (?:of (?:these|those|them|the (?:above|options)) )?(?:works?|suits? you|fits?)),\s*(?:please |just |simply )?(?:provide|share|send|give|tell me|specify|choose|select|pick(?! (?:it|them|up)\b)|enter|confirm|reply with)\b${ELSEWHERE_LATER}`, 'i'),
];

/** A note that the agent is at work: asks nothing, claims nothing finished. */
const PROGRESS: readonly RegExp[] = [
  /\blet me (?:check|look|see|verify|pull|find|review|take a look|look into|look that up|confirm)\b/i,
  /\b(?:one|just a) (?:moment|second|sec|minute)\b/i,
  /\bgive me (?:a|one) (?:moment|second|sec|minute)\b/i,
  /\bplease (?:hold|wait|bear with me|stand by)\b/i,
  /\b(?:i'm|i am|we're|we are) (?:checking|looking|pulling|reviewing|working on|looking into)\b/i,
  /\bi(?:'ll| will) (?:check|look|pull|review) (?:that|this|it|your|the|into)\b/i,
  /^(?:checking|looking (?:up|into|at)|pulling up|reviewing)\b/i,
  /\blet me (?:process|take care of|handle|submit|update|get (?:that|this) (?:done|sorted|processed))\b/i,
];

/** A detail the user is to pick, put as confirming it: "confirm your preferred refund method". */
const PREFERENCE_TO_CONFIRM = /\b(?:confirm|tell me|let me know)\s+(?:your|the|which)\s+(?:preferred|chosen|desired)\b/i;

/** A go-ahead for the agent's own next step ("would you like me to send the certificate to your user id?"): the details it names are told, not asked. */
const MY_STEP = /\b(?:would you like me to|do you want me to|want me to|shall i|should i)\b/i;

/** Cues of a go-ahead beyond the word "confirm". */
const GO_AHEAD = new RegExp(`\\b(?:proceed|go ahead)\\b|${MY_STEP.source}|\\(?yes\\/no\\)?|\\byes or no\\b`, 'i');

/** "Confirm the cancellation", "confirm this exchange": a change to confirm, not a detail. */
const CHANGE_TO_CONFIRM = /\bconfirm (?:the|your|this|that) (?:[\w-]+ ){0,3}?(?:cancell?ation|exchange|return|modification|change|update|booking|refund|transfer|upgrade|swap|replacement)\b/i;

/**
 * Go-aheads in any world's words, beside the world's own `confirmAsked`: "is that correct?", "does this
 * look right?", "reply yes to proceed", "would you like to try again?", "would you like me to send it?".
 */
const GO_AHEAD_ASKED: readonly RegExp[] = [
  /\bis (?:that|this|everything|all (?:of )?(?:that|this)|the above) (?:correct|right|ok(?:ay)?|accurate|fine|good|acceptable|alright|all right|agreeable)\b/i,
  // "Shall we finalize?", "OK to do both?", "All good to place it?", "Ready to submit?", "Ready?", "Is that what you want me to do?".
  /^\W*(?:so,?\s+)?shall we\b[^?]{0,80}\?|^\W*(?:ok(?:ay)?|all good|good|alright|all right|fine) to [\w-]+(?: [\w-]+){0,3}\?\s*$|^\W*ready(?: to [\w-]+(?: [\w-]+){0,3})?\?\s*$|\bis (?:that|this) what you(?:'d| would)? (?:want|like)\b/i,
  // A proposal put as its own verb, as a question: "Move you to SK 159 in business?", "Get you on it?", "Want those on R497907?".
  /^\W*(?:move|put|get|switch|book|rebook|cancel|add|send|change|swap|ship|upgrade|downgrade|refund|apply|issue|submit|place|process|void|transfer) (?:you|it|them|this|that|those|these|your|the|both)\b[^?]{0,120}\?|^\W*(?:(?:so|ok(?:ay)?),?\s+)?want (?:those|these|that|this|it|them|one|the [\w-]+)\b[^?]{0,120}\?/i,
  REPLY_WORD,
  /\b(?:does|do) (?:that|this|these|everything|the above) (?:sound|look|seem) (?:good|right|correct|ok(?:ay)?|fine|accurate)\b/i,
  REPLY_YES,
  /\b(?:would|do) you (?:like|want|wish) (?:me |us )?to (?:try|retry|go ahead|proceed|continue|cancel|book|change|modify|return|exchange|add|remove|upgrade|downgrade|update|transfer|send|issue|apply|switch|submit|process)\b/i,
  // "Want me to cancel it?", "Do I have your permission to add these bags?", "Good to go?", "say the word".
  /^(?:(?:so|ok(?:ay)?|great|alright|sure|otherwise|then|if so|and),?\s+)?(?:want|wanna) (?:me|us) to\b/i,
  /\b(?:do i have|may i have|can i (?:have|get)|i(?:'ll| will)? need|with) your (?:permission|approval|consent|go-?ahead|ok(?:ay)?)\b/i,
  /^(?:(?:is )?(?:that|this|everything) )?(?:good to go|sounds? good|ok(?:ay)? (?:with|for) you|all ?right (?:with|for) you)\?/i,
  // "OK to release it?", "Alright if I go ahead?", "... for the trouble — want it?".
  /\b(?:ok(?:ay)?|alright|all right|fine) (?:to|if i|if we) (?:[\w-]+ ){0,2}(?:it|this|that|them|ahead|now|on)\?/i,
  /(?:^|[,;\u2014\u2013-]\s*)(?:do you )?want (?:it|that|this|one|them)\?\s*$/i,
  SAY_THE_WORD,
  // "Would that work for you?", "OK to update?", "Is it okay if I make this exchange?", "Do you approve this
  // change?", "Would you like that?", "Cancel and refund now? (yes/no)", "Okay?".
  /\b(?:would|will|does) (?:that|this|it) work(?: for you)?\?/i,
  /\b(?:ok(?:ay)?|cool|fine|alright|all right) (?:with (?:that|this)|to (?:go|proceed|update|change|cancel|switch|add|book|exchange|return|modify|do (?:that|this|it)|make (?:that|this|the|these)))\b[^.!]*\?/i,
  /\bis it (?:ok(?:ay)?|alright|all right|fine) (?:if|for me|to)\b/i,
  /\bdo you (?:approve|agree|accept|authori[sz]e|consent)\b/i,
  /\bwould you like (?:that|this|it)\?/i,
  // The offer just made, taken up: "Would you like to do that?", "Want that?", "Want the transfer?", "Shall we
  // do that?", "Ready for me to submit that?".
  /\b(?:allow (?:me|us) to|let (?:me|us)) (?:transfer|proceed|go ahead|cancel|book|change|modify|return|exchange|process|submit|issue|send|update)\b[^.!]*\?|\b(?:would|do) you (?:like|want|wish) (?:me |us )?to do (?:that|this|it|so)\?|^(?:(?:so|ok(?:ay)?|great|alright|sure),?\s+)?(?:want|wanna) (?:that|this|it|one|the [\w-]+)\?|\bshall (?:we|i) do (?:that|this|it|so)\?|\bready for (?:me|us) to (?:submit|proceed|go ahead|do|make|process|send|book|cancel|update|change|file|place|apply)\b[^.!?]*\?/i,
  YES_OR_NO,
  /^(?:ok(?:ay)?|yes|do it|deal|right|agreed)\?$/i,
  // "Awaiting your confirmation."
  AWAITING,
];

/**
 * A question of one to four words that opens with neither a question word nor a thing asked for ("Scrap it?",
 * "Green-light both?", "Want both done?"; not "Anything else?", "Your user ID?", "Which one?", "Questions?").
 */
const TERSE_GO_AHEAD = /^\W*(?!(?:any|anything|something|nothing|questions?|what|which|who|whom|whose|where|when|why|how|your|my|the|a|an|names?|e-?mails?|zip|or|and|else|more|thoughts|ideas|preferences?|details?)\b)[a-z][\w'-]*(?:\s+[\w'-]+){0,3}\s*\?\s*$/i;

/** "What changes would you like to make?", "which card do you want to use?": asks what, not whether. */
// Not "is that what you want me to do?", which asks a go-ahead.
const WH_QUESTION = /\b(?:what|which|how|where|when)\b(?:\s+\S+){0,3}\s+(?:would|do|did|should|will) you\b|(?<!\bis (?:that|this) )\b(?:what|which|how) you(?:['’]d| would| want| wish)\b/i;

const ASKS_DETAIL = /\b(?:you|please) (?:\w+ )?(?:provide|share|tell|give|send|spell|enter|type)\b|\bwhat(?:'s| is| are| was)\b|\bwhich\b/i;

/** A detail asked beside a go-ahead in the same sentence: "confirm with yes and provide the payment id". */
const AND_DETAIL = /(?:,|\band)\s+(?:please\s+)?(?:also\s+)?(?:specify|provide|share|tell me|let me know)\b(?!\s+(?:you|a refund|the refund)\b)/i;

/** An ask to pick among what the message lists. */
const CHOICE = /\bwhich (?:one|of (?:these|them|those|the above)|option|record)\b|\bwhich (?:\w+ )?(?:would|do) you (?:like|want|mean|prefer)\b/i;

/**
 * A question that asks the user to pick among alternatives, records or not: "which gift card would you
 * like to use?", "would you like to cancel it or modify it?", "would either of those work for you?",
 * "please let me know which you prefer". A relative "which" after a comma ("the order, which was
 * delivered") picks nothing.
 */
/** An offer of the agent's own act of a change: "want me to book ...", "shall I add ...", "would you like me to order ...". */
const OFFERS_CHANGE = /\b(?:(?:do you )?want|would you like|shall|should|can|may)\s+(?:me|us|i|we)\s+(?:to\s+)?(?:book|re-?book|buy|order|add|upgrade|reserve|purchase|cancel|change|move|return|exchange|switch|swap|issue|send|transfer)\b/i;

/** A lead-in whose items are alternatives to pick from: "would you like me to:", "do you want to:", "you can either:", "your options are:". */
const OFFERS_ITEMS = /\b(?:would you (?:like|prefer)(?: (?:me|us))? to|do you want(?: (?:me|us))? to|(?:you|we) (?:can|could) either|(?:your|the) (?:options|choices|alternatives) (?:are|would be)|here are (?:your|the|some|a few) (?:options|choices|alternatives)|(?:choose|pick|select) (?:one|an option))\b[^:]{0,40}:\s*$/i;

const ALTERNATIVES: readonly RegExp[] = [
  /(?<![,;]\s)\bwhich\b(?!\s+(?:is|was|are|were|has|had|will|would be|means|includes?|contains?|shows?)\b)/i,
  /\b(?:either|one|any|each) of (?:these|those|them|the (?:above|following|options|alternatives|two|three)|the \w+ (?:options|alternatives))\b/i,
  // "Would you still like to return them, or would you like to keep them?"
  /\b(?:would you (?:still |rather |instead )?(?:like|prefer|rather)|do you (?:still )?(?:want|prefer|wish)|you(?:'d| would)? (?:like|prefer|want|wish|rather)|shall i|should i|should we|would it be better|prefer)\b[^?]*?\bor\b(?!\s+not\b)/i,
  /\b(?:your (?:preference|choice)|(?:which|what) (?:would you|do you) prefer|how would you like to proceed|how you(?:'d| would) like to proceed)\b/i,
  // "Select a payment method", "would you like this option?".
  /\b(?:select|choose|pick)\b(?!\s+(?:to|from the menu)\b)|\b(?:this|that|these|those|one|an?|either) (?:\w+ )?options?\b/i,
  // "Are you looking to change the dates, or the destination?", "What would you like to do with it — return, exchange, or something else?".
  /\bare you (?:looking|hoping|wanting|trying|planning) to\b[^?]*?\bor\b/i,
  /[\u2014\u2013:-]\s*(?:[\w' -]{1,30},\s*)+(?:or\s+)?[\w' -]{1,30}\?\s*$/i,
  // "Reply with your choice", "please reply with A, B, or C".
  /\breply with (?:your |the )?(?:choice|preference|pick|selection|option)\b|\breply with [A-H1-9](?:\s*,\s*[A-H1-9])*,?\s+or\s+[A-H1-9]\b/i,
];

/** An ask put as a condition, up to the comma before the agent's own step: "If you can provide either of those, I can help you ...". */
const IF_YOU_CAN = /^\W*if you (?:can|could) (?:please )?(?:provide|share|give|send|tell me|confirm|remember|find|check)\b[^,.?!]*(?=,\s*(?:i|we)(?:'ll| will| can| could| may|'d be able to)?\s+(?:help|assist|look|check|find|locate|pull|proceed|get|take|continue)\b)/i;

/** Words that point back at details named elsewhere in the message. */
const BACK_REFERENCE = /\b(?:those|these|the above|above|the following|following|that information|this information|the details|those details|these details|that info|this info|them|all of that|everything above|either (?:one|of (?:them|those|these)))\b|\bwhich (?:one )?(?:would|do|will) you (?:like|prefer|want) to (?:give|share|provide|use|send)\b|\b(?:send|provide|share|give|enter|type|re-?enter|re-?send|check|double-?check|verify|confirm)\s+it\s+(?:again|once more)\b/i;

const anyMatch = (patterns: readonly RegExp[], text: string): boolean =>
  patterns.some((p) => {
    p.lastIndex = 0;
    return p.test(text);
  });

/** "Just let me know.", naming nothing to know. */
const BARE_LET_ME_KNOW = /^\W*(?:(?:just|simply|please|so)\s+)?let (?:me|us) know\W*$/i;

/**
 * Not asks, however they are worded: a pointer elsewhere ("please contact us again with your order
 * number"), advice for later ("please try again later"), a closing pleasantry ("let me know if you have
 * any other questions").
 */
const ELSEWHERE = /\b(?:contact|reach out to|call|write to|e-?mail|visit) (?:us|our|support|the (?:store|airline|help ?desk))\b|\b(?:try|check) (?:again )?later\b|\bany (?:other|more|further|additional) (?:questions?|help|concerns?|assistance|details|information|changes)\b|\bfurther (?:assistance|help)\b|\bif (?:you (?:need|have|want) (?:anything|any|more|further|other|questions?|help|assistance)|there(?:'s| is) anything)\b|\bfeel free to\b|\bhow else (?:i|we) (?:can|may) (?:help|assist)\b/i;

/** "Any other details", "any more information": a closing pleasantry, unless the unit names what it wants. */
const ANY_MORE_DETAILS = /\bany (?:other|more|further|additional) (?:details|information)\b/gi;

/**
 * "If you remember any other details, such as your email address, please share them" still asks: a unit that
 * reads as a pleasantry only by "any other details" asks for them when it names who the user is.
 */
function asksIdentityAfterAll(text: string, lang: UserLanguage | undefined): boolean {
  return lang !== undefined && !ELSEWHERE.test(text.replace(ANY_MORE_DETAILS, '').replace(ANY_OTHER_IDENTITY, '')) && anyMatch(lang.identityAsked, text);
}

/** "If you have any other possible emails or zip codes ...": the way in to an ask for who the user is. */
const ANY_OTHER_IDENTITY = /\bif you (?:have|remember|know|can think of) any (?:other |more |further |additional )?(?:possible |alternative |different )?(?=e-?mails?\b|(?:full |first |last )?names?\b|zip|postal|user ?ids?\b)/gi;

/**
 * A closing offer tacked on to an ask ("Which one would you like, or is there anything else I can help
 * with?", "let me know which you prefer, or if you need more options", "please confirm, or let me know if
 * you have any changes", "Would you like to return the shoes instead, or do you need assistance with something
 * else?", "… or perhaps I can assist you with something else?"): the ask is what comes before it, with the
 * question mark the unit ended in.
 */
const CLOSER_JOIN = String.raw`(?:,|;|\s-|\s—)?\s+(?:or|and)\s+`;
const CLOSER = new RegExp(String.raw`${CLOSER_JOIN}(?:please\s+)?(?:feel free to|don't hesitate to)\b[^?.!()]*[?.!]?\s*$|${CLOSER_JOIN}(?:(?:let me know|tell me)\s+)?(?:is there\s+|if there(?:'s| is)\s+|if you (?:need|have|want|would like|'d like)\s+|(?:(?:do|would|are|were) you\s+|(?:perhaps\s+)?(?:can|may|could|shall|should) (?:i|we)\s+|(?:perhaps\s+)?(?:i|we) (?:can|could)\s+)?(?:(?:need|want|require|have|like|prefer)\s+(?:(?:help|assistance)\s+with\s+)?|(?:assist|help) you with\s+|(?:looking for|after)\s+|(?:want|need|would like|'d like|like) to (?:handle|do|discuss|address|look (?:at|into)|work on)\s+))?(?:perhaps\s+(?=(?:anything|something) else\b))?(?:anything|something|any(?:thing)? (?:other|more|further)(?!\s+(?:identifying|identification|e-?mails?|zip)\b)|more|other|further)\b(?![^?.!()]*\b(?:locate|find|identify|look up|verify) (?:you|your (?:account|profile|identity))\b)[^?.!()]*[?.!]?\s*$|${CLOSER_JOIN}(?:let me know|tell me)\s+if you (?:need|have|want|would like|'d like)\s+any\s+(?:changes?|corrections?|adjustments?|questions?|concerns?|edits?)\b[^?.!()]*[?.!]?\s*$`, 'i');

/** A unit without a closing offer tacked on to it; the unit itself when it is nothing else, or has none. */
function withoutCloser(u: Unit, lang: UserLanguage): Unit {
  const m = CLOSER.exec(u.text);
  if (!m || m.index === 0) return u;
  // "If you remember any other details, such as your email address or any other information about your
  // account, please share that": what looks like a closing offer asks for who the user is.
  if (anyMatch(REQUEST, u.text.slice(m.index)) && asksIdentityAfterAll(u.text, lang)) return u;
  // A closing offer names nothing of the request: "or do you have any other details, such as your name and zip code?",
  // "or would you prefer other verification" ask for them.
  if (named(u.text.slice(m.index), lang).length > 0) return u;
  const core = u.text.slice(0, m.index).trim();
  if (core.length < 8) return u;
  return { ...u, text: `${core}${/\?\s*["')\]]?\s*$/.test(u.text) ? '?' : '.'}` };
}

/** Whether a unit asks: a question, a request phrase, or a list item under an asking lead-in. */
function asks(u: Unit, underAskingLeadIn: boolean, lang?: UserLanguage): boolean {
  // A question, even with its options in brackets after it: "May I know the reason? (change of plan, or other)".
  if (/\?\s*(?:\([^)]*\))?\s*["')\]}]{0,3}\s*$/.test(u.text)) return true;
  // A list item is one unit, whatever its sentences: a question that ends one of them asks, though more follows it in the item
  // ("- … Would you like me to transfer you to a human agent? If so, I will include a summary.", "- **Insurance:** Do you want to
  // add it? It covers …"), where it is put to the user. Not a question in the user's own voice, as a list of answers puts them
  // ("- **Do I need to check in again?** Yes, …").
  if (u.item && /\?["')\]]?\s+\S/.test(u.text) && questionsPut(u.text)) return true;
  // "Reservation: R900701" states a value, even in a list under "I'll need:"; "Email address: so that I
  // can find your account" under it asks for what its label names.
  // (A colon in brackets is no label's: "Cancel order #W1 (Reason: ordered by mistake)".)
  if (u.item && /^[^:(]{1,40}:\s*\S/.test(u.text) && !/:\s*$/.test(u.text)) {
    let [label = '', rest = ''] = u.text.split(/:(.*)/s);
    // A form under a label of its own ("Option B: First name: <blank>  Zip: <blank>"): what the form names.
    const form = /^\s*([A-Za-z][^:]{0,30}):(.*)$/s.exec(rest);
    if (form && PLACEHOLDER.test(form[2] as string)) [label, rest] = [`${form[1]} ${(form[2] as string).replace(/<[^>]*>/g, ' ')}`, form[2] as string];
    // A label asks when what follows it says why or how ("Email address: so that I can find you"), not
    // when it gives a value ("Name: John Smith", under "please confirm the following:").
    // An example for the value is no value ("Order ID: (e.g., #W1234567)").
    const example = /^\s*\(?\s*(?:e\.g\.|for example|such as|like)(?!\w)/i.test(rest) || PLACEHOLDER.test(rest);
    const labelAsks = underAskingLeadIn && lang !== undefined && named(label, lang).length > 0 && (example || (!/\d/.test(rest) && /^\s*(?:so|to|for|as|e\.g\.|i\.e\.|which|that|we|it|in|the|your|why|what|how|where|when|if)\b/i.test(rest)));
    // A value with an ask inside it: "Payment method: one certificate (please specify which one: ...)",
    // "Cancellation rules: ... Please confirm your reason for cancellation (...)".
    // Not "Please allow 5-7 days and let me know if it does not arrive".
    const valueAsks =
      /\((?:please|kindly) [^)]*\b(?:specify|choose|select|pick|confirm|tell|let me know)\b|(?:[.!]|\s[\u2014\u2013-])\s+(?:please|kindly) (?:also )?(?:specify|choose|select|pick|confirm|provide|tell me|send|share|give)\b/i.test(rest) ||
      // "Option A: your email address", under "you can do this in one of two ways:": what the user is to give.
      (underAskingLeadIn && lang !== undefined && /^\s*\**\s*(?:your|the)\b/i.test(rest) && !/\d/.test(rest) && named(rest, lang).length > 0);
    // A label that is itself a request ("Confirm the order ID: #W1", "Tell me where you'd like the refund sent: ..."),
    // under an asking lead-in: it asks, whatever value follows.
    const labelRequests = underAskingLeadIn && /^\W*(?:please\s+)?(?:confirm|verify|double-check|tell me|let me know|provide|share|send|give me|specify|choose|select|pick)\b/i.test(label);
    if (!labelAsks && !valueAsks && !labelRequests) return false;
  }
  if (ELSEWHERE.test(u.text) && !asksIdentityAfterAll(u.text, lang)) return false;
  if (u.item && underAskingLeadIn) return true;
  return anyMatch(REQUEST, u.text) || (lang !== undefined && terseAsk(u.text, lang));
}

/**
 * An ask put as a bare list of what the agent needs, with no verb: "Email, or full name + ZIP, please.", "Email + order #, pls.",
 * "To start: email on the account (or name + zip).", "First things first: your email address.", "Still needed from you: the
 * new address". Read as an ask only where the list itself names what the world asks for, and it is no instruction or statement
 * ("Keep your reservation number handy, please", "Step one: print the label from your email", "To start: your return is
 * approved", "that's all that's needed from you").
 */
function terseAsk(text: string, lang: UserLanguage): boolean {
  const list = TERSE_PLEASE.exec(text)?.[1] ?? TERSE_LEAD.exec(text)?.[1] ?? TERSE_STILL.exec(text)?.[1];
  return list !== undefined && !TERSE_NOT_A_LIST.test(list) && named(list, lang).length > 0;
}
/** What comes before ", please" at the end, short: "Email, or full name + ZIP". */
const TERSE_PLEASE = /^\W*([^.?!:]{2,50}?),?\s+(?:please|pls|plz)\W*$/i;
/** What comes after a lead-in of a first step or a need: "To start: email on the account", "Step 1: your email", "Need: ...". */
const TERSE_LEAD = /^\W*(?:to start|to begin|to get started|first(?: step)?|first things first|step (?:one|1)|to verify (?:you|your (?:account|identity))|still need(?:ed)?|need(?:ed)?)\s*:\s*([^.?!]{2,80})[.!]?(?:\s|$)/i;
/** What follows "still needed from you", or "needed from you" as a label: "Still needed from you: the new address". */
const TERSE_STILL = /^\W*(?:still (?:needed|required) from you\b|(?:needed|required) from you\s*:)\W*(.{2,120})$/i;
/** A list that is no list of details: it opens with a verb or a wait, or tells a state ("is approved", "will be sent"). */
const TERSE_NOT_A_LIST = /^\W*(?:check|keep|save|print|hold|wait|note|remember|make|allow|bring|see|visit|contact|call|use|take|give|drop|let|just|one (?:moment|sec)|a (?:moment|sec)|please|look|watch|expect|open|follow|read|return|ship|pack|attach|go)\b|\b(?:is|are|was|were|has|have|had|will|been|handy|for (?:future )?reference|for your records|while i)\b/i;

/** The slots and identity a unit names, by the world's patterns. */
function named(text: string, lang: UserLanguage): Ask[] {
  const out: Ask[] = [];
  if (anyMatch(lang.identityAsked, text)) out.push({ kind: 'identity', text });
  for (const [slot, language] of Object.entries(lang.slots)) if (anyMatch(language.asked, text)) out.push({ kind: 'slot', slot, text });
  return out;
}

/**
 * Reads a message: every unit that asks is placed as identity, slots, a confirmation or "what do you
 * need"; a unit that refers back ("once you provide those details") asks for what the units before it
 * named; "anything else?" asks nothing about the request. A message with no ask that says the agent is
 * working on it is a progress note.
 */
export function readAgentMessage(text: string, lang: UserLanguage): Reading {
  let read = readings.get(lang);
  if (!read) readings.set(lang, (read = memoized((t) => deepFreeze(readUncached(t, lang)), 5_000)));
  return read(text);
}

/**
 * Each world's language's readings, by the message's text: a reading depends on the text and the
 * language alone, and a scripted agent says the same words in many episodes. Frozen, since shared.
 */
const readings = new WeakMap<UserLanguage, (text: string) => Reading>();

function readUncached(text: string, lang: UserLanguage): Reading {
  const units = unitsOf(text);
  // The records a message lists, for "which one would you like?".
  const pattern = globalOf(lang.entityPattern);
  const listed = [...new Set(units.flatMap((u) => [...u.text.matchAll(pattern)].map((m) => m[0])))];
  // A pick's options are records only when the message lists more than one; one record named beside
  // "cancel it or modify it?" is what both alternatives act on.
  const pickable = listed.length > 1 ? listed : [];
  const listItems = units.filter((u) => u.item).length;
  const result: Ask[] = [];
  const mentioned: Ask[] = [];
  let leadInAsks = false;
  // A lead-in that offers what follows as alternatives ("would you like me to:", "you can either:"): its items are a pick.
  let leadInChoice = false;
  for (const [index, whole] of units.entries()) {
    const u = withoutCloser(whole, lang);
    // "If you can provide either of those, I can help you find your order ID": what it asks is before the comma; what follows
    // is the agent's own step.
    const names = named(IF_YOU_CAN.exec(u.text)?.[0] ?? u.text, lang);
    // A question in the user's own voice that the message goes on to answer ("Do I need to ship it back? No, you can keep it",
    // "**What happens next?** Your refund arrives in 5 days"), as a list of answers puts it, asks the user nothing.
    // A bare "Just let me know." after a closing offer ("Anything else I can help with? Just let me know.") goes on with the offer.
    const closingTail = BARE_LET_ME_KNOW.test(u.text) && index > 0 && (anyMatch(lang.anythingElse, (units[index - 1] as Unit).text) || ELSEWHERE.test((units[index - 1] as Unit).text));
    const asking: boolean = asks(u, leadInAsks, lang) && !usersOwnQuestion(u, units[index + 1]) && !closingTail;
    // "I'll need the following:" asks through its items; "Here are the details:" shows them.
    // "Required information:" too; not "no action needed from you:".
    // "Please authenticate by providing either:" too.
    // "You can do this in one of two ways:" too.
    // "Quick checklist so I can book this:" too.
    if (u.leadIn) leadInAsks = asking || (/\b(?:need(?:ed|s)?|require[ds]?|provid(?:e|ing)|send(?:ing)?|shar(?:e|ing)|giv(?:e|ing)|authenticate|reply (?:with|in)|respond with|fill (?:in|out)|(?:in )?(?:the following|this) (?:format|template)|(?:one|either) of (?:two|the|these|those) ways|checklist|so (?:i|we) can (?:book|proceed|process|continue|look|find|check|start))\b/i.test(u.text) && !/\b(?:no|not|nothing|none)\b/i.test(u.text));
    else if (!u.item) leadInAsks = false;
    if (u.leadIn) leadInChoice = OFFERS_ITEMS.test(u.text);
    else if (!u.item) leadInChoice = false;
    if (!asking) {
      mentioned.push(...names);
      continue;
    }
    // Not an offer of a change for something else ("Want me to book you something else while you're here?"): that
    // proposes, and the user answers it.
    if (anyMatch(lang.anythingElse, u.text) && names.length === 0 && !OFFERS_CHANGE.test(u.text)) continue;
    // An item of alternatives offered ("- Search for one-stop flights?", "- Check nearby dates?"): a pick among
    // them, and whatever else it asks ("2. Confirm if you'd like to proceed with the modification").
    if (u.item && leadInChoice && names.length === 0) result.push({ kind: 'choose', options: pickable, text: u.text });
    // Not a pick between alternatives ("should I refund it to the card, or to a gift card?"): that is read below.
    // Nor what it asks the user to pick before it goes on ("please confirm your preferred refund method and I'll proceed").
    if (names.length > 0 && (MY_STEP.test(u.text) || (anyMatch(GO_AHEAD_ASKED, u.text) && !WH_QUESTION.test(u.text))) && !ASKS_DETAIL.test(u.text) && !anyMatch(ALTERNATIVES, u.text) && !PREFERENCE_TO_CONFIRM.test(u.text)) {
      result.push({ kind: 'confirm', text: u.text });
      // "Please confirm with yes, and specify the gift card ID for payment": the detail is asked as well.
      // Only what is named after that ask: "shall I cancel it for the reason given, and provide the refund id" asks no reason.
      const detail = AND_DETAIL.exec(u.text);
      const asked = detail ? named(u.text.slice(detail.index), lang) : [];
      result.push(...asked);
      mentioned.push(...names);
      continue;
    }
    if (names.length > 0) {
      result.push(...names);
      continue;
    }
    // What the units before named, and a go-ahead where it is asked in so many words as well ("reply yes to
    // proceed, given the confirmations above").
    if (BACK_REFERENCE.test(u.text) && mentioned.length > 0) {
      result.push(...mentioned);
      if (REPLY_YES.test(u.text)) result.push({ kind: 'confirm', text: u.text });
      continue;
    }
    if (CHOICE.test(u.text) && listed.length > 0) {
      result.push({ kind: 'choose', options: listed, text: u.text });
      continue;
    }
    // A pick among alternatives that are not all records ("which gift card?", "cancel it or modify
    // it?"): a choice, and a go-ahead as well when it also asks for one ("shall I proceed with the
    // cancellation, or would you rather wait?").
    const choice = anyMatch(ALTERNATIVES, u.text);
    if (choice) result.push({ kind: 'choose', options: pickable, text: u.text });
    // "To proceed, I'll need ..." sets the stage; only what follows it may ask for a go-ahead. "Could
    // you confirm the number of passengers" asks for a detail, not a go-ahead.
    const staged = u.text.replace(/^(?:in order )?to (?:proceed|continue|go ahead)\b[^,.]*[,.]?\s*/i, '');
    // "Confirm the cancellation" is a go-ahead all the same: what it would confirm is the change.
    const detailToConfirm = /\bconfirm (?:the|your|which|what|how|whether) /i.test(staged) && !GO_AHEAD.test(staged) && !CHANGE_TO_CONFIRM.test(staged) && !REPLY_YES.test(staged);
    // The general go-ahead words do not make a pick between alternatives ("would you like to use the
    // card, or the certificate?") or a question of what ("which card would you like to use?") a go-ahead.
    const whQuestion = WH_QUESTION.test(staged);
    const generalGoAhead = !choice && !whQuestion && anyMatch(GO_AHEAD_ASKED, staged);
    if (!detailToConfirm && !(whQuestion && choice) && (anyMatch(lang.confirmAsked, staged) || generalGoAhead)) result.push({ kind: 'confirm', text: u.text });
    else if (choice) continue;
    // "What would you like to do?" after a list of options asks for a pick among them.
    else if (anyMatch(lang.helpAsked, u.text)) result.push(listItems >= 2 ? { kind: 'choose', options: pickable, text: u.text } : { kind: 'help', text: u.text });
    // A terse question that ends a message which told something first ("Scrap it?", "Drop both?", "Go?", "Tack 'em
    // on?"): the go-ahead for what it told.
    else if (!u.leadIn && whole === units.at(-1) && units.length > 1 && TERSE_GO_AHEAD.test(u.text)) result.push({ kind: 'confirm', text: u.text });
    else if (!u.leadIn) result.push({ kind: 'unplaced', text: u.text });
    mentioned.push(...names);
  }
  // An ask it cannot place beside asks it can ("once you share these, I can continue") adds nothing. A
  // go-ahead asked beside a detail is kept: the user gives the detail first (ScriptedUser.respond).
  const placed = result.some((a) => a.kind !== 'unplaced');
  const deduped = dedupe(result.filter((a) => !(placed && a.kind === 'unplaced')));
  const progress = deduped.length === 0 && units.some((u) => anyMatch(PROGRESS, u.text));
  return { asks: deduped, progress, units: units.map((u) => u.text) };
}

function dedupe(asks: readonly Ask[]): Ask[] {
  const seen = new Set<string>();
  const out: Ask[] = [];
  for (const a of asks) {
    const key = a.kind === 'slot' ? `slot:${a.slot}` : a.kind === 'unplaced' || a.kind === 'choose' ? `${a.kind}:${a.text}` : a.kind;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a);
  }
  return out;
}
