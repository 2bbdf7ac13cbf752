// The generated variants a sweep may run: each must hold at the run's seed as a hand-written task must
// (gold actions succeed, `noop` fails, `oracle` passes at ε = λ = 0).

import { resolveAgent } from '../agents/registry.js';
import type { ResolvedConfig } from '../ground/config.js';
import { WorldHarness } from './episode.js';
import { familyOf, VARIANT_SUFFIX } from './families.js';
import type { Scenario } from '../ground/scenario.js';
import { validateScenarios, type ScenarioValidity } from './validate.js';
import type { WorldDefinition } from '../ground/world.js';
import { episodeOptions } from './parts.js';

/** Validates tasks at the config's seed, with the built-in baselines. */
export const validate = (world: WorldDefinition, config: ResolvedConfig, tasks: readonly Scenario[]): Promise<ScenarioValidity[]> =>
  validateScenarios(new WorldHarness(world, config.seed), tasks, { noop: resolveAgent('noop'), oracle: resolveAgent('oracle') }, episodeOptions(config, world));

/**
 * The selected tasks without the generated variants that do not hold at this seed, each left out with a
 * line that says why. Hand-written scenarios are the tests' to check, not each sweep's.
 */
export async function validVariants(world: WorldDefinition, config: ResolvedConfig, scenarios: readonly Scenario[], io: { err(text: string): void }): Promise<Scenario[]> {
  const variants = scenarios.filter((s) => VARIANT_SUFFIX.test(s.id));
  if (variants.length === 0) return [...scenarios];
  const results = await validate(world, config, variants);
  const bad = new Set(results.filter((r) => !r.ok).map((r) => r.scenario));
  for (const r of results.filter((x) => !x.ok)) io.err(`shakedown: left out ${r.scenario}: ${r.problems.join('; ')}\n`);
  const kept = scenarios.filter((s) => !bad.has(s.id));
  io.err(`shakedown: ${kept.length} tasks in ${new Set(kept.map((s) => familyOf(s.id))).size} families (${variants.length - bad.size} of ${variants.length} generated variants hold)\n`);
  return kept;
}
