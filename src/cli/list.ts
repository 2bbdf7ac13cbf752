// `shakedown list WHAT`: the scenarios and tools of a world, and the agents, perturbation families, fault
// kinds, profiles, strategies and worlds this installation has. Each list loads only what it shows: only
// `scenarios` and `tools` load a world.
import { ShakedownError } from '../ground/errors.js';
import { type Flags, type Io } from './options.js';
import { loadConfig } from './config-file.js';

type Rows = [string, string][];

/** What each list shows, loaded when asked for. */
const LISTS: Readonly<Record<string, (flags: Flags, io: Io) => Promise<Rows>>> = {
  async scenarios(flags, io) {
    // The world the config (or --world) names; with --tasks all (or N), the generated variants too.
    const config = await loadConfig(flags, io);
    const [{ tasksOf }, { loadWorld }] = await Promise.all([import('../run/parts.js'), import('../run/world-module.js')]);
    return tasksOf(config, await loadWorld(config.world)).map((s) => [s.id, `[${s.tags.category}] ${s.title}`]);
  },
  agents: async () => [
    ...(await import('../agents/registry.js')).agentEntries.map((a): [string, string] => [a.id, a.description]),
    // The ways in for an agent of your own (docs/agents.md).
    ['./my-agent.ts', 'a module of yours: `export default defineAgent({...})`, run in a process of its own'],
    ['http://127.0.0.1:8765', 'a service in any language, one POST per user message (examples/http-agent)'],
    ['cmd:COMMAND', "a command launched per episode, its tools over MCP (stdio or Streamable HTTP), e.g. --agent 'cmd:node ./agent.mjs'"],
    ['llm:gpt-4o-mini', 'a model on any OpenAI-compatible API (--llm-base-url; key from OPENAI_API_KEY); llm:MODEL+backoff puts its tool calls behind a strategy. Without a key: `shakedown stub-llm`, then --agent llm:stub --llm-base-url URL'],
    ['anthropic:claude-sonnet-4-5', 'a model on the Anthropic Messages API (--anthropic-base-url; key from ANTHROPIC_API_KEY). Without a key: `shakedown stub-llm`, then --agent anthropic:stub --anthropic-base-url URL'],
  ],
  perturbations: async () => (await import('../../perturbations/index.js')).perturbationFamilies.map((f) => [f.id, `(ε > ${f.onset}) ${f.description}`]),
  faults: async () => (await import('../../faults/index.js')).faultKinds.map((k) => [k.id, `(${k.scope}, ${k.appliesTo === 'any' ? 'reads and writes' : `${k.appliesTo}s`}) ${k.description}`]),
  profiles: async () => (await import('../../faults/index.js')).faultProfiles.map((p) => [p.id, p.description]),
  strategies: async () => (await import('../agents/strategies.js')).strategies.map((s) => [s.id, s.description]),
  worlds: async () => (await import('../../scenarios/catalog.js')).worldCatalog.map((w) => [w.id, w.description]),
};

export async function list(what: string | undefined, flags: Flags, io: Io): Promise<number> {
  if (what === 'tools') {
    // The world's tools: one line each, or the whole reference in Markdown (docs/tools-<world>.md).
    const { loadWorld } = await import('../run/world-module.js');
    const world = await loadWorld((await loadConfig(flags, io)).world);
    if (flags.format === 'md') {
      io.out((await import('../report/tools.js')).toolReference(world));
      return 0;
    }
    const width = Math.max(...world.tools.map((t) => t.name.length));
    for (const t of world.tools) io.out(`${t.name.padEnd(width)}  ${t.method} ${t.path}${t.write ? ' (write)' : ''}  ${t.description}\n`);
    return 0;
  }
  const rowsOf = what !== undefined && Object.hasOwn(LISTS, what) ? LISTS[what] : undefined;
  if (!rowsOf) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to list \`${what ?? ''}\`: say what to list, one of scenarios, tools, agents, perturbations, faults, profiles, strategies, worlds.`);
  const rows = await rowsOf(flags, io);
  const width = Math.max(...rows.map(([id]) => id.length));
  for (const [id, description] of rows) io.out(`${id.padEnd(width)}  ${description}\n`);
  return 0;
}
