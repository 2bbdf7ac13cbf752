// What a message written as JSON says: agents that answer in JSON ({"message": "...", "next_steps": [...]})
// mean its strings, not its braces and keys. Read by the claim reader and by the simulated user.

/** Keys whose value is an outcome, not text: said with the key. */
const STATUS_KEY = /^(?:status|result|outcome|state|success)$/i;
/** With `keys`: a record's status ({"reservation_status": "active"}) and a reason ({"reason": "..."}) said with their key too. */
const RECORD_STATUS_KEY = /^[a-z]+[_ -](?:status|state)$/i;
const REASON_KEY = /^(?:[a-z]+[_ -])?(?:reasons?|why|cause|explanation)$/i;

/**
 * The values of a message written as JSON, one line each, in the order they stand. Strings are the text; a
 * status, a result or a flag is said with its key ({"status": "success"} says "status: success",
 * {"cancelled": true} "cancelled: true"). Text that does not parse keeps its words, with its escaped line
 * breaks and quotes read.
 */
function jsonText(text: string, lists: boolean, keys: boolean): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.replace(/\\n/g, '\n').replace(/\\"/g, '"');
  }
  const lines: string[] = [];
  const walk = (v: unknown, key?: string): void => {
    if (typeof v === 'string') lines.push(key !== undefined && (STATUS_KEY.test(key) || (keys && RECORD_STATUS_KEY.test(key))) ? `${key}: ${v}` : key !== undefined && keys && REASON_KEY.test(key) ? `reason: ${v}` : v);
    else if (typeof v === 'boolean' && key !== undefined) lines.push(`${key}: ${v}`);
    else if (Array.isArray(v) && lists && key !== undefined && v.length > 0 && v.every((x) => typeof x === 'string')) {
      // A list of strings under its key, as a list under a heading: {"required_information": ["Your user id"]}
      // says "required information:" and then "- Your user id".
      lines.push(`${key.replace(/[_-]+/g, ' ').trim()}:`, ...v.map((x) => `- ${x as string}`));
    } else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(value);
  return lines.join('\n');
}

/** A message that is one fenced code block of JSON (```json ... ```, as models often wrap it): its inside. */
const FENCED_JSON = /^\s*```(?:json)?[ \t]*\r?\n?([{[][\s\S]*[}\]])\s*```\s*$/i;

/**
 * What a message says: the text itself, or, for a message that opens as JSON does (or is JSON in one fenced
 * block), its values (`jsonText`). With `lists`, a list of strings under a key is said as a list under its
 * key's words, for a reader that reads lead-ins and their items (the simulated user's). With `keys`, a record's status and
 * a reason are said with their key ("reservation_status: active", "reason: ..."), for a reader of outcomes (the claim reader's).
 */
export const messageText = (text: string, options: { readonly lists?: boolean; readonly keys?: boolean } = {}): string => {
  const lists = options.lists ?? false;
  const keys = options.keys ?? false;
  const fenced = FENCED_JSON.exec(text)?.[1];
  if (fenced !== undefined) return jsonText(fenced, lists, keys);
  return /^\s*[{[]/.test(text) ? jsonText(text, lists, keys) : text;
};
