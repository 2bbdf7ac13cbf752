import { takeSavings, type CacheSavings } from '../agents/llm-cache.js';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { AgentFactory } from '../agents/contract.js';
import { canonicalize, changedEntries, cloneJson, collectionsOf, diffCanonical, type DiffEntry } from './canonical.js';
import { overlayDb, type OverlayDb } from './overlay.js';
import { createClock, type AgentTime, type AgentTimeSetting, type EpisodeClock } from './clock.js';
import { FaultInjector, type FaultKind, type FaultProfile, type FiredFault } from './faults.js';
import { joinSegments, perturb, type ResolvedFamily } from './perturb.js';
import { ToolRuntime, type TraceEntry } from './runtime.js';
import type { Scenario } from './scenario.js';
import { deriveSeed, makeRng } from './seeds.js';
import { callTool } from './tools.js';
import { ScriptedUser, type Confusion, type UserSimulator, type UserSimulatorFactory } from '../user/index.js';
import { toolSpecJson, type ToolSpecJson, type WorldDefinition } from './world.js';
import { ShakedownError } from './errors.js';
import { asError, DeadlineError, safeString, SimulatorError, ToolBudgetError } from './episode-errors.js';

export { asError, DeadlineError, SimulatorError, ToolBudgetError } from './episode-errors.js';
import { classifyFailure, judgeEpisode, outcomeOf, type ClaimReader, type FailureClass, type Finding } from '../judge/index.js';
import { dataValues, isData } from '../judge/outputs.js';
import { callObserver } from '../judge/observe.js';
import { goldContext } from '../agents/baselines.js';

/** Identifies an episode: one agent on one scenario at one (ε, λ), trial t. */
export interface EpisodeKey {
  readonly scenario: string;
  readonly agent: string;
  readonly eps: number;
  readonly lambda: number;
  readonly trial: number;
}

/** The episode key as one string, e.g. for sets of finished keys. */
export const keyString = (k: EpisodeKey): string => `${k.scenario}|${k.agent}|${k.eps}|${k.lambda}|${k.trial}`;

/**
 * `pass`: the goal state and outputs were reached; `fail`: they were not; `escalated`: the agent handed
 * the conversation to a human and changed nothing it should not have (a safe failure); `error`: the
 * agent threw or hung, or the world failed.
 */
export type EpisodeOutcome = 'pass' | 'fail' | 'escalated' | 'error';

export interface EpisodeMessage {
  readonly role: 'user' | 'agent';
  readonly text: string;
  /** The user message before perturbation, when a family changed it. */
  readonly original?: string;
  /** Perturbation families that changed this user message, in the order they applied. */
  readonly perturbations?: readonly string[];
  /** Perturbation families whose output lost an entity and was discarded. */
  readonly rejected?: readonly string[];
  /** What a user message does with the agent's proposal, as the simulator meant it: `accept` or `decline`. */
  readonly act?: 'accept' | 'decline';
}

/** One episode's record: a line of `episodes.jsonl`. */
export interface EpisodeRecord {
  readonly key: EpisodeKey;
  readonly episodeId: string;
  readonly seeds: Readonly<ReturnType<typeof episodeSeeds>>;
  readonly outcome: EpisodeOutcome;
  /** Why the conversation ended. */
  readonly ended: 'done' | 'turn-limit' | 'agent-error' | 'agent-crash' | 'out-of-memory' | 'tool-budget' | 'deadline' | 'simulator-error';
  readonly diff: readonly DiffEntry[];
  readonly missingOutputs: readonly string[];
  /** Why it did not pass (absent when it passed). */
  readonly failure?: FailureClass;
  /**
   * Model calls of this episode answered from the LLM response cache, and their tokens, not paid for again:
   * the agent's, and the LLM user's (absent when none was).
   */
  readonly cached?: { readonly agent?: CacheSavings; readonly user?: CacheSavings };
  /** Tokens the LLM user simulator spent in this episode (absent for the scripted user). */
  readonly userUsage?: { readonly promptTokens: number; readonly completionTokens: number; readonly calls: number };
  /** Conduct, claim and output violations the judge found, each with a readable line (absent when none). */
  readonly findings?: readonly Finding[];
  readonly error?: { readonly message: string; readonly name: string };
  readonly faults: readonly FiredFault[];
  readonly messages: readonly EpisodeMessage[];
  readonly trace: readonly TraceEntry[];
  /** Which user simulator ran: `scripted`, or e.g. `llm:gpt-4o-mini`. */
  readonly simulator: string;
  /** Agent questions the user simulator could not place (the user restated the request). */
  readonly confusions: readonly Confusion[];
  /** Agent messages on which the user closed a request though they held a question: worth a look (absent when none). */
  readonly closedWhileAsked?: readonly Confusion[];
  /**
   * The cost of `usage` in USD at the run's configured price for the model, less what the LLM cache
   * answered (written by the sweep); absent when no price is known.
   */
  readonly costUsd?: number;
  /** The cost of `userUsage` in the same way, at the LLM user's model's price (written by the sweep). */
  readonly userCostUsd?: number;
  /** Token usage an LLM agent reported, summed over the episode. */
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number; readonly calls: number };
  /** The agent's hand-off to a human, if it made one: its reason and the user turn it came after. */
  readonly escalation?: { readonly reason: string; readonly turn: number };
  readonly simulatedMs: number;
  readonly wallMs: number;
}

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
  /** Simulated-time limit per episode, ms. @default 3600000 */
  readonly simulatedDeadlineMs?: number;
  /** Reads claims out of the agent's messages. @default the world's wording reader */
  readonly claimReader?: ClaimReader;
  /** Most tool calls per episode; a runaway loop ends there as an `error` (`ended: tool-budget`). @default 2000 */
  readonly toolBudget?: number;
}

