import { stabilityFields } from '../ground/stability.js';
import { deepFreeze } from '../ground/freeze.js';
import { providerWaits, type ProviderWaitHooks } from '../ground/provider-waits.js';
import { takeSavings } from '../model/cache.js';
import { DEFAULT_TOOL_BUDGET, episodeIdOf, episodeSeeds, type CacheSavings, type EpisodeKey, type EpisodeMessage, type EpisodeOutcome, type EpisodeRecord, type PreparedScenario } from '../ground/record.js';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { AgentFactory } from '../agents/contract.js';
import { canonicalize, changedEntries, cloneJson, collectionsOf, diffCanonical, type DiffEntry } from '../ground/canonical.js';
import { overlayDb, type OverlayDb } from '../ground/overlay.js';
import { createClock, type AgentTime, type AgentTimeSetting, type EpisodeClock } from '../ground/clock.js';
import { FaultInjector, type FaultKind, type FaultProfile, type FiredFault } from '../ground/faults.js';
import { joinSegments, perturb, type ResolvedFamily } from '../ground/perturb.js';
import { ToolRuntime, type TraceEntry } from '../ground/runtime.js';
import type { Scenario } from '../ground/scenario.js';
import { deriveSeed, makeRng } from '../ground/seeds.js';
import { callTool } from '../ground/tools.js';
import { ScriptedUser } from '../user/index.js';
import { type Confusion, type UserSimulator, type UserSimulatorFactory } from '../ground/simulator.js';
import { toolSpecJson, type ToolSpecJson, type WorldDefinition } from '../ground/world.js';
import { ShakedownError } from '../ground/errors.js';
import { asError, DeadlineError, safeString, SimulatorError, ToolBudgetError } from '../ground/episode-errors.js';

export { asError, DeadlineError, SimulatorError, ToolBudgetError } from '../ground/episode-errors.js';
import { classifyFailure, judgeEpisode, outcomeOf } from '../judge/index.js';
import { type ClaimReader } from '../ground/judging.js';
import { type FailureClass, type Finding } from '../ground/findings.js';
import { dataValues, isData } from '../judge/outputs.js';
import { callObserver } from '../judge/observe.js';
import { goldContext } from '../agents/baselines.js';

/** Options that shape every episode of a run. */
export interface EpisodeOptions {
  readonly runSeed: string;
  /** Perturbation families with validated parameters (`resolveFamilies`). */
  readonly families: readonly ResolvedFamily[];
  readonly faultKinds: readonly FaultKind[];
  readonly profile: FaultProfile;
  /** Parameters per fault kind, over the profile's. @default {} */
  readonly faultParams?: Readonly<Record<string, unknown>>;
  /** Real ms a fault waits per simulated ms, for agents with their own timers. @default 0 */
  readonly realWaitScale?: number;
  /** What besides simulated waits moves the episode clock (`AgentTime`); `auto` asks the agent. @default auto */
  readonly agentTime?: AgentTimeSetting;
  /** Hold wording and faults fixed across trials (DESIGN decision 3). @default false */
  readonly fixedTrials?: boolean;
  /** User turns before the simulator gives up. @default 12 */
  readonly maxTurns?: number;
  /** Makes each episode's simulated user. @default the scripted user */
  readonly userSimulator?: UserSimulatorFactory;
  /** Wall-clock limit per episode, ms. @default 60000 */
  readonly deadlineMs?: number;
  /** Real time the episode may wait for a model provider's quota beyond its deadline. @default MAX_PROVIDER_WAIT_MS (15 minutes) */
  readonly maxProviderWaitMs?: number;
  /** Simulated-time limit per episode, ms. @default 3600000 */
  readonly simulatedDeadlineMs?: number;
  /** Reads claims out of the agent's messages. @default the world's wording reader */
  readonly claimReader?: ClaimReader;
  /** Most tool calls per episode; a runaway loop ends there as an `error` (`ended: tool-budget`). @default 2000 */
  readonly toolBudget?: number;
  /** Largest reply to one user message, in bytes; a larger one ends the episode as an `error`. @default 262144 */
  readonly replyBytes?: number;
}

