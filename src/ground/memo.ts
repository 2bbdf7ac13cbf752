/**
 * A pure function of its string argument, remembered: the same text is read over and over within an
 * episode and across the episodes of a sweep (a scripted agent's replies, a user's words, cue phrases).
 * Forgets everything past `limit` entries, so a long sweep's memory stays bounded. Only for functions
 * whose answer depends on the key alone, and whose answer no caller changes (freeze an object answer).
 */
export function memoized<T>(f: (key: string) => T, limit = 20_000): (key: string) => T {
  const seen = new Map<string, T>();
  return (key) => {
    let value = seen.get(key);
    if (value === undefined && !seen.has(key)) {
      if (seen.size >= limit) seen.clear();
      value = f(key);
      seen.set(key, value);
    }
    return value as T;
  };
}
