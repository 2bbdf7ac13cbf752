/**
 * The episode's simulated clock. Waiting through `sleep` costs no wall time (DESIGN decision 7): it
 * advances the episode's own time and yields once to the event loop so that other episodes progress.
 */
export interface EpisodeClock {
  /** Milliseconds since the Unix epoch, on the episode's own timeline. */
  now(): number;
  /** Waits `ms` of simulated time. Rejects with the signal's reason if the episode is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Simulated milliseconds since the episode started. */
  elapsed(): number;
}

/** The reference date every world and episode starts from, so that no engine path reads the wall clock. */
export const REFERENCE_EPOCH_MS = Date.UTC(2026, 0, 15, 9, 0, 0);

export function createClock(startMs: number = REFERENCE_EPOCH_MS): EpisodeClock {
  let t = startMs;
  return {
    now: () => t,
    elapsed: () => t - startMs,
    async sleep(ms: number, signal?: AbortSignal) {
      if (signal?.aborted) throw signal.reason;
      if (Number.isFinite(ms) && ms > 0) t += ms;
      await Promise.resolve();
      if (signal?.aborted) throw signal.reason;
    },
  };
}
