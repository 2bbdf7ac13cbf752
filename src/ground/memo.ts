/**
 * A pure function remembered by a key that says all its answer depends on: the same text is read over and
 * over within an episode and across the episodes of a sweep (a scripted agent's replies, a user's words,
 * cue phrases). Forgets everything past `limit` entries, so a long sweep's memory stays bounded. Only for
 * functions whose answer depends on the key alone, and whose answer no caller changes (freeze an object
 * answer).
 */
export function memoizedBy<A, T>(keyOf: (arg: A) => string, f: (arg: A) => T, limit = 20_000): (arg: A) => T {
  const seen = new Map<string, T>();
  return (arg) => {
    const key = keyOf(arg);
    let value = seen.get(key);
    if (value === undefined && !seen.has(key)) {
      if (seen.size >= limit) seen.clear();
      value = f(arg);
      seen.set(key, value);
    }
    return value as T;
  };
}

/** A pure function of its string argument, remembered (`memoizedBy` with the string as its key). */
export const memoized = <T>(f: (key: string) => T, limit = 20_000): ((key: string) => T) => memoizedBy((key: string) => key, f, limit);
