/**
 * An agent that is a command (`cmd:COMMAND`), launched once per episode: the way to sweep an agent built
 * on an MCP-capable SDK, or any program, without change. Each episode's process is told where its tools
 * are through its environment (the episode's MCP server, over Streamable HTTP at SHAKEDOWN_MCP_URL or over
 * stdio through the `mcpServers` config at SHAKEDOWN_MCP_CONFIG; the HTTP tool API; the clock), reads one
 * JSON line per user message on stdin and writes one JSON line per reply on stdout. The protocol is in
 * docs/agents.md, "Command agents".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentLimitsSchema, type AgentLimits } from '../ground/config.js';
import { ShakedownError } from '../ground/errors.js';
import type { AgentContext, AgentFactory } from './contract.js';
import { agentEnv, agentFailure, killGroup, tailOf, watchMemory } from './host/process.js';
import { enclose, useNamespaces, type NamespaceSetting } from './host/namespace.js';
import { lineReader } from './host/protocol.js';
import { episodeContext, episodeToolHost } from './tool-server.js';

/** The stdio MCP server a command's MCP config names: a bridge to the episode's Streamable HTTP endpoint. */
export const MCP_STDIO_BRIDGE = fileURLToPath(new URL('./mcp-stdio-bridge.mjs', import.meta.url));

/** How long a command may take to say its name when probed, in real ms. */
const PROBE_MS = 20_000;
/** How long an ended episode's process has to exit once its stdin closes, in real ms, before it is killed. */
const EXIT_GRACE_MS = 5_000;
/** How much of a command's stderr an error quotes. */
const STDERR_TAIL = 2_000;

/** What a command may say about itself, as its first line: `{"agent": {"id", "description"}}`. */
export interface CommandInfo {
  readonly id?: string;
  readonly description?: string;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9:+._-]{0,79}$/;

