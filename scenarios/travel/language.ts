import type { PerturbationLanguage, UserLanguage } from '../../src/ground/world.js';
import { AIRPORTS } from './network.js';

/**
 * How a traveller words things: opening phrasings per intent and answers per slot. Slots in braces are
 * filled from the scenario and protected from perturbation.
 */

/** The user's e-mail asked for; not a confirmation or receipt e-mail the user is pointed to. */
const EMAIL_ASKED = /(?<!\b(?:confirmation|receipt|notification|booking|order|our|an?)\s)\be-?mail\b(?!\s+(?:confirmation|receipt|notification))/i;
export const travelLanguage: UserLanguage = {
  intents: {
    flight_status: [
      'Is flight {flight} on {date} on time?',
      "What's the status of flight {flight} on {date}?",
      'Can you check the status of my flight on reservation {reservation}?',
      'Is the flight on my booking {reservation} on schedule?',
    ],
    reservation_total: [
      'How much did I pay for reservation {reservation}?',
      'What was the total for my booking {reservation}?',
      "I'd like to know how much I paid for my trip to {destination}.",
    ],
    credit_balance: ['How much travel credit do I have?', "What's my travel credit balance?", 'Can you check my travel credit balance?'],
    cancel: [
      'I want to cancel reservation {reservation}.',
      'Please cancel my booking {reservation}.',
      "I'd like to cancel my trip to {destination}.",
      "I'd like to cancel a reservation.",
    ],
    change_flight: [
      "I'd like to move reservation {reservation} to flight {newFlight} on {date}.",
      'Can you change the flight on reservation {reservation} to {newFlight} on {date}?',
      "I'd like to change reservation {reservation} to fly on {date} instead.",
      'I need to change the flight on one of my reservations.',
    ],
    add_bags: [
      "I'd like to add {bags} checked bags to reservation {reservation}.",
      'Can I add {bags} checked bags to my booking {reservation}?',
      'I need to add checked bags to reservation {reservation}.',
    ],
    compensation: [
      "My flight on reservation {reservation} was disrupted and I'd like compensation.",
      "I'd like compensation for the disrupted flight on my booking {reservation}.",
      "One of my flights was disrupted and I'd like compensation.",
    ],
  },
  identity: {
    email: ['My email is {email}.', 'You can find me under {email}.', 'My e-mail address is {email}.'],
    'name-dob': ["I'm {name}, born {dob}.", 'My name is {name} and my date of birth is {dob}.', 'The booking is under {name}, date of birth {dob}.'],
  },
  identityAsked: [EMAIL_ASKED, /\bproceed with (?:the |your )?(?:verification|authentication)\b|\bhow (?:you(?:'d| would) like to|to) (?:verify|authenticate) (?:you|your)\b/i, /\bnames?\b/i, /date of birth/i, /birth ?date/i, /verify (your|the) identity/i, /who (you are|am i speaking)/i, /\buser ?id\b/i, /\buser (?:information|details)\b/i, /\baccount (?:id|number)\b/i, /\b(?:help (?:me )?)?(?:locate|identify|look up) (?:you|your (?:account|profile))\b/i],
  identityKindAsked: { email: [EMAIL_ASKED], 'name-dob': [/birth|\bdob\b/i] },
  slots: {
    reservation: {
      asked: [/reservation (number|id|code)/i, /booking (number|reference|code)/i, /which (reservation|booking|trip)/i, /confirmation (number|code)/i],
      answers: ["It's reservation {reservation}.", 'The booking reference is {reservation}.', 'Reservation {reservation}.'],
    },
    flight: { asked: [/flight number/i, /which flight (is it|do you mean)/i], answers: ["It's flight {flight}.", 'Flight {flight}.'] },
    date: { asked: [/which (date|day)/i, /what (date|day)/i], answers: ['On {date}.', 'The date is {date}.'] },
    destination: { asked: [/where (are|were) you (flying|travell?ing|going)/i, /which (city|destination)/i], answers: ['To {destination}.', 'The trip to {destination}.'] },
    newFlight: {
      asked: [/which (of these |one of these )?(flights?|options?) (would you like|do you (want|prefer)|should i book|you(?:'d| would)? (?:like|prefer|want)|to (book|switch|move|change))/i, /which flight instead/i, /which (one|of these) (should i book|to book)/i],
      answers: ["I'd like {newFlight}.", '{newFlight}, please.'],
    },
    reason: { asked: [/\breason\b/i, /\bwhy\b/i], answers: ['{reason}.', 'Well, {reason}.'] },
    bags: { asked: [/how many (checked )?(bags|suitcases)/i], answers: ['{bags} more, please.', 'I want to add {bags}.'] },
    // Charges need a payment method the traveller chooses; one who does not say is asked.
    payment: { asked: [/(which|what) payment method/i, /\b(?:preferred|chosen) (?:refund|payment) (?:method|option)\b/i, /\b(?:specify|provide|share|give|tell me|include|send|reply with)\b[^.?!]{0,30}\b(?:payment[ _-]?(?:method|id)|gift[ _]card(?:[ _]id)?|certificate[ _]id)\b/i, /how (would you|you would|you'd) like to pay/i, /(pay|charge) (it|this|the \w+) (with|to)/i], answers: ['Please use {payment}.', 'Put it on {payment}.'] },
  },
  confirmAsked: [/\bconfirm\b/i, /\bproceed\b/i, /\bgo ahead\b/i, /\bshall i\b/i, /\bshould i\b/i, /would you like me to/i, /do you want me to/i],
  helpAsked: [/what (can|may) i (help|do|assist)/i, /how (can|may) i (help|assist)/i, /what you need/i, /what do you need/i, /what would you like/i, /what you would like (help|to do)/i],
  anythingElse: [/anything else/i, /something else/i, /else i can help/i],
  entityPattern: /#?R\d{6}\b|\bSK\s?\d{3}\b/g,
  confirmSlots: ['reservation', 'newFlight'],
  // Each change in the base form or as a noun: "was cancelled" tells a fact, "I'll cancel" proposes.
  // A modification of a reservation is of its flights, cabin or bags.
  modifying: ['change_flight', 'add_bags'],
  // A cancellation refunds: a go-ahead that charges the traveller is for another change. Not compensation, which is money told
  // as extra ("an extra $100 for your next trip") coming to the traveller.
  payless: ['cancel'],
  proposals: {
    // "The reservation will be voided": a cancellation by its effect.
    cancel: [/\b(?:cancel|cancell?ing|cancell?ations?)\b/i, /\bcall(?:ing)? off (?:the |this |that |your )?(?:whole )?(?:trip|reservation|booking|flights?|travel)\b|\bcall (?:it|the (?:whole )?(?:trip|thing)) off\b|\bvoid(?:ing)?\b|\bscrap(?:ping)? (?:it|them|the (?:whole )?(?:order|reservation|booking|trip)|(?:your|this|that) (?:order|reservation|booking|trip))\b|\b(?:reservation|booking|it)\b[^.?!]{0,30}\b(?:will|would) be (?:cancell?ed|voided)\b|\bto cancell?ed\b/i],
    change_flight: [
      /\b(?:change|changing|move|moving|switch|switching|modify|modifying)\b(?:[^.?!]|\.(?=\d)){0,50}\b(?:flights?|reservation|booking|trip|itinerary|legs?|segments?|departure|outbound|to [A-Z]{2}\s?\d+|from [A-Z]{2}\s?\d+|onto)\b/i,
      // "Reschedule the leg", "put you on the 9:05", "bump you onto SK 231".
      /\breschedul(?:e|ing)\b|\b(?:put|putting|bump|bumping|get|getting|move|moving|switch|switching) (?:you|them|him|her|both of you|everyone)(?: \w+)? (?:on|onto|to) (?:the |a |an )?(?:earlier|later|next|the \d|[A-Z]{2}\s?\d|flight|\w+ flight|it\b|this one\b|that one\b)/i,
      /\bre-?book(?:ing)?\b/i,
      /\bbook(?:ing)? (?:you|your \w+|them|it) on\b/i,
      // Flights booked on a reservation the traveller has: the reservation changes.
      /\bbook(?:ing)?\b[^.?!]{0,30}\bflights?\b[^.?!]{0,30}\b(?:on|in|for|to) (?:your |the |this )?(?:reservation|booking)\b/i,
      /\b(?:flight|date) change\b/i,
      // "Would you like to proceed with this flight option?": a flight chosen for the trip.
      /\b(?:proceed with|go with|go ahead with|take|choose|select) (?:this|that|the) (?:new )?flight(?: option)?\b/i,
    ],
    // "Two more pieces in the hold", "the two extra suitcases".
    add_bags: [/\b(?:add|adds|adding|tack(?:ing)? on)\b(?:[^.?!]|\.(?=\d)){0,60}\b(?:bag(?:s|gages?)?|suitcases?)\b/i, /\b(?:\d|one|two|three|four) (?:more|extra|additional) (?:pieces|suitcases?)\b|\b(?:more|extra|additional) suitcases\b|\bpieces in the hold\b/i, /\bcheck (?:in )?(?:\w+ ){0,2}(?:bags|suitcases) in total\b/i, /(?<!\brefund(?:ing|ed)? (?:the |your )?)\b(?:an?|one|two|three|\d) (?:more|extra|additional) (?:checked )?bags?\b|\bto include (?:\d|one|two|three|four) (?:more |extra |additional )?(?:checked )?bags\b(?![^.?!]{0,20}\b(?:free|at no (?:extra )?cost|included)\b)/i, /\b(?:update|updating)\b(?:[^.?!]|\.(?=\d)){0,40}\bbag(?:s|gages?)\b/i],
    // A traveller's details: "update the passenger details", "correct Hana Kim's passenger details"; not a change made for the
    // passengers ("update R1 to SK 203 for both passengers").
    change_passengers: [/\b(?:replace|replacing|swap|swapping|substitute|substituting) (?:him|her|them|[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:with|for) (?:your \w+|[A-Z][a-z]+)\b/, /\b(?:update|updating|change|changing|correct|correcting|edit|editing|fix|fixing)\s+(?:the |your |a |one )?(?:[\w'-]+\s+){0,2}?passengers?(?:'s?)?\s+(?:details|names?|information|info|dob|date of birth|list|record)\b|\bpassenger (?:details|names?|information|info)\b[^.?!]{0,20}\b(?:update|change|correction)\b/i],
    // A reservation made anew ("book this reservation", "a new booking for the same trip"): no scenario asks for one. Not flights booked
    // on the traveller's reservation, which `change_flight` reads, a change of a booking ("make the booking change"), nor one ruled
    // out ("no need for a separate booking").
    new_booking: [/(?:\bbook (?:this|the|a|that|your) (?:new |separate )?(?:reservation|trip|itinerary|booking)|(?<!\b(?:no need for|without|instead of|rather than|not)(?: a| an| any)? )\b(?:new|separate|fresh|second) (?:reservation|booking)|\b(?:make|making|create|creating) (?:the|this|a|a new) (?:booking|reservation)|\bproceed with (?:the|this) booking)\b(?! (?:change|modification|update|details))/i],
    // "I can put $300 on your profile": money for the trouble, put on the traveller's profile.
    compensation: [/\b(?:receive|get|earn)\b[^.?!]{0,40}\b(?:certificates?|vouchers?)\b|\b(?:certificates?|vouchers?)\b[^.?!\n]{0,60}\b(?:credited|issued to (?:you|your))\b/i, /\b(?:put|putting|add|adding|credit|crediting|load|loading) \$\d[^.?!]{0,40}\b(?:on|to|onto) your (?:profile|account|wallet)\b/i, /\b(?:issue|issuing|offer|offering|send|sending|give|giving|add|added|adding)\b(?:[^.?!]|\.(?=\d)){0,60}\b(?:certificates?|vouchers?|compensation)\b/i, /\bcompensat(?:e|ing)\b/i],
  },
  perturbation: travelPerturbation(),
};

/**
 * The travel material for the perturbation families. Paraphrases name exactly the details of the
 * phrasing they replace; asides and stories name no flight, city, fare class, payment method or reason.
 */
function travelPerturbation(): PerturbationLanguage {
  const places = [...Object.keys(AIRPORTS), ...Object.values(AIRPORTS)];
  return {
    entityFormats: { reservation: 'id', flight: 'id', newFlight: 'id', email: 'email', name: 'name', dob: 'date', date: 'date', destination: 'text', reason: 'text', bags: 'text', payment: 'text' },
    lexicon: {
      reservation: ['booking'],
      cancel: ['call off'],
      'checked bags': ['suitcases'],
      change: ['move', 'switch'],
      'travel credit': ['flight credit'],
      disrupted: ['messed up'],
      compensation: ['something for the trouble'],
      trip: ['journey'],
      'on time': ['running on schedule'],
      total: ['full amount'],
      please: ['kindly'],
      'tell me': ['let me know'],
      "I'd like to": ['I want to', 'I wish to'],
      'Can you': ['Could you', 'Would you'],
    },
    paraphrases: {
      flight_status: [
        'Will flight {flight} on {date} leave as planned?',
        "I'm flying {flight} on {date}. Is everything on schedule?",
        'Is everything on schedule with the flight on my booking {reservation}?',
        "I'm wondering whether the flight on reservation {reservation} is on time.",
      ],
      reservation_total: ['What did reservation {reservation} cost me altogether?', 'I need the amount I was charged for booking {reservation}.', 'What did I pay in total for my trip to {destination}?'],
      credit_balance: ['How much flight credit is left on my account?', 'I want to know how much travel credit I still have.'],
      cancel: [
        "My plans fell through, so please call off reservation {reservation}.",
        'I no longer want booking {reservation}; please cancel it.',
        'Please cancel the whole trip to {destination}.',
        'One of my reservations has to be called off.',
      ],
      change_flight: [
        'Could I switch reservation {reservation} over to {newFlight} on {date}?',
        'Please put me on {newFlight} on {date} instead, for reservation {reservation}.',
        'I need to fly on {date} instead; my reservation is {reservation}.',
        'One of my reservations needs a different flight.',
      ],
      add_bags: ['Please put {bags} more checked bags on reservation {reservation}.', "I'm bringing {bags} more checked bags; my booking is {reservation}.", "I'll have more luggage on reservation {reservation}; I need to add checked bags."],
      compensation: [
        "The flight on reservation {reservation} didn't go as planned. What compensation can I get?",
        'The disruption on booking {reservation} cost me a lot of time; I would like compensation.',
        'I had a disrupted flight recently and would like compensation for it.',
      ],
    },
    distractors: [
      'The weather here has been awful all week.',
      'I am writing this from my phone, so excuse the formatting.',
      'A friend told me your support is quick.',
      'I had a long day at work.',
      'I tried calling earlier but the line was busy.',
      'Your app looks different than it used to.',
      'I have been flying with you for years.',
      'My kids are making a lot of noise in the background.',
    ],
    stories: {
      '*': [
        'I have been meaning to sort this out for a few days now.',
        'It has been a busy couple of weeks and I am only now getting to this.',
        'I talked it over with my family last night before writing.',
        'I read through the help pages first but could not work it out myself.',
      ],
      cancel: ['Things at home have changed since I booked.'],
      change_flight: ['My meeting got moved, so my travel has to move too.'],
      compensation: ['I missed an important dinner because of it.'],
      add_bags: ['I am bringing presents for the family.'],
    },
    competing: [...places, 'economy', 'business', 'basic economy', 'travel credit', 'certificate', 'credit card', 'visa', 'mastercard', 'amex', 'change of plans', 'airline cancelled', 'delayed', 'cancelled'],
  };
}
