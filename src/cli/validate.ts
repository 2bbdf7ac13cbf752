/**
 * `shakedown validate`, and the same check a sweep makes of the generated variants it is about to run:
 * a task holds when its gold actions succeed, `noop` fails it and `oracle` passes it at ε = λ = 0.
 */
import { loadScenarios } from '../../scenarios/index.js';
import { expandTasks, familyOf, VARIANT_SUFFIX } from '../run/families.js';
import { type Flags, type Io } from './options.js';
import { tasksOf } from '../run/parts.js';
import { loadConfig } from './config-file.js';
import { validate } from '../run/variants.js';
import { loadWorld } from '../run/world-module.js';

/** `shakedown validate`: every selected hand-written scenario, then (with `--tasks`) per family how many variants hold. */
export async function validateCommand(flags: Flags, io: Io): Promise<number> {
  const config = await loadConfig(flags, io);
  const world = await loadWorld(config.world);
  const expanded = expandTasks(world, loadScenarios(world), config.tasks !== 'hand');
  const scenarios = tasksOf(config, world, expanded.tasks);
  const results = await validate(world, config, scenarios);
  const hand = results.filter((r) => !VARIANT_SUFFIX.test(r.scenario));
  for (const r of hand) {
    io.out(`${r.ok ? 'ok  ' : 'FAIL'} ${r.scenario}\n`);
    for (const p of r.problems) io.out(`       ${p}\n`);
  }
  const bad = hand.filter((r) => !r.ok);
  io.out(`${hand.length - bad.length} of ${hand.length} scenarios of world ${world.id} hold.\n`);
  if (config.tasks !== 'hand') {
    // Per family: how many generated variants hold, and why the others are left out of every sweep.
    const families = new Set(scenarios.map((s) => familyOf(s.id)));
    const unparsed = expanded.unparsed.filter((u) => families.has(familyOf(u.id))).map((u) => ({ scenario: u.id, ok: false, problems: [u.problem] }));
    const all = [...results.filter((r) => VARIANT_SUFFIX.test(r.scenario)), ...unparsed];
    for (const f of [...new Set(all.map((r) => familyOf(r.scenario)))].sort()) {
      const of = all.filter((r) => familyOf(r.scenario) === f);
      io.out(`family ${f}: ${of.filter((r) => r.ok).length} of ${of.length} variants hold\n`);
      for (const r of of.filter((x) => !x.ok)) io.out(`       left out ${r.scenario}: ${r.problems.join('; ')}\n`);
    }
    const held = all.filter((r) => r.ok).length;
    io.out(`${held} of ${all.length} generated variants hold: ${hand.length - bad.length + held} validated tasks in world ${world.id}.\n`);
  }
  if (bad.length > 0) {
    io.err(`shakedown: ${bad.length} scenario(s) do not hold: ${bad.map((r) => r.scenario).join(', ')}\n`);
    return 1;
  }
  return 0;
}