/** An id for a command that does not name itself: `cmd:` and the name of the script it runs. */
export function commandId(command: string): string {
  const tokens = command.trim().split(/\s+/);
  const script = [...tokens].reverse().find((t) => !t.startsWith('-') && /[/.]/.test(t)) ?? tokens[0] ?? 'command';
  const name = basename(script.replace(/^['"]|['"]$/g, '')).replace(/\.[A-Za-z0-9]+$/, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return `cmd:${name || 'command'}`.slice(0, 80);
}

/** What a command agent's processes are held to, and given of the environment. */
export interface CommandOptions {
  /** @default the defaults of `agentLimitsSchema` */
  readonly limits?: AgentLimits;
  /** Variables of this process's environment the command gets besides the base ones. @default [] */
  readonly env?: readonly string[];
  /** Folders the command must not read (the run directory, a world's scenarios), covered where it runs in namespaces. @default [] */
  readonly hidden?: readonly string[];
  /** Whether each episode's process runs in namespaces of its own (host/namespace.ts). @default "auto" */
  readonly namespaces?: NamespaceSetting;
}

/** Where a command runs enclosed: the folders covered and the files written fresh for it alone. */
interface Enclosure {
  readonly hidden: readonly string[];
  readonly files?: Readonly<Record<string, string>>;
}

function launch(command: string, cwd: string, own: Record<string, string>, named: readonly string[], enclosure?: Enclosure): { child: ChildProcess; stderr: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  // A process group of its own, so that ending the episode ends what the command started too; and a
  // minimal environment: no key or token of this process reaches it unless the config names it (`env`).
  // Enclosed, it also runs in namespaces of its own: covered folders, no other process in sight, and
  // everything it starts ends with it, even what leaves its process group.
  const enclosed = enclosure ? enclose('/bin/sh', ['-c', command], enclosure) : undefined;
  const env = agentEnv(named, { ...own, ...enclosed?.env });
  const child = enclosed
    ? spawn(enclosed.file, enclosed.args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    : spawn(command, { shell: true, cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const tail = tailOf(child.stderr, STDERR_TAIL);
  // A process that ends before reading everything closes its stdin under us: that is an exit, not a crash.
  child.stdin?.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', () => resolve({ code: 127, signal: null }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, stderr: tail, exited };
}

const stderrPart = (tail: string) => (tail ? `; its stderr ended with: ${tail.slice(-600)}` : '');

/**
 * Launches the command once, outside any episode (SHAKEDOWN_PROBE=1), to read its name from its first
 * line; refuses a command the shell cannot run before any episode starts. A command that says nothing is
 * named after its script.
 */
export async function probeCommand(command: string, cwd: string = process.cwd(), env: readonly string[] = [], enclosure?: Enclosure): Promise<CommandInfo> {
  if (command.trim() === '') throw new ShakedownError('SHAKEDOWN_AGENT', 'The agent spec `cmd:` names no command. Write `cmd:COMMAND`, e.g. `cmd:node ./my-agent.mjs`.');
  const { child, stderr, exited } = launch(command, cwd, { SHAKEDOWN_PROBE: '1' }, env, enclosure);
  // No messages come: a process that reads them first sees the end at once and exits.
  child.stdin?.end();
  const first = new Promise<string | undefined>((resolve) => {
    child.stdout?.on('data', lineReader(64 * 1024, (line) => resolve(line), () => resolve(undefined)));
    child.stdout?.once('close', () => resolve(undefined));
  });
  let timer: NodeJS.Timeout | undefined;
  // clock: a real limit on how long a command may take to start.
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), PROBE_MS)));
  // Its first line, or its exit if it says nothing (its stdout closes as it exits: wait for the code).
  const outcome = await Promise.race([first.then(async (line) => (line === undefined ? { exit: await exited } : { line })), exited.then((e) => ({ exit: e })), timeout]);
  clearTimeout(timer);
  killGroup(child);
  if (outcome !== 'timeout' && 'exit' in outcome && (outcome.exit.code === 126 || outcome.exit.code === 127)) {
    throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to start the agent command \`${command}\`: the shell could not run it (exit ${outcome.exit.code})${stderrPart(stderr())}. Check the command and the current directory.`);
  }
  const line = outcome !== 'timeout' && 'line' in outcome ? outcome.line : undefined;
  let hello: { agent?: { id?: unknown; description?: unknown } } | undefined;
  try {
    hello = line ? (JSON.parse(line) as typeof hello) : undefined;
  } catch {
    hello = undefined;
  }
  const id = typeof hello?.agent?.id === 'string' ? hello.agent.id.trim() : undefined;
  if (id !== undefined && !ID.test(id)) {
    throw new ShakedownError('SHAKEDOWN_AGENT', `The agent command \`${command}\` names itself \`${id.slice(0, 100)}\`. Use 1 to 80 letters, digits, \`:\`, \`+\`, \`.\`, \`_\` or \`-\`, starting with a letter or digit.`);
  }
  return { ...(id ? { id } : {}), ...(typeof hello?.agent?.description === 'string' ? { description: hello.agent.description.slice(0, 300) } : {}) };
}

/** Usage a reply reports: the episode's token usage so far. */
export const usageOf = (u: unknown): { promptTokens: number; completionTokens: number; calls: number } | undefined => {
  if (u === null || typeof u !== 'object') return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  const o = u as Record<string, unknown>;
  return { promptTokens: n(o.promptTokens), completionTokens: n(o.completionTokens), calls: n(o.calls) };
};

/**
 * Applies what a reply says besides its text (`escalate`, `usage`), shared by the service and command
 * protocols, and returns the text; `who` names the agent in the error a malformed reply gets.
 */
export function readReply(ctx: AgentContext, text: string, who: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new TypeError(`${who} must answer {"reply": "..."} as JSON; it sent: ${text.slice(0, 200)}`);
  }
  const answer = body as { reply?: unknown; escalate?: unknown; usage?: unknown } | null;
  const reply = answer?.reply;
  if (typeof reply !== 'string') throw new TypeError(`${who} must answer {"reply": "..."}; it sent: ${text.slice(0, 200)}`);
  // `escalate`: the agent handed the conversation to a human, with its reason (see ctx.escalate).
  if (answer?.escalate !== undefined && answer.escalate !== null && answer.escalate !== false) ctx.escalate(typeof answer.escalate === 'string' ? answer.escalate : 'escalated');
  const usage = usageOf(answer?.usage);
  if (usage) ctx.reportUsage?.(usage);
  return reply;
}

