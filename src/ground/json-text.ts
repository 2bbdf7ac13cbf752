// What a message written as JSON says: agents that answer in JSON ({"message": "...", "next_steps": [...]})
// mean its strings, not its braces and keys. Read by the claim reader and by the simulated user.

/**
 * The strings of a message written as JSON, one line each, in the order they stand. Text that does not
 * parse keeps its words, with its escaped line breaks and quotes read.
 */
export function jsonText(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.replace(/\\n/g, '\n').replace(/\\"/g, '"');
  }
  const lines: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') lines.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return lines.join('\n');
}

/** A message that opens as JSON does. */
export const looksLikeJson = (text: string): boolean => /^\s*[{[]/.test(text);
