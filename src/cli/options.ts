/** The CLI's options, their parsing into a config, and what the commands share (the config file: config-file.ts). */
import type { ParseArgsConfig } from 'node:util';
import { ShakedownError } from '../ground/errors.js';
import type { SweepConfig } from '../ground/config.js';

export const OPTIONS = {
  world: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  agent: { type: 'string', multiple: true },
  eps: { type: 'string' },
  lambda: { type: 'string' },
  trials: { type: 'string' },
  trial: { type: 'string' },
  scenario: { type: 'string', multiple: true },
  concurrency: { type: 'string' },
  workers: { type: 'string' },
  'worker-max-memory': { type: 'string' },
  profile: { type: 'string' },
  perturbations: { type: 'string' },
  'fault-tools': { type: 'string' },
  'fault-access': { type: 'string' },
  'outage-ms': { type: 'string' },
  'real-wait-scale': { type: 'string' },
  'agent-time': { type: 'string' },
  'tool-budget': { type: 'string' },
  limit: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  'allow-partial': { type: 'boolean' },
  adjust: { type: 'string' },
  'baseline-agent': { type: 'string' },
  mcp: { type: 'boolean' },
  width: { type: 'string' },
  detect: { type: 'string' },
  power: { type: 'string' },
  pass: { type: 'string' },
  pilot: { type: 'string' },
  price: { type: 'string' },
  cells: { type: 'string' },
  calls: { type: 'string' },
  theta: { type: 'string' },
  adaptive: { type: 'string' },
  ablate: { type: 'string' },
  format: { type: 'string' },
  resume: { type: 'boolean' },
  config: { type: 'string' },
  'max-episodes': { type: 'string' },
  'fail-fast': { type: 'string' },
  'time-limit': { type: 'string' },
  'max-cost': { type: 'string' },
  rule: { type: 'string', multiple: true },
  lower: { type: 'boolean' },
  'max-regression': { type: 'string' },
  junit: { type: 'string' },
  force: { type: 'boolean' },
  'from-openapi': { type: 'string' },
  'from-mcp': { type: 'string' },
  'base-url': { type: 'string' },
  reset: { type: 'string' },
  shard: { type: 'string' },
  baseline: { type: 'string' },
  'fault-weights': { type: 'string' },
  k: { type: 'string' },
  agents: { type: 'string' },
  'llm-base-url': { type: 'string' },
  'anthropic-base-url': { type: 'string' },
  'delay-ms': { type: 'string' },
  otel: { type: 'string' },
  simulator: { type: 'string' },
  'simulator-model': { type: 'string' },
  'llm-api-key-env': { type: 'string' },
  'llm-tools': { type: 'string' },
  'llm-cache': { type: 'string' },
  tasks: { type: 'string' },
  port: { type: 'string' },
  'fixed-trials': { type: 'boolean' },
  'max-turns': { type: 'string' },
  'deadline-ms': { type: 'string' },
  quiet: { type: 'boolean' },
  samples: { type: 'string' },
  levels: { type: 'string' },
  json: { type: 'boolean' },
  mutants: { type: 'string' },
  fresh: { type: 'boolean' },
  only: { type: 'string' },
  judge: { type: 'string' },
  labels: { type: 'string' },
  'judge-min-kappa': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export type Flags = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : (typeof OPTIONS)[K] extends { type: 'boolean' } ? boolean : string };

/** Where the CLI writes; tests pass their own. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress redraws one line). */
  readonly tty: boolean;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  tty: Boolean(process.stderr.isTTY) && !process.env.CI,
};

export function parseNumberList(flag: string, raw: string): number[] {
  const parts = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const values = parts.map(Number);
  if (parts.length === 0 || values.some((v) => !Number.isFinite(v))) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--${flag}\`: "${raw}" is not a comma-separated list of numbers. Write e.g. \`--${flag} 0,0.1,0.3\`.`);
  }
  return values;
}

