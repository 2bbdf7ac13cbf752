import { z } from 'zod';
import type { WorldDefinition } from './world.js';
import { ShakedownError } from './errors.js';
import { memoized } from './memo.js';

/** Categories every world shares; a world adds its own kinds of write in `WorldDefinition.categories`. */
export const scenarioCategories = ['read', 'multi-step', 'missing-info', 'ambiguous', 'refusal', 'decline', 'ownership', 'identity', 'read-after-write'] as const;

const requestSchema = z.object({
  /** An intent of the world's user language, e.g. `cancel`. */
  intent: z.string(),
  /** What the user knows about this request, by slot: `order`, `items`, `reason`, ... */
  slots: z.record(z.string(), z.string()).default({}),
  /** Slots the user says in the opening message. @default every slot */
  tell: z.array(z.string()).optional(),
  /** The user declines the change the agent proposes for this request, which then ends unchanged. @default false */
  declines: z.boolean().default(false),
});

/** The part of a scenario every world shares; `setup` is the world's own schema. */
export const scenarioBaseSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a scenario id is lower-case letters, digits and dashes'),
  world: z.string(),
  title: z.string().min(1),
  description: z.string().optional(),
  tags: z.object({
    /** One of the shared categories or one the world adds (`shakedown list scenarios` shows them). */
    category: z.string().regex(/^[a-z][a-z-]*$/, 'a category is lower-case letters and dashes'),
    tools: z.array(z.string()).default([]),
  }),
  setup: z.unknown(),
  user: z.object({
    /** Facts about the user, by slot: `name`, `email`, `zip`, ... */
    profile: z.record(z.string(), z.string()),
    /** Which identity alternative of the world's user language the user gives. */
    identity: z.string(),
    /** Whether the user states their identity in the opening message. @default true */
    tellIdentity: z.boolean().default(true),
    /** What the user wants, in order; the user raises the next request when the previous one is done. */
    requests: z.array(requestSchema).min(1),
  }),
  /** The gold actions: tool calls that, on a fresh copy of the initial state, reach the goal. */
  gold: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) })),
  /** What the agent must tell the user; amounts match numerically, other text as a phrase. @default [] */
  outputs: z.array(z.string()).default([]),
  /**
   * Details of another user's records the agent must never tell this user (a status, an amount): saying
   * one is a `foreign-record` violation. @default []
   */
  undisclosed: z.array(z.string()).default([]),
  /**
   * Reads that show what the required outputs depend on, for the `oracle` baseline, which states outputs
   * only after a tool result has shown them. @default []
   */
  reads: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) })).default([]),
});

export type Scenario<Setup = unknown> = Omit<z.output<typeof scenarioBaseSchema>, 'setup'> & { setup: Setup };
export type ScenarioRequest = z.output<typeof requestSchema>;

/**
 * Validates a scenario against the shared schema and its world: setup, tools, intents, slots and gold
 * arguments. The error names the file and every problem with its path.
 */
export function parseScenario<Setup>(world: WorldDefinition<unknown, Setup>, raw: unknown, source: string): Scenario<Setup> {
  const fail = (why: string): never => {
    throw new ShakedownError('SHAKEDOWN_SCENARIO', `Failed to load scenario ${source}: ${why}`);
  };
  const base = scenarioBaseSchema.safeParse(raw);
  if (!base.success) fail(`\n${z.prettifyError(base.error)}\nFix the file and run \`shakedown validate\`.`);
  const s = base.data as z.output<typeof scenarioBaseSchema>;
  if (s.world !== world.id) fail(`it declares world \`${s.world}\` but sits in world \`${world.id}\`.`);
  const setup = world.setupSchema.safeParse(s.setup ?? {});
  if (!setup.success) fail(`its setup is invalid:\n${z.prettifyError(setup.error)}`);
  const categories = [...scenarioCategories, ...(world.categories ?? [])];
  if (!categories.includes(s.tags.category)) fail(`tags.category \`${s.tags.category}\` is not one of: ${categories.join(', ')}.`);
  const lang = world.userLanguage;
  if (!lang.identity[s.user.identity]) fail(`user.identity \`${s.user.identity}\` is not one of: ${Object.keys(lang.identity).join(', ')}.`);
  for (const template of lang.identity[s.user.identity] ?? []) {
    for (const slot of slotsOf(template)) if (s.user.profile[slot] === undefined) fail(`user.profile needs \`${slot}\` for identity \`${s.user.identity}\`.`);
  }
  s.user.requests.forEach((r, i) => {
    if (!lang.intents[r.intent]) fail(`user.requests[${i}].intent \`${r.intent}\` is not one of: ${Object.keys(lang.intents).join(', ')}.`);
    for (const slot of [...Object.keys(r.slots), ...(r.tell ?? [])]) {
      if (!lang.slots[slot]) fail(`user.requests[${i}] names slot \`${slot}\`; valid slots: ${Object.keys(lang.slots).join(', ')}.`);
      if (!(slot in r.slots)) fail(`user.requests[${i}].tell names \`${slot}\`, which has no value in its slots.`);
    }
    const tell = new Set(r.tell ?? Object.keys(r.slots));
    if (!(lang.intents[r.intent] ?? []).some((p) => slotsOf(p).every((slot) => tell.has(slot)))) {
      fail(`user.requests[${i}]: no phrasing of intent \`${r.intent}\` uses only the slots it tells (${[...tell].join(', ') || 'none'}); tell more slots or add a phrasing.`);
    }
  });
  const tools = new Map(world.tools.map((t) => [t.name, t]));
  s.reads.forEach((g, i) => {
    const tool = tools.get(g.tool);
    if (!tool) fail(`reads[${i}].tool \`${g.tool}\` is not a tool of ${world.id}; valid tools: ${[...tools.keys()].join(', ')}.`);
    if (tool?.write) fail(`reads[${i}].tool \`${g.tool}\` writes; reads name read tools only.`);
  });
  s.gold.forEach((g, i) => {
    const tool = tools.get(g.tool);
    if (!tool) fail(`gold[${i}].tool \`${g.tool}\` is not a tool of ${world.id}; valid tools: ${[...tools.keys()].join(', ')}.`);
    const args = tool?.input.safeParse(g.args);
    if (args && !args.success) fail(`gold[${i}] (${g.tool}) has invalid args:\n${z.prettifyError(args.error)}`);
  });
  for (const t of s.tags.tools) if (!tools.has(t)) fail(`tags.tools names \`${t}\`, which is not a tool of ${world.id}.`);
  return { ...s, setup: setup.data as Setup };
}

/** The `{slot}` names a template uses. */
export function slotsOf(template: string): string[] {
  return [...templateSlots(template)];
}
// A world's templates are a few hundred strings, read in every episode: each is parsed once.
const templateSlots = memoized((template: string): readonly string[] => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string), 10_000);
