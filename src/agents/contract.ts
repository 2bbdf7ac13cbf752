import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { AgentTime } from '../ground/clock.js';
import type { ToolSpec, ToolSpecJson } from '../ground/world.js';

/** What an agent is given when an episode starts. */
export interface AgentContext {
  readonly episodeId: string;
  /** The world's id, e.g. `retail`. */
  readonly world: string;
  /** The policy text the agent must follow. */
  readonly policy: string;
  /** Tool specs in JSON form (JSON Schema inputs), as an LLM would be given them. */
  readonly tools: readonly ToolSpecJson[];
  /** The same tools with their zod input schemas, for agents written in TypeScript. */
  readonly toolSpecs: readonly ToolSpec[];
  /** Base URL of the episode's tool API, e.g. `http://e1a2.retail.shakedown.test/api`. */
  readonly baseUrl: string;
  /** Calls the tool API; resolves in-process without the network. */
  readonly fetch: typeof fetch;
  /** The episode's simulated clock: waiting through `sleep` costs no wall time. */
  readonly clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  /** Aborted at the episode deadline. */
  readonly signal: AbortSignal;
  /** A seed for the agent's own randomness. */
  readonly seed: string;
  /**
   * Hands the conversation to a human: the episode is recorded as `escalated` instead of `fail` when the
   * database holds no wrong action (a safe failure). Call it with a short reason, then tell the user.
   */
  readonly escalate: (reason: string) => void;
  /** Reports the episode's token usage so far (LLM agents); the last report is recorded. */
  readonly reportUsage?: (usage: { readonly promptTokens: number; readonly completionTokens: number; readonly calls: number }) => void;
  /**
   * An MCP client connected to this episode's tools (the same faults, clock and idempotency as `fetch`),
   * for agents that take their tools over the Model Context Protocol; made on the first call, closed when
   * the episode ends. docs/agents.md, "MCP".
   */
  readonly mcp?: () => Promise<McpClient>;
  /** Gold actions and required outputs: given only to agents that declare `needsGold` (the oracle). */
  readonly gold?: {
    readonly actions: readonly { tool: string; args: Record<string, unknown> }[];
    readonly outputs: readonly string[];
    /** Reads that show what the outputs depend on. */
    readonly reads?: readonly { tool: string; args: Record<string, unknown> }[];
    /** The lookups that identify the user from the details of their profile, the one they give first first. */
    readonly identify?: readonly { tool: string; args: Record<string, unknown> }[];
  };
}

/** An agent answers each user message, calling tools as it likes in between. */
export interface Agent {
  reply(message: string): Promise<string>;
  /** Called once when the episode ends, whatever the outcome. */
  close?(): void | Promise<void>;
}

/** Creates one agent per episode. */
export interface AgentFactory {
  /** The id as selected on the command line, e.g. `reference:retry`. */
  readonly id: string;
  readonly description: string;
  /** Worlds the agent knows; undefined means any. */
  readonly worlds?: readonly string[];
  /**
   * How the agent spends time, for `--agent-time auto` (docs/faults.md, "Time"): `real` for an agent whose
   * waits and thinking take real time the engine cannot see (a service, a model behind an API, a client
   * with its own timers). @default simulated: it waits through `ctx.clock.sleep`
   */
  readonly time?: AgentTime;
  /** Whether it must be given the gold actions (baselines only). */
  readonly needsGold?: boolean;
  /**
   * `process`: the agent's code runs in a process of its own (a module agent's host) and its episodes'
   * worlds and judge run in the sweep's main process, never on its worker threads. @default in this process
   */
  readonly isolation?: 'process';
  /**
   * Whether the processes it starts (a module agent's host, a command's per episode) run in namespaces
   * of their own: true where they do, false where the machine does not allow it. @default not such an agent
   */
  readonly enclosed?: boolean;
  /**
   * Resolves once the factory can start an episode at once (a module agent's host has loaded it), so that
   * the episode's deadline counts the agent's work, not its loading. @default ready
   */
  ready?(): Promise<void>;
  create(context: AgentContext): Agent | Promise<Agent>;
  /** Called once after the run, to release what the factory holds (a server, a pool). */
  dispose?(): void | Promise<void>;
}

/** Identity helper that types an agent definition, for agents in user modules. */
export function defineAgent(factory: AgentFactory): AgentFactory {
  return factory;
}
