/**
 * Patterns built from text (a world's words, a value to find) compiled once per source and flags rather
 * than on every sentence the judge and the user read. A cached pattern is shared: a global one is for
 * `matchAll` and `replace` only (they copy it), never for `exec` or `test` (they move its `lastIndex`).
 */
const compiled = new Map<string, RegExp>();
const LIMIT = 8_192;

export function regex(source: string, flags = ''): RegExp {
  const key = `${flags}/${source}`;
  let re = compiled.get(key);
  if (!re) {
    // Values to find vary without end (names, amounts): past the limit, start over rather than grow.
    if (compiled.size >= LIMIT) compiled.clear();
    re = new RegExp(source, flags);
    compiled.set(key, re);
  }
  return re;
}

/** A pattern with the global flag added, for `matchAll`. */
export const globalOf = (re: RegExp): RegExp => regex(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);

/** Text to match literally inside a pattern. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
