import { fileURLToPath } from 'node:url';
import { nameParts, type JudgingRules } from '../../src/ground/judging.js';

const orderKey = (raw: string) => raw.trim().replace(/^#/, '').toUpperCase();
const ORDERS = { record: 'orders', arg: 'orderId' } as const;

/** What the judge checks in the retail world, beside the final state (docs/judging.md). */
export const retailJudging: JudgingRules = {
  claimLabels: fileURLToPath(new URL('./claims.labels.jsonl', import.meta.url)),
  conduct: {
    identify: { find_user_by_email: { subject: 'userId' }, find_user_by_name_zip: { subject: 'userId' } },
    records: { orders: { owner: 'userId', key: orderKey } },
    private: {
      get_user: { user: 'userId' },
      list_user_orders: { user: 'userId' },
      get_order: ORDERS,
      cancel_order: ORDERS,
      change_order_address: ORDERS,
      return_items: ORDERS,
      exchange_items: ORDERS,
      add_gift_card_funds: { user: 'userId' },
    },
    confirm: { change_order_address: ['orderId', 'zip'], add_gift_card_funds: ['amount'] },
    lookups: {
      email: (p) => ({ tool: 'find_user_by_email', args: { email: p.email } }),
      'name-zip': (p) => ({ tool: 'find_user_by_name_zip', args: { ...nameParts(p.name), zip: p.zip } }),
    },
  },
  claims: {
    success: [/\b(?:return|exchange|top-up|cancell?ation|address change) is (?:registered|done|complete)\b/i, /\bis on (?:its|their) way back\b/i],
  },
  actionWords: {
    change_order_address: /\b(?:chang|updat)(?:e|es|ed|ing)\b/i,
    add_gift_card_funds: /\b(?:add(?:s|ed|ing)?|top(?:s|ped|ping)?[ -]?up|load(?:s|ed|ing)?)\b/i,
  },
};
