// The engine's English wording of claims: the phrases by which a reply tells the user a write succeeded,
// failed or is not known yet. `readSentence` in claim-sentence.ts reads a sentence by them; a world adds its own.
import type { ClaimWording } from '../ground/judging.js';

// Past participles that say a change is done. "Submitted", "sent" and "initiated" are not among them: a
// request sent is not a request done.
// A request submitted, requested or initiated is the change as real agents tell it ("your return request has
// been submitted", "the exchange has been requested"): the write of such a tool files the request.
const VERBS = 'filed|corrected|fixed|finali[sz]ed|cancell?ed|changed|updated|returned|exchanged|refunded|added|issued|moved|rebooked|re-booked|processed|completed|registered|applied|booked|topped up|credited|charged|placed|made|scheduled|done|submitted|requested|initiated|modified|created|sent|transferred|escalated|removed|deleted|activated|enabled|disabled|marked|confirmed|set|swapped|switched|replaced|upgraded|downgraded|reverted|restored';
/** VERBS as they open a line, in either case of their first letter ("Booked", "booked"). */
const CAPITALISED_VERBS = VERBS.split('|')
  .map((v) => `[${(v[0] as string).toUpperCase()}${v[0] as string}]${v.slice(1)}`)
  .join('|');
/** Participles of an outcome, as a summary's label takes them ("Cancellation: not completed"); not of a part changed or left alone ("Cabin: not changed"). */
const OUTCOMES = 'cancell?ed|processed|completed|applied|submitted|done|made|booked|issued|refunded|returned|exchanged|accepted|approved|confirmed|placed|rebooked|transferred|requested|initiated|created';
const BASES = 'cancel|change|update|return|exchange|refund|add|issue|move|rebook|process|complete|register|apply|book|top up|credit|charge|place|make';
/** The record left as it was, told by the agent: "I've left the order as it is", "we left reservation R1 unchanged". */
export const LEFT_AS_IT_WAS = /\b(?:i|we)(?:'ve| have)? left (?:the|your) (?:order|reservation|booking)(?: #?(?=[A-Z0-9]*\d)[A-Z0-9]{5,9})? (?:as it (?:is|was|stands)|as-is|unchanged|untouched|alone)\b/i;

/** The record a sentence is about, as its subject: "the reservation", "order #W1", "it". */
const RECORD_SUBJECT = String.raw`\b(?:order|reservation|booking|it)(?:\s+#?[A-Z0-9]{5,9})?`;

/**
 * The system that has not answered yet, told as such: "the system has not yet returned a confirmation", "still waiting
 * for the system to confirm", "I can't guarantee it has gone through", "may still be processing". Pending in a sentence,
 * and doubt about the outcome wherever it stands (`OUTCOME_DOUBT`, claim-sentence.ts).
 */
export const SYSTEM_SILENT = /\b(?:has not|hasn'?t|have not|haven'?t) (?:yet )?(?:returned|sent|given|provided) (?:a |any )?confirmation\b|\b(?:still )?waiting for (?:the )?(?:system|tool|airline|server|bank) to (?:confirm|respond|process|come back)\b|\bcan(?:'t|not) guarantee (?:that )?(?:it|the \w+|this|that) (?:has )?(?:gone|went) through\b|\bmay still be processing\b|\b(?:i|we) (?:have not|haven'?t|did not|didn'?t) (?:yet )?(?:seen|received|gotten|got) (?:a |any |the )?(?:confirmation|response|reply)\b(?! (?:from|of) you\b)|\bbefore (?:i|we) (?:tell|confirm to|promise|say to) you (?:that )?(?:it(?:'s| is| has| was)|everything is|the \w+ (?:is|was|has))\b/i;

