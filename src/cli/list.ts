// `shakedown list WHAT`: the scenarios and tools of a world, and the agents, perturbation families, fault
// kinds, profiles, strategies and worlds this installation has.
import { worlds } from '../../scenarios/index.js';
import { loadWorld } from '../run/world-module.js';
import { faultKinds, faultProfiles } from '../../faults/index.js';
import { perturbationFamilies } from '../../perturbations/index.js';
import { agentEntries } from '../agents/registry.js';
import { strategies } from '../agents/strategies.js';
import { ShakedownError } from '../ground/errors.js';
import { toolReference } from '../report/tools.js';
import { type Flags, type Io } from './options.js';
import { tasksOf } from '../run/parts.js';
import { loadConfig } from './config-file.js';

export async function list(what: string | undefined, flags: Flags, io: Io): Promise<number> {
  if (what === 'tools') {
    // The world's tools: one line each, or the whole reference in Markdown (docs/tools-<world>.md).
    const world = await loadWorld((await loadConfig(flags)).world);
    if (flags.format === 'md') {
      io.out(toolReference(world));
      return 0;
    }
    const width = Math.max(...world.tools.map((t) => t.name.length));
    for (const t of world.tools) io.out(`${t.name.padEnd(width)}  ${t.method} ${t.path}${t.write ? ' (write)' : ''}  ${t.description}\n`);
    return 0;
  }
  // Scenarios are the world's that the config (or --world) names; the other lists are the same for every world.
  // With --tasks all (or N), the generated variants are listed too.
  const listConfig = what === 'scenarios' ? await loadConfig(flags) : undefined;
  const scenarios = listConfig ? tasksOf(listConfig, await loadWorld(listConfig.world)) : [];
  const rows: [string, string][] = (() => {
    switch (what) {
      case 'scenarios':
        return scenarios.map((s) => [s.id, `[${s.tags.category}] ${s.title}`]);
      case 'agents':
        return agentEntries.map((a) => [a.id, a.description]);
      case 'perturbations':
        return perturbationFamilies.map((f) => [f.id, `(ε > ${f.onset}) ${f.description}`]);
      case 'faults':
        return faultKinds.map((k) => [k.id, `(${k.scope}, ${k.appliesTo === 'any' ? 'reads and writes' : `${k.appliesTo}s`}) ${k.description}`]);
      case 'profiles':
        return faultProfiles.map((p) => [p.id, p.description]);
      case 'strategies':
        return strategies.map((s) => [s.id, s.description]);
      case 'worlds':
        return worlds.map((w) => [w.id, w.description]);
      default:
        throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to list \`${what ?? ''}\`: say what to list, one of scenarios, tools, agents, perturbations, faults, profiles, strategies, worlds.`);
    }
  })();
  const width = Math.max(...rows.map(([id]) => id.length));
  for (const [id, description] of rows) io.out(`${id.padEnd(width)}  ${description}\n`);
  return 0;
}
