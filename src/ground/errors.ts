/** Stable codes for errors a user can act on. */
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
  return new ShakedownError(
    'SHAKEDOWN_UNKNOWN_ID',
    `Failed to find ${kind} \`${id}\`: no such ${kind}. Valid ${kind} ids: ${valid.join(', ')}.`,
  );
}
