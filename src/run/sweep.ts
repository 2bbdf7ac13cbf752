import type { AgentFactory } from '../agents/contract.js';
import { runEpisode, WorldHarness, type EpisodeOptions } from './episode.js';
import { keyString, type EpisodeKey, type EpisodeRecord } from '../ground/record.js';
import type { Scenario } from '../ground/scenario.js';
import type { WorldDefinition } from '../ground/world.js';
import { ShakedownError } from '../ground/errors.js';

/** Runs again of an episode whose agent's process ended under several at once, before it is recorded as it came. */
const MAX_HOST_RERUNS = 3;

/**
 * The episodes of one agent in flight in this process: any number share, one that must run alone waits
 * until none runs and holds the others off until it ends.
 */
class AgentGate {
  private running = 0;
  private alone = false;
  private readonly waiting: (() => void)[] = [];

  async enter(alone: boolean): Promise<() => void> {
    while (this.alone || (alone && this.running > 0)) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    if (alone) this.alone = true;
    return () => {
      this.running--;
      if (alone) this.alone = false;
      for (const wake of this.waiting.splice(0)) wake();
    };
  }
}

/** One turn of the event loop (a macrotask), where the platform offers one. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

/** Everything a sweep needs, resolved. */
export interface SweepPlan extends EpisodeOptions {
  readonly world: WorldDefinition;
  readonly scenarios: readonly Scenario[];
  readonly agents: readonly AgentFactory[];
  readonly eps: readonly number[];
  readonly lambda: readonly number[];
  readonly trials: number;
  /** Episodes in flight at once. @default 8 */
  readonly concurrency: number;
}

/** The episode keys of a plan, in a fixed order. */
export function planKeys(plan: Pick<SweepPlan, 'scenarios' | 'agents' | 'eps' | 'lambda' | 'trials'>): EpisodeKey[] {
  const keys: EpisodeKey[] = [];
  for (const scenario of plan.scenarios)
    for (const agent of plan.agents)
      for (const eps of plan.eps)
        for (const lambda of plan.lambda)
          for (let trial = 0; trial < plan.trials; trial++) keys.push({ scenario: scenario.id, agent: agent.id, eps, lambda, trial });
  return keys;
}

export interface SweepHooks {
  /** Called as each episode finishes, in completion order; the caller appends it to the log. */
  onEpisode?(record: EpisodeRecord): void | Promise<void>;
  /** Keys already finished (from a previous, interrupted run): skipped. */
  readonly skip?: ReadonlySet<string>;
  /** Stops launching new episodes; those in flight finish. */
  readonly signal?: AbortSignal;
  /**
   * Runs one episode somewhere else (a worker pool) and resolves with its record, which must equal what
   * this process would produce for the key. Episodes of agents that run in processes of their own
   * (`isolation: 'process'`) always run here. @default runs it in this process
   */
  readonly execute?: (key: EpisodeKey) => Promise<EpisodeRecord>;
  /**
   * Whether `runSweep` also returns the records. A long sweep that hands each record to `onEpisode`
   * (which writes it to the log) passes `false`, so that memory does not grow with the episodes. @default true
   */
  readonly retainRecords?: boolean;
}

/**
 * Runs every episode of the plan with at most `concurrency` in flight and hands each record to
 * `onEpisode` as it finishes. Returns the records of this call (not the skipped ones), unless told not
 * to keep them (`retainRecords: false`).
 */
