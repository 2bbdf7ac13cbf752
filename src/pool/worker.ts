/** One worker thread of the episode pool: the run rebuilt from the config, then each task's batch of episodes (an open batch takes more while it runs). */
import { useLlmCache } from '../model/cache.js';
import { getHeapStatistics } from 'node:v8';
import { Tinypool } from 'tinypool';
import type { AgentFactory } from '../agents/contract.js';
import type { ResolvedConfig } from '../ground/config.js';
import { runEpisode, WorldHarness, type EpisodeOptions } from '../run/episode.js';
import { type EpisodeKey } from '../ground/record.js';
import { ShakedownError } from '../ground/errors.js';
import type { Scenario } from '../ground/scenario.js';
import { resolveSweepParts } from '../run/parts.js';
import { onWorkers, type PoolMessage, type WorkerMessage, type WorkerReply, type WorkerTask } from './pool.js';

interface WorkerRun {
  readonly harness: WorldHarness;
  readonly scenarios: ReadonlyMap<string, Scenario>;
  readonly agents: ReadonlyMap<string, AgentFactory>;
  readonly options: EpisodeOptions;
}

let run: Promise<WorkerRun> | undefined;

async function start(): Promise<WorkerRun> {
  const { config, llmCacheDir } = Tinypool.workerData as { config: ResolvedConfig; llmCacheDir?: string };
  // The main thread's LLM cache, so that model calls made on this thread are cached alike.
  useLlmCache(llmCacheDir);
  // The agents whose episodes leave the main process; module, service and command agents stay there.
  const { world, scenarios, agents, options } = await resolveSweepParts({ ...config, agents: config.agents.filter(onWorkers) });
  return {
    harness: new WorldHarness(world, options.runSeed),
    scenarios: new Map(scenarios.map((s) => [s.id, s])),
    agents: new Map(agents.map((a) => [a.id, a])),
    options,
  };
}

export async function runTask({ keys: first, port, concurrency, open }: WorkerTask): Promise<WorkerReply> {
  let r: WorkerRun;
  try {
    r = await (run ??= start());
  } catch (error) {
    // The main thread resolved the same config; a worker that cannot is told apart, e.g. a module agent
    // that loads only once per process.
    if (error instanceof ShakedownError) return { fatal: { code: error.code, message: `${error.message} (in a worker thread; \`--workers 1\` runs in one process)` } };
    throw error;
  }
  const notSelected = (list: readonly EpisodeKey[]) => list.find((key) => !r.scenarios.has(key.scenario) || !r.agents.has(key.agent));
  const foreign = (key: EpisodeKey): WorkerReply => ({ fatal: { code: 'SHAKEDOWN_WORKER', message: `A worker thread was handed episode ${key.scenario} / ${key.agent}, which its config does not select.` } });
  const bad = notSelected(first);
  if (bad) return foreign(bad);
  // The batch's keys: those it came with, then those the main thread sends while it runs (an open batch),
  // until it says the batch is over. Lanes that find none waiting wait for the next word.
  const keys = [...first];
  let ended = !open;
  let refused: EpisodeKey | undefined;
  const waiting: (() => void)[] = [];
  if (open) {
    port.on('message', (m: PoolMessage) => {
      if ('more' in m) {
        refused ??= notSelected(m.more);
        keys.push(...m.more);
      } else ended = true;
      for (const resume of waiting.splice(0)) resume();
    });
  }
  // Up to `concurrency` episodes at once, each reported as it starts and as it ends.
  let next = 0;
  const lane = async (): Promise<void> => {
    for (;;) {
      if (refused) return;
      if (next >= keys.length) {
        if (ended) return;
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      const index = next++;
      const key = keys[index] as EpisodeKey;
      const prepared = await r.harness.prepare(r.scenarios.get(key.scenario) as Scenario);
      port.postMessage({ start: index } satisfies WorkerMessage);
      const record = await runEpisode(r.harness, prepared, r.agents.get(key.agent) as AgentFactory, key, r.options);
      port.postMessage({ index, record, heapUsed: getHeapStatistics().used_heap_size } satisfies WorkerMessage);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, open ? concurrency : Math.min(concurrency, keys.length)) }, lane));
  if (refused) return foreign(refused);
  return { sent: keys.length, heapUsed: getHeapStatistics().used_heap_size };
}
