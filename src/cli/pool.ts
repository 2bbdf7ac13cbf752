/**
 * Episodes on every core: a tinypool of worker threads, each of which rebuilds the run from the resolved
 * config and runs the episodes it is handed. A worker whose heap grows past `workerMaxMemoryMb` is
 * replaced after an episode (DESIGN decision 11). Every episode is a function of its key and the config,
 * so a record from a worker equals the one this process would write.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { Tinypool } from 'tinypool';
import { agentSource } from '../agents/loader.js';
import type { ResolvedConfig } from '../core/config.js';
import { keyString, type EpisodeKey, type EpisodeRecord } from '../core/episode.js';
import { ShakedownError, type ShakedownErrorCode } from '../core/errors.js';

/** `workers: auto` uses the pool only for sweeps at least this large: a worker takes about a second to start. */
export const AUTO_POOL_MIN_EPISODES = 1000;

/** How often one episode may take its worker down before the sweep stops with an error. */
const MAX_WORKER_DEATHS = 3;

/** What a worker answers for one episode: its record, or a configuration error that stops the sweep. */
export type WorkerReply = { readonly record: EpisodeRecord; readonly heapUsed: number } | { readonly fatal: { readonly code: ShakedownErrorCode; readonly message: string } };

/** The task a worker runs: one episode key. */
export interface WorkerTask {
  readonly key: EpisodeKey;
}

/**
 * Worker threads a sweep uses. `auto`: every core when all agents are built in and the scripted user
 * speaks (CPU-bound episodes) and at least AUTO_POOL_MIN_EPISODES episodes are to run; otherwise 1, this
 * process, where `concurrency` overlaps the waits of LLM, HTTP and module agents.
 */
export function workerCount(config: Pick<ResolvedConfig, 'workers' | 'agents' | 'simulator'>, episodesToRun: number, cores: number = availableParallelism()): number {
  if (config.workers !== 'auto') return config.workers;
  const cpuBound = config.simulator === 'scripted' && config.agents.every((spec) => agentSource(spec) === 'built-in');
  return cpuBound && cores >= 2 && episodesToRun >= AUTO_POOL_MIN_EPISODES ? cores : 1;
}

export interface EpisodePool {
  /** Runs one episode on a worker; a worker that dies under it (or is recycled) is replaced and the episode rerun. */
  execute(key: EpisodeKey): Promise<EpisodeRecord>;
  /** Workers replaced because their heap passed `workerMaxMemoryMb`. */
  readonly recycled: number;
  /** Episodes run again because their worker was recycled or died under them. */
  readonly reruns: number;
  /** Stops every worker (after letting each release its agents); episodes still running are dropped, unrecorded. */
  close(): Promise<void>;
}

/** The shape of tinypool's worker_threads wrapper, as far as `close` needs it. */
interface ThreadWrapper {
  readonly thread: Worker;
  removeListener?: (event: string, listener: (...args: unknown[]) => void) => unknown;
}

/** Tinypool rejects the tasks of a worker it terminates (to recycle it, or on close) with this message. */
const TERMINATED = 'Terminating worker thread';

const limitBytes = (config: Pick<ResolvedConfig, 'workerMaxMemoryMb'>) => config.workerMaxMemoryMb * 1024 * 1024;

/** Starts `workers` threads sharing `concurrency` episodes in flight. */
export function startEpisodePool(config: ResolvedConfig, workers: number, concurrency: number): EpisodePool {
  const pool = new Tinypool({
    filename: new URL('./pool-entry.mjs', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
    concurrentTasksPerWorker: Math.max(1, Math.ceil(concurrency / workers)),
    maxMemoryLimitBeforeRecycle: limitBytes(config),
    // The worker's default export runs an episode; this export releases its agents before it stops.
    teardown: 'teardown',
    workerData: { config },
  });
  let closing = false;
  let recycled = 0;
  let reruns = 0;
  const limit = limitBytes(config);
  return {
    get recycled() {
      return recycled;
    },
    get reruns() {
      return reruns;
    },
    async execute(key) {
      for (let deaths = 0; ; ) {
        let reply: WorkerReply;
        try {
          reply = (await pool.run({ key } satisfies WorkerTask)) as WorkerReply;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (closing) throw new ShakedownError('SHAKEDOWN_WORKER', `Episode ${keyString(key)} was still running when the worker pool closed; it is not recorded.`);
          reruns++;
          // A worker recycled for its memory takes down the episodes it was running; they run again, unchanged.
          if (message === TERMINATED) continue;
          if (++deaths < MAX_WORKER_DEATHS) continue;
          throw new ShakedownError(
            'SHAKEDOWN_WORKER',
            `Failed to run episode ${keyString(key)}: its worker thread died ${deaths} times (last: ${message}), so the agent or something it calls throws outside the episode or crashes. Finished episodes are in the log: fix the agent and continue with \`--resume\` (\`--workers 1\` runs it in this process, where the error ends the sweep with its stack).`,
            { cause: error },
          );
        }
        if ('fatal' in reply) throw new ShakedownError(reply.fatal.code, reply.fatal.message);
        // The pool recycles on the heap its worker reports after the task, the figure sent here.
        if (reply.heapUsed > limit) recycled++;
        return reply.record;
      }
    },
    async close() {
      closing = true;
      // tinypool 2.2's destroy() waits for each worker's exit with events.once() on its thread wrapper,
      // which lacks removeListener: a worker dying at that moment (a stray exception) would throw inside
      // Node's events module. The wrapper gets the method it is missing.
      for (const wrapper of pool.threads as unknown as ThreadWrapper[]) wrapper.removeListener ??= (event, listener) => wrapper.thread.off(event, listener);
      await pool.destroy();
    },
  };
}
