/**
 * What isolating a module agent costs (DESIGN decision 19): the same agent on the same episodes, once
 * loaded into this process (as module agents ran before they had processes of their own, and as nothing
 * in Shakedown runs one now) and once in its host process, sandboxed, each through `runSweep` in this
 * process so that no CLI start is counted. Wall time, and CPU per episode of this process and the host
 * together (clock ticks of /proc: 10 ms each), alternating.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { agentLimitsSchema, resolveConfig } from '../src/ground/config.js';
import { loadModuleAgent } from '../src/agents/module.js';
import { hostedAgent } from '../src/agents/hosted.js';
import type { AgentFactory } from '../src/agents/contract.js';
import { episodeOptions, tasksOf } from '../src/run/parts.js';
import { runSweep } from '../src/run/sweep.js';
import { getWorld } from '../scenarios/index.js';

export interface IsolationRow {
  readonly agent: string;
  readonly episodes: number;
  readonly here: { readonly perSecond: number; readonly cpuMs: number };
  readonly hosted: { readonly perSecond: number; readonly cpuMs: number };
}

/**
 * CPU ms used so far by this process's live descendants (the agents' hosts, which run under `unshare`
 * where namespaces are available, so they are grandchildren), from /proc (Linux; 0 elsewhere).
 */
function childrenCpuMs(): number {
  const procs = new Map<number, { parent: number; ticks: number }>();
  try {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        procs.set(Number(pid), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
      } catch {
        // Gone meanwhile.
      }
    }
  } catch {
    return 0;
  }
  const descends = (pid: number): boolean => {
    for (let p = procs.get(pid)?.parent, hops = 0; p !== undefined && p > 1 && hops < 64; p = procs.get(p)?.parent, hops++) if (p === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (descends(pid)) ticks += p.ticks;
  return (ticks * 1000) / 100;
}

/** The episodes an agent is measured on: its trials of these scenarios over this grid. */
export interface IsolationModule {
  readonly path: string;
  readonly trials: number;
  readonly concurrency: number;
  /** @default the read and cancel categories, ε 0 and 0.5, λ 0 and 0.3 */
  readonly scenarios?: readonly string[];
  readonly eps?: readonly number[];
  readonly lambda?: readonly number[];
  /** Trials of a warm-up run on each path before the rounds. @default 1 */
  readonly warmTrials?: number;
}

async function measure(factory: AgentFactory, m: IsolationModule, trials: number): Promise<{ episodes: number; perSecond: number; cpuMs: number }> {
  const { concurrency } = m;
  const config = resolveConfig({ agents: ['oracle'], scenarios: [...(m.scenarios ?? ['category:read', 'category:cancel'])], eps: [...(m.eps ?? [0, 0.5])], lambda: [...(m.lambda ?? [0, 0.3])], trials, concurrency });
  const world = getWorld('retail');
  const plan = { ...episodeOptions(config, world), world, scenarios: tasksOf(config, world), agents: [factory], eps: config.eps, lambda: config.lambda, trials, concurrency };
  const cpu = process.cpuUsage();
  const children = childrenCpuMs();
  const start = performance.now(); // clock: the figure measured
  const records = await runSweep(plan);
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  // This process's CPU and the agent's host's: an agent in this process has none of the second.
  return { episodes: records.length, perSecond: records.length / seconds, cpuMs: ((used.user + used.system) / 1000 + childrenCpuMs() - children) / records.length };
}

/** Each agent module in this process and hosted, `rounds` alternating pairs; the medians. */
export async function isolationFigures(modules: readonly IsolationModule[], rounds = 3): Promise<IsolationRow[]> {
  const rows: IsolationRow[] = [];
  for (const m of modules) {
    const here = await loadModuleAgent(m.path);
    const hosted = await hostedAgent(m.path, { limits: agentLimitsSchema.parse({}) });
    try {
      const a: Awaited<ReturnType<typeof measure>>[] = [];
      const b: Awaited<ReturnType<typeof measure>>[] = [];
      // Warm both paths: the scenarios' preparation, the host's start and the first episodes' compiling.
      await measure(here, m, m.warmTrials ?? 1);
      await measure(hosted, m, m.warmTrials ?? 1);
      for (let i = 0; i < rounds; i++) {
        a.push(await measure(here, m, m.trials));
        b.push(await measure(hosted, m, m.trials));
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
      rows.push({
        agent: here.id,
        episodes: a[0]?.episodes ?? 0,
        here: { perSecond: median(a.map((x) => x.perSecond)), cpuMs: median(a.map((x) => x.cpuMs)) },
        hosted: { perSecond: median(b.map((x) => x.perSecond)), cpuMs: median(b.map((x) => x.cpuMs)) },
      });
    } finally {
      await hosted.dispose?.();
    }
  }
  return rows;
}
