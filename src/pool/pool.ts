/**
 * Episodes on every core: a tinypool of worker threads, each of which rebuilds the run from the resolved
 * config and runs the episodes it is handed. A worker whose heap grows past `workerMaxMemoryMb` is
 * replaced after a batch of episodes (DESIGN decision 11). Every episode is a function of its key and the config,
 * so a record from a worker equals the one this process would write.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { Tinypool } from 'tinypool';
import { agentSource } from '../agents/loader.js';
import type { ResolvedConfig } from '../ground/config.js';
import { episodeIdOf, episodeSeeds, keyString, type EpisodeKey, type EpisodeRecord } from '../ground/record.js';
import { ShakedownError, type ShakedownErrorCode } from '../ground/errors.js';

/** `workers: auto` uses the pool only for sweeps at least this large: a worker takes about a second to start. */
export const AUTO_POOL_MIN_EPISODES = 1000;

/**
 * How often one episode, run alone, may take its worker down before it is recorded as an `error`
 * (`agent-crash`, `out-of-memory` or `deadline`) and the sweep goes on.
 */
const MAX_WORKER_DEATHS = 2;

/** Most episodes handed to a worker at once when its batch starts. */
const MAX_BATCH = 16;

/**
 * Most episodes one batch runs, those sent while it runs included: a worker ends its task now and then,
 * so that its heap is checked between tasks even when nothing else ends a batch.
 */
const MAX_OPEN_BATCH = 1024;

/** What a worker answers for a batch: how many records it sent, or a configuration error that stops the sweep. */
export type WorkerReply = { readonly sent: number; readonly heapUsed: number } | { readonly fatal: { readonly code: ShakedownErrorCode; readonly message: string } };

/**
 * What a worker says on the batch's port, episode by episode, so that no finished record waits for the
 * rest; with each record, its heap, so that an open batch ends once the worker is due to be replaced.
 */
export type WorkerMessage = { readonly start: number } | { readonly index: number; readonly record: EpisodeRecord; readonly heapUsed: number };

/** What the main thread says on an open batch's port: more episodes (indexed after those sent), or the end of the batch. */
export type PoolMessage = { readonly more: readonly EpisodeKey[] } | { readonly end: true };

/**
 * The task a worker runs: a batch of episode keys, at most `concurrency` of them at once. An `open` batch
 * takes more keys on its port while it runs, until the main thread ends it.
 */
export interface WorkerTask {
  readonly keys: readonly EpisodeKey[];
  readonly port: MessagePort;
  readonly concurrency: number;
  readonly open?: boolean;
}

/**
 * Worker threads a sweep uses. `auto`: every core when all agents are built in and the scripted user
 * speaks (CPU-bound episodes) and at least AUTO_POOL_MIN_EPISODES episodes are to run; otherwise 1, this
 * process, where `concurrency` overlaps the waits of LLM, HTTP and module agents.
 */
export function workerCount(config: Pick<ResolvedConfig, 'workers' | 'agents' | 'simulator'> & Partial<Pick<ResolvedConfig, 'judge'>>, episodesToRun: number, cores: number = availableParallelism()): number {
  if (config.workers !== 'auto') return config.workers;
  const cpuBound = config.simulator === 'scripted' && (config.judge ?? 'wording') === 'wording' && config.agents.every((spec) => agentSource(spec) === 'built-in');
  return cpuBound && cores >= 2 && episodesToRun >= AUTO_POOL_MIN_EPISODES ? cores : 1;
}

/**
 * Agents a worker thread runs: those whose episodes may leave the main process. A module agent's code runs
 * in a process of its own (agents/hosted.ts) and a service's or command's is another process already:
 * their episodes run in the main process, which drives those processes.
 */
export const onWorkers = (spec: string): boolean => !['module', 'http', 'command'].includes(agentSource(spec));



export interface EpisodePool {
  /** Runs one episode on a worker; a worker that dies under it is replaced and the episode rerun (the rest of its batch too, uncharged). */
  execute(key: EpisodeKey): Promise<EpisodeRecord>;
  /** Workers replaced because their heap passed `workerMaxMemoryMb`. */
  readonly recycled: number;
  /** Episodes run again because their worker died under them. */
  readonly reruns: number;
  /** Stops every worker (after letting each release its agents); episodes still running are dropped, unrecorded. */
  close(): Promise<void>;
}

/** The shape of tinypool's worker_threads wrapper, as far as `close` needs it. */
interface ThreadWrapper {
  readonly thread: Worker;
  removeListener?: (event: string, listener: (...args: unknown[]) => void) => unknown;
}