const simulated = async <T>(f: () => T | Promise<T>): Promise<T> => {
  try {
    return await f();
  } catch (error) {
    throw new SimulatorError(error);
  }
};

/** The default largest reply, as `agentLimitsSchema` has it. */
const DEFAULT_REPLY_BYTES = 262_144;

/** How an episode ends by the name of what ended it, for what an agent's own process (or thread) reports. */
const ENDED_BY_NAME: Readonly<Record<string, EpisodeRecord['ended']>> = {
  AgentExit: 'agent-crash',
  AgentCrash: 'agent-crash',
  AgentHostLost: 'agent-crash',
  AgentOutOfMemory: 'out-of-memory',
  AgentHung: 'deadline',
};

/** How long an agent's `close()` may take before the episode moves on without it. */
const CLOSE_GRACE_MS = 5_000;

/**
 * A world made ready for one run seed: its tool runtime, its base database (generated once) and its
 * prepared scenarios (gold state computed once per scenario, without faults).
 */
export class WorldHarness {
  readonly world: WorldDefinition;
  readonly runtime: ToolRuntime;
  readonly runSeed: string;
  /** The tool specs agents are given, built once (JSON Schema generation is not free) and frozen, since every episode shares them. */
  readonly toolsJson: readonly ToolSpecJson[];
  private base: unknown;
  /** Top-level collections of the database schema: an episode copies their entries on first read. */
  private readonly collections: ReadonlySet<string>;
  private readonly prepared = new Map<string, Promise<PreparedScenario>>();

  /** @param options.direct see `ToolRuntime`: tools' handlers called directly (the default) or through msw's `getResponse`. */
  constructor(world: WorldDefinition, runSeed: string, options: { direct?: boolean } = {}) {
    this.world = world;
    this.runSeed = runSeed;
    this.runtime = new ToolRuntime(world, options.direct ?? true);
    this.toolsJson = deepFreeze(world.tools.map(toolSpecJson));
    this.collections = new Set(collectionsOf(world.dbSchema).keys());
  }

  clone<T>(db: T): T {
    return (this.world.clone ? this.world.clone(db) : cloneJson(db)) as T;
  }

  /** Copies of an episode's database for tools that lie (see `OpenOptions.copies`): cheap copy-on-read layers over an overlay; none for a live world. */
  copiesOf(episode: { db: unknown; overlay?: OverlayDb }): { scratch(db: unknown): unknown; freeze(db: unknown): unknown } | null {
    if (this.world.live) return null;
    const { overlay } = episode;
    if (!overlay) return { scratch: (db) => this.clone(db), freeze: (db) => this.clone(db) };
    return {
      scratch: (db) => overlayDb(db as Record<string, unknown>, this.collections, cloneJson).db,
      freeze: (db) => (db === overlay.db ? overlay.freeze() : cloneJson(db)),
    };
  }

  /**
   * An episode's own database. Without a world-supplied clone, an overlay on the initial database that
   * copies collection entries on first read (see overlay.ts); otherwise the world's whole copy.
   */
  episodeDb(prepared: Pick<PreparedScenario, 'initial'>): { db: unknown; overlay?: OverlayDb } {
    if (this.world.clone || typeof prepared.initial !== 'object' || prepared.initial === null || Array.isArray(prepared.initial)) return { db: this.clone(prepared.initial) };
    const overlay = overlayDb(prepared.initial as Record<string, unknown>, this.collections, cloneJson);
    return { db: overlay.db, overlay };
  }

  baseDb(): unknown {
    if (this.base === undefined) this.base = this.world.generate(this.runSeed);
    return this.base;
  }

  prepare(scenario: Scenario): Promise<PreparedScenario> {
    let p = this.prepared.get(scenario.id);
    if (!p) {
      p = this.computeGold(scenario);
      this.prepared.set(scenario.id, p);
    }
    return p;
  }