export function parseInteger(flag: string, raw: string): number {
  const v = Number(raw);
  if (!Number.isInteger(v)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--${flag}\`: "${raw}" is not a whole number.`);
  return v;
}

/** `--limit replyBytes=65536 --limit memoryMb=512` as agent limits (their names are checked by the config's schema). */
function parseLimits(raw: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of raw.flatMap((r) => r.split(',')).map((s) => s.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]+)=(\d+)$/.exec(part);
    if (!m) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--limit ${part}\`: write NAME=NUMBER, e.g. \`--limit memoryMb=512\` (limits: replyBytes, requestBytes, episodeBytes, lineBytes, memoryMb, hangMs, loadMs).`);
    out[m[1] as string] = Number(m[2]);
  }
  return out;
}

/** `timeout=1,rate-limit=0.5` as weights per kind. */
function parseWeights(raw: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([\w-]+)=([\d.]+)$/.exec(part);
    if (!m) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--fault-weights\`: "${part}" is not KIND=WEIGHT. Write e.g. \`--fault-weights timeout=1,rate-limit=0.5\`.`);
    out[m[1] as string] = Number(m[2]);
  }
  return out;
}

function parseWorkers(raw: string): number | 'auto' {
  const s = raw.trim();
  if (s === 'auto') return 'auto';
  if (!/^\d+$/.test(s)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--workers\`: "${raw}" is neither a whole number nor \`auto\`. Write e.g. \`--workers 2\` (1 runs episodes in this process).`);
  return Number(s);
}

