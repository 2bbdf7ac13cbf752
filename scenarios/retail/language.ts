import type { PerturbationLanguage, UserLanguage } from '../../src/ground/world.js';
import { optionValues, productNames } from './catalog.js';

/**
 * How a retail customer words things: opening phrasings per intent and answers per slot. Slots in
 * braces are filled from the scenario and protected from perturbation.
 */

/** The user's e-mail asked for; not a confirmation or receipt e-mail the user is pointed to. */
const EMAIL_ASKED = /(?<!\b(?:confirmation|receipt|notification|booking|order|our|an?)\s)\be-?mail\b(?!\s+(?:confirmation|receipt|notification))/i;
export const retailLanguage: UserLanguage = {
  intents: {
    order_status: [
      "What's the status of order {order}?",
      'Can you tell me where my order {order} is?',
      "I'd like to check on an order I placed.",
      'Could you check the status of one of my orders?',
    ],
    order_total: [
      'How much did I pay for order {order}?',
      'What was the total of my order {order}?',
      "I'd like to know what one of my orders cost me in total.",
      'How much did I pay for the order with the {items}?',
    ],
    gift_card_balance: [
      'How much is left on my gift card?',
      "What's my gift card balance?",
      'Can you check the balance of my gift card?',
    ],
    cancel: [
      'I want to cancel order {order}.',
      'Please cancel my order {order}.',
      "I'd like to cancel an order.",
      'Can you help me cancel one of my orders?',
    ],
    change_address: [
      'I need to change the shipping address of order {order}.',
      'Can you update where my order {order} ships to?',
      "I'd like to change the delivery address on an order.",
    ],
    return: [
      "I'd like to return the {items}.",
      'I want to send back the {items} and get a refund.',
      'Can I return the {items} from my order?',
      "I'd like to return something I bought.",
    ],
    top_up: [
      "I'd like to add {amount} to my gift card.",
      'Can you top up my gift card with {amount}?',
      'Please put {amount} on my gift card.',
      'I want to load {amount} onto my gift card.',
      "I'd like to top up my gift card.",
    ],
    exchange: [
      "I'd like to exchange the {items} for {target}.",
      'Can I swap the {items} for {target}?',
      'I want to exchange the {items}.',
      "I'd like to exchange something I bought.",
    ],
  },
  identity: {
    email: ['My email is {email}.', 'You can find me under {email}.', 'My e-mail address is {email}.'],
    'name-zip': ["I'm {name}, zip code {zip}.", 'My name is {name} and my zip code is {zip}.', 'The account is under {name}, zip {zip}.'],
  },
  identityAsked: [EMAIL_ASKED, /\bproceed with (?:the |your )?(?:verification|authentication)\b|\bhow (?:you(?:'d| would) like to|to) (?:verify|authenticate) (?:you|your)\b/i, /\bnames?\b/i, /\bzip\b/i, /postal code/i, /verify (your|the) identity/i, /who (you are|am i speaking)/i, /\buser ?id\b/i, /\buser (?:information|details)\b/i, /\baccount (?:id|number)\b/i, /\b(?:help (?:me )?)?(?:locate|identify|look up) (?:you|your (?:account|profile))\b/i],
  identityKindAsked: { email: [EMAIL_ASKED], 'name-zip': [/\bzip\b|postal code/i] },
  slots: {
    order: { asked: [/order (number|id)\b/i, /which (one|order)/i, /what order/i, /\b(number|id) of (the|your) order\b/i], answers: ["It's order {order}.", 'The order number is {order}.', 'Order {order}.'] },
    items: { asked: [/which items?/i, /what items?/i, /which products?/i], answers: ['The {items}.', "It's the {items}."] },
    reason: { asked: [/\breason\b/i, /\bwhy\b/i], answers: ['{reason}.', 'Well, {reason}.'] },
    // The policy refunds to the original payment method unless told otherwise: a user who wants a gift card says so upfront.
    refund: { optional: true, asked: [/refund (it |this )?(to|go)/i, /\b(?:preferred|chosen) (?:refund|payment) (?:method|option)\b/i, /where should .*refund/i, /(which|what) payment method/i, /\b(?:specify|provide|share|give|tell me|include|send|reply with)\b[^.?!]{0,30}\bpayment[ _-]?(?:method|id)\b/i], answers: ['Please refund it to {refund}.', 'To {refund}, please.'] },
    target: { asked: [/(which|what) (option|variant|colou?r|size|finish|style|model|version|material)/i, /\bconfirm (?:the|your) (?:new |preferred |chosen )?(?:item|variant|option)(?: ids?)?\b/i, /what would you like (it )?instead/i, /exchange (it|them) for/i], answers: ["I'd like {target} instead.", '{target}, please.'] },
    amount: { asked: [/how much (would|do|should|will|you)/i, /\b(what|which|the) amount\b/i], answers: ['{amount}, please.', "I'd like to add {amount}."] },
    address: { asked: [/(new|shipping|delivery) address/i, /where should .*ship/i, /(?<!e-?mail )address should/i], answers: ['The new address is {address}.', 'Please ship it to {address}.'] },
  },
  confirmAsked: [/\bconfirm\b/i, /\bproceed\b/i, /\bgo ahead\b/i, /\bshall i\b/i, /\bshould i\b/i, /would you like me to/i, /do you want me to/i],
  helpAsked: [/what (can|may) i (help|do|assist)/i, /how (can|may) i (help|assist)/i, /what you need/i, /what do you need/i, /what would you like/i, /what you would like (help|to do)/i],
  anythingElse: [/anything else/i, /something else/i, /else i can help/i],
  entityPattern: /#?W\d{7}/g,
  confirmSlots: ['order'],
  // Each change in the base form or as a noun: "was cancelled" tells a fact, "I'll cancel" proposes.
  // A modification of an order is of its items or its address.
  modifying: ['exchange', 'change_address'],
  // A cancellation, a return and an address change refund or cost nothing: a go-ahead that charges the user is for another change.
  payless: ['cancel', 'return', 'change_address'],
  // A person's default address may be what a user who wants an address changed means: it asks rather than says yes or no.
  akin: { user_address: ['change_address'] },
  proposals: {
    // "Void the order", "the order will be cancelled", "set its status to cancelled": a cancellation by its effect.
    // "Call the whole thing off", "shall I stop this order?": a cancellation told by what it does; not an order stopped
    // before it ships to change its address.
    // Not a payment, a charge or a refund cancelled ("cancel the current payment and reapply the gift card"): a change of how
    // the order is paid; unless the order goes with it ("cancel the payment and the order").
    cancel: [/\b(?:cancel|cancell?ing|cancell?ations?)\b(?![^\S\n]+(?:of[^\S\n]+)?(?:the |your |this |that |an? )?(?:(?:current|existing|pending|original|previous)[^\S\n]+)*(?:payments?|charges?|refunds?|holds?)\b(?![^.?!\n]{0,20}\band (?:the |your |this )?(?:order|purchase)\b))/i, /\bvoid(?:ing)?\b|\bscrap(?:ping)? (?:it|them|the (?:whole )?(?:order|reservation|booking|trip)|(?:your|this|that) (?:order|reservation|booking|trip))\b|\b(?:order|it)\b[^.?!]{0,30}\b(?:will|would) be (?:cancell?ed|voided)\b|\bto cancell?ed\b|\bstop (?:it|the order|the shipment) (?:entirely|completely|altogether)\b|\bcall (?:it|the (?:whole )?(?:thing|order)|the whole order) off\b|\bcall(?:ing)? off (?:the |your |this )?order\b|\bkill (?:it|the order|this order)\b|\bpull the plug\b|\bclose (?:out )?(?:the|your|this) (?:whole )?order\b(?! (?:page|tab|window)\b)|\bso (?:that )?none of (?:the|its|your) items (?:will )?ship\b|\bstop (?:it|this order|the order|your order)(?=\s*[.?!]|$)/im],
    // "Shall I proceed with this address for your order?", "using the address from your other order": an address put on an order.
    // "Send it to your work address instead", "have order #W1 shipped to your sister's address".
    // A person's default address is named by `user_address` as well, which a user who wants an order's address changed may take
    // for its own (`akin`): beside this, it asks.
    change_address: [/\brerout(?:e|ing)\b/i, /\b(?:ship|send|deliver)(?:ped|ing|s)?\b[^.?!]{0,30}\bto (?:your|the|a|an) (?!(?:current|original|usual|default|same|registered|existing)\b)(?:[\w'-]+ ){1,2}address\b/i, /\b(?:proceed with|use|using)\s+(?:this|that|the)(?: (?:new|same|updated|following))? address\b/i, /\b(?:change|changing|update|updating|correct|correcting|edit|editing|amend|amending)\b(?:[^.?!]|\.(?=\d)){0,60}\baddress\b/i, /\baddress (?:change|update)\b/i, /\b(?:ship|send|sent|deliver|delivery|point)\b(?:[^.?!]|\.(?=\d)){0,30}\bto\b(?:[^.?!]|\.(?=\d)){0,10}\d/i, /\b(?:ship|send|sent|deliver|delivery)\w*\s+to:\s*\n(?:[^\n\d]{0,60}\n){0,2}\s*\d/i, /\b(?:set|fix|redirect|re-?route|swap|switch)\w*\s+(?:the |your |its )?(?:default |new |primary )?(?:shipping |delivery |mailing )?address\b|\bhead to\b(?!\s+(?:your |the )?(?:card|visa|paypal|account|mastercard|amex|gift card))(?:[^.?!]|\.(?=\d)){0,10}\d/i],
    // Not money returned ("return the full $73.95 to your card").
    return: [/\b(?:return|returning)\b(?!\s+(?:the |your )?(?:full |entire )?(?:\$|refund|amount|money|payment|difference|balance))/i,/\bsend(?:ing)? (?:it|them|(?:[\w.-]+ ){1,4}?)back\b|\btaken back\b|\b(?:be )?sent back\b(?!\s+to (?:your |the )?(?:card|visa|paypal|account|original|payment|mastercard|amex|gift card|credit card))/i],
    exchange: [
      /\b(?:exchange|exchanging|swap|swapping)\b(?![^.?!]{0,40}\baddress\b)/i,
      /\breplac(?:e|ing|ement)\b(?:[^.?!]|\.(?=\d)){0,40}\b(?:with|by|for)\b/i,
      /\b(?:a|the) replacement\b/i,
      // A summary of what goes back and what comes: "Sending back: shoes, size 9 ... Receiving: shoes, size 9.5".
      /\bsending back\b[\s\S]{0,200}\breceiving\b/i,
      /\b(?:modify|modifying|modification|updat(?:e|ing)|chang(?:e|ing)|switch(?:ing)?)\b(?:[^.?!]|\.(?=\d)){0,60}\b(?:items?|variant|model|size|colou?r|version|option)\b/i,
      // "the next available option for the umbrella": another variant of an item is an exchange.
      /\b(?:next|other|another|different|cheaper|cheapest|available) (?:available )?(?:option|variant|model|version)s?\b/i,
      // "changing your current puzzle to this one": a change of a thing, not of where it goes.
      /\b(?:chang(?:e|ing)|switch(?:ing)?)\b(?:(?!address)[^.?!]){0,60}\bto (?:this|that|the|a|an)\b(?! address)/i,
    ],
    // The default address on a person's profile, not an order's: "save this as the default address on your account", "update your
    // profile address". No scenario asks for it; a user who wants an order's address changed may take it for its own (`akin`).
    user_address: [/\b(?:default|profile|account|saved)(?:'s)? (?:shipping |mailing |delivery )?address\b|\baddress (?:on|in|of|saved (?:on|to)) (?:your|the) (?:user )?(?:profile|account)\b|\bprofile (?:address )?update\b/i],
    // How an order is paid: "switch it to gift card gift_card_1", "change the payment method to PayPal". Not money for a change
    // ("the difference will be charged to your gift card").
    change_payment: [/\b(?:switch|switching|change|changing|update|updating|move|moving)\b[^.?!]{0,30}\bpayment(?: method)?\b|\bpayment(?: method)? (?:change|switch|update)\b|\b(?:switch|switching|move|moving)\b (?:it |the order |this order |your order |the payment |the charge )?(?:over )?to (?:your |the )?(?:gift[ _]?card|paypal|credit[ _]?card|visa|mastercard|amex)\b/i],
    // An order placed anew by the agent ("place a new order for the same items", "I'll reorder them"): no scenario asks for one. Not
    // the user's own reorder later ("so you can reorder the correct one").
    new_order: [/\b(?:place|placing|make|making|create|creating|put in|putting in|submit|submitting) (?:a |an )?(?:new|fresh|separate|second|replacement) order\b|(?<!\byou(?:'ll| can| could| may| will| would)? )\bre-?order(?:ing)? (?:the|those|these|them|it|everything)\b/i],
    top_up: [/\b(?:add|adding|load|loading|put|putting)\b(?:[^.?!]|\.(?=\d)){0,40}\bgift ?card\b/i, /\btop(?:ping)?[- ]?up\b/i],
  },
  perturbation: retailPerturbation(),
};

/**
 * The retail material for the perturbation families. Paraphrases name exactly the details of the
 * phrasing they replace and imply no reason for a cancellation; asides and stories name no product,
 * order, variant, payment method or reason.
 */
function retailPerturbation(): PerturbationLanguage {
  const productWords = [...new Set(productNames().flatMap((n) => n.toLowerCase().split(/\s+/)))];
  // Option values of three letters or more: a typo that turns "read" into "red" names another variant.
  const variantWords = optionValues().filter((v) => v.length >= 3);
  return {
    entityFormats: { order: 'id', email: 'email', name: 'name', zip: 'digits', items: 'text', target: 'text', refund: 'text', reason: 'text', address: 'verbatim', amount: 'amount' },
    lexicon: {
      order: ['purchase'],
      'an order': ['a purchase'],
      cancel: ['call off'],
      'return the': ['send back the'],
      exchange: ['swap'],
      'a refund': ['a reimbursement'],
      status: ['progress'],
      change: ['update', 'modify'],
      'shipping address': ['delivery address'],
      total: ['full amount'],
      bought: ['purchased', 'got'],
      please: ['kindly'],
      'tell me': ['let me know'],
      "I'd like to": ['I want to', 'I wish to'],
      'Can you': ['Could you', 'Would you'],
    },
    paraphrases: {
      order_status: [
        'Has order {order} shipped yet?',
        "Any news on order {order}? I'm still waiting for it.",
        "I'm wondering what's going on with order {order}.",
        "I'm still waiting for something I ordered. Can you see where it is?",
        'Could you look up how one of my orders is doing?',
      ],
      order_total: [
        'What did order {order} cost me altogether?',
        'I need the amount I was charged for order {order}.',
        'I need to know how much I was charged for one of my orders.',
        'What did the order with the {items} cost me altogether?',
      ],
      gift_card_balance: ['How much credit do I still have on my gift card?', "I want to know what's left to spend on my gift card."],
      cancel: [
        'Please make sure order {order} never ships; I want it cancelled.',
        'Order {order} should be called off before it goes out.',
        "One of my orders hasn't shipped yet and I want it stopped and cancelled.",
      ],
      change_address: [
        'Order {order} is going to the wrong address; it needs to be delivered somewhere else.',
        'I moved, so order {order} should be delivered to a different address.',
        'I moved recently and one of my orders needs to go to my new address.',
      ],
      return: [
        "I don't need the {items} any more. Can I send it back and get my money back?",
        "The {items} didn't work out for me; I'd like to return it for a refund.",
        "I'd like a refund for the {items}; I'm sending it back.",
        "Something I bought didn't work out, and I'd like to send it back for a refund.",
      ],
      top_up: [
        'Could you add {amount} to the balance of my gift card?',
        'I need {amount} more on my gift card; can you add it?',
        "I'd like to put some money on my gift card.",
      ],
      exchange: [
        "The {items} isn't right for me. Could I exchange it for {target} instead?",
        "Instead of the {items}, I'd rather have {target}. Can we do an exchange?",
        "The {items} isn't quite right; I'd like to exchange it for a different version.",
        "I got something in the wrong variant and I'd like to exchange it for another one.",
      ],
    },
    distractors: [
      'The weather here has been awful all week.',
      'I am writing this from my phone, so excuse the formatting.',
      'My neighbour recommended your shop to me.',
      'I had a long day at work.',
      'I tried the chat yesterday but had to leave before anyone answered.',
      'Your website looks different than it used to.',
      'I have been a customer for a few years now.',
      'My kids are making a lot of noise in the background.',
    ],
    stories: {
      '*': [
        'I have been meaning to sort this out for a few days now.',
        'It has been a busy couple of weeks and I am only now getting to this.',
        'I talked it over with my partner last night before writing.',
        'I read through the help pages first but could not work it out myself.',
      ],
      order_status: ['I have been checking my mailbox every day.', 'I was expecting it to arrive sooner.'],
      change_address: ['We moved house recently and I am still updating everything.'],
      exchange: ['I really like it otherwise.'],
    },
    competing: [...productWords, ...variantWords, 'tee', 'shirt', 'gift card', 'credit card', 'paypal', 'mistake', 'accident', 'changed my mind'],
  };
}