const limitBytes = (config: Pick<ResolvedConfig, 'workerMaxMemoryMb'>) => config.workerMaxMemoryMb * 1024 * 1024;

/**
 * How long past its own deadline a started episode may run before the main thread ends its worker: half
 * the deadline, between 2 and 30 s. Only a thread that cannot run its deadline timer gets there: an agent
 * in a synchronous loop, or one that ended the thread quietly (`process.exit`), which tinypool never reports.
 */
const watchdogMs = (deadlineMs: number): number => deadlineMs + Math.min(30_000, Math.max(2_000, deadlineMs / 2));

/** How long a worker may take to start (load the sources, resolve the run) before its first episode begins. */
const STARTUP_LIMIT_MS = 120_000;

/**
 * The record of an episode whose worker died under it, alone, `deaths` times: an `error` the agent
 * caused, with how it ended, so that the sweep goes on and the grid counts it.
 */
function deathRecord(config: ResolvedConfig, key: EpisodeKey, deaths: number, reason: string): EpisodeRecord {
  const ended: EpisodeRecord['ended'] = /memory/i.test(reason) ? 'out-of-memory' : /without a word from its worker|deadline/i.test(reason) ? 'deadline' : 'agent-crash';
  const message =
    ended === 'out-of-memory'
      ? `the agent ran its worker thread out of memory ${deaths} times (${reason}); raise \`--worker-max-memory\` (now ${config.workerMaxMemoryMb} MB) if it needs more`
      : ended === 'deadline'
        ? `the agent held its worker thread past the deadline ${deaths} times: ${reason}`
        : `the agent took its worker thread down ${deaths} times (last: ${reason})`;
  return {
    key,
    episodeId: episodeIdOf(config.seed, key),
    seeds: episodeSeeds(config.seed, key, config.fixedTrials),
    outcome: 'error',
    ended,
    diff: [],
    missingOutputs: [],
    failure: ended === 'deadline' ? 'deadline' : 'agent-error',
    error: { name: ended === 'out-of-memory' ? 'AgentOutOfMemory' : ended === 'deadline' ? 'DeadlineError' : 'AgentCrash', message },
    faults: [],
    messages: [],
    trace: [],
    simulator: config.simulator === 'llm' ? `llm:${config.simulatorModel ?? config.llm.model}` : 'scripted',
    confusions: [],
    simulatedMs: 0,
    wallMs: 0,
  };
}

/** A running batch that takes more episodes (`open`), as the pump sees it. */
interface Feed {
  /** Episodes handed to it and not yet settled. */
  held(): number;
  /** Episodes handed to it in all. */
  sent(): number;
  /** Its worker's heap after its last episode. */
  heap: number;
  ended: boolean;
  /** An idle check is pending (`endIfIdle`). */
  idleCheck: boolean;
  give(more: Pending[]): void;
  end(): void;
}

interface Pending {
  readonly key: EpisodeKey;
  readonly resolve: (record: EpisodeRecord) => void;
  readonly reject: (error: Error) => void;
  deaths: number;
  /** Running when its worker died beside others: it runs alone next, so that a death can be charged to it. */
  alone: boolean;
}

/**
 * Starts `workers` threads. Episodes waiting for a worker are handed over in batches (the waiting ones
 * shared among the free workers, at most MAX_BATCH each); a batch stays open while it runs, and episodes
 * that arrive meanwhile join it on its port, up to the worker's share of the concurrency in flight, so a
 * worker is never idle behind the slowest episode of its batch. Each record comes back on the batch's
 * port as soon as its episode ends, and each episode has its own watchdog, armed when the worker says it
 * starts. A batch ends when its worker has nothing to run, is due to be replaced (its heap), or must
 * free its thread for a suspect that runs alone.
 */
