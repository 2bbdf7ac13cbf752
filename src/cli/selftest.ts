// `shakedown selftest`: runs the planted-bug agents with a control and prints, per mutant, where it was
// caught. Library code: returns an exit code, never exits.
import { existsSync } from 'node:fs';

import { resolve } from 'node:path';
import { loadScenarios } from '../../scenarios/index.js';
import { getFaultProfile } from '../../faults/index.js';
import { resolveAgent } from '../agents/registry.js';
import { WorldHarness } from '../run/episode.js';
import { ShakedownError } from '../ground/errors.js';
import { runSelfTest, type BiteCell, type Mutant, type SelfTestResult } from '../run/selftest.js';
import { loadWorld } from '../run/world-module.js';
import { type Flags, type Io } from './options.js';
import { episodeOptions, selectScenarios } from '../run/parts.js';
import { loadConfig } from './config-file.js';
import { importModule } from '../ground/user-module.js';

const cellText = (c: BiteCell) => `ε=${c.eps} λ=${c.lambda}${c.profile ? ` ${c.profile}` : ''}`;

async function loadMutants(path: string | undefined): Promise<readonly Mutant[]> {
  // The built-in planted bugs ship with the package (src/run/mutants.ts); a file of one's own is a module.
  if (!path) return (await import('../run/mutants.js')).mutants;
  if (!existsSync(resolve(path))) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to load mutants from \`${path}\`: no such file. Give a module that exports \`mutants\` (see src/run/mutants.ts).`);
  const mod = await importModule(resolve(path));
  const list = (mod.mutants ?? mod.default) as unknown;
  if (!Array.isArray(list) || list.some((m) => typeof m?.id !== 'string' || typeof m?.mutate !== 'function')) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to load mutants from \`${path}\`: export \`mutants\`, an array of { id, description, base, bites, mutate }.`);
  }
  return list as Mutant[];
}

/** The table of one world's self-test. */
export function renderSelfTest(world: string, tasks: number, trials: number, r: SelfTestResult): string {
  const lines = [`Self-test of world ${world}: ${tasks} tasks x ${trials} trials per cell; a mutant is caught where its verdict on an episode differs from its base's (a failure, or another failure class).`, ''];
  const w = Math.max(...r.mutants.map((m) => m.id.length), 6);
  lines.push(`${'mutant'.padEnd(w)}  ${'cell'.padEnd(28)}  ${'caught in'.padEnd(10)}  classes / tasks`);
  for (const m of r.mutants) {
    m.cells.forEach((c, i) => {
      const head = i === 0 ? m.id.padEnd(w) : ''.padEnd(w);
      const role = c.bites ? cellText(c.cell) : `${cellText(c.cell)} (quiet)`;
      const classes = Object.entries(c.classes).map(([k, n]) => `${k} ${n}`).join(', ');
      const tasks = c.caught.length > 0 ? ` | ${c.caught.slice(0, 4).join(', ')}${c.caught.length > 4 ? `, +${c.caught.length - 4}` : ''}` : '';
      lines.push(`${head}  ${role.padEnd(28)}  ${`${c.caught.length} task${c.caught.length === 1 ? '' : 's'}`.padEnd(10)}  ${classes || '-'}${tasks}`);
    });
    lines.push(`${''.padEnd(w)}  -> ${m.verdict.toUpperCase()} (${m.description}; base ${m.base})`);
  }
  lines.push('');
  for (const c of r.controls) {
    lines.push(`control(${c.base}): ${c.episodes} episodes, ${c.differing.length === 0 ? 'identical to its base' : `${c.differing.length} differ: ${c.differing.slice(0, 5).join('; ')}`}`);
  }
  lines.push(r.ok ? 'Every mutant caught where its bug bites and nowhere else; every probe passing; every control identical.' : 'SELF-TEST FAILED: see the verdicts above.');
  return `${lines.join('\n')}\n`;
}

/** `shakedown selftest [--world W|all] [--trials N] [--mutants FILE] [--only ID,...] [--json]`. */
export async function selftestCommand(flags: Flags, io: Io): Promise<number> {
  const everyWorld = flags.world === 'all' || flags.world === undefined;
  const { world: _world, ...withoutWorld } = flags;
  const config = await loadConfig(everyWorld ? withoutWorld : flags, io);
  const trials = flags.trials ? Number(flags.trials) : 2;
  if (!Number.isInteger(trials) || trials < 1) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--trials ${flags.trials}\`: give a whole number of trials of at least 1.`);
  const all = await loadMutants(flags.mutants);
  const only = flags.only?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of only ?? []) if (!all.some((m) => m.id === id)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to select mutant \`${id}\`: no such mutant. Mutants: ${all.map((m) => m.id).join(', ')}.`);
  const mutants = only ? all.filter((m) => only.includes(m.id)) : all;
  const worldIds = everyWorld ? ['retail', 'travel'] : [config.world];
  const out: Record<string, SelfTestResult> = {};
  let ok = true;
  for (const id of worldIds) {
    const world = await loadWorld(id);
    const scenarios = selectScenarios(loadScenarios(world), config.scenarios);
    const harness = new WorldHarness(world, config.seed);
    const base = episodeOptions({ ...config, world: id }, world);
    const result = await runSelfTest({
      harness,
      scenarios,
      mutants,
      resolve: resolveAgent,
      trials,
      profileOf: (p) => (p ? getFaultProfile(p) : base.profile),
      options: (p) => ({ ...base, profile: p ? getFaultProfile(p) : base.profile }),
    });
    out[id] = result;
    ok &&= result.ok;
    if (!flags.json) io.out(`${renderSelfTest(id, scenarios.length, trials, result)}\n`);
  }
  if (flags.json) io.out(`${JSON.stringify(out, null, 2)}\n`);
  return ok ? 0 : 1;
}
