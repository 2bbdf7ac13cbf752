/**
 * A world over an MCP server's own tools, written from what the server lists: what `shakedown world init
 * --from-mcp` writes (docs/your-tools.md). The server is started once, in a temporary folder, to list its
 * tools and to try the write template, so that the read template can say what the user must be told.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateSync } from 'json-schema-faker';
import { ShakedownError } from '../ground/errors.js';
import { hash53 } from '../ground/seeds.js';
import type { McpToolJson } from '../worlds/mcp.js';
import { isObj, snake, type Obj } from './openapi-world.js';

/** A command line as its words: quotes group, a backslash escapes. */
export function words(command: string): string[] {
  const out: string[] = [];
  let word = '';
  let quote: string | undefined;
  let started = false;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) out.push(word);
      word = '';
      started = false;
    } else {
      word += ch === '\\' && i + 1 < command.length ? command[++i] : ch;
      started = true;
    }
  }
  if (quote) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read the command \`${command}\`: a quote is not closed.`);
  if (started) out.push(word);
  return out;
}

/** A server's command line: leading `NAME=value` words set its environment, as in a shell. */
export function serverCommand(command: string): { env: Record<string, string>; cmd: string | undefined; args: string[] } {
  const all = words(command);
  const env: Record<string, string> = {};
  while (all.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(all[0] as string)) {
    const [name, ...value] = (all.shift() as string).split('=');
    env[name as string] = value.join('=');
  }
  const [cmd, ...args] = all;
  return { env, cmd, args };
}

/** A call of a template: a tool and its arguments. */
interface TemplateCall {
  readonly tool: string;
  readonly args: Obj;
}

/**
 * Starts the server once with `command` in a temporary folder (`{dir}`, removed after), lists its tools and
 * hands them to `use` with a way to call them (a failed call answers undefined).
 */
