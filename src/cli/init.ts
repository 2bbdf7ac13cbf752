/** `shakedown init`: a commented starter config in the current directory. */
import { existsSync, writeFileSync } from 'node:fs';
import { ShakedownError } from '../ground/errors.js';
import type { Io } from './options.js';

const STARTER = `// Shakedown configuration. Every key is optional; the values below are the defaults.
// Flags on the command line override these keys (e.g. --trials 8 overrides trials).
// Docs: README.md (Commands), docs/perturbations.md, docs/faults.md, docs/agents.md, docs/statistics.md, docs/worlds.md.
import { defineConfig } from 'shakedown';

export default defineConfig({
  /** World to sweep: 'retail', 'travel', or a world module ('./my-world/index.ts', see docs/worlds.md). */
  world: 'retail',
  /** Run seed: same seed, same outcomes. */
  seed: '42',
  /** Agents: built-ins (reference:robust), modules (./my-agent.ts), services (http://...), llm:MODEL. */
  agents: ['oracle', 'noop', 'reference-strict:none', 'reference:none', 'reference:retry', 'reference:idempotency+backoff', 'reference:robust'],
  /**
   * The agents this sweep is run to release: only they are gated, the others are comparators. Unset: the
   * agents given from outside (modules, commands, services, models), else every agent but the baselines.
   */
  // candidates: ['./my-agent.ts'],
  /** The comparator each candidate is measured against first in report.html. */
  // baselineAgent: 'reference:robust',
  /** User wording intensities ε in [0, 1]. */
  eps: [0, 0.5, 1],
  /** Tool fault intensities λ in [0, 1]. */
  lambda: [0, 0.1, 0.3],
  /** Trials per task and cell; pass^k is reported for k = 1..trials. */
  trials: 4,
  /** Scenario filters: ids, id substrings or category:NAME; empty means all. */
  scenarios: [],
  /** Episodes in flight at once. */
  concurrency: 8,
  /** Worker threads: a number (1 = this process) or 'auto' (every core for built-in agents on 1,000+ episodes). */
  workers: 'auto',
  /** Replace a worker whose heap passes this many MB after a batch of episodes. */
  workerMaxMemoryMb: 160,
  /** Fault profile: mixed, lying, network, timeouts, rate-limit, server, drift, empty, timeout-after-commit, outage. */
  profile: 'mixed',
  /** Parameters per fault kind, e.g. { timeout: { afterCommit: 1 } }. */
  faultParams: {},
  /** Parameters per perturbation family, e.g. { typos: { rate: 0.5 } }. */
  perturbationParams: {},
  /** Hold wording and faults fixed across trials. */
  fixedTrials: false,
  /** User turns before the simulator gives up. */
  maxTurns: 12,
  /** Wall-clock limit per episode, in ms. */
  deadlineMs: 60_000,
  /** The simulated user: 'scripted' or 'llm'. */
  simulator: 'scripted',
  /** The LLM agent (llm:MODEL) and LLM user: any OpenAI-compatible API; the key stays in the environment. */
  llm: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKeyEnv: 'OPENAI_API_KEY', temperature: 0, maxSteps: 8, timeoutMs: 60_000, retries: 2 },
});
`;

export function initCommand(io: Io, path = 'shakedown.config.ts'): number {
  if (existsSync(path)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to write ${path}: it exists. Edit it, or move it away first.`);
  writeFileSync(path, STARTER);
  io.out(`wrote ${path}: a commented starter config with the defaults. Flags override its keys.\n`);
  return 0;
}
