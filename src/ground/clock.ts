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

/**
 * What besides simulated waits moves an episode's clock (docs/faults.md, "Time"):
 * - `simulated`: nothing; an agent waits through `ctx.clock.sleep` (or the tool server's clock), and its
 *   own computing takes no episode time. Deterministic.
 * - `real`: also the real time the agent holds the turn (from a user message to its reply) outside the
 *   engine's tool calls: an agent in another process that sleeps 2 s before a retry finds 2 s passed, and
 *   an LLM agent's API latency is its thinking time.
 * - `model`: also `msPerCall` per model call the agent reports (`reportUsage`): thinking time that is
 *   deterministic, for LLM agents and replays.
 */
export type AgentTime = { readonly mode: 'simulated' } | { readonly mode: 'real' } | { readonly mode: 'model'; readonly msPerCall: number };

/** `auto` lets each agent say how it spends time (`AgentFactory.time`); built-in and module agents are simulated. */
export type AgentTimeSetting = AgentTime | { readonly mode: 'auto' };

/** Parses `simulated`, `real`, `model:MS` or `auto`; throws a RangeError that says what to write. */
export function parseAgentTime(text: string): AgentTimeSetting {
  const s = text.trim();
  if (s === 'simulated' || s === 'real' || s === 'auto') return { mode: s };
  const m = /^model:(\d+(?:\.\d+)?)$/.exec(s);
  if (m) {
    const msPerCall = Number(m[1]);
    if (msPerCall <= 600_000) return { mode: 'model', msPerCall };
  }
  throw new RangeError(`write \`auto\`, \`simulated\`, \`real\` or \`model:MS\` (simulated ms per model call, at most 600000, e.g. model:1500), not \`${text}\``);
}

/** The setting as written on the command line and in run.json. */
export const agentTimeName = (t: AgentTimeSetting): string => (t.mode === 'model' ? `model:${t.msPerCall}` : t.mode);

/** An episode clock that also counts the agent's own time, as its `AgentTime` rule says. */
export interface AgentClock extends EpisodeClock {
  readonly time: AgentTime;
  /** The agent holds the turn (`true` from a user message until its reply). */
  holding(on: boolean): void;
  /** A tool call entered the engine: its time is the engine's, spent on simulated waits only. */
  callStarted(): void;
  callEnded(): void;
  /** The agent made `n` more model calls. */
  modelCalls(n: number): void;
}

// clock: the real-time source of `real` agent time; simulated and model time never read it.
const realNow = (): number => performance.now();

/**
 * A simulated clock starting at `startMs`. With the default `simulated` rule it is exactly the clock
 * of DESIGN decision 7 and reads no real time; `real` and `model` add the agent's own time.
 */
export function createClock(startMs: number = REFERENCE_EPOCH_MS, time: AgentTime = { mode: 'simulated' }, now: () => number = realNow): AgentClock {
  let t = startMs;
  let holding = false;
  let calls = 0;
  /** Real ms counted but not yet whole, and the real instant counting resumed from. */
  let carry = 0;
  let mark = 0;
  const counting = () => time.mode === 'real' && holding && calls === 0;
  const fold = () => {
    if (!counting()) return;
    const r = now();
    carry += r - mark;
    mark = r;
    const whole = Math.floor(carry);
    t += whole;
    carry -= whole;
  };
  /** Applies a change of state, counting real time up to it and resuming from it. */
  const change = (f: () => void) => {
    fold();
    f();
    if (counting()) mark = now();
  };
  const clock: AgentClock = {
    time,
    now: () => {
      fold();
      return t;
    },
    elapsed: () => clock.now() - startMs,
    async sleep(ms: number, signal?: AbortSignal) {
      if (signal?.aborted) throw signal.reason;
      if (Number.isFinite(ms) && ms > 0) t += ms;
      await Promise.resolve();
      if (signal?.aborted) throw signal.reason;
    },
    holding: (on) => change(() => (holding = on)),
    callStarted: () => change(() => calls++),
    callEnded: () => change(() => (calls = Math.max(0, calls - 1))),
    modelCalls(n) {
      if (time.mode === 'model' && n > 0) t += n * time.msPerCall;
    },
  };
  return clock;
}

/** The episode clock, with each `sleep` also waiting real time scaled down by `scale`. */
export function withRealWaits(clock: EpisodeClock, scale: number): EpisodeClock {
  return {
    now: clock.now,
    elapsed: clock.elapsed,
    async sleep(ms, signal) {
      await clock.sleep(ms, signal);
      if (!(ms > 0)) return;
      // clock: a deliberate real wait, scaled down, so that an agent's own timers see a slow call; outcomes still run on simulated time.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms * scale);
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
