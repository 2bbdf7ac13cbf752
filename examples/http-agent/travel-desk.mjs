/**
 * The desk of desk.mjs for the travel world: it identifies the traveller by e-mail, reads the
 * reservation they name, tells its status, and cancels it when asked, as the policy says (never a
 * cancelled or basic-economy reservation, a reason, a yes to the stated change first, one cancellation
 * with one Idempotency-Key across its retries). A pure step function like `decide` in desk.mjs, on the
 * same history; the stub model (`shakedown stub-llm`) plays it for the travel world.
 */
import { callsOf, EMAIL, logical, NO, ok, RETRYABLE, YES } from './desk.mjs';

const RESERVATION = /\b(R\d{6})\b/i;

function readTraveller(history) {
  const said = { email: undefined, reservation: undefined, intent: undefined, reason: undefined };
  for (const e of history) {
    if (e.type !== 'user') continue;
    const t = e.text;
    said.email = EMAIL.exec(t)?.[0]?.toLowerCase() ?? said.email;
    said.reservation = RESERVATION.exec(t)?.[1]?.toUpperCase() ?? said.reservation;
    if (/\bcancel/i.test(t)) said.intent = 'cancel';
    else if (!said.intent && /\b(status|details|what is|booked|look up|check)\b/i.test(t)) said.intent = 'status';
    if (/airline cancel|flight (?:was|got|has been) cancel/i.test(t)) said.reason = 'airline cancelled flight';
    else if (/plans|can't make|cannot make|no longer|don't need|changed my mind/i.test(t)) said.reason = said.reason ?? 'change of plans';
  }
  return said;
}

/** The travel desk's next action, from the episode's history. */
export function decideTravel(history, options = {}) {
  const keyPrefix = options.keyPrefix ?? 'desk';
  const said = readTraveller(history);
  const lastUser = history.findLastIndex((e) => e.type === 'user');
  const lastReplyAt = history.findLastIndex((e) => e.type === 'reply');
  const replies = history.filter((e) => e.type === 'reply');
  const lastUserText = history[lastUser]?.text ?? '';

  let userId = callsOf(history).find((c) => ok(c.result) && c.call.tool === 'find_user_by_email')?.result.body?.userId;
  if (!userId) {
    if (!said.email) return { type: 'reply', text: 'Before I can help, I need to verify your identity. Could you give me the e-mail address on your profile?' };
    const step = logical(history, 'find_user_by_email', { email: said.email });
    if (step.action) return step.action;
    if (step.result.status === 404) return { type: 'reply', text: "I couldn't find a profile with that e-mail address. Could you check it?" };
    if (!ok(step.result)) return { type: 'reply', text: 'Sorry, I could not verify your identity right now. Please try again later.' };
    userId = step.result.body?.userId;
  }
  if (!said.reservation) return { type: 'reply', text: 'Which reservation do you mean? Please give me its number (for example R123456).' };
  const id = said.reservation;
  const read = logical(history, 'get_reservation', { reservationId: id });
  if (read.action) return read.action;
  if (read.result.status === 404) return { type: 'reply', text: `I couldn't find reservation ${id}. Could you check the number?` };
  if (!ok(read.result)) return { type: 'reply', text: `Sorry, I could not look up reservation ${id} right now. Please try again later.` };
  const r = read.result.body ?? {};
  if (r.userId !== undefined && r.userId !== userId) return { type: 'reply', text: `Reservation ${id} is not on your profile, so I can't help with it.` };
  const fare = r.fareClass ?? r.cabin;

  if (said.intent !== 'cancel') {
    if (replies.some((x) => x.text.startsWith(`Reservation ${id} is `))) return { type: 'reply', text: 'Is there anything else I can help you with?' };
    return { type: 'reply', text: `Reservation ${id} is ${r.status ?? 'on file'}${r.origin && r.destination ? `: ${r.origin} to ${r.destination}` : ''}${fare ? `, ${fare}` : ''}.` };
  }
  if (r.status === 'cancelled') return { type: 'reply', text: `Reservation ${id} is already cancelled.` };
  if (fare === 'basic_economy' && said.reason !== 'airline cancelled flight') return { type: 'reply', text: `Reservation ${id} is basic economy, which cannot be cancelled under the fare rules.` };
  if (!said.reason) return { type: 'reply', text: `Why would you like to cancel reservation ${id}: a change of plans, or did the airline cancel a flight?` };
  const proposal = `I can cancel reservation ${id} (reason: ${said.reason}); the refund follows the fare rules. Shall I go ahead? Please answer yes or no.`;
  const declined = `All right, I won't cancel reservation ${id}. Is there anything else I can help you with?`;
  if (!callsOf(history).some((c) => c.call.tool === 'cancel_reservation')) {
    if (replies.some((x) => x.text === declined)) return { type: 'reply', text: 'Is there anything else I can help you with?' };
    const answered = history[lastReplyAt]?.text === proposal && lastReplyAt < lastUser;
    if (!answered || !(YES.test(lastUserText) || NO.test(lastUserText))) return { type: 'reply', text: proposal };
    if (NO.test(lastUserText)) return { type: 'reply', text: declined };
  }
  const cancel = logical(history, 'cancel_reservation', { reservationId: id, reason: said.reason }, `${keyPrefix}-cancel-${id}`);
  if (cancel.action) return cancel.action;
  if (replies.some((x) => x.text.includes('has been cancelled') || x.text.includes('not sure whether'))) return { type: 'reply', text: 'Is there anything else I can help you with?' };
  if (ok(cancel.result)) {
    const refund = cancel.result.body?.refund;
    const amount = typeof refund?.amount === 'number' ? `$${refund.amount.toFixed(2)}` : undefined;
    const to = Array.isArray(refund?.to) && refund.to.length > 0 ? ` to ${refund.to.join(' and ')}` : '';
    return { type: 'reply', text: `Reservation ${id} has been cancelled; ${amount ? `${amount} is refunded${to}` : 'the refund follows the fare rules'}.` };
  }
  if (RETRYABLE.has(cancel.result.status)) return { type: 'reply', text: `I'm not sure whether the cancellation of reservation ${id} went through: the service did not answer. Please check again later before trying again.` };
  return { type: 'reply', text: `I couldn't cancel reservation ${id}: ${cancel.result.body?.message ?? `the service answered ${cancel.result.status}`}.` };
}