export async function withServer<T>(command: string, use: (tools: McpToolJson[], call: (c: TemplateCall) => Promise<unknown>) => Promise<T>): Promise<T> {
  const parsed = serverCommand(command);
  if (!parsed.cmd) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to read `--from-mcp`: give the command that starts the server, e.g. --from-mcp "npx @modelcontextprotocol/server-memory".');
  const dir = mkdtempSync(join(tmpdir(), 'shakedown-world-init-'));
  const fill = (x: string) => x.split('{dir}').join(dir);
  // The SDK's safe environment and the command's own words: never the user's keys.
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [k, v] of Object.entries(parsed.env)) env[k] = fill(v);
  const client = new Client({ name: 'shakedown', version: '1.0.0' });
  try {
    let tools: McpToolJson[];
    try {
      await client.connect(new StdioClientTransport({ command: fill(parsed.cmd), args: parsed.args.map(fill), env, stderr: 'ignore' }), { timeout: 60_000 });
      tools = (await client.listTools(undefined, { timeout: 60_000 })).tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: t.inputSchema as Record<string, unknown>, ...(t.annotations ? { annotations: t.annotations as NonNullable<McpToolJson['annotations']> } : {}) }));
    } catch (error) {
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to list the tools of \`${command}\`: ${(error as Error).message}. Check that the command starts an MCP server on stdio (try it in a shell).`);
    }
    return await use(tools, async (c) => {
      const r = await client.callTool({ name: c.tool, arguments: c.args }, undefined, { timeout: 60_000 }).catch(() => undefined);
      if (!r || r.isError) return undefined;
      return r.structuredContent ?? (Array.isArray(r.content) ? r.content.map((x) => (x.type === 'text' ? x.text : '')).join('\n') : undefined);
    });
  } finally {
    await client.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The two templates: a read-only tool that takes no arguments (the first of the state's reads), and a
 * tool that writes and destroys nothing with arguments sampled from its schema (json-schema-faker, seeded).
 */
export function mcpTemplates(tools: readonly McpToolJson[], id: string): { snapshot: McpToolJson[]; read?: McpToolJson; write?: TemplateCall } {
  const readOnly = tools.filter((t) => t.annotations?.readOnlyHint === true);
  const noArgs = (t: McpToolJson) => !Array.isArray(t.inputSchema?.required) || (t.inputSchema?.required as unknown[]).length === 0;
  const snapshot = readOnly.filter(noArgs).slice(0, 2);
  const sample = (t: McpToolJson): Obj | undefined => {
    try {
      const v = generateSync((t.inputSchema ?? { type: 'object' }) as never, { seed: hash53(`${id}|${t.name}`) % 2 ** 31, optionalsProbability: 0, minItems: 1, maxItems: 1, maxDepth: 4, minLength: 3 });
      return isObj(v) ? v : undefined;
    } catch {
      return undefined;
    }
  };
  let write: TemplateCall | undefined;
  for (const t of tools) {
    if (t.annotations?.readOnlyHint === true || t.annotations?.destructiveHint === true) continue;
    const args = sample(t);
    if (args) {
      write = { tool: t.name, args };
      break;
    }
  }
  const read = snapshot[0];
  return { snapshot, ...(read ? { read } : {}), ...(write ? { write } : {}) };
}

/** A text of the write's arguments that the read's answer shows, if any: what the read scenario must tell. */
export function shownValue(args: Obj, answer: unknown): string | undefined {
  const text = JSON.stringify(answer ?? '');
  const strings: string[] = [];
  const walk = (v: unknown): void => void (typeof v === 'string' ? strings.push(v) : Array.isArray(v) ? v.forEach(walk) : isObj(v) ? Object.values(v).forEach(walk) : undefined);
  walk(args);
  return strings.find((x) => x.trim().length >= 3 && text.includes(x));
}

/** The files of a world over an MCP server: its tools, a snapshot of its read-only tools, two scenarios to fill in. */
export function mcpWorldFiles(tools: readonly McpToolJson[], command: string, id: string, templates: ReturnType<typeof mcpTemplates>, shown?: { setup: TemplateCall; value: string }): Record<string, string> {
  const { env, cmd = '', args } = serverCommand(command);
  const { snapshot, read } = templates;
  const write = templates.write ? tools.find((t) => t.name === templates.write?.tool) : undefined;
  const notInferred = [
    snapshot.length > 0 ? `The state the judge compares is what ${snapshot.map((t) => t.name).join(' and ')} answer; add the reads (or a snapshot function) that show everything your agent may change.` : 'No read-only tool takes no arguments: write `snapshot` (the calls, or a function) that shows the state your agent may change.',
    'Which tools write: from each tool\'s readOnlyHint annotation; a tool without one is taken to write (`writes` / `reads` correct it).',
    'Where the server keeps its state: it starts in a fresh temporary folder per episode (`{dir}` in `args` and `env`); a server that keeps state elsewhere needs it pointed there.',
    'The scenarios: the user\'s goal, in words of language.ts, and the gold calls that reach it. The two written here are templates with sampled arguments.',
  ];
  const header = (lines: readonly string[]) => `// Written by \`shakedown world init --from-mcp ${JSON.stringify(command)}\`.\n// NOT INFERRED: fill these in (docs/your-tools.md):\n${lines.map((l) => `//  - ${l}`).join('\n')}\n`;
  const intents: Record<string, string[]> = {};
  const tasks: Record<string, unknown> = {};
  if (read) {
    intents[`use_${read.name}`] = [`Can you check ${read.name.replace(/_/g, ' ')} for me?`];
    // What the read must tell: a value the write template puts there, as the server answered it when the world was written.
    tasks[`read-${snake(read.name).replace(/_/g, '-')}`] = { id: `read-${snake(read.name).replace(/_/g, '-')}`, world: id, title: `Use ${read.name}`, tags: { category: 'read', tools: [read.name] }, setup: { calls: shown ? [shown.setup] : [] }, user: { profile: { user: 'Sam' }, identity: 'user', requests: [{ intent: `use_${read.name}`, slots: {} }] }, gold: [], outputs: shown ? [shown.value] : [], reads: [{ tool: read.name, args: {} }] };
  }
  const writeArgs = templates.write?.args;
  if (write && writeArgs) {
    intents[`use_${write.name}`] = [`Please ${write.name.replace(/_/g, ' ')} for me.`];
    tasks[`${snake(write.name).replace(/_/g, '-')}`] = { id: snake(write.name).replace(/_/g, '-'), world: id, title: `Use ${write.name}`, tags: { category: 'write', tools: [write.name] }, setup: { calls: [] }, user: { profile: { user: 'Sam' }, identity: 'user', requests: [{ intent: `use_${write.name}`, slots: {} }] }, gold: [{ tool: write.name, args: writeArgs }], outputs: [] };
  }
  const words_ = (name: string) => name.split(/[_\W]+/).filter((w) => w.length > 2).map((w) => w.replace(/[^a-z0-9]/gi, ''));
  const language = `${header(['How users word their requests: the phrasings below only name the tools; write the ways your users ask.'])}import type { UserLanguage } from 'shakedown';

export const language: UserLanguage = {
  intents: ${JSON.stringify(intents, null, 4).replace(/\n}/, '\n  }')},
  slots: {},
  identity: { user: ['This is {user}.'] },
  identityAsked: [/who am i speaking/i],
  confirmAsked: [/\\bconfirm\\b/i, /\\bproceed\\b/i, /\\bshall i\\b/i],
  helpAsked: [/how can i help/i],
  anythingElse: [/anything else/i],
  entityPattern: /\\b\\B/g,
  confirmSlots: [],${write ? `\n  proposals: { ${JSON.stringify(`use_${write.name}`)}: [/\\b(?:${words_(write.name).join('|') || write.name})/i] },` : ''}
};
`;
  const index = `${header(notInferred)}import { readFileSync } from 'node:fs';
import { mcpWorld, type McpToolJson } from 'shakedown';
import { language } from './language.js';

export default mcpWorld({
  id: ${JSON.stringify(id)},
  // The server, started fresh for every episode in a folder of its own: \`{dir}\`.
  command: ${JSON.stringify(cmd)},
  args: ${JSON.stringify(args)},
  env: ${JSON.stringify(env)},
  tools: JSON.parse(readFileSync(new URL('./tools.json', import.meta.url), 'utf8')) as McpToolJson[],
  snapshot: ${JSON.stringify(snapshot.map((t) => ({ tool: t.name })))},
  policy: readFileSync(new URL('./policy.md', import.meta.url), 'utf8'),
  userLanguage: language,
  categories: ${JSON.stringify([...new Set(Object.values(tasks).map((t) => (t as { tags: { category: string } }).tags.category))])},
});
`;
  const files: Record<string, string> = {
    'tools.json': `${JSON.stringify(tools, null, 2)}\n`,
    'index.ts': index,
    'language.ts': language,
    'policy.md': `# Policy\n\nBefore any change, tell the user what you will change and wait for a yes.\n\n<!-- TODO: the rules of your service. -->\n`,
  };
  for (const [slug, task] of Object.entries(tasks)) files[`tasks/${slug}.json`] = `${JSON.stringify(task, null, 2)}\n`;
  return files;
}