/** Maps flags onto config keys; unset flags leave the defaults. */
export function configFromFlags(flags: Flags): SweepConfig {
  const c: Record<string, unknown> = {};
  if (flags.world !== undefined) c.world = flags.world;
  if (flags.seed !== undefined) c.seed = flags.seed;
  // A command (`cmd:...`) is one agent whatever commas it holds; other values may list several.
  if (flags.agent !== undefined) c.agents = flags.agent.flatMap((a) => (a.trim().startsWith('cmd:') ? [a] : a.split(','))).map((a) => a.trim()).filter(Boolean);
  if (flags.eps !== undefined) c.eps = parseNumberList('eps', flags.eps);
  if (flags.lambda !== undefined) c.lambda = parseNumberList('lambda', flags.lambda);
  if (flags.trials !== undefined) c.trials = parseInteger('trials', flags.trials);
  if (flags.scenario !== undefined) c.scenarios = flags.scenario;
  if (flags.concurrency !== undefined) c.concurrency = parseInteger('concurrency', flags.concurrency);
  if (flags.workers !== undefined) c.workers = parseWorkers(flags.workers);
  if (flags['worker-max-memory'] !== undefined) c.workerMaxMemoryMb = parseInteger('worker-max-memory', flags['worker-max-memory']);
  if (flags.profile !== undefined) c.profile = flags.profile;
  if (flags['fault-tools'] !== undefined) c.faultTools = flags['fault-tools'].split(',').map((t) => t.trim()).filter(Boolean);
  if (flags['fault-access'] !== undefined) c.faultAccess = flags['fault-access'];
  if (flags['outage-ms'] !== undefined) c.outageMs = parseInteger('outage-ms', flags['outage-ms']);
  if (flags['real-wait-scale'] !== undefined) c.realWaitScale = parseNumberList('real-wait-scale', flags['real-wait-scale'])[0];
  if (flags['agent-time'] !== undefined) c.agentTime = flags['agent-time'];
  if (flags['tool-budget'] !== undefined) c.toolBudget = parseInteger('tool-budget', flags['tool-budget']);
  if (flags.limit !== undefined) c.limits = parseLimits(flags.limit);
  if (flags.env !== undefined) c.env = flags.env.flatMap((e) => e.split(',')).map((e) => e.trim()).filter(Boolean);
  if (flags['llm-tools'] !== undefined && flags['llm-tools'] !== 'http' && flags['llm-tools'] !== 'mcp') {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--llm-tools\`: "${flags['llm-tools']}" is neither \`http\` nor \`mcp\`. Write \`--llm-tools mcp\` for tools over an MCP client, or leave it out (http).`);
  }
  if (flags['llm-base-url'] !== undefined || flags['llm-api-key-env'] !== undefined || flags['llm-tools'] !== undefined) {
    c.llm = { ...(flags['llm-base-url'] !== undefined ? { baseUrl: flags['llm-base-url'] } : {}), ...(flags['llm-api-key-env'] !== undefined ? { apiKeyEnv: flags['llm-api-key-env'] } : {}), ...(flags['llm-tools'] !== undefined ? { tools: flags['llm-tools'] } : {}) };
  }
  if (flags['llm-cache'] !== undefined) c.llmCache = flags['llm-cache'];
  if (flags.tasks !== undefined) {
    const t = flags.tasks.trim();
    if (t !== 'hand' && t !== 'all' && !/^\d+$/.test(t)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--tasks\`: "${flags.tasks}" is not \`hand\`, \`all\` or a number. Write \`--tasks all\` for every validated task, \`--tasks 60\` for a sample.`);
    c.tasks = t === 'hand' || t === 'all' ? t : Number(t);
  }
  // How model agents take their tools: for the Anthropic agent too.
  if (flags['llm-tools'] !== undefined || flags['anthropic-base-url'] !== undefined) c.anthropic = { ...(flags['llm-tools'] !== undefined ? { tools: flags['llm-tools'] } : {}), ...(flags['anthropic-base-url'] !== undefined ? { baseUrl: flags['anthropic-base-url'] } : {}) };
  if (flags['fault-weights'] !== undefined) c.faultWeights = parseWeights(flags['fault-weights']);
  if (flags['max-episodes'] !== undefined) c.maxEpisodes = parseInteger('max-episodes', flags['max-episodes']);
  if (flags['fail-fast'] !== undefined) c.failFast = parseInteger('fail-fast', flags['fail-fast']);
  if (flags['time-limit'] !== undefined) c.timeLimitS = parseNumberList('time-limit', flags['time-limit'])[0];
  if (flags['max-cost'] !== undefined) c.maxCostUsd = parseNumberList('max-cost', flags['max-cost'])[0];
  if (flags.adaptive !== undefined) c.adaptiveFirstTrials = parseInteger('adaptive', flags.adaptive);
  if (flags.simulator !== undefined) c.simulator = flags.simulator;
  if (flags['simulator-model'] !== undefined) c.simulatorModel = flags['simulator-model'];
  if (flags.judge !== undefined) c.judge = flags.judge;
  if (flags['judge-min-kappa'] !== undefined) c.judgeMinKappa = parseNumberList('judge-min-kappa', flags['judge-min-kappa'])[0];
  if (flags.perturbations !== undefined) c.perturbations = flags.perturbations.split(',').map((f) => f.trim()).filter(Boolean);
  if (flags['fixed-trials'] !== undefined) c.fixedTrials = flags['fixed-trials'];
  if (flags['max-turns'] !== undefined) c.maxTurns = parseInteger('max-turns', flags['max-turns']);
  if (flags['deadline-ms'] !== undefined) c.deadlineMs = parseInteger('deadline-ms', flags['deadline-ms']);
  return c as SweepConfig;
}

export function samplesFlag(flags: Flags, fallback: number): number {
  const n = flags.samples === undefined ? fallback : parseInteger('samples', flags.samples);
  if (n < 1 || n > 10_000) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--samples\`: ${n} is out of range. Give 1 to 10000.`);
  return n;
}

