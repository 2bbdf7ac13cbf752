import { z } from 'zod';
import { ShakedownError } from './errors.js';
import { parseAgentTime } from './clock.js';

const unit = z.number().min(0, 'must be in [0, 1]').max(1, 'must be in [0, 1]');
const sortedUnique = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);

/** Settings of the LLM agent (`llm:MODEL`), for any OpenAI-compatible Chat Completions API. */
export const llmSettingsSchema = z
  .object({
    /** Base URL of the OpenAI-compatible API. @default "https://api.openai.com/v1" */
    baseUrl: z.string().url().default('https://api.openai.com/v1'),
    /** Model name; `llm:MODEL` on the command line overrides it. @default "gpt-4o-mini" */
    model: z.string().min(1).default('gpt-4o-mini'),
    /** Name of the environment variable that holds the API key (never the key itself). @default "OPENAI_API_KEY" */
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').default('OPENAI_API_KEY'),
    /** Sampling temperature. @default 0 */
    temperature: z.number().min(0).max(2).default(0),
    /** Model turns (each may call tools) per user message before the agent gives up. @default 8 */
    maxSteps: z.number().int().min(1).max(100).default(8),
    /** Real ms one API request may take. @default 60000 */
    timeoutMs: z.number().int().min(100).default(60_000),
    /** Retries of a failed API request (429, 5xx, no response), with backoff in real time, apart from tool faults. @default 2 */
    retries: z.number().int().min(0).max(10).default(2),
    /**
     * How the agent takes its tools: `http` (each call a request through the episode's fetch) or `mcp` (listed
     * and called through an MCP client on the episode's MCP server, as an agent on an MCP-capable SDK does;
     * docs/agents.md, "MCP"). @default "http"
     */
    tools: z.enum(['http', 'mcp']).default('http'),
    /**
     * The provider's limits, for pacing every request to it (docs/agents.md, "Pacing"): requests in flight,
     * requests and tokens a minute. Unset limits are learned from the provider's rate-limit headers; a 429
     * pauses the provider for its Retry-After and is sent again, never an agent failure. @default {}
     */
    pace: z
      .object({ concurrency: z.number().int().min(1).optional(), rpm: z.number().positive().optional(), tpm: z.number().positive().optional() })
      .strict()
      .default({}),
  })
  .strict();

export type LlmSettings = z.output<typeof llmSettingsSchema>;

/** Settings of the Anthropic agent (`anthropic:MODEL`): the LLM agent's, with the Messages API's defaults. */
export const anthropicSettingsSchema = llmSettingsSchema.extend({
  /** Base URL of the Anthropic API. @default "https://api.anthropic.com/v1" */
  baseUrl: z.string().url().default('https://api.anthropic.com/v1'),
  /** Model name; `anthropic:MODEL` overrides it. @default "claude-sonnet-4-5" */
  model: z.string().min(1).default('claude-sonnet-4-5'),
  /** Name of the environment variable that holds the key (never the key itself). @default "ANTHROPIC_API_KEY" */
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').default('ANTHROPIC_API_KEY'),
});

/**
 * What an agent may send and hold (docs/agents.md, "What an agent can reach"). Each breach ends the
 * agent's episode as an `error` whose message names the limit; no other episode is touched.
 */
export const agentLimitsSchema = z
  .object({
    /** Largest reply to one user message, in bytes (UTF-8). @default 262144 */
    replyBytes: z.number().int().min(1_024).default(262_144),
    /** Largest tool request (URL, headers and body) from an agent outside this process, in bytes. @default 1048576 */
    requestBytes: z.number().int().min(1_024).default(1_048_576),
    /** All tool requests of one episode from an agent outside this process, together, in bytes. @default 67108864 */
    episodeBytes: z.number().int().min(1_024).default(67_108_864),
    /** Longest line a command agent writes, or body an agent service answers, in bytes. @default 4194304 */
    lineBytes: z.number().int().min(1_024).default(4_194_304),
    /** Most resident memory of an agent's own process (a module's host, a command), heap and off-heap, in MB. @default 1024 */
    memoryMb: z.number().int().min(32).max(1_048_576).default(1_024),
    /** How long an agent's process may leave a heartbeat unanswered (a synchronous loop) before it is ended, in ms. @default 10000 */
    hangMs: z.number().int().min(500).default(10_000),
    /** How long a module agent may take to load (import and say its name), in ms. @default 30000 */
    loadMs: z.number().int().min(500).default(30_000),
  })
  .strict();

