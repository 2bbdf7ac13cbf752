/**
 * A world whose tools are a real MCP server's (docs/your-tools.md): the server starts fresh for every
 * episode (and for the gold, and for the start state), every call passes through the episode's runtime
 * and so through the fault injector, and the state the judge compares is what declared read calls (or a
 * snapshot function) answer at the end. Which calls write comes from the tools' annotations
 * (`readOnlyHint`), or is declared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { http, type RequestHandler } from 'msw';
import { z } from 'zod';
import { apiError, json, readInput } from '../ground/handlers.js';
import { answersOf, checkNames, liveSetup, type LiveCall, type LiveSetup } from './live.js';
import type { ToolSpec, UserLanguage, WorldDefinition, WorldInstance } from '../ground/world.js';

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpToolJson {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations?: { readonly readOnlyHint?: boolean; readonly destructiveHint?: boolean; readonly idempotentHint?: boolean; readonly title?: string };
}

/** One call to the server: a scenario's setup, a gold action, a snapshot read. `{dir}` in a text argument is the episode's folder. */
export type McpCall = LiveCall;

export interface McpWorldOptions {
  readonly id: string;
  readonly description?: string;
  /** The server's command and arguments, started fresh per episode; `{dir}` in them (and in `env`) is the episode's own temporary folder. It gets the MCP SDK's default environment (PATH, HOME, ...) and `env`, not the rest of Shakedown's. */
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** The server's tools, as `world init --from-mcp` writes them. */
  readonly tools: readonly McpToolJson[];
  /** Tools that change state, over their annotations (a tool without `readOnlyHint: true` writes). */
  readonly writes?: readonly string[];
  /** Tools that only read, over their annotations. */
  readonly reads?: readonly string[];
  /** The state the judge compares: the answers of these calls, or what this function returns (it may call the server). */
  readonly snapshot: readonly McpCall[] | ((call: (c: McpCall) => Promise<unknown>, dir: string) => Promise<unknown>);
  readonly policy: string;
  readonly userLanguage: UserLanguage;
  readonly categories?: readonly string[];
  /** Milliseconds a server may take to start and answer a call. @default 20000 */
  readonly timeoutMs?: number;
}

/** An episode's server: the calls that set it up, and the server once started. */
export interface McpHandle {
  readonly setup: McpCall[];
  started?: Promise<{ readonly client: Client; readonly dir: string }> | undefined;
}


/** Every `{dir}` in the text values of `value` replaced by the episode's folder (or back, for a state). */
function withDir(value: unknown, from: string, to: string): unknown {
  return JSON.parse(JSON.stringify(value ?? null).split(from.replace(/\\/g, '\\\\')).join(to.replace(/\\/g, '\\\\')));
}

/** What a tool's answer holds, as JSON: its structured content, else its text parsed where it is JSON, else the text. */
function contentOf(result: { content?: unknown; structuredContent?: unknown }): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const texts = Array.isArray(result.content) ? result.content.filter((c): c is { type: 'text'; text: string } => c?.type === 'text' && typeof c.text === 'string').map((c) => c.text) : [];
  const text = texts.join('\n');
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

