/**
 * Who a release review is for. The candidates are the agents a sweep is run to release: declared in the
 * config (`candidates`) or by `--agent`, otherwise the agents the run was given from outside (a module,
 * a command, a service, a model), otherwise every agent that is not a baseline. Every other agent is a
 * comparator: shown, compared with, never gated. `baselineAgent` names the comparator each candidate is
 * measured against first.
 */
import { BASELINE_IDS } from '../agents/baselines.js';
import { agentSource } from '../agents/module.js';
import { ShakedownError, suggest } from '../ground/errors.js';

export interface ReleaseRoles {
  readonly candidates: readonly string[];
  readonly comparators: readonly string[];
  /** The agent each candidate is compared with first, when the config names one. */
  readonly baselineAgent?: string;
  /** How the candidates were chosen: declared in the config, or by the rule above. */
  readonly declared: boolean;
}

/** An agent of a run by its id, or by the spec it was given as (a module path, a URL, a command); undefined when neither. */
export function agentIdOf(name: string, ids: readonly string[], specs: readonly string[]): string | undefined {
  if (ids.includes(name)) return name;
  const at = specs.indexOf(name);
  return at >= 0 ? ids[at] : undefined;
}

/** The run's agent named by `name`, or an error that lists them and the nearest. */
export function requireAgent(name: string, ids: readonly string[], specs: readonly string[], what: string): string {
  const id = agentIdOf(name, ids, specs);
  if (id !== undefined) return id;
  const near = suggest(name, [...ids, ...specs]);
  throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to ${what}: the run has no agent \`${name}\`.${near.length > 0 ? ` Did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?` : ''} Agents: ${ids.join(', ')}.`);
}

/** The candidates and comparators of a run whose agents are `ids`, given as `specs`, under its config. */
export function releaseRoles(ids: readonly string[], specs: readonly string[], config: { readonly candidates?: readonly string[] | undefined; readonly baselineAgent?: string | undefined }): ReleaseRoles {
  const declared = config.candidates !== undefined && config.candidates.length > 0;
  const baselineAgent = config.baselineAgent === undefined ? undefined : requireAgent(config.baselineAgent, ids, specs, 'read `baselineAgent`');
  let candidates: string[];
  if (declared) {
    candidates = (config.candidates ?? []).map((c) => requireAgent(c, ids, specs, 'read `candidates`'));
  } else {
    // Inferred, the baseline agent is never one of them: it is what they are measured against.
    const outside = ids.filter((id, i) => id !== baselineAgent && specs[i] !== undefined && agentSource(specs[i] as string) !== 'built-in');
    candidates = outside.length > 0 ? outside : ids.filter((id) => id !== baselineAgent && !BASELINE_IDS.includes(id));
  }
  if (baselineAgent !== undefined && candidates.includes(baselineAgent)) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`baselineAgent\`: \`${baselineAgent}\` is also a candidate. The baseline is the comparator the candidates are measured against; name another agent, or take it out of \`candidates\`.`);
  }
  return { candidates, comparators: ids.filter((id) => !candidates.includes(id)), ...(baselineAgent !== undefined ? { baselineAgent } : {}), declared };
}
