/** Freezes a value and everything it holds: what several episodes share (a world's tools, an initial database) cannot be changed by one of them. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