/** A world over a real MCP server, fresh per episode. */
export function mcpWorld(o: McpWorldOptions): WorldDefinition<McpHandle, LiveSetup> {
  const timeout = o.timeoutMs ?? 20_000;
  const writes = new Set(o.writes ?? []);
  const reads = new Set(o.reads ?? []);
  const known = new Set(o.tools.map((t) => t.name));
  checkNames(o.id, known, [...writes, ...reads, ...(Array.isArray(o.snapshot) ? (o.snapshot as McpCall[]).map((c) => c.tool) : [])]);
  const tools: ToolSpec[] = o.tools.map((t) => {
    let input: z.ZodType;
    try {
      input = t.inputSchema ? z.fromJSONSchema(t.inputSchema as never) : z.object({});
    } catch {
      input = z.object({}).catchall(z.unknown());
    }
    const write = writes.has(t.name) || (!reads.has(t.name) && t.annotations?.readOnlyHint !== true);
    const hints = [t.annotations?.destructiveHint ? 'destructive' : '', t.annotations?.idempotentHint ? 'safe to repeat' : ''].filter(Boolean).join(', ');
    return {
      name: t.name,
      description: `${t.description ?? t.name}${hints ? ` (${hints})` : ''}`,
      method: 'POST',
      path: `/tools/${t.name}`,
      input: input instanceof z.ZodObject ? input : z.object({}).catchall(z.unknown()),
      write,
    };
  });

  const start = (h: McpHandle) =>
    (h.started ??= (async () => {
      const dir = mkdtempSync(join(tmpdir(), `shakedown-${o.id}-`));
      const fill = (s: string) => s.split('{dir}').join(dir);
      // The SDK's safe environment (PATH, HOME, ...) and the world's own: never the user's keys.
      const env: Record<string, string> = { ...getDefaultEnvironment() };
      for (const [k, v] of Object.entries(o.env ?? {})) env[k] = fill(v);
      const client = new Client({ name: 'shakedown', version: '1.0.0' });
      try {
        await client.connect(new StdioClientTransport({ command: fill(o.command), args: (o.args ?? []).map(fill), env, stderr: 'ignore' }), { timeout });
        for (const call of h.setup) {
          const r = await client.callTool({ name: call.tool, arguments: withDir(call.args ?? {}, '{dir}', dir) as Record<string, unknown> }, undefined, { timeout });
          if (r.isError) throw new Error(`setup call ${call.tool} failed: ${JSON.stringify(contentOf(r as never))}`);
        }
      } catch (error) {
        // A server that did not start, or a setup that failed: nothing of it is left behind.
        await client.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
      return { client, dir };
    })());

  const handlers = (instance: (request: Request) => WorldInstance<McpHandle>): RequestHandler[] =>
    tools.map((t) =>
      http.post(`*/api/tools/${t.name}`, async ({ request }) => {
        const parsed = await readInput(request, t.input, {});
        if (!parsed.ok) return parsed.response;
        const { client, dir } = await start(instance(request).db);
        const r = await client.callTool({ name: t.name, arguments: withDir(parsed.value, '{dir}', dir) as Record<string, unknown> }, undefined, { timeout });
        const body = contentOf(r as never);
        return r.isError ? apiError(400, 'tool_error', typeof body === 'object' && body !== null && 'text' in body ? String((body as { text: unknown }).text) : JSON.stringify(body)) : json(body as never);
      }),
    );

  return {
    id: o.id,
    description: o.description ?? `the tools of \`${[o.command, ...(o.args ?? [])].join(' ')}\`, a fresh server per episode`,
    dbSchema: z.object({ state: z.unknown() }),
    ...liveSetup(known, (setup): McpHandle => ({ setup })),
    tools,
    handlers,
    policy: o.policy,
    userLanguage: o.userLanguage,
    ...(o.categories ? { categories: o.categories } : {}),
    live: {
      async state(db: McpHandle) {
        const { client, dir } = await start(db);
        const call = async (c: McpCall) => {
          const r = await client.callTool({ name: c.tool, arguments: withDir(c.args ?? {}, '{dir}', dir) as Record<string, unknown> }, undefined, { timeout });
          if (r.isError) throw new Error(`snapshot call ${c.tool} failed: ${JSON.stringify(contentOf(r as never))}`);
          return contentOf(r as never);
        };
        const state = typeof o.snapshot === 'function' ? await o.snapshot(call, dir) : await answersOf(o.snapshot, call);
        // The episode's folder is written as `{dir}`, so that states of different episodes compare.
        return { state: withDir(state, dir, '{dir}') };
      },
      async release(db: McpHandle) {
        const started = db.started;
        if (!started) return;
        db.started = undefined;
        const { client, dir } = await started.catch(() => ({ client: undefined, dir: undefined }));
        await client?.close().catch(() => undefined);
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    },
  } as unknown as WorldDefinition<McpHandle, LiveSetup>;
}
