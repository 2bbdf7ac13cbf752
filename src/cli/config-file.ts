/**
 * The config file a command reads (`--config FILE`, or the first of CONFIG_FILES in the current
 * directory): TypeScript, JavaScript, JSON or YAML, with the flags on top of it.
 */
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';

import { importModule } from '../ground/user-module.js';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { resolveConfig, sweepConfigSchema, type ResolvedConfig, type SweepConfig } from '../ground/config.js';
import { ShakedownError } from '../ground/errors.js';
import { configFromFlags, processIo, type Flags, type Io } from './options.js';

/** The config files looked for in the current directory, in order, when `--config` is not given. */
export const CONFIG_FILES = ['shakedown.config.ts', 'shakedown.config.mts', 'shakedown.config.js', 'shakedown.config.mjs', 'shakedown.config.json', 'shakedown.config.yaml', 'shakedown.config.yml'];

/** The kinds of config file Shakedown reads, by extension. */
const CONFIG_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs', '.json', '.yaml', '.yml'];

/** `export default x` as CommonJS interop delivers it: `{ default: x }` (with `__esModule`) becomes x. */
export function unwrapDefault(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'default' in value && (Object.keys(value).every((k) => k === 'default' || k === '__esModule') || (value as { __esModule?: boolean }).__esModule)) return (value as { default: unknown }).default;
  return value;
}

/** JSON, its syntax errors said by line and column (jsonc-parser finds where; Node's own message may not say). */
export function parseJsonAt(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true });
    const first = errors[0];
    if (!first) throw error;
    const before = text.slice(0, first.offset);
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    const source = (text.split('\n')[line - 1] ?? '').trim().slice(0, 80);
    const what = printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    throw new Error(`${what} at line ${line}, column ${column} (\`${source}\`)`);
  }
}

/** Reads a config file: JSON, or a module whose default export is the config (or a function returning it). */
async function readConfigFile(path: string): Promise<SweepConfig> {
  if (!existsSync(path)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read the config file ${path}: no such file. Check \`--config\`, or run \`shakedown init\` to write one.`);
  if (!CONFIG_EXTENSIONS.some((e) => path.endsWith(e))) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read the config file ${path}: Shakedown reads ${CONFIG_EXTENSIONS.join(', ')} files. Write the config in one of those (\`shakedown init\` writes a TypeScript one).`);
  try {
    if (path.endsWith('.json')) return parseJsonAt(readFileSync(path, 'utf8')) as SweepConfig;
    if (path.endsWith('.yaml') || path.endsWith('.yml')) {
      const value: unknown = parseYaml(readFileSync(path, 'utf8'));
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('it does not hold a mapping of config keys');
      return value as SweepConfig;
    }
    const mod = (await importModule(resolvePath(path))) as { default?: unknown };
    // A TypeScript file outside an ESM package is compiled to CommonJS: its export default arrives one level down.
    const exported = unwrapDefault(mod.default);
    const value = typeof exported === 'function' ? await (exported as () => unknown)() : exported;
    if (value === null || typeof value !== 'object') throw new Error('its default export is not a config object; write `export default defineConfig({ ... })`');
    return value as SweepConfig;
  } catch (error) {
    if (error instanceof ShakedownError) throw error;
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read the config file ${path}: ${(error as Error).message}. Fix the file.`, { cause: error });
  }
}

const announced = new Set<string>();

/**
 * The resolved config of a command: the config file (`--config`, or the first of CONFIG_FILES in the
 * current directory), with the flags on top; an error names the file and the key to fix.
 */
export async function loadConfig(flags: Flags, io: Pick<Io, 'err'> = processIo, extra: SweepConfig = {}): Promise<ResolvedConfig> {
  // Config files are looked for in the working directory, or in SHAKEDOWN_CONFIG_DIR when set (the tests
  // point it at an empty folder, so that a config a user wrote in a checkout never reaches them).
  const searchDir = process.env.SHAKEDOWN_CONFIG_DIR;
  const path = flags.config ?? CONFIG_FILES.map((f) => (searchDir ? join(searchDir, f) : f)).find((f) => existsSync(f));
  const fromFile = path ? await readConfigFile(path) : {};
  // Said once per command, so that a config that applies where it was not meant to is seen.
  if (path && !announced.has(path)) {
    announced.add(path);
    io.err(`shakedown: using config ${path}${flags.config ? '' : ` (found in ${searchDir && resolvePath(searchDir) !== process.cwd() ? searchDir : 'this directory'}; --config FILE names another)`}\n`);
  }
  // Keys that name a world's scenarios or tools belong to the config's world: on another world (`--world`) they are left out, and said.
  const fileWorld = (fromFile as { world?: string }).world ?? 'retail';
  if (path && flags.world !== undefined && flags.world !== fileWorld) {
    const dropped = (['scenarios', 'faultTools'] as const).filter((k) => (fromFile as Record<string, unknown>)[k] !== undefined);
    if (dropped.length > 0) {
      io.err(`shakedown: ${path} is for world ${fileWorld}; on ${flags.world} its ${dropped.map((k) => `\`${k}\``).join(' and ')} are left out\n`);
      for (const k of dropped) delete (fromFile as Record<string, unknown>)[k];
    }
  }
  const fromFlags = configFromFlags(flags);
  const merged: Record<string, unknown> = { ...fromFile, ...fromFlags, ...extra };
  // A flag sets one setting of a section (`--llm-base-url`), not the whole section the file wrote.
  for (const section of ['llm', 'anthropic', 'limits'] as const) {
    const parts = [fromFile, fromFlags, extra].map((c) => (c as Record<string, unknown>)[section]).filter((v) => v !== null && typeof v === 'object');
    if (parts.length > 1) merged[section] = Object.assign({}, ...parts);
  }
  if (!path) return resolveConfig(merged);
  const parsed = sweepConfigSchema.safeParse(merged);
  if (!parsed.success) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to resolve the configuration from ${path} and the flags:\n${z.prettifyError(parsed.error)}\nFix the keys named above in ${path} (or the flags that set them).`);
  return parsed.data;
}