  /**
   * The base database frozen, for scenarios' initial databases to share the entries their setups leave
   * alone: undefined for a world that copies its own database, a live one, or one that is not an object.
   */
  private sharedBase(): Record<string, unknown> | undefined {
    if (this.world.clone || this.world.live) return undefined;
    const base = this.baseDb();
    if (typeof base !== 'object' || base === null || Array.isArray(base)) return undefined;
    // A copy: the world's generated database may hold objects the world keeps using.
    return (this.frozenBase ??= deepFreeze(cloneJson(base) as Record<string, unknown>));
  }
  private frozenBase: Record<string, unknown> | undefined;

  /**
   * A scenario's initial database: the base with its setup applied. Where the base can be shared, the
   * setup runs on a copy-on-read overlay of it, so that the entries it does not touch are the base's own
   * (one copy of them for every scenario: a release set prepares hundreds); otherwise on a whole copy. A
   * setup that fails on the overlay is run again on a whole copy, which says what is wrong with it.
   */
  private initialOf(scenario: Scenario): unknown {
    // A copy of the setup: a world may keep its records as they are, and the initial database is frozen.
    const shared = this.sharedBase();
    if (shared) {
      const overlay = overlayDb(shared, this.collections, cloneJson);
      try {
        this.world.applySetup(overlay.db, structuredClone(scenario.setup));
        return overlay.settled();
      } catch {
        // Told below, on a whole copy.
      }
    }
    const initial = this.clone(this.baseDb());
    this.world.applySetup(initial, structuredClone(scenario.setup));
    return initial;
  }

  private async computeGold(scenario: Scenario): Promise<PreparedScenario> {
    let initial: unknown;
    try {
      initial = this.initialOf(scenario);
    } catch (error) {
      throw new ShakedownError('SHAKEDOWN_SCENARIO', `Failed to prepare scenario ${scenario.id}: its setup does not fit the base database: ${(error as Error).message}. Fix the scenario's setup.`, { cause: error });
    }
    // Shared by every episode's overlay, which copies an entry before a handler sees it, and read as it
    // is by the judge: frozen, so that code changing it fails loudly rather than changing later episodes.
    if (!this.world.clone && !this.world.live) deepFreeze(initial);
    // The gold actions run as an episode's do: on an overlay of the frozen initial database, where one can
    // be made; a live world's on a copy of its handle.
    const gold = this.world.live ? { db: this.clone(initial) } : this.episodeDb({ initial });
    const goldDb = gold.db;
    const session = this.runtime.open({ episodeId: `gold-${deriveSeed(this.runSeed, scenario.id)}`, db: goldDb, clock: createClock(), copies: this.copiesOf(gold) });
    const statuses: number[] = [];
    try {
      for (const action of scenario.gold) {
        const spec = this.world.tools.find((t) => t.name === action.tool);
        if (!spec) throw new ShakedownError('SHAKEDOWN_SCENARIO', `Failed to prepare scenario ${scenario.id}: gold tool \`${action.tool}\` does not exist in world ${this.world.id}.`);
        const r = await callTool(session.fetch, session.baseUrl, spec, action.args);
        statuses.push(r.status);
      }
    } catch (error) {
      // A live world's server, started by the first gold call, is stopped before the error goes on.
      await this.release(session.instance.db);
      throw error;
    } finally {
      session.close();
    }
    // A live world's state is read from its server: after the gold calls, and on a fresh one for the start.
    const goldState = gold.overlay ? gold.overlay.settled() : await this.liveState(session.instance.db, scenario);
    const initialState = this.world.live ? await this.liveState(this.clone(initial), scenario) : initial;
    const goldCanonical = canonicalize(this.world.dbSchema, goldState);
    const initialCanonical = canonicalize(this.world.dbSchema, initialState);
    const data = scenario.outputs.length > 0 ? this.dataOf(goldCanonical, initialCanonical) : undefined;
    return {
      scenario,
      initial,
      goldCanonical,
      initialCanonical,
      goldStatuses: statuses,
      goldChangesState: diffCanonical(initialCanonical, goldCanonical).length > 0,
      goldChanged: changedEntries(this.world.dbSchema, initialCanonical, goldCanonical),
      outputsAreData: scenario.outputs.map((o) => (data ? isData(o, data) : false)),
    };
  }

