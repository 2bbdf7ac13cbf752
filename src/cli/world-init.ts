/**
 * `shakedown world init DIR --from-openapi SPEC [--base-url URL --reset "POST /reset"] | --from-mcp
 * COMMAND`: a world from an OpenAPI document (over an in-memory store, or over the running service) or over
 * an MCP server, that validates and sweeps as written (docs/your-tools.md).
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { ShakedownError } from '../ground/errors.js';
import { mcpTemplates, mcpWorldFiles, shownValue, withServer } from './mcp-world-files.js';
import { crudSpecOf, snake, worldFiles } from './openapi-world.js';
import type { Flags, Io } from './options.js';

/** Writes a world's files under `target`. */
function writeFiles(target: string, files: Readonly<Record<string, string>>): void {
  for (const [name, text] of Object.entries(files)) {
    const path = join(target, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }
}

/** \`shakedown world init DIR --from-openapi SPEC | --from-mcp COMMAND [--force]\`. */
export async function worldCommand(positionals: readonly string[], flags: Flags, io: Io): Promise<number> {
  const [sub, dir] = positionals;
  if (sub !== 'init' || !dir) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to run `shakedown world`: write `shakedown world init DIR --from-openapi SPEC` (a world from an OpenAPI 3 document, `--base-url URL --reset "POST /reset"` for one over your running service) or `shakedown world init DIR --from-mcp "COMMAND"` (one over an MCP server).');
  const from = flags['from-openapi'];
  const mcp = flags['from-mcp'];
  if (!from && !mcp) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to run `shakedown world init`: say where the tools come from with `--from-openapi SPEC` (an OpenAPI 3 document, JSON or YAML) or `--from-mcp "COMMAND"` (an MCP server on stdio).');
  if (from && mcp) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to run `shakedown world init`: give `--from-openapi` or `--from-mcp`, not both.');
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0 && !flags.force) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to write a world to \`${dir}\`: the folder is not empty. Choose another folder, or pass --force to overwrite the files a world has.`);
  }
  const id = snake(basename(target)).replace(/_/g, '-') || 'my-world';
  if (mcp) {
    // The write template is tried once, on the server that lists the tools, only where the server's state
    // is the episode's folder's: elsewhere the trial would write into a state that outlives it.
    const ownFolder = mcp.includes('{dir}');
    if (!ownFolder) io.err(`shakedown: the command names no {dir}, so its state may live outside the episode's folder: the read scenario was not tried and tells nothing yet; point the server's state into {dir} (e.g. NAME={dir}/state.json before the command) and write it again, or fill in its outputs\n`);
    const { tools, files } = await withServer(mcp, async (tools, call) => {
      const templates = mcpTemplates(tools, id);
      const { write, read } = templates;
      let shown: { setup: NonNullable<typeof write>; value: string } | undefined;
      if (write && read && ownFolder) {
        await call(write);
        const value = shownValue(write.args, await call({ tool: read.name, args: {} }));
        if (value) shown = { setup: write, value };
      }
      return { tools, files: mcpWorldFiles(tools, mcp, id, templates, shown) };
    });
    writeFiles(target, files);
    const rel = relative(process.cwd(), target) || '.';
    const writes = tools.filter((t) => t.annotations?.readOnlyHint !== true).length;
    io.out(`wrote a world over \`${mcp}\` to ${rel}: ${tools.length} tools (${writes} that write, by their annotations), a fresh server per episode, ${Object.keys(files).filter((f) => f.startsWith('tasks/')).length} scenarios to fill in; see the top of ${rel}/index.ts.\n`);
    io.out(`next: npx shakedown validate --world ${rel}/index.ts && npx shakedown sweep --world ${rel}/index.ts --agent oracle,noop\n`);
    return 0;
  }
  const spec = await crudSpecOf(resolve(from as string));
  const baseUrl = flags['base-url'];
  let service: { baseUrl: string; reset: { method: string; path: string } } | undefined;
  if (baseUrl) {
    if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--base-url ${baseUrl}\`: write where the service answers, e.g. --base-url http://127.0.0.1:8080.`);
    const m = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(flags.reset ?? '');
    if (!m) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to write a world over a running service: say how to put it back between episodes with `--reset "POST /reset"` (a call on the service that restores its start state).');
    service = { baseUrl, reset: { method: (m[1] as string).toUpperCase(), path: m[2] as string } };
  }
  const files = worldFiles(spec, id, service);
  writeFiles(target, files);
  const unknown = spec.operations.filter((o) => o.meaning === 'unknown').length;
  const rel = relative(process.cwd(), target) || '.';
  io.out(`wrote a world from ${spec.source} to ${rel}: ${spec.operations.length} tools (${spec.operations.length - unknown} with an inferred meaning, ${unknown} to write: see the top of ${rel}/index.ts), ${Object.keys(spec.collections).length} collections, ${Object.keys(files).filter((f) => f.startsWith('tasks/')).length} scenarios.\n`);
  io.out(`next: npx shakedown validate --world ${rel}/index.ts && npx shakedown sweep --world ${rel}/index.ts --agent oracle,noop${service ? ' (the episodes take the service one at a time)' : ''}\n`);
  return 0;
}
