/** How an episode ends when it does not end well: the errors thrown into it, and what an agent threw, made readable. */

/** Thrown into an episode whose agent spent its tool-call budget. */
export class ToolBudgetError extends Error {
  constructor(calls: number) {
    super(`the agent made more than ${calls} tool calls in one episode (a runaway loop?); raise --tool-budget if it really needs more`);
    this.name = 'ToolBudgetError';
  }
}

/**
 * What an agent threw, as an Error: anything may be thrown, even a value `String()` cannot convert (a
 * null-prototype object), and none of it may crash the sweep.
 */
export function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  let text: string;
  try {
    text = typeof thrown === 'string' ? thrown : JSON.stringify(thrown) ?? String(thrown);
  } catch {
    try {
      text = String(thrown);
    } catch {
      text = Object.prototype.toString.call(thrown);
    }
  }
  const e = new Error(`the agent threw a non-Error value: ${text.slice(0, 500)}`);
  e.name = 'NonErrorThrown';
  return e;
}

/** A failure of the scripted user, kept apart so that it is never blamed on the agent. */
export class SimulatorError extends Error {
  constructor(cause: unknown) {
    super(`the user simulator failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SimulatorError';
  }
}

/** Thrown into an agent's pending work when the episode's deadline passes. */
export class DeadlineError extends Error {
  constructor(what: string) {
    super(`episode deadline passed (${what})`);
    this.name = 'DeadlineError';
  }
}

/** A property of something an agent threw, as a string, whatever it is (a getter that throws, a symbol). */
export function safeString(value: unknown, fallback: string): string {
  try {
    return typeof value === 'string' ? value : value === undefined ? fallback : String(value);
  } catch {
    return fallback;
  }
}
