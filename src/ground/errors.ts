/** Stable codes for errors a user can act on. */
import { distance } from 'fastest-levenshtein';
export type ShakedownErrorCode =
  | 'SHAKEDOWN_CONFIG'
  | 'SHAKEDOWN_UNKNOWN_ID'
  | 'SHAKEDOWN_SCENARIO'
  | 'SHAKEDOWN_AGENT'
  | 'SHAKEDOWN_ESTIMATOR'
  | 'SHAKEDOWN_RUN_DIR'
  | 'SHAKEDOWN_WORKER';

/**
 * An error whose message says what failed, why, and what to do ("Failed to <X>: <why>. <fix>").
 * The CLI prints `message` and maps `code` to an exit status; library code never exits.
 */
export class ShakedownError extends Error {
  readonly code: ShakedownErrorCode;
  constructor(code: ShakedownErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ShakedownError';
    this.code = code;
  }
}

/** The error for an id that is not in a registry: it lists the valid ids. */
export function unknownId(kind: string, id: string, valid: readonly string[]): ShakedownError {
  const near = suggest(id, valid);
  return new ShakedownError(
    'SHAKEDOWN_UNKNOWN_ID',
    `Failed to find ${kind} \`${id}\`: no such ${kind}.${near.length > 0 ? ` Did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?` : ''} Valid ${kind} ids: ${valid.join(', ')}.`,
  );
}

/**
 * The candidates nearest to a mistyped word, by edit distance (fastest-levenshtein): at most three, each
 * within a third of the word's length (two edits at least), the nearest first.
 */
export function suggest(word: string, candidates: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(word.length / 3));
  return [...new Set(candidates)]
    .map((c) => ({ c, d: distance(word.toLowerCase(), c.toLowerCase()) }))
    .filter((x) => x.d > 0 && x.d <= limit)
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, 3)
    .map((x) => x.c);
}
