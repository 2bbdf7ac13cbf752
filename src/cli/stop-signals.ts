/**
 * SIGINT and SIGTERM for a command that holds a run directory's lock (merge, rejudge): the first stops the
 * command's work at its next step, so that it releases the lock and ends with 130 or 143 through the
 * CLI's exit code; without this, Node's default for SIGTERM ends the process where it stands, lock and all.
 * (`sweep` has its own, with a grace for the episodes in flight.)
 */
import type { Io } from './options.js';

export interface StopSignals {
  /** Aborted at the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The exit code for the signal that stopped the command (130 for SIGINT, 143 for SIGTERM), or undefined. */
  exitCode(): number | undefined;
  /** Gives SIGINT and SIGTERM back to their defaults. */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM while `what` (e.g. "merge") runs; `after` says what to do next. */
export function stopOnSignals(io: Io, what: string, after: string): StopSignals {
  const stop = new AbortController();
  let by: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) return;
    by = signal;
    io.err(`\nshakedown: interrupted (${signal}): stopping the ${what}. ${after}\n`);
    stop.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    exitCode: () => (by === undefined ? undefined : by === 'SIGTERM' ? 143 : 130),
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Resolves at the first SIGINT or SIGTERM (for a command that serves until stopped), then gives both back. */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