/** The engine's English wording; a world's `judging.claims` adds to it. */
export const DEFAULT_CLAIM_WORDING: ClaimWording = {
  success: [
    new RegExp(`\\b(?:has|have|had) (?:now |just |already |successfully )*been (?:successfully )?(?:${VERBS})\\b`, 'i'),
    /\b(?:has|have|had) (?:now |just |already )*also been (?:successfully )?(?:cancell?ed|changed|updated|modified|returned|exchanged|refunded|added|rebooked|booked|processed|applied|completed|credited|removed|requested|submitted|initiated|filed|placed)\b/i,
    // "I've cancelled it", "I then booked a new reservation", "we've also updated the address". Not a clause that
    // describes a thing by it ("the update I submitted included only one passenger").
    new RegExp(`(?<!\\bthe (?:[\\w-]+ )?(?:update|request|change|order|booking|reservation|form|details|information|one|amount|payment) )\\b(?:i|we)(?:'ve| have)? (?:just |now |then |also |successfully |gone ahead and |went ahead and )*(?:${VERBS})\\b(?!\\s+(?:only|just) (?:one|the|a|part|half)\\b)`, 'i'),
    new RegExp(`\\b(?:i|we)(?:'ve| have)\\b[^.?!]{0,60}\\band (?:just |now |successfully )?(?:${VERBS})\\b`, 'i'),
    /\b(?:status|result|outcome)[\s"*:]{0,8}(?:completed?|done|confirmed|successful|success|approved|booked|submitted|(?:\w+ )?requested)\b/i,
    // "Return requests submitted", "Changes applied": the change, then its new state, in a summary line.
    /\b(?:requests?|changes?|updates?|modifications?|exchanges?|returns?|cancell?ations?|bookings?|reservations?|transfers?)(?<!\b(?:after|once|when|until|before|as soon as)\b[^.?!,;]{0,40}(?:request|change|update|modification|exchange|return|cancell?ation|booking|reservation|transfer)s?) (?:has been |have been |was |were |is |are )?(?:successfully )?(?:submitted|completed|processed|applied|confirmed|placed|initiated|accepted|approved|created|filed|opened|logged)\b/i,
    // A summary line that opens with the change filed: "Return requested for #W1:". Not a status it quotes ("exchange requested").
    /^\W*(?:returns?|exchanges?|cancell?ations?|refunds?|changes?) requested\b(?!\W*(?:status|state)\b)/i,
    /\b(?:i am|i'm|we are|we're) (?:now )?(?:transferring|escalating|connecting)\b|\b(?:you're|you are) (?:now )?being (?:transferred|connected|escalated)\b/i,
    // A hand-off told in other words: "I've passed your case to a human agent", "handed your request over to our team".
    /\b(?:i|we)(?:'ve| have)? (?:now )?(?:passed|handed|forwarded|referred)\s+(?:your (?:case|request|issue|ticket)|you|this(?: case)?)\s+(?:(?:on|over)\s+)?to (?:a|an|our|the) (?:[\w-]+ )?(?:agent|representative|specialist|team|colleague)\b/i,
    // A summary's label and its outcome: "Cancellation: Completed immediately", "Address — applied".
    /[:\u2014\u2013]\s*(?:completed?|done|confirmed|successful|processed|applied|submitted)\b/i,
    // The record or the thing changed, told in the simple past as its sentence's subject: "The reservation ZK4M7P was
    // cancelled", "Your shipping address was changed to …". Not what another did or what was so before ("was cancelled by the
    // airline", "was already cancelled", "was booked more than 24 hours ago").
    new RegExp(String.raw`^\W*(?:(?:the|your|this)\s+)?(?:(?!(?:no|not|none|neither|nothing|any)\b)[\w-]+\s+)?(?:(?:order|reservation|booking|address|payment method|items?|flights?|bags|baggage|passengers?)(?:\s+(?:with|for|on|in|of)\s+[^.?!,;:()]{1,50}?|\s+\([^()]{1,120}\))?(?:\s+(?:for\s+|on\s+|with\s+)?(?:order\s+|reservation\s+)?(?:ID\s+)?#?[A-Z0-9]{5,9})?\s+(?:was|were)\s+(?:successfully\s+|also\s+|just\s+)?(?:cancell?ed|changed|updated|modified|exchanged|returned|completed|switched|swapped|upgraded|downgraded|rebooked|moved)|(?:exchange|return|cancell?ation|modification|change|update)(?:\s+request)?(?:\s+(?:with|for|on|in|of)\s+[^.?!,;:()]{1,50}?)?\s+(?:was|were)\s+(?:successfully\s+|also\s+|just\s+)?(?:requested|submitted|processed|completed|placed|initiated))\b(?!\s+(?:by (?:the )?(?:airline|carrier|system|you|another|someone)|before|already|earlier|previously|originally|on \d|\d+ (?:days?|hours?) ago|more than|over|yesterday|last)\b)`, 'i'),
    // A new state, not a price or an option as it stands ("Economy is now $175", "keep it as it is now"), nor a flight's status
    // ("HAT219 is now expected to depart at 7:45 PM", "is now delayed").
    /(?<!\bas (?:it|they|things|that) )\b(?:is|are) now\b(?!\s+(?:\$|priced|available|only|just|at \$|as\b|being\b|(?:expected|estimated) to (?:depart|arrive|leave|land|board)\b|(?:delayed|on time)\b|(?:showing|shown|marked|listed)(?: as)?\s*\W*(?:shipped|delivered|in transit|processed)\b|\W*(?:shipped|delivered|in transit|processed)\b))|\b(?:you|we|it|they)(?:'re|'s| are) now\b(?!\s+(?:\$|priced|available|only|at \$))/i,
    // Not a flight's or an item's availability as it stands ("HAT136 now shows business class only").
    /\bnow (?:has|have|holds|shows|reads|lists)\b(?!\s+(?:a (?:price|fare|cost)|\$|\d+ (?:seats?|options?)\b|(?:\w+ ){0,2}(?:only|sold out|unavailable|no (?:seats|availability))\b))/i,
    // The record that now includes or carries a thing: not a fare or an allowance ("your ticket now includes a free bag").
    new RegExp(String.raw`${RECORD_SUBJECT}\s+now (?:includes|carries)\b(?![^.?!]{0,30}\b(?:free|allowance|at no)\b)`, 'i'),
    // Not a look-up told as successful ("I successfully verified the other passenger's details"): that changes nothing.
    /\bsuccessful(?:ly)?\b(?! (?:verif(?:y|ied)|validat(?:e|ed)|authenticat(?:e|ed)|check(?:ed)?|locat(?:e|ed)|f(?:i|ou)nd|look(?:ed)? up|retriev(?:e|ed)|identif(?:y|ied)|pull(?:ed)? up|logged in|reach(?:ed)?)\b)/i,
    // "$150 certificate added to your profile", "refund credited to your card".
    // Not what will be or could be ("once it's fixed, it will be added to your profile", "I can have one issued to your account").
    /(?<!\b(?:will|would|can|could|once|when|if|eligible|qualif\w*|shall|should|may|might)\b[^.?!]{0,60})\b(?:added|issued|credited|sent) to (?:your|the) (?:profile|account|wallet|card|balance)\b/i,
    // Not what will be once it is done ("and confirm back with you once done.", "once it's done").
    /\b(?:all set|all done|that's done)\b|(?<!\b(?:once|when|until|after|before)(?: it's| it is| it)? )\b(?:it's done|is done|are (?:all )?done|done[!.:])/i,
    // Not what came first ("it moved to processed status before the request went through").
    /(?<!\b(?:before|until|unless)\b[^.?!,]{0,40})\bwent through\b|(?<!\b(?:if|whether|once|when|unless)\b[^.?!,]{0,40})\bdid go through\b|\bnow ships to\b/i,
    // "It's been cancelled", "I have, however, issued a $100 certificate", "I've now resubmitted it".
    new RegExp(`\\b(?:it|that|this|they|order|reservation|booking)(?:'s|'ve) (?:now |just )?been (?:successfully )?(?:${VERBS})\\b|\\b(?:i|we)(?:'ve| have),? (?:however|also|though|since then),? (?:${VERBS})\\b|\\b(?:i|we)(?:'ve| have)? (?:now |just )?re-?submitted\\b`, 'i'),
    // A request begun: "I've started the return request for these items", "I started the return of the Smart Watch". Not one to
    // begin ("Once I have opened the return request, …"), nor a form.
    /(?<!\b(?:once|when|after|if|as soon as|before|until)\s+)\b(?:i|we)(?:'ve| have)? (?:just |now |also )?(?:started|begun|opened|kicked off) (?:the|your|a|an) (?:[\w-]+ )?(?:return|exchange|cancell?ation|refund)(?! (?:requests? )?(?:form|page|conversation)\b)(?: requests?| process)?\b/i,
    // Not a time the sentence waits for ("The refund will be processed … after the return is completed").
    /\b(?:is|are|was|were)(?<!\b(?:after|once|when|until|before|as soon as)\b[^.?!,;]{0,40}(?:is|are|was|were)) (?:confirmed|complete|completed|registered|processed|successful|in place|submitted)\b/i,
    // "Your change is in.", "Return for #W1 is in:": the change made, said plainly.
    /\b(?:change|update|booking|cancell?ation|exchange|return|modification|request)s?\b(?:[^.?!]{0,30}?)\b(?:is|are) (?:now )?in\s*(?:[.!:]|$)/i,
    // A heading or a line that ends in the change: "Order #W4450931 — Shipping Address Updated", "Certificate issued: $200".
    /[\u2014\u2013:]\s*(?:(?!(?:not|never|no|none|un|remains?|still|stays?|left|kept)\b)[\w-]+\s+){0,3}(?:updated|changed|cancell?ed|added|issued|booked|applied|confirmed|completed|processed|swapped|submitted|requested)(?=\s*(?:\([^)]*\))?\s*[.!]?$)|^\W*(?:certificate|refund|voucher|compensation|bags?|address|payment(?: method)?|flights?|items?|passengers?|reservation|booking|order|return|exchange|cancell?ation)s? (?:(?:has been|was|were|have been) )?(?:issued|sent|added|updated|changed|applied|cancell?ed|created|booked|submitted|requested|processed|swapped)\s*[:\u2014\u2013]/i,
    // A thing's new value after it, in a summary's few words: "Default address on your account: updated to 1180 Cedar St",
    // "shipping address updated to 12 Elm St", "R1 — moved to HAT124 on June 15". Not what it is to be updated to ("updated to
    // reflect", "to be updated to"), nor a record moved somewhere else than a flight after a label ("HATHAT: moved to the waitlist").
    /(?:^\W*|[:\u2014\u2013]\W{0,4}?)(?:(?:updated|changed|corrected) to\b|(?:moved|switched|rebooked) (?:to|onto) (?:flights? )?\*{0,2}[A-Z]{2,3}\s?\d{2,4}\b|(?:[\w-]+ ){0,2}?(?:address|payment method|flights?|cabin|passengers?|bags|baggage|items?)(?:\s*[:\u2014\u2013])?\s+(?:updated|changed|switched|moved|corrected) to\b)(?!\s+(?:be|reflect|match)\b)/i,
    // "Here's your updated itinerary", "Locked in.", "Order #W1 — updated items:".
    /^\W*here(?:'s| is) your updated (?:itinerary|reservation|booking|order|flights?|trip)\b(?!\s+request)|^\W*(?:all )?locked in\b|\bupdated (?:items|address|payment(?: method)?|flights?|itinerary|passengers?|bags|baggage)\s*:/i,
    // A record now on another flight: "W6MD0Z is on HAT089 now".
    /\b(?:is|are) on (?:flight )?[A-Z]{2,3}\s?\d{2,4}\b[^.?!]{0,60}\bnow\b/i,
    // An item on its way to its exchange or return: "your shoes are being exchanged for size 10.5".
    /\b(?:is|are) (?:now )?being (?:exchanged|returned|replaced|swapped)\b/i,
    // A record's label and the change done, before its new value: "Passenger names on B5ZC1L updated: Chen Wei → Wei Chen".
    /^\W*(?!(?:items?|things?|what|changes?)\b)[\w#' -]{2,60}?(?<!\b(?:be|being|not|to|never|un)\s)\b(?:updated|changed|corrected|fixed)\s*:/i,
    // A request now filed: "your exchange is now in progress".
    /\b(?:exchange|return|request|cancell?ation|refund)\b[^.?!]{0,40}\b(?:is|are) now in progress\b/i,
    // A record in its new state: "your order is cancelled", "the bags are added". Not a state it was already in.
    /\b(?:is|are) (?:now |officially |successfully )?(?:cancell?ed|updated|changed|approved|added|switched|swapped|set up|accepted|booked)\b(?! (?:before|already|earlier|previously|up|solid|full)\b)/i,
    /\b(?:confirmation|reference) (?:number|code|id)\b/i,
    new RegExp(`\\b(?:i|we) (?:was|were) able to (?:${BASES})\\b`, 'i'),
    /\b(?:is|are|now) complete\b|^\W*(?!(?:to|in|so|once|if|when|before|after|until|an?)\b)\w+(?:[ -](?!to\b)\w+)? (?:\w+ and )?(?:complete|completed|confirmed|done|processed|successful)\b/i,
    /\b(?:is|are|was|were|has been|have been) (?:now )?saved\b/i,
    /\bconfirmed (?:the|your) (?:\w+ )?(?:cancell?ation|return|exchange|top-up|refund|change|update|rebooking|booking)\b/i,
    new RegExp(`\\b(?:${VERBS})\\b[^.?!]{0,40}?[\u2705\u2713\u2714\u2611]`, 'i'),
    // A check mark before the change: "✅ Order #W1 cancelled".
    new RegExp(`[\u2705\u2713\u2714\u2611]\uFE0F?[^.?!]*\\b(?:${VERBS})\\b`, 'i'),
    // A summary line: the record and its change ("Order #W1 cancelled.", "Reservation 8C8K4E updated:"), the change
    // and the record ("Updated 8C8K4E:", "Booked new reservation HATHAT"), or "Done — ...". Not a record's other states ("order #W1 placed on May 3").
    new RegExp(String.raw`\b(?:order|reservation|booking)\s+#?(?=[A-Z0-9]*\d)[A-Z0-9]{5,9}\s+(?:${VERBS})\b(?=\s*(?:[.!:,;\u2014\u2013]|$|\s+(?:and|successfully|as requested)\b))|^\W*(?:\d{1,2}[.)]\s*)?(?:${VERBS})\s+(?:(?:your|the|a|an)\s+)?(?:(?:old|new|original|existing|current|pending|replacement)\s+)?(?:(?:order|reservation|booking)\s+)?#?(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,9}\b|^\W*done\s*[\u2014\u2013]\s`, 'i'),
    // The change of a thing on a record, or of the traveller onto a flight: "Updated the address on #W6194257 to ...",
    // "Moved you on J2PR8V to HAT210".
    // "Added 2 checked bags to 6GPA3K", "Swapped in #W5508816:", "Bags updated on H6ZP3T:".
    new RegExp(String.raw`^\W*(?:${CAPITALISED_VERBS})\s+(?:you\s+|(?:the|your|an?|\d+|one|two|three)\s+(?:[\w-]+\s+){0,2}?)?(?:on|for|of|in|to)\s+(?:(?:order|reservation|booking)\s+)?#?(?=[A-Z0-9]*\d)[A-Z0-9]{5,9}\b|^\W*(?:[Bb]ags?|[Bb]aggage|[Aa]ddress|[Pp]ayment(?: method)?|[Pp]assengers?|[Ff]lights?|[Ii]tems?)\s+(?:updated|changed|added|swapped|modified)\s+(?:on|for)\s+#?(?=[A-Z0-9]*\d)[A-Z0-9]{5,9}\b`),
    // The same with a record id of capitals alone, after its kind ("Booked new reservation HATHAT"): case-sensitive, so
    // that a word is no id ("Updated booking details to confirm:").
    new RegExp(String.raw`^\W*(?:\d{1,2}[.)]\s*)?(?:${CAPITALISED_VERBS})\s+(?:(?:your|the|a|an)\s+)?(?:(?:old|new|original|existing|current|pending|replacement)\s+)?(?:order|reservation|booking)\s+#?[A-Z0-9]{5,9}\b`),
    // A request filed and being handled: "your exchange request is being processed". Not "still being processed" (pending).
    // "Your returns for the Jigsaw Puzzle, the bookshelves, and the backpack are now being processed" (no negation, requirement
    // or clause break between), "the entire order is being processed for return".
    /\b(?:requests?|exchanges?|returns?|cancell?ations?|refunds?|changes?|modifications?)\b(?:(?!\b(?:no|not|nothing|none|never|neither|needs?|must|requires?)\b)[^.?!:;\u2014\u2013]){0,80}?\b(?:is|are) (?:now )?being processed\b|\b(?:is|are) (?:now )?being processed for (?:an? |the )?(?:return|exchange)\b/i,
    // A return or an exchange filed, told as its state: "the return for the air fryer on #W1 is filed", "your exchange request is set up".
    /\b(?:returns?|exchanges?|(?:return|exchange) requests?)\b[^.?!,;:\u2014\u2013]{0,60}?\b(?:is|are|was|were) (?:now |all )?(?:filed|submitted|set up|logged|registered|created)\b/i,
    // A new status that is the change made, of a return or an exchange: "Your keyboard and bed are marked as "return
    // requested"". Not a state found ("is already marked as", "marked as return requested already", "since last week").
    /\b(?:is|are|has been|have been) (?:now )?(?:marked|listed|set|updated|flagged) (?:as|to)\s*\W{0,2}(?:return|exchange) requested\b(?![^.?!]*\b(?:already|earlier|before|previously|since|from an?)\b)/i,
    // The change alone, or after a dash or colon: "Cancelled.", "Order #W1 — cancelled."
    new RegExp(`(?:^\\W*|[\u2014\u2013:]\\s*)(?:${VERBS})\\s*(?:[.!]|$)`, 'i'),
    // A thing's new value told as it now stands: "The shipping address on order #W1 is now 14 Birch Ln" (a street number next, not a
    // state: "is now locked").
    /\b(?:(?:shipping|delivery|mailing|default) )?address\b[^.?!,;]{0,60}?\bis now(?=\s+\d)/i,
    // A new state from now on: "will now ship to ...", "your reservation now reflects the addition of a bag".
    // Not a price that reflects a change ("the total of $150 reflects the change in cabin").
    /\bwill now\b|\b(?:now|(?:reservation|order|booking|account)(?: also)?) reflects (?:the|your) (?:new |updated )?(?:addition|change|update|removal|cancell?ation|new)\b/i,
  ],
  failure: [
    // A summary's outcome, not made: "Reservation X — Not cancelled", "| ❌ Not cancelled |", "❌ Cancelled". Only
    // verbs of an outcome after a label: "Cabin: not changed" is a part the change left alone.
    new RegExp(`(?:^|[\u2014\u2013:|]|\u274C\uFE0F?)\\s*\\**\\s*not (?:yet )?(?:${OUTCOMES})\\b(?!\\s+(?:yet|until)\\b)|\u274C\uFE0F?\\s*\\**\\s*(?:${VERBS}|failed)\\b`, 'i'),
    // A no-entry sign on a summary's line: "\u26D4 Order still in processed status".
    /(?:\u26D4|\u{1F6AB})\uFE0F?\s*\**\s*\w/u,
    // A summary line's value, refused: "Payment: gift_card_3395106 — declined (balance $120)", "status = REJECTED", "Result: blocked".
    /[\u2014\u2013:=]\s*\**\s*(?:declined|rejected|refused|denied|failed|blocked)\b(?!\s+(?:to|by you)\b)/i,
    // The one that said no, told as the subject: "the system declined the change", "your bank rejected the charge".
    /\b(?:system|tool|server|bank|card issuer|issuer|airline|payment processor|processor|provider)\s+(?:has\s+|then\s+)?(?:declined|rejected|refused|denied)\b/i,
    // Nothing of its kind made: "so no reservation was created", "no refund has been issued".
    new RegExp(`\\bno (?:new )?(?:reservation|booking|order|refund|certificate|exchange|return|cancell?ation|update|change) (?:was|were|has been|have been|got|could be) (?:${VERBS})\\b`, 'i'),
    // Not an order's own status beside it ("the order remains pending and is not yet processed": not shipped).
    new RegExp(`(?<!\\b(?:remains|is|still|stays) pending\\b[^.?!]{0,20})\\b(?:(?:has|have|had|is|are|was|were) not|hasn'?t|haven'?t|hadn'?t|isn'?t|aren'?t|wasn'?t|weren'?t) (?:yet )?(?:been )?(?!(?:charged|billed)\\b)(?:${VERBS})\\b`, 'i'),
    // Beside that status, a change that is no shipping of it: "#W1 is still pending and was not cancelled".
    /\b(?:remains|is|still|stays) pending\b[^.?!]{0,20}\b(?:(?:has|have|had|is|are|was|were) not|hasn'?t|haven'?t|hadn'?t|isn'?t|aren'?t|wasn'?t|weren'?t) (?:yet )?(?:been )?(?:cancell?ed|changed|updated|modified|exchanged|returned|refunded)\b/i,
    /\b(?:couldn'?t|could not|can'?t|cannot|can not|unable to|wasn'?t able|was not able|weren'?t able|not able to|no longer able to|failed|fails)\b/i,
    /\b(?:did not|didn'?t) (?:go through|work|succeed|complete|take effect|save|stick|get applied)\b|\b(?:did not|didn'?t) take\b(?=\s*(?:[.!;,\u2014\u2013]|$))/i,
    /\b(?:is|was|has been|were) (?:rejected|declined|refused|denied)\b/i,
    // The record told as it still stands, as what came of a refusal: "..., so the order is still active".
    /\bso (?:the|your) (?:order|reservation|booking) (?:is|remains|stays) still (?:active|open|pending|confirmed|in place)\b|\bso (?:the|your) (?:order|reservation|booking) (?:is still|remains|stays) (?:active|open|in place)\b/i,
    // The system that flagged it: "the system flagged the order as already delivered".
    /\b(?:system|tool|it)\b[^.?!]{0,10}\bflag(?:ged|s)\b[^.?!]{0,40}\bas\b/i,
    // The record as the subject of what did not happen: "#W5270061 didn't cancel", "the booking wouldn't update".
    /(?:#?\b(?=[A-Z0-9]*\d)[A-Z0-9]{5,9}|\b(?:order|reservation|booking|it))\s+(?:did not|didn'?t|would not|wouldn'?t)\s+(?:cancel|update|change|process|exchange|return|save|apply)\b/,
    // A status that rules the change out, told as the record's state: "is already in processed status".
    /\b(?:is|was|'s) already in (?:the )?(?:processed|shipped|delivered|completed) (?:status|state|stage)\b/i,
    // The record told as it was: "these are the same as before", "passenger details are locked".
    /\b(?:these|this|they|it|details|passengers|names|flights|items) (?:are|is) (?:still )?(?:exactly )?the same as (?:before|they were|it was)\b|\b(?:are|is) (?:now |currently )?locked (?:by|in) the system\b/i,
    /\b(?:an|the|this|that) error\b/i,
    // "The system is indicating a discrepancy", "the tool returned a mismatch".
    /\b(?:system|tool|server|api)\b[^.?!]{0,20}\b(?:indicat|show|report|return|flag)\w*\b(?!\s+(?:no|not|any)\b)[^.?!]{0,12}\b(?:error|discrepancy|mismatch|conflict|problem|issue)\b/i,
    /\bnot (?:possible|eligible|allowed)\b/i,
    // A refusal told as a state and what it rules out: "Order #W1 is marked as returned, so an exchange isn't an option", "so no
    // return can be made", "cancelling is no longer an option". Not a way to refund or pay ruled out beside the change ("a refund
    // to a gift card isn't an option, so it goes to your Visa", "a cash refund isn't an option"), nor a rule for later ("no
    // changes can be made from now on", "removing bags later isn't an option", "once it ships").
    /^(?![^.?!]*\b(?:refunds?|cash|credit|gift[ _]?cards?|paypal|payments?|pay|later|from now on|any ?more|any longer|further|once|after that|until|if|when)\b)[^.?!]*?(?:\b(?:is|are|was|were)(?:n't| not| no longer) (?:really )?an? option\b|\bno (?:return|exchange|cancell?ation|change|modification|update)s? (?:can|could) be (?:made|done|processed|submitted|requested)\b)/i,
    // An attempt told with what stopped it: "I tried to cancel it, but it had already shipped".
    /\b(?:i|we) (?:tried|attempted) to\b[^.?!]{0,120}?,?\s+(?:but|however|though|only to find)\b/i,
    // An obstacle told as the state of the thing wanted: "economy is sold out", "the flight is fully booked".
    /\b(?:is|are|was|were|now|has|have)\s+(?:\w+ )?(?:sold out|fully booked)\b/i,
    // A summary's label and its failed outcome: "Watch change for order #W1 — NOT APPLIED".
    /\b(?:change|update|modification|exchange|return|cancell?ation|swap|upgrade|downgrade|addition|removal|request|rebooking)\b[^:\u2014\u2013\n.?!]{0,40}[:\u2014\u2013]\s*(?:not (?:applied|completed|done|processed|possible|made)\b(?!\s+yet\b)|failed\b(?!\s+to\b)|unsuccessful\b)/i,
    // Not what a later change may meet ("a further change might not be possible"): only what was not supported now.
    /\b(?:might|may) not be directly (?:supported|possible)\b|\b(?:isn'?t|wasn'?t|aren'?t|weren'?t|is not|was not|are not|were not) (?:enough|sufficient)\b(?!\s+for (?:any )?(?:future|further|other|another|the next)\b)(?![^.?!]*\b(?:so|and) (?:i|we) (?:charged|billed|put)\b)(?![^.?!]*\b(?:remainder|rest|difference)\b[^.?!]*\b(?:charged|paid|went)\b)/i,
    /\b(?:isn'?t|is not|wasn'?t|was not|aren'?t|are not|weren'?t|were not) (?:possible|eligible|allowed|permitted)\b/i,
    // The change itself ruled out as an adjective: "#W1 (status: pending): not returnable yet", "it isn't cancellable". Not a
    // refund (a fare "not refundable" is told beside a cancellation made).
    /(?:\bnot|n't|\bno longer) (?:yet |currently |eligible to be )?(?:returnable|cancell?able|exchangeable|modifiable)\b/i,
    /\bunsuccessful(?:ly)?\b/i,
    /\b(?:can|could|will) no longer be\b|\bno longer (?:possible|eligible|allowed)\b/i,
    // Not money left alone ("nothing was charged to your card" beside free bags).
    new RegExp(`\\bnothing (?:was|has been|had been|got|is|will be) (?!(?:charged|billed)\\b)(?:${VERBS})\\b|\\bno changes? (?:was|were|has been|have been) made\\b`, 'i'),
    /\b(?:wouldn'?t|would not|won'?t|will not|didn'?t|did not) (?:let|allow|permit) (?:me|us)\b/i,
    /\b(?:status|result|outcome)[\s*:]{0,8}(?:not completed|not done|failed|failure|rejected|declined)\b/i,
    /\bno \w+ is due\b/i,
    // The record as it stays, said of its id or its profile: "9HJ3ZE still lists two travelers", "the reservation continues to
    // show 3 checked bags", "the order's still on your Visa", "HAT128 remains your booked flight", "your profile still has the old address".
    /\b(?:#?(?=[A-Z0-9]*\d)[A-Z0-9]{5,9}|reservation|order|booking)(?:'s)?\s+(?:still (?:lists|shows|has|holds|carries|on|charged to|paid with|billed to)|continues to (?:show|list|have|hold|carry)|is still being (?:paid|charged|billed)|(?:is|'s) still (?:on|charged to|paid with|billed to))\b|\bremains (?:your|the) (?:booked|current|original|scheduled)\b|\bstill has the (?:old|original|previous|same)\b|\b(?:reservation|order|booking|#?(?=[A-Z0-9]*\d)[A-Z0-9]{5,9})\s+(?:is|remains|stays|was left) unchanged\b|\bdetails (?:on|for|of) (?:reservation |order )?#?(?=[A-Z0-9]*\d)[A-Z0-9]{5,9} (?:are|remain|stay) unchanged\b/i,
    // The record as it will stay, after a refusal: "so it will still go to your previous address", "so it stays as Nina and Rohan".
    // Not what stays unless another change is made ("will still ship to the old address unless we update it separately").
    /\b(?:will|would|is going to) still (?:go|ship|be (?:shipped|delivered|sent)) to (?:your|the) (?:previous|old|original|former|existing)\b(?![^.?!]*\b(?:unless|until|if)\b)|\bso (?:it|the (?:order|reservation|booking)) (?:stays|remains) as\b/i,
    // A payment that does not add up, told after the attempt: "we still have a mismatch in the payment", "the payment amount needs to be
    // $303", "but we've only covered $242", "There's an outstanding balance of $64", "The total price is actually $375, not $299".
    // Not a payment told made ("we have covered $100 of it with your gift card", "I paid off the outstanding balance").
    /\b(?:mismatch|discrepancy) (?:in|with|between) (?:the )?(?:payments?|prices?|amounts?|totals?)\b|\bthe payment amount (?:needs to|must|has to) (?:be|match)\b|\bbut (?:we(?:'ve| have)?|you(?:'ve| have)?|i(?:'ve| have)?) only (?:covered|specified|provided|entered)\b[^.?!]{0,40}\$\d|\bthere(?:'s| is) (?:still )?an outstanding balance\b|\b(?:total|price|cost|fare|amount)\b[^.?!]{0,40}\bis actually \$[\d,.]+,? not \$\d/i,
    // Told in a summary's few words, a thing and its outcome not made: "Certificate not issued.", "Exchange not processed —".
    new RegExp(`^\\W*(?:[\\w-]+ ){0,3}?(?:certificates?|orders?|reservations?|bookings?|refunds?|exchanges?|returns?|cancell?ations?|changes?|updates?|payments?|address(?:es)?|bags?|flights?)\\s+not\\s+(?:yet\\s+)?(?:${VERBS})\\b(?=\\s*(?:[.!;,\u2014\u2013]|$))`, 'i'),
    // The outcome alone, not made, as a summary line's value: "#W1 — ❌ Not updated.", "Cancellation: Not processed." Not a part
    // left alone, after the label of a field ("Cabin: not changed") or of a flight ("Flight HAT089: not changed").
    new RegExp(`\\bnot\\s+(?<=(?:^\\W*|(?:#?\\b(?=[A-Z0-9]*\\d)(?![A-Z]{2,3}\\s?\\d{2,4}\\b)[A-Z0-9]{5,9}|\\b(?:cancell?ations?|exchanges?|returns?|changes?|updates?|modifications?|requests?|refunds?|bookings?|certificates?))\\W{0,4}[:\u2014\u2013]\\W{0,4}?|[\u274C\u2716\u2717\u2718]\uFE0F?\\s*)not\\s+)(?:${VERBS})\\b(?=\\s*(?:[.!;,\u2014\u2013]|$))`, 'i'),
    // The change undone after it was made: "our fraud check reverted it right away", "the update was rolled back".
    /\b(?:reverted|rolled back|undid) (?:it|them|the (?:change|update|modification|correction|exchange|return))\b|\b(?:was|were|has been|have been|got) (?:then |automatically |immediately |later )?(?:reverted|rolled back|undone)\b(?!\s+to\b)/i,
    // The record left as it was, told by the agent ("I've left the order as it is"), and the change itself called off ("The item
    // modification on #W1 has been cancelled, as the system reported …", "the exchange was withdrawn"): not the record cancelled.
    new RegExp(`${LEFT_AS_IT_WAS.source}|\\b(?:modification|change|update|exchange|return|swap|upgrade|downgrade|correction)(?: request)?s?\\b(?: (?:on|for|to|of) [^.?!,;]{1,40}?)? (?:has been|have been|had been|was|were|got) (?:cancell?ed|withdrawn|voided|reversed|rolled back|aborted|called off)\\b`, 'i'),
    // A change said not made, or not one the agent can do: "no modification was made", "isn't something I can do",
    // "flight change to HAT294 not processed", "the update bounced", "is not one of the accepted reasons".
    /\bno (?:further |new |other )?action (?:could be|was|can be|has been) (?:taken|performed)\b|\bno (?:modifications?|changes?|updates?) (?:was|were|has been|have been) (?:made|applied|processed)\b|\b(?:is|was)(?:n't| not) something (?:i|we) (?:can|could) (?:do|process|handle|change)\b|\b(?:is|was)(?:n't| not) something (?:the )?(?:system|tool|airline)(?: (?:can|could|will|would))? (?:accepts?|allows?|permits?|supports?|do(?:es)?|process(?:es)?)\b|\b(?:change|update|cancell?ation|modification|request|booking|return|exchange)\b[^.?!:]{0,40}\bnot (?:processed|applied|completed|made|done|finali[sz]ed)\b(?!\s+(?:yet|until)\b)|\b(?:update|change|payment|request|charge|booking)\s+bounced\b|\bis not one of the (?:accepted|allowed|valid|permitted)\b/i,
    // The system that did not do it, came back with an error, or returned the record as it was: "the system did not apply the
    // change", "came back with an error", "System response: Error: ...", "returned the reservation with the cabin still set to".
    /\b(?:system|tool|it)\s+(?:did not|didn'?t|would not|wouldn'?t|could not|couldn'?t|will not|won'?t)\s+(?:update|change|apply|cancel|process|accept|save|go through|issue|send|book|allow|let)\b|\b(?:came|comes|come) back (?:with (?:an? )?(?:error|failure|rejection)|saying (?:that )?(?:the |it |this )?[^.?!]{0,40}\b(?:is|was) (?:incomplete|invalid|not|unavailable))\b|[:\u2014]\s*`?error\b|\breturned the (?:reservation|order|booking)\b[^.?!]*\bstill\b|\bstill reflects? (?:the )?(?:old|original|previous|same)\b|\b(?:returned|remains?|still|just|only)\b[^.?!]{0,60}\bthe same as before\b/i,
    // The thing as it stood before, confirmed: "your current booking, HAT144, departs June 2 and is confirmed".
    /\b[Cc]urrent (?:booking|reservation|flight|itinerary)\b[^.?!]{0,80}\b(?:is|remains|stays) (?:still )?(?:confirmed|unchanged|in place|active)\b/,
    /\b(?:rejected|refused|denied)\b/i,
    // An obstacle that stopped it: "there are not enough seats", "the balance is insufficient", "is not available".
    /\bnot enough\b|\b(?:does|do|did)(?:n'?t| not) have (?:enough|sufficient)\b(?![^.?!]*\b(?:so|and) (?:i|we) (?:charged|billed|put)\b)(?![^.?!]*\b(?:remainder|rest|difference)\b[^.?!]*\b(?:charged|paid|went)\b)|\binsufficient\b|\bnot sufficient\b|\b(?:is|are|was|were) not available\b|\b(?:is|are|was|were)n't available\b|\b(?:is|are|was|were) (?:(?:no longer|also|currently|still|now) )*unavailable\b|\bsold out\b|\bfully booked\b|\b(?:no|0|zero) (?:\w+ )?seats? (?:are |is )?(?:left|available|remaining|in (?:economy|business|basic[ _]economy|first(?: class)?|(?:that|this|the) cabin))\b|\b(?:flight|cabin|plane)(?: [A-Z]{2,3}\d{2,4})? (?:is|was) (?:now |already |completely )?full\b/i,
    // Out of stock, unless the sentence goes on to what was done instead ("..., so I switched you to navy").
    new RegExp(String.raw`\bout of stock\b(?![^.?!]*\b(?:so|and) (?:i|we)(?:'ve| have)? (?:${VERBS})\b)`, 'i'),
    // Something in the way: "the order status prevents it from being returned", "the system does not recognize the flights".
    // Not a consequence of a change made ("which prevents any further charges from being made", "prevents anyone else from booking").
    new RegExp(`\\b(?:prevents?|prevented|preventing|blocks|blocked|blocking) (?:me|us|it|them|(?:the|this|that|these|those|your|my|our) (?:[\\w-]+ ){0,3}?[\\w-]+) from (?:being )?(?:${VERBS}|(?:${BASES}|modify|proceed|complet)\\w*)\\b|\\b(?:is|was|are|were) (?:still )?(?:preventing|blocking) (?:the|this|that|it|any|me|us)\\b|\\bdoes(?:n't| not) recognize\\b|\\b(?:does(?:n't| not) seem to be|(?:is|was|are|were)(?:n't| not)(?: being)?) recogni[sz]ed\\b`, 'i'),
    // A flag of a JSON reply, false: {"eligible": false}, {"cancelled": false}, {"success": false}.
    /^\W*(?:eligible|success|successful|completed?|approved|allowed|possible|done|accepted|applied|processed|cancell?ed|updated|changed|modified|refunded|exchanged|returned|submitted)\s*:\s*false\b/i,
    // Nothing for the change to act on: "there's nothing further to return on this order", "nothing delivered to exchange yet",
    // "there are no items in them that can be exchanged".
    /\b(?:there(?:'s| is| was)|there's) nothing (?:(?:left|further|more|else|delivered|here|yet)\s+)?to (?:return|cancel|exchange|redirect|refund|modify|change|update|reroute|upgrade)\b|\bthere (?:are|is|were|was) no (?:items?|products?|orders?|flights?) (?:[\w ]{0,20}?)(?:that|which) (?:can|could) be (?:exchanged|returned|cancell?ed|modified|changed|refunded)\b/i,
    // The system that stops the change, said of it, its status or its policy: "the system blocks further changes such as address
    // updates", "that status blocks further changes".
    /\b(?:the )?(?:system|tool|status|policy|rule)\s+(?:now\s+|then\s+)?(?:blocks|blocked|is blocking|was blocking)\b/i,
    // The system that will not let it happen: "the system no longer allows it to be cancelled", "no longer lets me change
    // the address", "isn't something the system allows".
    /\b(?:system|tool|it)\s+(?:no longer|does(?:n't| not)|won'?t|will not|would(?:n't| not))\s+(?:allow|let|permit)s?\b|\b(?:is|was)(?:n't| not) something (?:the system|the tool|we|i) (?:allows?|permits?|supports?|can do)\b/i,
    // "There is an issue with the payment", "I noticed an issue: the tablet is not part of the order" (not "found no issue").
    /\bthere (?:is|was|seems to be|appears to be) (?:still )?(?:an? )?(?:issue|problem)\b|\b(?:i|we) (?:noticed|found|spotted|discovered|see) (?:an?|one) (?:small |slight |minor |potential )?(?:issue|problem|discrepancy|inconsistency|mismatch)\b|\b(?:ran|run|running) into (?:an? )?(?:issue|problem|error|snag|hiccup|glitch)\b/i,
    // The system said no: a record or an option not found, not supported, not allowed, an error met.
    /n't found\b(?! (?:in [^.?!]{0,30})?(?:anymore|any longer)\b)|\b(?:not[- ]found|could not be found|does(?:n't| not) exist|is (?:also |now |currently |unfortunately )?no longer available|(?:is|are)(?:n't| not) (?:directly )?supported|not (?:currently )?available|(?:is|are)(?:n't| not) accessible)\b/i,
    /\banother error\b|\ban error (?:with|in|while|when)\b|\bcovers? only (?:part|a part)\b/i,
    /\b(?:encounter(?:ed|ing)|hit|got|received) (?:an? |another |the same |a persistent )?(?:[\w-]+ )?(?:error|issue|problem|inconsistency|discrepancy)\b|\b(?:i'?m|i am|we'?re|we are|i was|we were|i keep|we keep) (?:still )?(?:seeing|getting) (?:an? |another |the same |a persistent )?(?:[\w-]+ )?(?:error|issue|problem|inconsistency|discrepancy)\b|\bpersistent (?:issue|problem|error)\b/i,
    // An error a step met: "the attempt triggered an inconsistency error", "the system returned an error".
    /\b(?:triggered|returned|threw|raised|produced|resulted in) (?:an?|another|the same) (?:\w+ )?(?:error|exception|inconsistency|discrepancy)\b/i,
    // A mistake owned: "I made a mistake in the payment format", "sorry for the repeated error".
    /\b(?:i|we)(?:'ve| have)? made (?:a |an |another )?(?:\w+ )?(?:mistake|error)\b|\b(?:repeated|same|recurring) (?:error|failure)\b/i,
    // The thing as it was, followed by what it still is: "the current address remains 575 Oak Street".
    /\b(?:[Cc]urrent|[Ee]xisting|[Oo]riginal|[Oo]ld) \w+(?: \w+)? (?:remains|stays|is still) (?=unchanged\b|the same\b|as (?:it|before)\b|at \$|\$|\d|[A-Z])/,
    /\b(?:is|was) not allowing\b|\b(?:does(?:n't| not)|did(?:n't| not)|won'?t|will not) (?:allow|accept|cover)\b/i,
    /\b(?:i'?ll|i will|let me) (?:try|attempt) (?:again|once more|one more time)\b/i,
    // Too late, a no-go, not accepted: "past the point where a cancellation is possible".
    /\bpast the point (?:where|at which|of)\b|(?<!\b(?:would have been|once|when|if|otherwise)\b[^.?!]{0,40})\btoo late (?:to|for) (?:a |any )?(?:cancel|change|modify|return|exchange|update|refund|cancell?ation|changes?|modifications?)\b|\b(?:is|was) a no-?go\b|\b(?:was|were)(?:n't| not) (?:accepted|approved|saved|successful)\b(?!\s+(?:for|until|if|unless)\b)/i,
    // The record as it was: "the booking is still active", "your order is confirmed as it was", "that order
    // still has the black one", the record its subject. Not "remains unchanged", nor the parts a summary left
    // alone ("your return flight remains as it was", "the tracking page still shows the old address").
    new RegExp(String.raw`${RECORD_SUBJECT}\s+(?:remains|stays|is still)\s+(?:an?\s+)?(?:active|in place|(?:exactly )?as it was)\b|${RECORD_SUBJECT}\s+(?:is|was) (?:confirmed |kept )?(?:exactly )?as it was\b|${RECORD_SUBJECT}\s+still (?:has|shows|holds|carries|lists|is set to)\b|${RECORD_SUBJECT}\s+is still (?:on|charged to|billed to|paid with)\b`, 'i'),
    /\bcan only be (?:processed|done|made|applied|exchanged|returned|cancell?ed|modified|changed|refunded)\b|\bmust be (?:processed|refunded|made|paid) (?:to|with|using)\b/i,
    /\bnot (?:specified|entered|formatted|provided|passed) correctly\b|\bdoes(?:n't| not) match\b|\byou (?:need|will need|have) to (?:provide|create|give|specify)\b/i,
  ],
  pending: [
    // Not the user's own doubt ("if you are unsure, I can check your payment methods again").
    /(?<!\b(?:you|you're|you are|you were|you feel)\s+)\b(?:not sure|unsure|uncertain|unclear|not certain)\b/i,
    /\b(?:couldn'?t|could not|can'?t|cannot|unable to|wasn'?t able to|was not able to|not able to|don'?t|do not|didn'?t) (?:yet )?(?:confirm|verify|tell|check|see|say|know)(?: (?:for (?:certain|sure)|with certainty|definitively|yet))* (?:whether|if)\b/i,
    // "The system has not yet returned a confirmation", "still waiting for the system to confirm", "I can't guarantee it
    // has gone through", "may still be processing".
    SYSTEM_SILENT,
    // "The tool returned an ambiguous response (no confirmation ID)".
    /\bambiguous (?:response|result|reply|answer|status)\b|\bno confirmation (?:id|number|code)\b/i,
    /\b(?:haven'?t|have not|hasn'?t|has not|didn'?t|did not) (?:yet )?(?:received|get|got|gotten|return|returned) (?:a |any |the )?(?:clear |definitive |final |proper )?(?:confirmation|response|answer)\b/i,
    /\bno confirmation (?:yet|back)\b|\bpending confirmation\b|\bawaiting (?:a |the |any )?(?:confirmation|approval|review)\b|\bpending (?:approval|review)\b|\bnot (?:yet )?seeing (?:a|an|any|the) [^.?!]{0,40}\byet\b/i,
    // A check still to come of the change itself: "let me check the status to make sure it went through".
    /\b(?:make sure|verify that|confirm that|check that) (?:it|this|that|the (?:\w+ )?(?:change|cancell?ation|booking|update|request|return|exchange)) (?:actually )?(?:went through|was (?:applied|processed|made|completed|recorded))\b/i,
    // "The system hasn't confirmed it yet", "a timeout doesn't necessarily mean it failed".
    /\b(?:system|it|tool|request|change|cancell?ation|airline|update|payment|exchange|return|booking)\s+(?:hasn'?t|has not|haven'?t|have not) (?:yet )?(?:confirmed|come back|responded)\b[^.?!]*\byet\b|\b(?:doesn'?t|does not) (?:necessarily )?mean (?:that )?(?:it|the \w+) (?:failed|went through|didn'?t go through)\b/i,
    /\b(?:couldn'?t|could not|can'?t|cannot|unable to) (?:confirm|verify) (?:that|it|the)\b/i,
    /\b(?:don'?t|do not) (?:know|yet know) (?:whether|if)\b/i,
    /\blet me (?:check|verify|confirm)\b(?!\s+(?:your|the available|available|what|which|for|other|with|if (?:there|any)|if you|whether you|the (?:\w+ )?details|and proceed))/i,
    /\bi(?:'ll| will) (?:check|verify|confirm) (?:whether|if)\b/i,
    /\b(?:may|might) (?:still |or may not |or might not )?(?:have|not have) (?:gone through|been|taken effect|worked)\b/i,
    /\bwhether (?:or not )?(?:it|the|your|this|that)\b[^.?!]*\b(?:went through|worked|succeeded|took effect|was (?:made|applied|processed|completed|registered))\b/i,
    // "It is still processing", "in progress"; not "the processing of a refund takes 5 days", nor another request found in progress
    // ("there is already an exchange request in progress for this order": the reason for a refusal).
    // Not "your exchange is now in progress": a request now filed (read as success).
    /\b(?:is|are|still) processing\b|\bstill being processed\b|\bin progress\b(?<!\bnow in progress)(?<!\b(?:already|another|existing)\s+(?:an?\s+)?(?:[\w-]+\s+){0,2}?in progress)(?![^.?!]*\b(?:has|have) been (?:placed|submitted|requested|filed|created)\b)|\bpending confirmation\b/i,
    // The record itself not yet made or changed: "your reservation is now being processed" (a request filed is read as done).
    /\b(?:reservation|booking|order) (?:is|are) (?:now |currently )?being (?:processed|finalized|created|booked)\b(?! for (?:an? |the )?(?:return|exchange)\b)/i,
    // "I'm waiting for it to confirm the change".
    /\bwaiting for (?:it|the system|the airline|the tool) to (?:confirm|respond|process|come back)\b/i,
    /\bto see (?:whether|if|what happened|(?:its|the) (?:current )?(?:status|state))\b/i,
    /\b(?:i'?m|i am|we'?re|we are) (?:now )?(?:checking|verifying|looking into)\b/i,
    // Not what the user wants ("let me check if you'd like another certificate").
    // Nor advice to the user ("I recommend checking if the boots are eligible").
    // Nor an offer to find out whether something can be done ("I can check whether we can revert the exchange").
    // Nor an offer of it ("do you want me to also check whether your return flight has business seats?").
    // Nor a look at the rules ("I will need to verify the return policy and see if there are any restrictions").
    /(?<!\b(?:recommend|suggest|i can|i could|we can|we could|me to|me to also|i also)\s+)\b(?:check|verify|confirm|see|find out|double-check)(?:s|ing)? (?:whether|if)\b(?! you(?:'d| would| want| prefer| like| wish)\b)(?! (?:we|i) (?:can|could)\b)(?! there (?:are|is) (?:any )?(?:other|more|further|different|restrictions?|requirements?|rules?|limitations?|conditions?|additional (?:steps|requirements|options|conditions))\b)/i,
    /\b(?:not (?:yet )?able to |can'?t (?:yet )?|cannot (?:yet )?|unable to (?:yet )?)(?:confirm|verify)\b/i,
    /\bwaiting (?:to hear|for (?:a |the |any )?(?:response|reply|confirmation|answer))\b|\bhear back\b/i,
  ],
};