  /**
   * The state the judge compares after a session on `db`: the database itself, or a live world's state
   * read from its server, which is then released (whether the read worked or not).
   */
  async finalState(db: unknown): Promise<unknown> {
    const live = this.world.live;
    if (!live) return db;
    try {
      return await live.state(db);
    } finally {
      await this.release(db);
    }
  }

  /** Stops a live world's server behind `db` (nothing for a world in memory); never throws. */
  async release(db: unknown): Promise<void> {
    await this.world.live?.release?.(db).catch(() => undefined);
  }

  /** A live world's state for preparing a scenario: a state that cannot be read refuses the scenario. */
  private async liveState(db: unknown, scenario: Scenario): Promise<unknown> {
    try {
      return await this.finalState(db);
    } catch (error) {
      throw new ShakedownError('SHAKEDOWN_SCENARIO', `Failed to prepare scenario ${scenario.id}: the state of world ${this.world.id} could not be read: ${(error as Error).message}.`, { cause: error });
    }
  }

  /** The values of the base database, gathered once, and of a scenario's initial and gold states. */
  private baseValues: ReturnType<typeof dataValues> | undefined;
  private dataOf(gold: unknown, initial: unknown): ReturnType<typeof dataValues> {
    this.baseValues ??= dataValues(this.baseDb());
    const own = dataValues(gold, initial);
    return { numbers: new Set([...this.baseValues.numbers, ...own.numbers]), strings: [...own.strings] };
  }
}

/** The agent-time rule of an episode: the run's, or under `auto` the agent's own (simulated unless it says). */
export function resolveAgentTime(setting: AgentTimeSetting | undefined, factory: Pick<AgentFactory, 'time'>): AgentTime {
  if (setting && setting.mode !== 'auto') return setting;
  return factory.time ?? { mode: 'simulated' };
}


/** What an LLM user spent, when it was one that spent anything. */
function userUsagePart(user: UserSimulator): { userUsage?: NonNullable<EpisodeRecord['userUsage']> } {
  return user.usage && user.usage.calls > 0 ? { userUsage: { ...user.usage } } : {};
}

/** What the LLM cache saved an episode: its agent's calls (scoped by the episode) and its LLM user's. */
function cachedPart(episodeId: string): { cached?: NonNullable<EpisodeRecord['cached']> } {
  const agent = takeSavings(episodeId);
  const user = takeSavings(`${episodeId}:user`);
  return agent || user ? { cached: { ...(agent ? { agent } : {}), ...(user ? { user } : {}) } } : {};
}

/** An agent on real time reads HTTP dates against its own wall clock; none of its outcomes is deterministic anyway. */
const wallNow = (): number => Date.now(); // clock: HTTP dates for an agent on the wall clock

/** Model calls kept per episode for its trace (a runaway agent's beyond this are counted in `usage` only). */
const MAX_MODEL_CALLS = 1_000;

/**
 * Real time an episode may spend waiting for a model provider's quota without it counting towards the
 * wall-clock deadline: 15 minutes. A provider that asks for longer (a Retry-After of hours) ends the episode
 * at its deadline rather than holding the sweep.
 */
const MAX_PROVIDER_WAIT_MS = 15 * 60_000;

/**
 * The reason an episode's signal aborts with when the episode is over: a new error each time (code that
 * tags the errors it is given may write to it), without the stack trace no one reads.
 */
function endOfEpisode(): DeadlineError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new DeadlineError('episode over');
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Runs one episode and returns its record; never throws for what the agent does (an agent that throws
 * or hangs gives outcome `error`).
 */
