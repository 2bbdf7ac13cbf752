import type { AgentFactory } from '../agents/contract.js';
import { runEpisode, WorldHarness, type EpisodeOptions } from './episode.js';
import { type EpisodeRecord } from '../ground/record.js';
import type { Scenario } from '../ground/scenario.js';

/** The validity checks of one scenario (DESIGN decision 9). */
export interface ScenarioValidity {
  readonly scenario: string;
  readonly ok: boolean;
  /** What does not hold, one sentence each. */
  readonly problems: readonly string[];
}

/**
 * Checks every scenario: the gold actions succeed and reach a state that differs from the start (or the
 * scenario requires outputs), `noop` fails it and `oracle` passes it at ε = λ = 0.
 */
export async function validateScenarios(
  harness: WorldHarness,
  scenarios: readonly Scenario[],
  baselines: { noop: AgentFactory; oracle: AgentFactory },
  options: EpisodeOptions,
): Promise<ScenarioValidity[]> {
  const out: ScenarioValidity[] = [];
  for (const scenario of scenarios) {
    const problems: string[] = [];
    let prepared;
    try {
      prepared = await harness.prepare(scenario);
    } catch (error) {
      out.push({ scenario: scenario.id, ok: false, problems: [(error as Error).message] });
      continue;
    }
    prepared.goldStatuses.forEach((status, i) => {
      if (status < 200 || status >= 300) problems.push(`gold[${i}] (${scenario.gold[i]?.tool}) answered ${status}, not 2xx`);
    });
    if (scenario.gold.length > 0 && !prepared.goldChangesState) problems.push('the gold actions leave the database unchanged; drop them or fix their arguments');
    if (!prepared.goldChangesState && scenario.outputs.length === 0) problems.push('nothing to check: the goal changes no state and requires no outputs, so `noop` would pass');
    const key = (agent: string) => ({ scenario: scenario.id, agent, eps: 0, lambda: 0, trial: 0 });
    const noop: EpisodeRecord = await runEpisode(harness, prepared, baselines.noop, key(baselines.noop.id), options);
    if (noop.outcome === 'pass') problems.push('`noop` passes it: the goal must need a write or a required output');
    const oracle: EpisodeRecord = await runEpisode(harness, prepared, baselines.oracle, key(baselines.oracle.id), options);
    if (oracle.outcome !== 'pass') {
      const why = [...oracle.diff.map((d) => d.message), ...oracle.missingOutputs.map((o) => `missing output ${o}`), ...(oracle.error ? [oracle.error.message] : [])];
      problems.push(`\`oracle\` does not pass it at ε = λ = 0: ${why.join('; ')}`);
    }
    out.push({ scenario: scenario.id, ok: problems.length === 0, problems });
  }
  return out;
}
