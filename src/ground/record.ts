// The episode's record and its key: the types every floor shares (the runner writes them, the judge fills
// their findings, the store keeps them, statistics and reports read them), and the seeds and id of an
// episode, which follow from its key alone.
import type { DiffEntry } from './canonical.js';
import type { FiredFault } from './faults.js';
import type { FailureClass, Finding } from './findings.js';
import type { TraceEntry } from './runtime.js';
import type { Scenario } from './scenario.js';
import { deriveSeed } from './seeds.js';
import type { Confusion } from './simulator.js';

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
  /** Each model call an agent reported, in order: when it ended (simulated ms from the episode start), the user turn it answered, its tokens. */
  readonly modelCalls?: readonly { readonly atMs: number; readonly turn: number; readonly promptTokens: number; readonly completionTokens: number }[];
  /** The agent's hand-off to a human, if it made one: its reason and the user turn it came after. */
  readonly escalation?: { readonly reason: string; readonly turn: number };
  /** The key of the final state (ground/stability.ts): trials with the same key ended in the same state. Absent in runs written before it. */
  readonly stateKey?: string;
  /** The key of the path taken (ground/stability.ts): the writes that changed the state, equivalent orders set together. */
  readonly pathKey?: string;
  /** User turns the episode had. */
  readonly turns?: number;
  readonly simulatedMs: number;
  readonly wallMs: number;
}

/** Calls answered from the cache, and what they would have cost. */
export interface CacheSavings {
  hits: number;
  promptTokens: number;
  completionTokens: number;
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

/** An episode's id: a DNS label from the run seed and the key, the same on every thread and every rerun. */
export const episodeIdOf = (runSeed: string, key: EpisodeKey): string => `e${deriveSeed(runSeed, key.scenario, key.agent, key.eps, key.lambda, key.trial)}`;

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