/** The index variables of the engines that run shards, each with its count and where it counts from. */
export const SHARD_SOURCES: readonly { readonly engine: string; readonly index: string; readonly count?: string; readonly base: 0 | 1 }[] = [
  { engine: 'Shakedown (the GitHub Action sets them)', index: 'SHAKEDOWN_SHARD_INDEX', count: 'SHAKEDOWN_SHARD_COUNT', base: 1 },
  { engine: 'a Kubernetes Indexed Job', index: 'JOB_COMPLETION_INDEX', base: 0 },
  { engine: 'GitLab CI `parallel`', index: 'CI_NODE_INDEX', count: 'CI_NODE_TOTAL', base: 1 },
  { engine: 'CircleCI `parallelism`', index: 'CIRCLE_NODE_INDEX', count: 'CIRCLE_NODE_TOTAL', base: 0 },
  { engine: 'Buildkite `parallelism`', index: 'BUILDKITE_PARALLEL_JOB', count: 'BUILDKITE_PARALLEL_JOB_COUNT', base: 0 },
  { engine: 'Azure Pipelines `parallel`', index: 'SYSTEM_JOBPOSITIONINPHASE', count: 'SYSTEM_TOTALJOBSINPHASE', base: 1 },
];

/**
 * `--shard auto` (or `auto/N`): the shard this process runs, from the first index variable of
 * SHARD_SOURCES that is set (N, or `SHAKEDOWN_SHARD_COUNT`, or the engine's own count, gives how many);
 * `--shard i/n` as it is. Returns the shard as `i/n`, and what it was read from.
 */
export function resolveShard(raw: string | undefined, env: NodeJS.ProcessEnv = process.env): { shard: string; from?: string } | undefined {
  if (raw === undefined) return undefined;
  const auto = /^auto(?:\/(\d+))?$/.exec(raw.trim());
  if (!auto) {
    parseShard(raw);
    return { shard: raw.trim() };
  }
  const source = SHARD_SOURCES.find((s) => (env[s.index] ?? '').trim() !== '');
  if (!source) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--shard ${raw}\`: none of the index variables is set (${SHARD_SOURCES.map((s) => `${s.index} for ${s.engine}`).join('; ')}). Set one, or write \`--shard I/N\`.`);
  }
  const rawIndex = (env[source.index] ?? '').trim();
  if (!/^\d+$/.test(rawIndex)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--shard ${raw}\`: ${source.index} is "${rawIndex}", not a whole number.`);
  const given = auto[1] !== undefined ? Number(auto[1]) : undefined;
  const countVar = [source.count, 'SHAKEDOWN_SHARD_COUNT'].find((v): v is string => v !== undefined && (env[v] ?? '').trim() !== '');
  const fromEnv = countVar !== undefined ? Number((env[countVar] ?? '').trim()) : undefined;
  if (fromEnv !== undefined && (!Number.isInteger(fromEnv) || fromEnv < 1)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--shard ${raw}\`: ${countVar} is "${env[countVar as string]}", not a count of shards.`);
  if (given !== undefined && fromEnv !== undefined && given !== fromEnv) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--shard ${raw}\`: it says ${given} shards and ${countVar} says ${fromEnv}. Make them agree.`);
  const count = given ?? fromEnv;
  if (count === undefined) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--shard ${raw}\`: ${source.index} gives the index but nothing gives the count of shards. Write \`--shard auto/N\` (N: the Job's completions) or set SHAKEDOWN_SHARD_COUNT.`);
  const shard = `${Number(rawIndex) + (source.base === 0 ? 1 : 0)}/${count}`;
  parseShard(shard);
  return { shard, from: `${source.index}=${rawIndex}${countVar ? `, ${countVar}=${fromEnv}` : ''}` };
}

/** `--shard i/n` (1 <= i <= n): this process runs the keys whose hash falls in part i of n. */
export function parseShard(raw: string | undefined): { index: number; count: number } | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--shard ${raw}\`: write i/n with 1 <= i <= n, e.g. \`--shard 2/4\`, or \`--shard auto\` to read the index from the CI or Kubernetes variables (\`auto/N\` in a Kubernetes Indexed Job).`);
  }
  return { index, count };
}