export type AgentLimits = z.output<typeof agentLimitsSchema>;

/**
 * What an agent's process may touch (docs/agents.md, "What an agent can reach"): by default a module
 * agent runs under Node's permission model, reading its own project and the modules it runs on, writing
 * only a temporary folder of its own, starting no process; and module and command agents alike run in
 * namespaces of their own where the machine allows it.
 */
export const sandboxSchema = z
  .object({
    /**
     * Run module and command agents in a user, mount and PID namespace of their own (Linux): the run
     * directory, the worlds' tasks and other episodes' files covered, other processes out of sight, every
     * process they start ended with them. `auto` where the machine allows it, `on` to refuse a sweep where
     * it does not, `off` never. @default "auto"
     */
    namespaces: z.enum(['auto', 'on', 'off']).default('auto'),
    /** Run module agents under Node's permission model. @default true */
    enabled: z.boolean().default(true),
    /** More paths a module agent may read. @default [] */
    read: z.array(z.string().min(1)).default([]),
    /** Paths a module agent may write besides its temporary folder. @default [] */
    write: z.array(z.string().min(1)).default([]),
    /** Whether a module agent may start processes. @default false */
    childProcess: z.boolean().default(false),
  })
  .strict();

/**
 * The options of a sweep, with their defaults. CLI flags map onto the same keys; `resolveConfig`
 * validates them once into a ResolvedConfig.
 */
