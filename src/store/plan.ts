/**
 * The plan of a run, as run.json states it (its agents, ε, λ, trials and tasks, and its shard), and the
 * records of its log checked against it: a record whose key the run did not plan (another agent, task,
 * ε, λ or trial, or a key of another shard) is no episode of this run, and how many planned episodes a
 * log holds says whether the run is complete, whatever run.json says.
 */
import { keyString, type EpisodeKey } from '../ground/record.js';
import { hash53 } from '../ground/seeds.js';
import type { RunManifest } from './rundir.js';

/** What a run planned, to check each record's key against. */
export interface RunPlan {
  /** Why `key` is not an episode this run planned, in words; undefined when it is one. */
  outside(key: unknown): string | undefined;
  /** Episodes the run planned (for an adaptive run, the most it may run); undefined when run.json cannot tell. */
  readonly planned?: number;
  /** For an adaptive run, the trials of its first round, which every task and cell runs. */
  readonly firstTrials?: number;
  /** Episodes of that first round. */
  readonly firstRound?: number;
}

/** A value as a reader sees it in a message: JSON, so that no control character or markup comes through raw. */
const shown = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/** The fields of an episode key, in the order the engine writes them. */
const KEY_FIELDS = ['scenario', 'agent', 'eps', 'lambda', 'trial'];

/** The plan of the run `manifest` describes (readManifest has checked the types of its lists). */
export function planOf(manifest: RunManifest): RunPlan {
  const c = manifest.config;
  const agents = new Set(manifest.agents.map((a) => a.id));
  const eps = new Set(c.eps);
  const lambda = new Set(c.lambda);
  const scenarios = Array.isArray(manifest.grid?.scenarios) ? new Set(manifest.grid.scenarios) : undefined;
  const shard = typeof manifest.shard === 'string' ? /^(\d+)\/(\d+)$/.exec(manifest.shard.trim()) : null;
  const [index, count] = shard ? [Number(shard[1]), Number(shard[2])] : [1, 1];
  const inShard = (k: EpisodeKey) => count === 1 || hash53(keyString(k)) % count === index - 1;
  const outside = (key: unknown): string | undefined => {
    if (!key || typeof key !== 'object' || Array.isArray(key)) return `its key ${shown(key)} is not an episode key`;
    const k = key as Record<string, unknown>;
    const fields = Object.keys(k);
    if (fields.length !== KEY_FIELDS.length || !KEY_FIELDS.every((f) => Object.hasOwn(k, f))) return `its key has the fields ${shown(fields)}, not ${KEY_FIELDS.join(', ')}`;
    if (typeof k.agent !== 'string' || !agents.has(k.agent)) return `agent ${shown(k.agent)} is not one of the run's agents`;
    if (typeof k.scenario !== 'string' || (scenarios && !scenarios.has(k.scenario))) return `task ${shown(k.scenario)} is not one of the run's tasks`;
    if (typeof k.eps !== 'number' || !eps.has(k.eps)) return `ε ${shown(k.eps)} is not one of the run's ε values`;
    if (typeof k.lambda !== 'number' || !lambda.has(k.lambda)) return `λ ${shown(k.lambda)} is not one of the run's λ values`;
    if (typeof k.trial !== 'number' || !Number.isInteger(k.trial) || k.trial < 0 || k.trial >= c.trials) return `trial ${shown(k.trial)} is not one of the run's ${c.trials} trials (0 to ${c.trials - 1})`;
    if (!inShard(k as unknown as EpisodeKey)) return `it belongs to another shard than this run's ${manifest.shard}`;
    return undefined;
  };
  // Counted from the plan itself when run.json lists the tasks (every key of a shard hashed: a few
  // microseconds each); else the count the sweep wrote.
  let planned = manifest.episodes;
  if (scenarios) {
    const cells = agents.size * eps.size * lambda.size * c.trials;
    if (count === 1) planned = scenarios.size * cells;
    else {
      planned = 0;
      for (const scenario of scenarios)
        for (const agent of agents)
          for (const e of eps)
            for (const l of lambda)
              for (let trial = 0; trial < c.trials; trial++) if (inShard({ scenario, agent, eps: e, lambda: l, trial })) planned++;
    }
  }
  const first = c.adaptiveFirstTrials;
  const adaptive = first !== undefined && planned !== undefined ? { firstTrials: first, firstRound: (planned / c.trials) * Math.min(first, c.trials) } : {};
  return { outside, ...(planned !== undefined ? { planned } : {}), ...adaptive };
}