export async function runSweep(plan: SweepPlan, hooks: SweepHooks = {}): Promise<EpisodeRecord[]> {
  const harness = new WorldHarness(plan.world, plan.runSeed);
  const scenarios = new Map(plan.scenarios.map((s) => [s.id, s]));
  const agents = new Map(plan.agents.map((a) => [a.id, a]));
  // Every scenario is prepared before the first episode: a broken one stops the sweep before it costs anything.
  for (const scenario of plan.scenarios) {
    const prepared = await harness.prepare(scenario);
    const bad = prepared.goldStatuses.findIndex((status) => status < 200 || status >= 300);
    if (bad >= 0) {
      throw new ShakedownError(
        'SHAKEDOWN_SCENARIO',
        `Failed to prepare scenario ${scenario.id}: gold[${bad}] (${scenario.gold[bad]?.tool}) answered ${prepared.goldStatuses[bad]}, so its goal state is not reachable. Run \`shakedown validate\` and fix the scenario.`,
      );
    }
  }
  const keys = planKeys(plan).filter((k) => !hooks.skip?.has(keyString(k)));
  const records: EpisodeRecord[] = [];
  const gates = new Map<string, AgentGate>();
  const gateOf = (agent: string) => gates.get(agent) ?? gates.set(agent, new AgentGate()).get(agent) as AgentGate;
  const here = async (key: EpisodeKey): Promise<EpisodeRecord> => {
    const agent = agents.get(key.agent) as AgentFactory;
    const gate = gateOf(key.agent);
    const prepared = await harness.prepare(scenarios.get(key.scenario) as Scenario);
    for (let attempt = 0; ; attempt++) {
      // A run again after its agent's process died under several episodes runs alone, so that a death
      // is charged to the episode that caused it, and to none other (agents/hosted.ts).
      const release = await gate.enter(attempt > 0);
      // A module agent's host may still be loading it (after one died): the deadline starts once it has.
      await agent.ready?.();
      let record: EpisodeRecord;
      try {
        record = await runEpisode(harness, prepared, agent, key, plan);
      } finally {
        release();
      }
      if (record.error?.name !== 'AgentHostLost' || attempt >= MAX_HOST_RERUNS || hooks.signal?.aborted) return record;
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < keys.length && !hooks.signal?.aborted) {
      const key = keys[next++] as EpisodeKey;
      const record = hooks.execute && agents.get(key.agent)?.isolation !== 'process' ? await hooks.execute(key) : await here(key);
      if (hooks.retainRecords !== false) records.push(record);
      await hooks.onEpisode?.(record);
      // Episodes resolve through promises alone; let the event loop turn between them, so that signals
      // (SIGINT), timers and output are served during a long sweep.
      await yieldToEventLoop();
    }
  };
  const width = Math.max(1, Math.min(plan.concurrency, keys.length));
  await Promise.all(Array.from({ length: width }, worker));
  return records;
}

/** The task a key belongs to in a cell of an agent. */
const taskOf = (k: EpisodeKey) => `${k.agent}|${k.eps}|${k.lambda}|${k.scenario}`;

/**
 * An adaptive sweep: `firstTrials` trials of every task in every cell, then the remaining trials up to
 * `plan.trials` only for the tasks whose first round was mixed (0 < c < firstTrials). Estimates stay
 * unbiased with `adaptiveEstimate`. Keys in `hooks.skip` count as done; their outcomes must be given in
 * `done` so that the second round knows which tasks were mixed.
 */
export async function runAdaptiveSweep(plan: SweepPlan, firstTrials: number, hooks: SweepHooks = {}, done: ReadonlyMap<string, boolean> = new Map()): Promise<EpisodeRecord[]> {
  if (!Number.isInteger(firstTrials) || firstTrials < 2 || firstTrials >= plan.trials) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to plan an adaptive sweep: the first round needs 2 to ${plan.trials - 1} trials (of \`trials\` ${plan.trials}), got ${firstTrials}.`);
  }
  const passes = new Map<string, { n: number; c: number }>();
  const count = (k: EpisodeKey, pass: boolean) => {
    const t = passes.get(taskOf(k)) ?? { n: 0, c: 0 };
    t.n++;
    if (pass) t.c++;
    passes.set(taskOf(k), t);
  };
  // The first round's outcomes are counted as they arrive, so that its records need not be kept.
  const ran = new Set<string>();
  const first = await runSweep(
    { ...plan, trials: firstTrials },
    {
      ...hooks,
      onEpisode(record) {
        ran.add(keyString(record.key));
        count(record.key, record.outcome === 'pass');
        return hooks.onEpisode?.(record);
      },
    },
  );
  if (hooks.signal?.aborted) return first;
  for (const k of planKeys({ ...plan, trials: firstTrials })) {
    const pass = done.get(keyString(k));
    if (pass !== undefined && !ran.has(keyString(k))) count(k, pass);
  }
  const settled = (k: EpisodeKey) => {
    const t = passes.get(taskOf(k));
    return !t || t.c === 0 || t.c === t.n;
  };
  const skip = new Set<string>(hooks.skip ?? []);
  for (const k of planKeys(plan)) if (k.trial < firstTrials || settled(k)) skip.add(keyString(k));
  const second = await runSweep(plan, { ...hooks, skip });
  return [...first, ...second];
}