/** The factory for `cmd:COMMAND`; `info` is what the command said about itself (`probeCommand`). */
export function commandAgent(command: string, cwd: string = process.cwd(), info: CommandInfo = {}, options: CommandOptions = {}): AgentFactory {
  const limits = options.limits ?? agentLimitsSchema.parse({});
  const host = episodeToolHost(limits);
  const enclosed = useNamespaces(options.namespaces ?? 'auto');
  let dir: string | undefined;
  const who = `the agent command \`${command}\``;
  return {
    id: info.id ?? commandId(command),
    description: info.description ?? `agent command \`${command}\`, one process per episode`,
    // A process waits and thinks in real time the engine cannot see: under `--agent-time auto` that time counts.
    time: { mode: 'real' },
    // Its episodes run in the main process, where the tool server that grants them lives.
    isolation: 'process',
    enclosed,
    async create(ctx: AgentContext) {
      const endpoints = await host.open(ctx);
      dir ??= mkdtempSync(join(tmpdir(), 'shakedown-cmd-'));
      const contextFile = join(dir, `${ctx.episodeId}.context.json`);
      const mcpConfig = join(dir, `${ctx.episodeId}.mcp.json`);
      // The same episode context the service protocol posts to /episodes.
      const context = episodeContext(ctx, endpoints);
      // The config format MCP clients take: one stdio server, `shakedown`, that is this episode's tools.
      const files = { [contextFile]: JSON.stringify(context), [mcpConfig]: JSON.stringify({ mcpServers: { shakedown: { command: process.execPath, args: [MCP_STDIO_BRIDGE, endpoints.mcpUrl] } } }, null, 2) };
      // Enclosed, the files are written inside its namespace only, over the folder where every other
      // episode's would be; otherwise on the disk.
      if (!enclosed) for (const [path, content] of Object.entries(files)) writeFileSync(path, content);
      const { child, stderr, exited } = launch(command, cwd, {
        SHAKEDOWN_EPISODE: ctx.episodeId,
        SHAKEDOWN_WORLD: ctx.world,
        SHAKEDOWN_SEED: ctx.seed,
        SHAKEDOWN_NOW: context.now,
        SHAKEDOWN_POLICY: ctx.policy,
        SHAKEDOWN_CONTEXT: contextFile,
        SHAKEDOWN_MCP_URL: endpoints.mcpUrl,
        SHAKEDOWN_MCP_CONFIG: mcpConfig,
        SHAKEDOWN_TOOL_BASE_URL: endpoints.toolBaseUrl,
        SHAKEDOWN_CLOCK_URL: endpoints.clockUrl,
      }, options.env ?? [], enclosed ? { hidden: [dir, ...(options.hidden ?? [])], files } : undefined);
      // Its lines, each bounded before it is held: one endless line ends the episode, never the run.
      const lines: string[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      let breach: Error | undefined;
      const stopFor = (error: Error) => {
        breach ??= error;
        killGroup(child);
        wake?.();
      };
      child.stdout?.on(
        'data',
        lineReader(limits.lineBytes, (line) => {
          if (line.trim() === '') return;
          lines.push(line);
          wake?.();
        }, (bytes) => stopFor(agentFailure('AgentLimitExceeded', `${who} wrote a line of more than ${bytes} bytes, past the limit of ${limits.lineBytes} (\`limits.lineBytes\`)`))),
      );
      child.stdout?.once('close', () => {
        ended = true;
        wake?.();
      });
      const stopMemory = child.pid === undefined ? () => undefined : watchMemory(child.pid, limits.memoryMb, (mb) => stopFor(agentFailure('AgentOutOfMemory', `${who} held ${Math.round(mb)} MB, past the limit of ${limits.memoryMb} MB (\`limits.memoryMb\`)`)));
      const nextLine = async (): Promise<string | undefined> => {
        for (;;) {
          if (breach) throw breach;
          const line = lines.shift();
          if (line !== undefined) return line;
          if (ended) return undefined;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      };
      const onAbort = () => killGroup(child);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      const exitError = async () => {
        const { code, signal } = await exited;
        if (breach) return breach;
        if (ctx.signal.aborted) return ctx.signal.reason as Error;
        return new Error(`${who} exited (${signal ? `signal ${signal}` : `code ${code}`}) before it replied${stderrPart(stderr())}`);
      };
      return {
        async reply(message: string) {
          child.stdin?.write(`${JSON.stringify({ message })}\n`);
          for (;;) {
            const line = await nextLine();
            if (line === undefined) throw await exitError();
            // Its name, said again at the start of an episode, is not a reply.
            if (/^\s*\{\s*"agent"\s*:/.test(line) && !/"reply"\s*:/.test(line)) continue;
            return readReply(ctx, line, `${who} (one JSON line per reply on stdout; write logs to stderr)`);
          }
        },
        async close() {
          ctx.signal.removeEventListener('abort', onAbort);
          host.close(ctx);
          child.stdin?.end();
          let timer: NodeJS.Timeout | undefined;
          // clock: a real grace period for the process to exit once the conversation is over.
          await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_GRACE_MS)))]);
          clearTimeout(timer);
          killGroup(child);
          stopMemory();
          rmSync(contextFile, { force: true });
          rmSync(mcpConfig, { force: true });
        },
      };
    },
    async dispose() {
      await host.dispose();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