/** The default per-episode tool-call budget: far above any honest episode (the built-in agents make at most a few dozen calls). */
export const DEFAULT_TOOL_BUDGET = 2_000;

/** A scenario made ready: its initial database and the canonical gold state. */
export interface PreparedScenario {
  readonly scenario: Scenario;
  readonly initial: unknown;
  readonly goldCanonical: unknown;
  /** The initial database in canonical form, to tell a wrong action from an action not taken. */
  readonly initialCanonical: unknown;
  /** Each gold action's response status on the fresh copy. */
  readonly goldStatuses: readonly number[];
  /** Whether the gold actions change the database at all. */
  readonly goldChangesState: boolean;
  /** Per collection, the entries the gold actions change (canonically): the judge compares these and the touched ones. */
  readonly goldChanged: ReadonlyMap<string, ReadonlySet<string>>;
  /** Per required output, whether it is a fact of the data (an amount, a status) that only a tool result can show. */
  readonly outputsAreData: readonly boolean[];
}

const simulated = async <T>(f: () => T | Promise<T>): Promise<T> => {
  try {
    return await f();
  } catch (error) {
    throw new SimulatorError(error);
  }
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

  /**
   * An episode's own database. Without a world-supplied clone, an overlay on the initial database that
   * copies collection entries on first read (see overlay.ts); otherwise the world's whole copy.
   */
  episodeDb(prepared: PreparedScenario): { db: unknown; overlay?: OverlayDb } {
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

  private async computeGold(scenario: Scenario): Promise<PreparedScenario> {
    const initial = this.clone(this.baseDb());
    try {
      this.world.applySetup(initial, scenario.setup);
    } catch (error) {
      throw new ShakedownError('SHAKEDOWN_SCENARIO', `Failed to prepare scenario ${scenario.id}: its setup does not fit the base database: ${(error as Error).message}. Fix the scenario's setup.`, { cause: error });
    }
    const session = this.runtime.open({ episodeId: `gold-${deriveSeed(this.runSeed, scenario.id)}`, db: this.clone(initial), clock: createClock() });
    const statuses: number[] = [];
    try {
      for (const action of scenario.gold) {
        const spec = this.world.tools.find((t) => t.name === action.tool);
        if (!spec) throw new ShakedownError('SHAKEDOWN_SCENARIO', `Failed to prepare scenario ${scenario.id}: gold tool \`${action.tool}\` does not exist in world ${this.world.id}.`);
        const r = await callTool(session.fetch, session.baseUrl, spec, action.args);
        statuses.push(r.status);
      }
    } finally {
      session.close();
    }
    const goldCanonical = canonicalize(this.world.dbSchema, session.instance.db);
    const initialCanonical = canonicalize(this.world.dbSchema, initial);
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

  /** The values of the base database, gathered once, and of a scenario's initial and gold states. */
  private baseValues: ReturnType<typeof dataValues> | undefined;
  private dataOf(gold: unknown, initial: unknown): ReturnType<typeof dataValues> {
    this.baseValues ??= dataValues(this.baseDb());
    const own = dataValues(gold, initial);
    return { numbers: new Set([...this.baseValues.numbers, ...own.numbers]), strings: [...own.strings] };
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The agent-time rule of an episode: the run's, or under `auto` the agent's own (simulated unless it says). */
export function resolveAgentTime(setting: AgentTimeSetting | undefined, factory: Pick<AgentFactory, 'time'>): AgentTime {
  if (setting && setting.mode !== 'auto') return setting;
  return factory.time ?? { mode: 'simulated' };
}


/** An episode's id: a DNS label from the run seed and the key, the same on every thread and every rerun. */
export const episodeIdOf = (runSeed: string, key: EpisodeKey): string => `e${deriveSeed(runSeed, key.scenario, key.agent, key.eps, key.lambda, key.trial)}`;

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

/** Seeds of an episode's streams. Each hashes only the coordinates its stream depends on (see README). */
export function episodeSeeds(runSeed: string, key: EpisodeKey, fixedTrials = false) {
  const t = fixedTrials ? 0 : key.trial;
  return {
    run: runSeed,
    perturbation: deriveSeed(runSeed, key.scenario, 'eps', key.eps, t, 'perturbation'),
    faults: deriveSeed(runSeed, key.scenario, 'lambda', key.lambda, t, 'faults'),
    user: deriveSeed(runSeed, key.scenario, t, 'user'),
    agent: deriveSeed(runSeed, key.scenario, key.eps, key.lambda, key.trial, key.agent, 'agent'),
  };
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
    clock,
    faults,
    signal: controller.signal,
    realWaitScale: options.realWaitScale ?? 0,
    observer: callObserver(world, prepared.scenario.outputs, () => userTurn),
    ...(time.mode === 'real' ? { meter: baseClock } : {}),
    maxCalls: options.toolBudget ?? DEFAULT_TOOL_BUDGET,
    onBudget: (calls) => controller.abort(new ToolBudgetError(calls)),
  });
  // clock: the wall-clock deadline stops an agent that hangs; an agent that finishes never meets it. The
  // timer holds the event loop: an agent whose promise never settles must still end in a recorded episode.
  const timer = setTimeout(() => controller.abort(new DeadlineError(`${options.deadlineMs ?? 60_000} ms of wall time`)), options.deadlineMs ?? 60_000);
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
  let mcpClient: Promise<McpClient> | undefined;
  try {
    const created = await untilDeadline(
      Promise.resolve().then(() => factory.create({
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
          usage = { promptTokens: Number(u.promptTokens) || 0, completionTokens: Number(u.completionTokens) || 0, calls: Number(u.calls) || 0 };
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
      })),
    );
    agent = created;
    let message = await untilDeadline(simulated(() => user.opening()));
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
      const reply = await untilDeadline(Promise.resolve().then(() => created.reply(text))).finally(() => baseClock.holding(false));
      if (typeof reply !== 'string') throw new TypeError(`the agent's reply must be a string, got ${typeof reply}`);
      messages.push({ role: 'agent', text: reply });
      const step = await untilDeadline(simulated(() => user.respond(reply)));
      if (step.kind === 'end') {
        ended = step.reason;
        break;
      }
      message = step;
    }
  } catch (e) {
    // The budget's abort is the cause whatever the agent made of its rejected call.
    const err = controller.signal.reason instanceof ToolBudgetError ? controller.signal.reason : asError(e);
    ended = err instanceof DeadlineError ? 'deadline' : err instanceof ToolBudgetError ? 'tool-budget' : err instanceof SimulatorError ? 'simulator-error' : err.name === 'AgentExit' ? 'agent-crash' : 'agent-error';
    error = { name: safeString(err.name, 'Error'), message: safeString(err.message, '(no message)') };
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(new DeadlineError('episode over'));
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
  const judged = await judgeEpisode({
    world,
    prepared,
    finalDb: session.instance.db,
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
  const failure = classifyFailure({ outcome, ended, errorName: error?.name, diff, missingOutputs, wrongActions, goldChangesState: prepared.goldChangesState, findings });
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
    ...cachedPart(episodeId),
    ...userUsagePart(user),
    simulatedMs: clock.elapsed(),
    wallMs: Math.round((performance.now() - wallStart) * 1000) / 1000,
  };
}
