/**
 * Turns a world spec from the command line or a config into a world: a built-in id (`retail`, `travel`)
 * or a module (`./worlds/clinic/index.ts`) whose default export is a `defineWorld({...})`.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { importModule } from '../ground/user-module.js';
import { z } from 'zod';
import { worlds } from '../../scenarios/index.js';
import { isModuleSpec, moduleExport } from '../agents/module.js';
import { ShakedownError } from '../ground/errors.js';
import type { WorldDefinition } from '../ground/world.js';

const fn = (what: string) => z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { message: `must be a function (${what})` });
const zodSchema = (what: string) => z.custom<z.ZodType>((v) => typeof v === 'object' && v !== null && typeof (v as { safeParse?: unknown }).safeParse === 'function', { message: `must be a zod schema (${what})` });
const regexps = z.array(z.instanceof(RegExp, { message: 'must be a regular expression' }));

/** The shape a world module must export; functions and schemas are checked by kind, not called. */
const worldShape = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a world id is lower-case letters, digits and dashes'),
  description: z.string().min(1),
  dbSchema: zodSchema('the database'),
  generate: fn('seed => database'),
  setupSchema: zodSchema("a scenario's setup block"),
  applySetup: fn('(db, setup) => void'),
  tools: z
    .array(
      z.object({
        name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'a tool name is lower-case letters, digits and underscores'),
        description: z.string(),
        method: z.enum(['GET', 'POST']),
        path: z.string().startsWith('/'),
        input: zodSchema('the arguments, a z.object'),
        write: z.boolean(),
      }),
    )
    .min(1),
  handlers: fn('instance => msw handlers'),
  policy: z.string().min(1),
  userLanguage: z.object({
    intents: z.record(z.string(), z.array(z.string()).min(1)),
    slots: z.record(z.string(), z.object({ asked: regexps, answers: z.array(z.string()).min(1), optional: z.boolean().optional() })),
    identity: z.record(z.string(), z.array(z.string()).min(1)),
    identityAsked: regexps,
    confirmAsked: regexps,
    helpAsked: regexps,
    anythingElse: regexps,
    entityPattern: z.instanceof(RegExp, { message: 'must be a regular expression with the g flag' }),
    confirmSlots: z.array(z.string()),
  }),
  categories: z.array(z.string().regex(/^[a-z][a-z-]*$/)).optional(),
  scenarioDir: z.string().optional(),
});

const loaded = new Map<string, WorldDefinition>();

/**
 * Loads a world module once per process (a world is compared by identity in caches): its default
 * export, or an export named `world`, must be a world definition. Scenarios are read from the world's
 * `scenarioDir`, or `tasks/` beside the module.
 */
export async function loadWorldModule(spec: string, cwd: string = process.cwd()): Promise<WorldDefinition> {
  const path = resolve(cwd, spec);
  const cached = loaded.get(path);
  if (cached) return cached;
  const fail = (why: string): never => {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to load world module \`${spec}\`: ${why}`);
  };
  if (!existsSync(path)) fail(`no such file (looked at ${path}). Check the path; it is relative to the current directory.`);
  let mod: Record<string, unknown> = {};
  try {
    mod = await importModule(path);
  } catch (error) {
    fail(`importing it threw ${(error as Error).name}: ${(error as Error).message}. Fix the module so that it imports.`);
  }
  const candidate = moduleExport(mod, 'world', (v) => 'tools' in v);
  if (candidate === undefined) fail('it has no default export. Write `export default defineWorld({ id, description, dbSchema, ... })` (see docs/worlds.md).');
  const shape = worldShape.safeParse(candidate);
  if (!shape.success) fail(`its world definition is incomplete:\n${z.prettifyError(shape.error)}\nSee docs/worlds.md for each field.`);
  const world = candidate as WorldDefinition;
  if (worlds.some((w) => w.id === world.id)) fail(`its id \`${world.id}\` is a built-in world's. Give your world its own id.`);
  const withDir: WorldDefinition = { ...world, scenarioDir: world.scenarioDir ? resolve(dirname(path), world.scenarioDir) : join(dirname(path), 'tasks') };
  loaded.set(path, withDir);
  return withDir;
}

/** Resolves any world spec: a built-in id, or a module path. */
export async function loadWorld(spec: string, cwd?: string): Promise<WorldDefinition> {
  const s = spec.trim();
  if (isModuleSpec(s)) return loadWorldModule(s, cwd);
  const builtIn = worlds.find((w) => w.id === s);
  if (builtIn) return builtIn;
  throw new ShakedownError('SHAKEDOWN_UNKNOWN_ID', `Failed to find world \`${s}\`: no such world. Built-in worlds: ${worlds.map((w) => w.id).join(', ')}; or a world module path such as ./my-world/index.ts (see docs/worlds.md).`);
}
