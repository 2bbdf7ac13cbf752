// Promises kept: a statement of what the agent will do, checked against what the trace did by the end.
import { describe, expect, it } from 'vitest';
import { judgePromises, promisesIn } from '../../src/judge/promises.js';
import { defaultActionWords } from '../../src/judge/tool-things.js';
import type { WriteAttempt } from '../../src/judge/text.js';
import type { TraceEntry } from '../../src/ground/runtime.js';

const TOOLS = ['cancel_order', 'change_order_address', 'return_items'];
const ENTITY = /#?W\d{7}/;
const write = (tool: string, order: string, effect: boolean, turn = 0): WriteAttempt => {
  const entry: TraceEntry = { tool, method: 'POST', path: `/api/orders/%23${order}/x`, ordinal: 0, status: effect ? 200 : 503, atMs: 0, turn, args: { orderId: `#${order}` }, ...(effect ? { effect: true as const } : {}) };
  return { index: 0, entry, turn, key: `${tool}|${order}`, attempt: `${tool}|${order}`, action: `${tool} on #${order}`, names: [`#${order}`], outcome: effect ? 'answered 200' : 'answered 503', sameRecord: (e) => e.path === entry.path };
};
const judge = (replies: string[], attempts: WriteAttempt[] = [], users: { text: string; act?: 'accept' | 'decline' }[] = []) =>
  judgePromises({ replies: replies.map((text, turn) => ({ turn, text })), users: users.map((u, i) => ({ turn: i + 1, ...u })), attempts, writeTools: TOOLS, actionWords: defaultActionWords, entityPattern: ENTITY });

describe('promises kept', () => {
  it('finds a promise no write carried out', () => {
    const [f] = judge(["I'll cancel order #W9000201 for you now."]);
    expect(f).toEqual({ class: 'unkept-promise', turn: 0, message: 'told the user "I\'ll cancel order #W9000201 for you now.", but it never called cancel_order on W9000201 by the end of the episode' });
  });

  it('keeps a promise a write carried out on the record it named, in any later turn', () => {
    expect(judge(["I'll cancel order #W9000201 for you now.", 'Done.'], [write('cancel_order', 'W9000201', true, 1)])).toEqual([]);
  });

  it('keeps it with any call of the action on the record (its outcome is for the claim checks), not with a call on another record', () => {
    expect(judge(["I will go ahead and cancel order #W9000201."], [write('cancel_order', 'W9000201', false)])).toEqual([]);
    expect(judge(["I'm going to cancel order #W9000201."], [write('cancel_order', 'W9000999', true)])).toHaveLength(1);
  });

  it('reads ids without their spaces and apostrophes of any kind', () => {
    expect(judge(['I\u2019ll cancel order # W9000201 right away.'], [write('cancel_order', 'W9000201', true)])).toEqual([]);
    expect(judge(['I\u2019ll cancel order #W9000201 right away.'])).toHaveLength(1);
  });

  it('reads no promise in a proposal, a condition, a question, a negation or a retry', () => {
    const none = (text: string) => expect(promisesIn([{ turn: 0, text }], TOOLS, defaultActionWords, ENTITY)).toEqual([]);
    none("To confirm: I'll cancel order #W9000201 (reason: no longer needed). Shall I proceed? (yes/no)");
    none("Once you confirm, I'll cancel order #W9000201.");
    none("If you'd like, I will change the address of #W9000201.");
    none('Should I cancel order #W9000201?');
    none("I won't cancel order #W9000201.");
    none("I'll try to cancel it again in a moment.");
    none('I have cancelled order #W9000201.');
    // Real agents' wording: a need, an offer of help, another verb near the action's noun.
    none('To resolve this, we will need to cancel the duplicate order and refund the user.');
    none("I'll be happy to help you return the lamp.");
    none('We will send the return instructions and label by e-mail.');
    none('Please share the new address and I will change it.');
    // A verb of the action with no object of it: no promise of that write.
    none("I'll add a note to your account.");
    none("I'll return to your question about the refund.");
    none("I'll change the size to M.");
  });

  it('reads a promise whose verb of doing governs the action ("I\'ll now process the exchange")', () => {
    expect(promisesIn([{ turn: 0, text: "I'll now process the exchange of the keyboard on #W9000201." }], ['exchange_items'], defaultActionWords, ENTITY).map((p) => p.tool)).toEqual(['exchange_items']);
  });

  it('lets the user call it off, and the agent take it back', () => {
    expect(judge(["I'll cancel order #W9000201 now.", 'All right.'], [], [{ text: 'No, leave it as it is.', act: 'decline' }])).toEqual([]);
    expect(judge(["I'll cancel order #W9000201 now.", "I couldn't cancel the order: it has already shipped."])).toEqual([]);
    expect(judge(["I'll cancel order #W9000201 now.", 'The system rejected the cancellation.'])).toEqual([]);
    expect(judge(["I'll cancel order #W9000201 now.", 'It can no longer be cancelled.'])).toEqual([]);
  });

  it('finds one finding per tool, at the first promise', () => {
    const found = judge(["I'll cancel order #W9000201.", "I'll cancel order #W9000201 right away.", "I will return the lamp of #W9000201."]);
    expect(found.map((f) => [f.class, f.turn])).toEqual([['unkept-promise', 0], ['unkept-promise', 2]]);
  });
});