export async function runEpisode(harness: WorldHarness, prepared: PreparedScenario, factory: AgentFactory, key: EpisodeKey, options: EpisodeOptions): Promise<EpisodeRecord> {
  const wallStart = performance.now(); // clock: measures wallMs for the record; no outcome depends on it
  const world = harness.world;
  const seeds = episodeSeeds(options.runSeed, key, options.fixedTrials);
  const episodeId = episodeIdOf(options.runSeed, key);
  const controller = new AbortController();
  const time = resolveAgentTime(options.agentTime, factory);
  const baseClock = createClock(undefined, time);
  const simLimit = options.simulatedDeadlineMs ?? 3_600_000;
  const clock: EpisodeClock = {
    now: baseClock.now,
    elapsed: baseClock.elapsed,
    async sleep(ms, signal) {
      if (baseClock.elapsed() + Math.max(0, ms) > simLimit) {
        controller.abort(new DeadlineError(`${simLimit} ms of simulated time`));
      }
      if (controller.signal.aborted) throw controller.signal.reason;
      await baseClock.sleep(ms, signal);
    },
  };
  const faults = new FaultInjector({ seed: seeds.faults, lambda: key.lambda, profile: options.profile, kinds: options.faultKinds, params: options.faultParams ?? {} });
  const episodeDb = harness.episodeDb(prepared);
  const messages: EpisodeMessage[] = [];
  let userTurn = 0;
  const session = harness.runtime.open({
    episodeId,
    db: episodeDb.db,
    copies: harness.copiesOf(episodeDb),
    clock,
    faults,
    signal: controller.signal,
    realWaitScale: options.realWaitScale ?? 0,
    observer: callObserver(world, prepared.scenario.outputs, () => userTurn),
    ...(time.mode === 'real' ? { meter: baseClock } : {}),
    ...(time.mode === 'real' ? { httpNow: wallNow } : {}),
    maxCalls: options.toolBudget ?? DEFAULT_TOOL_BUDGET,
    onBudget: (calls) => controller.abort(new ToolBudgetError(calls)),
  });
  // clock: the wall-clock deadline stops an agent that hangs; an agent that finishes never meets it. The
  // timer holds the event loop: an agent whose promise never settles must still end in a recorded episode.
  const deadlineMs = options.deadlineMs ?? 60_000;
  let deadlineAt = performance.now() + deadlineMs; // clock: the wall-clock deadline, moved on by waits for a model provider
  const maxProviderWaitMs = options.maxProviderWaitMs ?? MAX_PROVIDER_WAIT_MS;
  // `allowance`, while a model provider keeps it waiting: what is left of the time it may wait beyond the deadline.
  const arm = (allowance?: number) =>
    setTimeout(() => controller.abort(new DeadlineError(`${deadlineMs} ms of wall time${allowance === undefined ? '' : `, and ${maxProviderWaitMs} ms waiting for the model provider's quota`}`)), Math.max(0, deadlineAt + (allowance ?? 0) - performance.now() /* clock: as above */));
  let timer = arm();
  // A wait for a model provider's quota (src/model/pace.ts) is neither the agent's time nor its deadline's.
  // The deadline stands still while any wait lasts (waits of parallel requests overlap), and moves on by
  // the time it stood still: a wait longer than the time left is no deadline passed.
  // A provider that keeps the episode waiting past its allowance in all ends it at the deadline.
  let waits = 0;
  let stoppedAt = 0;
  let waited = 0;
  const waitHooks: ProviderWaitHooks = {
    begin: () => {
      baseClock.callStarted();
      if (waits++ > 0) return;
      stoppedAt = performance.now(); // clock: as above
      clearTimeout(timer);
      if (!controller.signal.aborted) timer = arm(Math.max(0, maxProviderWaitMs - waited));
    },
    end: () => {
      baseClock.callEnded();
      if (waits === 0 || --waits > 0) return;
      const stood = performance.now() /* clock: as above */ - stoppedAt;
      waited += stood;
      deadlineAt += stood;
      clearTimeout(timer);
      if (!controller.signal.aborted) timer = arm();
    },
  };
  // The waits are found through an async context, which costs every promise of the process once one is
  // entered: entered only where a model may be called in this process, by an agent here that says its time
  // is real (a model behind an API) or by a simulated user other than the scripted one. A contained agent's
  // model calls run in its own process.
  const mayCallModel = options.userSimulator !== undefined || (factory.isolation !== 'process' && factory.time?.mode === 'real');
  const paced = mayCallModel ? <T>(f: () => Promise<T>): Promise<T> => providerWaits.run(waitHooks, f) : <T>(f: () => Promise<T>): Promise<T> => f();
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  // Whatever loses the race to the deadline may still reject later; that must not become an unhandled rejection.
  const untilDeadline = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => undefined);
    return Promise.race([work, aborted]);
  };

  const user = (options.userSimulator ?? ((sc, lang, rng, turns) => new ScriptedUser(sc, lang, rng, turns)))(prepared.scenario, world.userLanguage, makeRng(seeds.user), options.maxTurns ?? 12, controller.signal, `${episodeId}:user`);
  let ended: EpisodeRecord['ended'] = 'done';
  let error: EpisodeRecord['error'];
  let agent: Awaited<ReturnType<AgentFactory['create']>> | undefined;
  let escalation: { reason: string; turn: number } | undefined;
  let usage: { promptTokens: number; completionTokens: number; calls: number } | undefined;
  const modelCalls: { atMs: number; turn: number; promptTokens: number; completionTokens: number }[] = [];
  let mcpClient: Promise<McpClient> | undefined;
  try {
    const created = await untilDeadline(
      paced(() => Promise.resolve().then(() => factory.create({
        episodeId,
        world: world.id,
        policy: world.policy,
        tools: harness.toolsJson,
        toolSpecs: world.tools,
        baseUrl: session.baseUrl,
        fetch: session.fetch,
        clock: { now: clock.now, sleep: clock.sleep },
        signal: controller.signal,
        seed: seeds.agent,
        reportUsage: (u) => {
          // Under `model` agent time each model call the agent reports is thinking time on the episode clock.
          baseClock.modelCalls((Number(u.calls) || 0) - (usage?.calls ?? 0));
          const next = { promptTokens: Number(u.promptTokens) || 0, completionTokens: Number(u.completionTokens) || 0, calls: Number(u.calls) || 0 };
          // Each report is the running total: the calls since the last one, with their tokens, at this moment.
          const calls = next.calls - (usage?.calls ?? 0);
          if (calls > 0 && modelCalls.length < MAX_MODEL_CALLS) {
            modelCalls.push({ atMs: clock.elapsed(), turn: userTurn, promptTokens: Math.max(0, next.promptTokens - (usage?.promptTokens ?? 0)), completionTokens: Math.max(0, next.completionTokens - (usage?.completionTokens ?? 0)) });
          }
          usage = next;
        },
        // The MCP module loads only for agents that ask for it: the hot path never pays for it.
        mcp: () =>
          (mcpClient ??= import('../agents/mcp.js').then((m) =>
            m.mcpClientFor({ tools: harness.toolsJson, toolSpecs: world.tools, baseUrl: session.baseUrl, fetch: session.fetch, signal: controller.signal }),
          )),
        escalate: (reason: string) => {
          escalation ??= { reason: String(reason).slice(0, 500), turn: messages.filter((m) => m.role === 'user').length };
        },
        ...(factory.needsGold ? { gold: goldContext(world, prepared.scenario) } : {}),
      }))),
    );
    agent = created;
    let message = await untilDeadline(paced(() => simulated(() => user.opening())));
    for (let i = 0; ; i++) {
      // A simulator that is not perturbable (its messages hold no protected parts) speaks as it wrote.
      const { segments: perturbed, applied, rejected } = user.perturbable ? perturb(message.segments, key.eps, options.families, seeds.perturbation, i, message.about, world.userLanguage) : { segments: message.segments, applied: [], rejected: [] };
      const text = joinSegments(perturbed);
      userTurn = i;
      messages.push({
        role: 'user',
        text,
        ...(applied.length > 0 ? { original: joinSegments(message.segments), perturbations: applied } : {}),
        ...(rejected.length > 0 ? { rejected } : {}),
        ...(message.act ? { act: message.act } : {}),
      });
      baseClock.holding(true);
      const reply = await untilDeadline(paced(() => Promise.resolve().then(() => created.reply(text)))).finally(() => baseClock.holding(false));
      if (typeof reply !== 'string') throw new TypeError(`the agent's reply must be a string, got ${typeof reply}`);
      const replyBytes = options.replyBytes ?? DEFAULT_REPLY_BYTES;
      // Bounded before anything holds it: the log, the judge and the user read every reply.
      if (reply.length > replyBytes || Buffer.byteLength(reply) > replyBytes) {
        const e = new Error(`the agent's reply has ${Buffer.byteLength(reply)} bytes, past the limit of ${replyBytes} (\`limits.replyBytes\`)`);
        e.name = 'AgentLimitExceeded';
        throw e;
      }
      messages.push({ role: 'agent', text: reply });
      const step = await untilDeadline(paced(() => simulated(() => user.respond(reply))));
      if (step.kind === 'end') {
        ended = step.reason;
        break;
      }
      message = step;
    }
  } catch (e) {
    // The budget's abort is the cause whatever the agent made of its rejected call.
    const err = controller.signal.reason instanceof ToolBudgetError ? controller.signal.reason : asError(e);
    ended = err instanceof DeadlineError ? 'deadline' : err instanceof ToolBudgetError ? 'tool-budget' : err instanceof SimulatorError ? 'simulator-error' : (ENDED_BY_NAME[err.name] ?? 'agent-error');
    error = { name: safeString(err.name, 'Error'), message: safeString(err.message, '(no message)') };
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(endOfEpisode());
    if (mcpClient) await mcpClient.then((c) => c.close()).catch(() => undefined);
    session.close();
    if (agent?.close) {
      // The outcome depends on the conversation and the database only: a close() that fails or hangs is ignored.
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, CLOSE_GRACE_MS);
        graceTimer.unref?.();
      });
      try {
        await Promise.race([Promise.resolve().then(() => agent?.close?.()), grace]);
      } catch {
        // Ignored, as said above.
      } finally {
        clearTimeout(graceTimer);
      }
    }
  }

  if (!error && session.worldErrors.length > 0) {
    error = { name: 'WorldError', message: `the world's tool handlers failed (a bug in the world, not the agent): ${session.worldErrors.join('; ')}` };
  }
  // A live world's state is read from its server, which is then stopped; a state that cannot be read is
  // the world's failure, never the agent's.
  let finalDb = session.instance.db;
  try {
    finalDb = await harness.finalState(session.instance.db);
  } catch (e) {
    error ??= { name: 'WorldError', message: `the state of the world could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
  const judged = await judgeEpisode({
    world,
    prepared,
    finalDb,
    ...(episodeDb.overlay ? { overlay: episodeDb.overlay } : {}),
    trace: session.trace,
    messages,
    ...(options.claimReader ? { reader: options.claimReader } : {}),
  }).catch((e: unknown) => {
    // A claim reader that fails (an LLM judge's API) is the harness's fault, never the agent's.
    error ??= { name: 'JudgeError', message: `the judge failed: ${e instanceof Error ? e.message : String(e)}` };
    return undefined;
  });
  const { diff, missingOutputs, wrongActions, findings } = judged ?? { diff: [], missingOutputs: [], wrongActions: 0, findings: [] };
  const outcome: EpisodeOutcome = outcomeOf({ diff, missingOutputs, wrongActions, findings }, !!error, !!escalation);
  const failure = classifyFailure({ outcome, ended, errorName: error?.name, diff, missingOutputs, wrongActions, goldChangesState: prepared.goldChangesState, findings, lied: session.trace.some((e) => e.lied === true) });
  return {
    key,
    episodeId,
    seeds,
    outcome,
    ended,
    diff,
    missingOutputs,
    ...(failure ? { failure } : {}),
    ...(findings.length > 0 ? { findings } : {}),
    ...(error ? { error } : {}),
    faults: session.faults,
    messages,
    trace: session.trace,
    simulator: user.id,
    confusions: user.confusions,
    ...(user.closedWhileAsked && user.closedWhileAsked.length > 0 ? { closedWhileAsked: user.closedWhileAsked } : {}),
    ...(escalation ? { escalation } : {}),
    ...(usage ? { usage } : {}),
    ...(modelCalls.length > 0 ? { modelCalls } : {}),
    ...cachedPart(episodeId),
    ...userUsagePart(user),
    ...stabilityFields(diff, session.trace, messages, world.tools),
    simulatedMs: clock.elapsed(),
    wallMs: Math.round((performance.now() - wallStart) * 1000) / 1000,
  };
}