export const sweepConfigSchema = z
  .object({
    /** World to sweep. @default "retail" */
    world: z.string().default('retail'),
    /** Run seed: same seed, same outcomes. @default "42" */
    seed: z.string().min(1).default('42'),
    /** Agents, as `id` or `id:options` (e.g. `reference:retry`). @default ["oracle", "noop", "reference-strict:none", "reference:none", "reference:retry", "reference:idempotency+backoff", "reference:robust"] */
    agents: z.array(z.string().min(1)).min(1).default(['oracle', 'noop', 'reference-strict:none', 'reference:none', 'reference:retry', 'reference:idempotency+backoff', 'reference:robust']),
    /** Perturbation intensities ε. @default [0, 0.5, 1] */
    eps: z.array(unit).min(1).default([0, 0.5, 1]).transform(sortedUnique),
    /** Fault intensities λ. @default [0, 0.1, 0.3] */
    lambda: z.array(unit).min(1).default([0, 0.1, 0.3]).transform(sortedUnique),
    /** Trials per (agent, scenario, ε, λ); pass^k is reported for k = 1..trials. @default 4 */
    trials: z.number().int().min(1).max(1000).default(4),
    /** Scenario filters: an id, or a substring of ids, `category:NAME` or `family:ID`. Empty means all. @default [] */
    scenarios: z.array(z.string().min(1)).default([]),
    /**
     * Which tasks: `hand` (the hand-written scenarios), `all` (with every validated variant of their
     * families, for release sweeps) or a number N (a seeded sample of N of all, stratified by category and
     * family); docs/worlds.md, "Task families". @default "hand"
     */
    tasks: z.union([z.enum(['hand', 'all']), z.number().int().min(1)]).default('hand'),
    /** Episodes in flight at once. @default 8 */
    concurrency: z.number().int().min(1).max(4096).default(8),
    /**
     * Worker threads that run episodes; `1` runs them in this process. `auto` uses every core when all
     * agents are built in (CPU-bound) and the sweep has at least 1,000 episodes to run, else 1: LLM, HTTP
     * and module agents wait on I/O, which `concurrency` covers in one process. @default "auto"
     */
    workers: z.union([z.literal('auto'), z.number().int().min(1, 'must be 1 (this process) or more, or "auto"').max(256, 'must be at most 256')]).default('auto'),
    /**
     * A worker whose heap passes this many MB after a batch of episodes is replaced by a fresh one; its
     * heap is capped at twice this (at least 256 MB), so that it collects garbage instead of growing. An
     * episode leaves nothing behind; at 160 the peak memory of a 200,000-episode sweep stays within
     * 1.13x of a 20,000-episode one (docs/performance.md, "Memory"). @default 160
     */
    workerMaxMemoryMb: z.number().int().min(16, 'must be at least 16 (MB)').max(65_536, 'must be at most 65536 (MB)').default(160),
    /** Perturbation families to apply at ε > 0, by id (see `shakedown list perturbations`); they always apply in ladder order. @default all */
    perturbations: z.array(z.string().min(1)).min(1).optional(),
    /** Parameters per perturbation family, e.g. `{ typos: { rate: 0.5 } }`; each is checked against the family's schema. @default {} */
    perturbationParams: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    /** Fault profile (see `shakedown list profiles`). @default "mixed" */
    profile: z.string().default('mixed'),
    /** A custom mix over the profile's: weight per fault kind, e.g. `{ timeout: 1 }`. @default the profile's weights */
    faultWeights: z.record(z.string(), z.number().min(0).max(1)).optional(),
    /** Only these tools may be struck by faults (by name). @default every tool */
    faultTools: z.array(z.string().min(1)).min(1).optional(),
    /** Only reads or only writes may be struck. @default both */
    faultAccess: z.enum(['read', 'write']).optional(),
    /** Bursty faults: a transient fault opens an outage of this many simulated ms in which every call fails the same way. @default independent faults (or the profile's) */
    outageMs: z.number().int().min(1).optional(),
    /** Parameters per fault kind, e.g. `{ timeout: { afterCommit: 1 } }`; each is checked against the kind's schema. @default {} */
    faultParams: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    /** Real ms a fault waits per simulated ms, for agents with their own timers (0 keeps simulated time free). @default 0 */
    realWaitScale: z.number().min(0).max(1).default(0),
    /**
     * What besides simulated waits moves the episode clock: `simulated` (nothing), `real` (the agent's own
     * real time while it holds the turn), `model:MS` (MS per model call it reports), or `auto`: `real` for
     * HTTP and LLM agents, `simulated` for built-in and module agents unless they declare otherwise. @default "auto"
     */
    agentTime: z
      .string()
      .refine((s) => {
        try {
          parseAgentTime(s);
          return true;
        } catch {
          return false;
        }
      }, 'write `auto`, `simulated`, `real` or `model:MS` (simulated ms per model call, e.g. model:1500)')
      .default('auto'),
    /**
     * Adaptive trials: every task gets this many trials first; only tasks with mixed results get the rest
     * up to `trials`. pass^k is then reported for k up to this number, unbiased. @default off (uniform trials)
     */
    adaptiveFirstTrials: z.number().int().min(2).optional(),
    /** Hold wording and faults fixed across trials, isolating the agent's own randomness. @default false */
    fixedTrials: z.boolean().default(false),
    /** User turns before the simulator gives up. @default 12 */
    maxTurns: z.number().int().min(1).max(200).default(12),
    /** The simulated user: `scripted` (the default, and the only one ε perturbs) or `llm` (free-form, with the `llm` settings). @default "scripted" */
    simulator: z.enum(['scripted', 'llm']).default('scripted'),
    /** Model for the LLM user simulator, when it should differ from the agent's. @default the `llm` model */
    simulatorModel: z.string().min(1).optional(),
    /** Stop launching after this many episodes (a resumable partial run). @default no limit */
    maxEpisodes: z.number().int().min(1).optional(),
    /** Stop launching once this many episodes of the agents under test (not the baselines) ended in an error: an agent that throws every time need not run the whole grid. @default no limit */
    failFast: z.number().int().min(1).optional(),
    /** Stop launching after this many seconds of wall time. @default no limit */
    timeLimitS: z.number().positive().optional(),
    /** Prices per model in USD per million tokens, for the cost of LLM agents: `{ 'gpt-4o-mini': { input: 0.15, output: 0.6 } }`. @default {} */
    prices: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0) }).strict()).default({}),
    /** Stop launching once the LLM spend of this run passes this many USD. @default no cap */
    maxCostUsd: z.number().positive().optional(),
    /** Settings of the LLM agent (see `llmSettingsSchema`). @default {} */
    llm: llmSettingsSchema.default(llmSettingsSchema.parse({})),
    /** Settings of the Anthropic agent, `anthropic:MODEL` (see `anthropicSettingsSchema`). @default {} */
    anthropic: anthropicSettingsSchema.default(anthropicSettingsSchema.parse({})),
    /**
     * A cache of model API answers (docs/agents.md, "LLM response cache"): `off`, `run` (RUN/llm-cache) or a
     * directory shared by runs. A cached answer is never paid for again; off by default, since a fresh
     * sweep must sample. @default "off"
     */
    llmCache: z.string().min(1).default('off'),
    /** Wall-clock limit per episode, in ms. @default 60000 */
    deadlineMs: z.number().int().min(1).default(60_000),
    /** Most tool calls per episode: a runaway loop ends there as an `error` (`ended: tool-budget`). @default 2000 */
    toolBudget: z.number().int().min(1).max(10_000_000).default(2_000),
    /** Bounds on what an agent sends and holds (see `agentLimitsSchema`). @default {} */
    limits: agentLimitsSchema.default(agentLimitsSchema.parse({})),
    /** What a module agent's process may touch (see `sandboxSchema`). @default {} */
    sandbox: sandboxSchema.default(sandboxSchema.parse({})),
    /**
     * Environment variables given to agents that run as processes of their own (module and command agents)
     * besides the few every program needs (PATH, HOME, LANG, ...): e.g. `['OPENAI_API_KEY']` for an agent that
     * calls its own model. Nothing else of this process's environment reaches them. @default []
     */
    env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')).default([]),
    /**
     * What reads the agent's claims: `wording` (the world's wording data) or `llm:MODEL` (an OpenAI-compatible
     * API with the `llm` settings), accepted only when its kappa on the world's shipped labels reaches
     * `judgeMinKappa`. @default "wording"
     */
    judge: z.string().regex(/^(wording|llm:.+)$/, 'write `wording` or `llm:MODEL`').default('wording'),
    /**
     * Release-gate rules the sweep applies to each agent under test at its end (its last lines say GO or
     * NO-GO per agent), as \`shakedown gate --rule\` would: e.g. \`{ rules: ['pass^4 >= 0.8 where eps <= 0.5'] }\`. @default none
     */
    gate: z.object({ rules: z.array(z.string().min(1)).min(1), lower: z.boolean().default(false) }).strict().optional(),
    /**
     * The agents this sweep is run to release (ids or specs as in \`agents\`): only they are gated, and the
     * report compares each with \`baselineAgent\` first. Every other agent is a comparator. @default the
     * agents given from outside (a module, a command, a service, a model), else every non-baseline agent
     */
    candidates: z.array(z.string().min(1)).min(1).optional(),
    /** The comparator each candidate is measured against first in the report (an id or spec from \`agents\`). @default none */
    baselineAgent: z.string().min(1).optional(),
    /** The least Cohen's kappa an LLM judge must reach on the world's hand labels. @default 0.8 */
    judgeMinKappa: z.number().min(-1).max(1).default(0.8),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.adaptiveFirstTrials !== undefined && c.adaptiveFirstTrials >= c.trials) {
      ctx.addIssue({ code: 'custom', path: ['adaptiveFirstTrials'], message: `the first round needs 2 to ${c.trials - 1} trials (fewer than \`trials\`, ${c.trials})` });
    }
  });

export type SweepConfig = z.input<typeof sweepConfigSchema>;
export type ResolvedConfig = z.output<typeof sweepConfigSchema>;

/** Types a config object; an identity function, as vitest's. */
export function defineConfig(config: SweepConfig): SweepConfig {
  return config;
}

/** Validates a config once; the error lists every problem with its key. */
export function resolveConfig(config: SweepConfig = {}): ResolvedConfig {
  const parsed = sweepConfigSchema.safeParse(config);
  if (!parsed.success) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to resolve the sweep configuration:\n${z.prettifyError(parsed.error)}\nFix the options named above.`);
  }
  return parsed.data;
}
