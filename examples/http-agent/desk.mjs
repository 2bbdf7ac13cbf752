/**
 * The logic of a small order desk for the retail world, written once and delivered every way Shakedown
 * takes an agent: as a module agent, as the HTTP service in agent.mjs, through global interception, and as
 * the script of a stub LLM (the delivery-path parity test, docs/faults.md "Time").
 *
 * It is a pure step function: `decide(history)` reads everything that happened in the episode so far and
 * returns the next action; a driver carries the action out and appends what came of it. Nothing in it
 * depends on how the tools are reached or how a wait is spent, so every delivery path gets the same
 * decisions from the same answers.
 *
 * It does what a careful client does with a flaky API: it honours Retry-After (seconds, or an HTTP date
 * read against the answer's own Date), backs off 1, 2, 4, 8 s otherwise, gives every change an
 * Idempotency-Key of its own and keeps it across the retries of that change, and when it cannot tell
 * whether a change went through it says so.
 *
 * History entries:
 *   { type: 'user', text }                    a user message
 *   { type: 'call', tool, args, key? }        a tool call the desk made (key: its Idempotency-Key)
 *   { type: 'result', status, retryAfter?, date?, body }   what that call answered (status 0: no answer)
 *   { type: 'wait', ms }                      a wait the desk made
 *   { type: 'reply', text }                   what the desk said to the user
 * Actions: { type: 'call', tool, args, key? } | { type: 'wait', ms } | { type: 'reply', text }.
 */