export function startEpisodePool(config: ResolvedConfig, workers: number, llmCacheDir?: string): EpisodePool {
  const pool = new Tinypool({
    filename: new URL('./entry.mjs', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
    concurrentTasksPerWorker: 1,
    maxMemoryLimitBeforeRecycle: limitBytes(config),
    // V8 lets a busy heap grow far past its live data before collecting; a cap makes it collect, so that
    // a worker's memory stays flat over a long sweep. Twice the recycle limit (at least 256 MB, what a
    // loaded worker needs with room to spare) leaves room for a burst. The default limit (160 MB, a cap of
    // 320 MB) was chosen by measuring peak RSS over 20,000 and 200,000
    // episodes at 128, 160, 256 and 512 (docs/performance.md, "Memory").
    resourceLimits: { maxOldGenerationSizeMb: Math.max(256, 2 * config.workerMaxMemoryMb) },
    // No teardown task: tinypool runs it before terminating a worker, and a worker stuck in an agent's loop
    // would never answer it. A worker's agents are released with its thread; `dispose` runs in the main
    // thread, for the factories resolved there.
    workerData: { config, ...(llmCacheDir ? { llmCacheDir } : {}) },
  });
  let closing = false;
  let recycled = 0;
  let reruns = 0;
  const limit = limitBytes(config);
  let free = workers;
  const queue: Pending[] = [];
  const inFlight = new Set<AbortController>();
  /** Batches running that take more episodes: each worker's, except one running a suspect alone. */
  const feeds = new Set<Feed>();
  const dropped = (key: EpisodeKey) => new ShakedownError('SHAKEDOWN_WORKER', `Episode ${keyString(key)} had not finished when the worker pool closed; it is not recorded.`);

  /** Per worker, episodes in flight at once: the sweep's concurrency shared among the workers. */
  const perWorker = Math.max(1, Math.floor(config.concurrency / workers));

  const runBatch = async (batch: Pending[], open: boolean): Promise<void> => {
    const watchdog = new AbortController();
    inFlight.add(watchdog);
    const { port1, port2 } = new MessageChannel();
    const settled = new Set<number>();
    /** Episodes running now, with the time each started (performance.now). */
    const running = new Map<number, number>();
    let stalled = `it did not start within ${STARTUP_LIMIT_MS / 1000} s of being handed to its worker: the worker could not load the run (an agent module that blocks as it loads?)`;
    let lastWord = performance.now(); // clock: watchdog bookkeeping only
    // clock: these timers end a worker that can no longer end its own episodes; an episode that finishes never meets them.
    let timer = setTimeout(() => watchdog.abort(), STARTUP_LIMIT_MS);
    /** The watchdog fires at the earliest running episode's limit, or a limit past the worker's last word. */
    const arm = () => {
      clearTimeout(timer);
      stalled = `it ran ${watchdogMs(config.deadlineMs)} ms, past its ${config.deadlineMs} ms deadline, without a word from its worker: the agent blocks the thread (a synchronous loop) or ended it (process.exit)`;
      const now = performance.now(); // clock: watchdog bookkeeping only
      const from = running.size > 0 ? Math.min(...running.values()) : lastWord;
      timer = setTimeout(() => watchdog.abort(), Math.max(0, from + watchdogMs(config.deadlineMs) - now));
    };
    let received = 0;
    let allReceived: (() => void) | undefined;
    let expected = Number.POSITIVE_INFINITY;
    const feed: Feed | undefined = open
      ? {
          held: () => batch.length - settled.size,
          sent: () => batch.length,
          heap: 0,
          ended: false,
          idleCheck: false,
          give(more) {
            batch.push(...more);
            port1.postMessage({ more: more.map((p) => p.key) } satisfies PoolMessage);
          },
          end() {
            if (this.ended) return;
            this.ended = true;
            feeds.delete(this);
            port1.postMessage({ end: true } satisfies PoolMessage);
          },
        }
      : undefined;
    if (feed) feeds.add(feed);
    port1.on('message', (m: WorkerMessage) => {
      lastWord = performance.now(); // clock: watchdog bookkeeping only
      if ('start' in m) {
        running.set(m.start, lastWord);
        arm();
        return;
      }
      running.delete(m.index);
      arm();
      received++;
      const p = batch[m.index];
      if (p && !settled.has(m.index)) {
        settled.add(m.index);
        p.resolve(m.record);
      }
      if (feed) feed.heap = m.heapUsed;
      if (received >= expected) allReceived?.();
      // An open batch with nothing left to run ends, or one due for a new worker; more may be waiting for it.
      if (feed) pump();
    });
    try {
      const reply = (await pool.run({ keys: batch.map((p) => p.key), port: port2, concurrency: open ? perWorker : batch.length === 1 ? 1 : perWorker, open } satisfies WorkerTask, { signal: watchdog.signal, transferList: [port2] })) as WorkerReply;
      if ('fatal' in reply) {
        for (const [i, p] of batch.entries()) if (!settled.has(i)) p.reject(new ShakedownError(reply.fatal.code, reply.fatal.message));
        return;
      }
      // Records travel on their own port: wait for every one the worker sent before closing it.
      expected = reply.sent;
      if (received < expected) await new Promise<void>((resolve) => (allReceived = resolve));
      // The pool recycles on the heap its worker reports after the task, the figure sent here.
      if (reply.heapUsed > limit) recycled++;
      for (const [i, p] of batch.entries()) if (!settled.has(i)) queue.unshift(p);
    } catch (error) {
      const raw = watchdog.signal.aborted ? stalled : error instanceof Error ? error.message : String(error);
      // Who is to blame: the one episode running (or, if none was, the next one, so that a fault that always
      // strikes between episodes still ends); several running are each run again alone, uncharged.
      const unsettled = batch.map((_, i) => i).filter((i) => !settled.has(i));
      const suspects = running.size > 0 ? [...running.keys()].filter((i) => !settled.has(i)) : unsettled.slice(0, 1);
      const charged = suspects.length === 1 ? suspects[0] : undefined;
      for (const i of unsettled) {
        const p = batch[i] as Pending;
        if (closing) {
          p.reject(dropped(p.key));
          continue;
        }
        if (i === charged) {
          p.deaths++;
          reruns++;
          if (p.deaths >= MAX_WORKER_DEATHS) {
            p.resolve(deathRecord(config, p.key, p.deaths, raw));
            continue;
          }
          p.alone = true;
        } else if (suspects.includes(i)) {
          reruns++;
          p.alone = true;
        }
        queue.unshift(p);
      }
    } finally {
      if (feed) {
        feed.ended = true;
        feeds.delete(feed);
      }
      clearTimeout(timer);
      port1.close();
      inFlight.delete(watchdog);
    }
  };

  /**
   * Ends a batch left with nothing to run, unless an episode arrives first: the sweep hands over its next
   * episode a turn of the event loop after a record settles (it yields with setImmediate), so the check
   * waits two turns, and a batch whose records all came at once is not ended just before its next episodes.
   */
  const endIfIdle = (feed: Feed) => {
    if (feed.idleCheck) return;
    feed.idleCheck = true;
    setImmediate(() =>
      setImmediate(() => {
        feed.idleCheck = false;
        if (!feed.ended && feed.held() === 0 && queue.length === 0) feed.end();
        else if (!feed.ended) pump();
      }),
    );
  };

  const pump = () => {
    // Waiting episodes go to the batches already running first, each up to `perWorker` in flight: a worker
    // never waits for the last, slowest episode of its batch before it gets the next (an LLM-backed module
    // agent, whose episodes differ in length by seconds, ran at a fraction of its concurrency that way).
    const suspect = queue.some((p) => p.alone);
    // The batch with the fewest in flight first, so that the workers share the waiting episodes.
    for (const feed of [...feeds].sort((a, b) => a.held() - b.held())) {
      const room = Math.min(perWorker - feed.held(), MAX_OPEN_BATCH - feed.sent());
      if (!closing && !suspect && feed.heap <= limit && room > 0 && queue.length > 0) feed.give(queue.splice(0, room));
      // A batch ends when a suspect needs a worker to itself, when its worker's heap is past the limit (the
      // worker is then replaced), at its size limit, or when it has nothing to run and nothing waits.
      if (closing || suspect || feed.heap > limit || feed.sent() >= MAX_OPEN_BATCH) feed.end();
      else if (feed.held() === 0 && queue.length === 0) endIfIdle(feed);
    }
    while (!closing && free > 0 && queue.length > 0) {
      // A suspect runs alone; the others go in batches shared among the free workers.
      const alone = queue.findIndex((p) => p.alone);
      const size = Math.max(1, Math.min(Math.max(MAX_BATCH, perWorker), Math.ceil(queue.length / free)));
      const batch = alone >= 0 ? queue.splice(alone, 1) : queue.splice(0, size);
      free--;
      void runBatch(batch, alone < 0).finally(() => {
        free++;
        pump();
      });
    }
  };

  return {
    get recycled() {
      return recycled;
    },
    get reruns() {
      return reruns;
    },
    execute(key) {
      if (closing) return Promise.reject(dropped(key));
      return new Promise<EpisodeRecord>((resolve, reject) => {
        queue.push({ key, resolve, reject, deaths: 0, alone: false });
        pump();
      });
    },
    async close() {
      closing = true;
      for (const p of queue.splice(0)) p.reject(dropped(p.key));
      // Episodes still running are dropped: aborting one terminates its worker, even one stuck in a loop.
      for (const watchdog of inFlight) watchdog.abort();
      // tinypool 2.2's destroy() waits for each worker's exit with events.once() on its thread wrapper,
      // which lacks removeListener: a worker dying at that moment (a stray exception) would throw inside
      // Node's events module. The wrapper gets the method it is missing.
      for (const wrapper of pool.threads as unknown as ThreadWrapper[]) wrapper.removeListener ??= (event, listener) => wrapper.thread.off(event, listener);
      await pool.destroy();
    },
  };
}
