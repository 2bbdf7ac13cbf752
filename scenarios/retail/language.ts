import type { UserLanguage } from '../../src/core/world.js';

/**
 * How a retail customer words things: opening phrasings per intent and answers per slot. Slots in
 * braces are filled from the scenario and protected from perturbation.
 */
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
  identityAsked: [/e-?mail/i, /\bnames?\b/i, /\bzip\b/i, /postal code/i, /verify (your|the) identity/i, /who (you are|am i speaking)/i],
  slots: {
    order: { asked: [/order (number|id)\b/i, /which (one|order)/i, /what order/i], answers: ["It's order {order}.", 'The order number is {order}.', 'Order {order}.'] },
    items: { asked: [/which items?/i, /what items?/i, /which products?/i], answers: ['The {items}.', "It's the {items}."] },
    reason: { asked: [/\breason\b/i, /\bwhy\b/i], answers: ['{reason}.', 'Well, {reason}.'] },
    refund: { asked: [/refund (it |this )?(to|go)/i, /where should .*refund/i, /(which|what) payment method/i], answers: ['Please refund it to {refund}.', 'To {refund}, please.'] },
    target: { asked: [/which (option|variant|colou?r|size)/i, /what would you like (it )?instead/i, /exchange (it|them) for/i], answers: ["I'd like {target} instead.", '{target}, please.'] },
    address: { asked: [/(new|shipping|delivery) address/i, /where should .*ship/i, /(?<!e-?mail )address should/i], answers: ['The new address is {address}.', 'Please ship it to {address}.'] },
  },
  confirmAsked: [/\bconfirm\b/i, /\bproceed\b/i, /\bgo ahead\b/i, /\bshall i\b/i, /\bshould i\b/i, /would you like me to/i, /do you want me to/i],
  helpAsked: [/what (can|may) i (help|do)/i, /how can i help/i, /what you need/i, /what do you need/i, /what would you like/i],
  anythingElse: [/anything else/i, /something else/i, /else i can help/i],
  entityPattern: /#?W\d{7}/g,
  confirmSlots: ['order'],
};