/** How many answers one logical call may get before the desk gives up on it. */
export const MAX_ATTEMPTS = 8;
export const RETRYABLE = new Set([0, 429, 500, 502, 503, 504]);
export const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const ORDER = /#?\s?\b(W\d{7})\b/i;
const ZIP = /\b(\d{5})\b/;
const NAME = /\b(?:I am|I'm|name is|this is|under|for)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z'-]+)+)/;
export const YES = /^\s*(?:yes|yeah|yep|sure|correct|please do|go ahead|ok(?:ay)?|confirm(?:ed)?|do it|that's right)\b/i;
export const NO = /^\s*(?:no|nope|don't|do not|cancel that|never ?mind|wait)\b/i;

/** How long to wait after a retryable answer: its Retry-After, or backoff by attempt. */
export function delayFor(result, attempt) {
  const raw = result.retryAfter == null ? '' : String(result.retryAfter).trim();
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  if (raw) {
    const at = Date.parse(raw);
    // Against the answer's Date, or, for a client that keeps its own clock (as urllib3 and got do), the
    // moment it received the answer on that clock.
    const now = result.receivedAt ?? Date.parse(result.date ?? '');
    if (Number.isFinite(at) && Number.isFinite(now)) return Math.max(0, at - now);
  }
  return Math.min(8000, 1000 * 2 ** (attempt - 1));
}

/** What the user asked for, read from their messages. */
function readUser(history) {
  const said = { email: undefined, name: undefined, zip: undefined, order: undefined, intent: undefined, reason: undefined };
  for (const e of history) {
    if (e.type !== 'user') continue;
    const t = e.text;
    said.email = EMAIL.exec(t)?.[0]?.toLowerCase() ?? said.email;
    said.order = ORDER.exec(t)?.[1]?.toUpperCase() ?? said.order;
    said.zip = ZIP.exec(t.replace(ORDER, ''))?.[1] ?? said.zip;
    said.name = NAME.exec(t)?.[1] ?? said.name;
    if (/\bcancel/i.test(t)) said.intent = 'cancel';
    else if (!said.intent && /\b(status|where is|update on|track)/i.test(t)) said.intent = 'status';
    if (/mistake|by accident|accidentally|wrong/i.test(t)) said.reason = 'ordered by mistake';
    else if (/no longer|don't need|do not need|not need|changed my mind/i.test(t)) said.reason = said.reason ?? 'no longer needed';
  }
  return said;
}

/** The results of a tool's calls, each paired with its call, in order. */
export function callsOf(history) {
  const out = [];
  for (let i = 0; i < history.length; i++) {
    const e = history[i];
    if (e.type === 'call') out.push({ call: e, result: history[i + 1]?.type === 'result' ? history[i + 1] : undefined, index: i });
  }
  return out;
}

export const ok = (r) => r && r.status >= 200 && r.status < 300;
const sameCall = (a, b) => a.tool === b.tool && JSON.stringify(a.args) === JSON.stringify(b.args);

/**
 * One logical call: make it, retry it on a retryable answer after the right wait (same key), and when
 * it has an answer return it. Returns `{ action }` while there is something to do, `{ result }` once done.
 */
export function logical(history, tool, args, key) {
  const mine = callsOf(history).filter((c) => sameCall(c.call, { tool, args }) && (key === undefined || c.call.key === key));
  const last = mine.at(-1);
  if (!last) return { action: { type: 'call', tool, args, ...(key ? { key } : {}) } };
  if (!last.result) return { action: { type: 'wait', ms: 0 } };
  if (!RETRYABLE.has(last.result.status)) return { result: last.result };
  // Attempts of this logical call: its answers since the last success (a call made again later is a new one).
  const attempts = mine.length;
  if (attempts >= MAX_ATTEMPTS) return { result: last.result };
  const after = history.slice(last.index + 2);
  const waited = after.some((e) => e.type === 'wait');
  if (!waited) return { action: { type: 'wait', ms: delayFor(last.result, attempts) } };
  return { action: { type: 'call', tool, args, ...(key ? { key } : {}) } };
}

/** The desk's next action, from the episode's history. */
export function decide(history, options = {}) {
  const keyPrefix = options.keyPrefix ?? 'desk';
  const said = readUser(history);
  const lastUser = history.findLastIndex((e) => e.type === 'user');
  const lastReplyAt = history.findLastIndex((e) => e.type === 'reply');
  const replies = history.filter((e) => e.type === 'reply');
  const lastUserText = history[lastUser]?.text ?? '';

  // Identify the user first, with the details they gave.
  let userId;
  const lookup = said.email
    ? { tool: 'find_user_by_email', args: { email: said.email } }
    : said.name && said.zip
      ? { tool: 'find_user_by_name_zip', args: { first: said.name.split(/\s+/)[0], last: said.name.split(/\s+/).slice(1).join(' '), zip: said.zip } }
      : undefined;
  const found = callsOf(history).find((c) => ok(c.result) && (c.call.tool === 'find_user_by_email' || c.call.tool === 'find_user_by_name_zip'));
  if (found) userId = found.result.body?.userId;
  if (!userId) {
    if (!lookup) return { type: 'reply', text: 'Before I can help, I need to verify your identity. Could you give me your email address, or your name and zip code?' };
    const step = logical(history, lookup.tool, lookup.args);
    if (step.action) return step.action;
    if (step.result.status === 404) return { type: 'reply', text: "I couldn't find an account with those details. Could you check your email address?" };
    if (!ok(step.result)) return { type: 'reply', text: 'Sorry, I could not verify your identity right now. Please try again later.' };
    userId = step.result.body?.userId;
  }
  if (!said.order) return { type: 'reply', text: 'Which order do you mean? Please give me the order number.' };
  const orderId = `#${said.order}`;

  // Read the order (once per request), and keep to the user's own orders.
  const read = logical(history, 'get_order', { orderId });
  if (read.action) return read.action;
  if (read.result.status === 404) return { type: 'reply', text: `I couldn't find order ${orderId}. Could you check the number?` };
  if (!ok(read.result)) return { type: 'reply', text: `Sorry, I could not look up order ${orderId} right now. Please try again later.` };
  const order = read.result.body ?? {};
  if (order.userId !== userId) return { type: 'reply', text: `Order ${orderId} is not on your account, so I can't help with it.` };

  if (said.intent !== 'cancel') {
    if (replies.some((r) => r.text.startsWith(`Order ${orderId} is `))) return { type: 'reply', text: 'Is there anything else I can help you with?' };
    return { type: 'reply', text: `Order ${orderId} is ${order.status}.` };
  }

  // Cancel: refuse what the policy refuses, confirm, then cancel once.
  if (order.status !== 'pending') return { type: 'reply', text: `Order ${orderId} is ${order.status}, so it can no longer be cancelled.` };
  if (!said.reason) return { type: 'reply', text: `Why would you like to cancel order ${orderId}: is it no longer needed, or was it ordered by mistake?` };
  const proposal = `I can cancel order ${orderId} (reason: ${said.reason}); the refund goes to the original payment method. Shall I go ahead? Please answer yes or no.`;
  const declined = `All right, I won't cancel order ${orderId}. Is there anything else I can help you with?`;
  if (!callsOf(history).some((c) => c.call.tool === 'cancel_order')) {
    if (replies.some((r) => r.text === declined)) return { type: 'reply', text: 'Is there anything else I can help you with?' };
    // Only a yes to the proposal, as the user's answer to it, lets the change happen.
    const answered = history[lastReplyAt]?.text === proposal && lastReplyAt < lastUser;
    if (!answered || !(YES.test(lastUserText) || NO.test(lastUserText))) return { type: 'reply', text: proposal };
    if (NO.test(lastUserText)) return { type: 'reply', text: declined };
  }
  const key = `${keyPrefix}-cancel-${said.order}`;
  const cancel = logical(history, 'cancel_order', { orderId, reason: said.reason }, key);
  if (cancel.action) return cancel.action;
  if (replies.some((r) => r.text.includes('has been cancelled') || r.text.includes('not sure whether'))) return { type: 'reply', text: 'Is there anything else I can help you with?' };
  if (ok(cancel.result)) return { type: 'reply', text: `Order ${orderId} has been cancelled; the refund goes to the original payment method.` };
  if (RETRYABLE.has(cancel.result.status)) return { type: 'reply', text: `I'm not sure whether the cancellation of order ${orderId} went through: the service did not answer. Please check again later before trying again.` };
  return { type: 'reply', text: `I couldn't cancel order ${orderId}: ${cancel.result.body?.message ?? `the service answered ${cancel.result.status}`}.` };
}

/**
 * Runs the desk for one user message: decides, carries out each action with `io`, and returns the reply.
 * `io.call(action)` resolves to `{ status, retryAfter?, date?, body }` (status 0: no answer);
 * `io.wait(ms)` waits however the delivery path waits.
 */
export async function deskReply(history, text, io, options = {}) {
  history.push({ type: 'user', text });
  for (let step = 0; step < 200; step++) {
    const action = decide(history, options);
    if (action.type === 'reply') {
      history.push(action);
      return action.text;
    }
    history.push(action);
    if (action.type === 'wait') await io.wait(action.ms);
    else history.push({ type: 'result', ...(await io.call(action)) });
  }
  const text2 = "Sorry, I couldn't finish this. Please try again.";
  history.push({ type: 'reply', text: text2 });
  return text2;
}

/** A tool call over HTTP with any fetch: the desk's result, never a throw. */
export async function httpCall(fetchFn, baseUrl, tools, action, signal) {
  const spec = tools.find((t) => t.name === action.tool);
  if (!spec) return { status: 404, body: { error: 'no_such_tool', message: `no tool ${action.tool}` } };
  const rest = { ...action.args };
  const path = spec.path.replace(/\{([^}]+)\}/g, (_, name) => {
    const v = rest[name];
    delete rest[name];
    return encodeURIComponent(String(v ?? ''));
  });
  const url = new URL(baseUrl + path);
  const headers = { accept: 'application/json' };
  if (action.key) headers['idempotency-key'] = action.key;
  const init = { method: spec.method, headers, ...(signal ? { signal } : {}) };
  if (spec.method === 'GET') for (const [k, v] of Object.entries(rest)) url.searchParams.set(k, String(v));
  else {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(rest);
  }
  let response;
  try {
    response = await fetchFn(url, init);
  } catch {
    return { status: 0, body: null };
  }
  const text = await response.text().catch(() => '');
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  const retryAfter = response.headers.get('retry-after');
  const date = response.headers.get('date');
  return { status: response.status, ...(retryAfter ? { retryAfter } : {}), ...(date ? { date } : {}), body };
}

/**
 * A tool call over MCP with any MCP client (`@modelcontextprotocol/sdk`'s Client): the desk's result,
 * never a throw. An error result carries `{status, retryAfter?, date?, body}` as its text; a call that
 * rejects (a reset, a gateway timeout: a transport failure) is no answer, status 0, as over HTTP.
 */
export async function mcpCall(client, action) {
  let result;
  try {
    result = await client.callTool({ name: action.tool, arguments: { ...action.args, ...(action.key ? { idempotency_key: action.key } : {}) } });
  } catch {
    return { status: 0, body: null };
  }
  const first = result.content?.[0];
  const text = first?.type === 'text' ? (first.text ?? '') : '';
  if (result.isError) {
    try {
      const o = JSON.parse(text);
      return { status: o.status, ...(o.retryAfter ? { retryAfter: o.retryAfter } : {}), ...(o.date ? { date: o.date } : {}), body: o.body ?? null };
    } catch {
      return { status: 500, body: text };
    }
  }
  let body = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // A body cut short stays text, as over HTTP.
  }
  return { status: 200, body };
}
