/**
 * A module agent in a process of its own (DESIGN decision 19): the agent's code runs in its host
 * (host/entry.ts), never in this process, which holds the world, the simulated user, the judge and the
 * log. This factory drives the host over a pipe: it creates each episode's agent there, passes the user's
 * messages and the agent's replies, and answers the agent's calls through the episode's own context, so
 * that the agent reaches its episode's tools, clock and signal and nothing else. Everything the host sends
 * is bounded and checked; a host that breaks the protocol, runs out of memory, stops answering or exits
 * ends, and a new one serves the next episodes. A death under one episode is charged to it; a death under
 * several is charged to none (`AgentHostLost`): the sweep runs each of them again alone (run/sweep.ts).
 */
import { isUtf8 } from 'node:buffer';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AgentLimits } from '../ground/config.js';
import { packagePath } from '../ground/package-root.js';
import { sandboxFor, type SandboxedStart, type SandboxSettings } from './host/sandbox.js';
import { enclose } from './host/namespace.js';
import { ShakedownError } from '../ground/errors.js';
import { plainFetchOf } from '../ground/runtime.js';
import { requestOf } from '../ground/bodies.js';
import { plainOf } from '../ground/resolve.js';
import type { Agent, AgentContext, AgentFactory } from './contract.js';
import { agentEnv, agentFailure, killGroup, tailOf, watchMemory } from './host/process.js';
import { hostMessage, lineBatcher, lineReader, toWire, fromWire, type HostMessage, type RunnerMessage, type WireError } from './host/protocol.js';

/** How often the host is asked whether it still answers, in real ms. */
const HEARTBEAT_MS = 1_000;
/** Most simulated ms one sleep may ask for. */
const MAX_SLEEP_MS = 3_600_000;

export interface HostedOptions {
  readonly cwd?: string;
  readonly limits: AgentLimits;
  /**
   * The episodes' wall-clock deadline: a host that answers nothing for half of it (or `limits.hangMs`, if
   * shorter) is ended before the deadline strikes the episodes it holds. @default 60000
   */
  readonly deadlineMs?: number;
  /** Environment variables the agent's process gets besides the base ones. @default [] */
  readonly env?: readonly string[];
  /** What the agent's process may touch. @default sandboxed (`sandboxSchema`'s defaults) */
  readonly sandbox?: SandboxSettings;
  /** Folders it must not read even inside what it may (the run directory, a world's scenarios). @default [] */
  readonly hidden?: readonly string[];
}

/**
 * The host's entry: the compiled one (beside this module, or the package's when this runs from the
 * sources, as the tests do); without a build, the sources through tsx, whose loader needs a thread of its
 * own, which the sandbox then allows.
 */
function entryCommand(): { script: string; execArgv: string[] } {
  for (const compiled of [fileURLToPath(new URL('./host/entry.js', import.meta.url)), packagePath('dist', 'src', 'agents', 'host', 'entry.js')]) {
    if (existsSync(compiled)) return { script: compiled, execArgv: [] };
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  return { script: fileURLToPath(new URL('./host/entry.ts', import.meta.url)), execArgv: ['--import', tsx, '--allow-worker'] };
}

interface OpenEpisode {
  readonly ctx: AgentContext;
  bytes: number;
  /** The operation the runner waits for on this episode (create, a reply, close). */
  waiter?: { resolve: (m: HostMessage) => void; reject: (e: Error) => void; expect: HostMessage['t'][] } | undefined;
  /** A breach of a limit: the episode ends with it. */
  breach?: Error;
  onAbort?: () => void;
}

/**
 * The longest line the host may send: room for the largest tool request (base64) or reply (JSON, where a
 * character may take six bytes) the limits allow, beyond which the line is not read at all.
 */
const pipeLineBytes = (limits: AgentLimits): number => Math.max(limits.lineBytes, Math.ceil((limits.requestBytes * 4) / 3), limits.replyBytes * 6) + 65_536;

/** The agent time a host reports for its agent, when it is one (docs/faults.md, "Time"). */
function agentTimeOf(value: unknown): AgentFactory['time'] {
  const t = value as { mode?: unknown; msPerCall?: unknown } | undefined;
  if (t?.mode === 'simulated' || t?.mode === 'real') return { mode: t.mode };
  if (t?.mode === 'model' && typeof t.msPerCall === 'number' && Number.isFinite(t.msPerCall) && t.msPerCall >= 0 && t.msPerCall <= 600_000) return { mode: 'model', msPerCall: t.msPerCall };
  return undefined;
}

/** One host process and the episodes it serves. */
class Host {
  readonly child: ChildProcess;
  readonly hello: Promise<Extract<HostMessage, { t: 'hello' }>>;
  private readonly episodes = new Map<number, OpenEpisode>();
  private handles = 0;
  private death: Error | undefined;
  private pong = 0;
  private pinged = 0;
  private lastPong: number;
  private readonly stops: (() => void)[] = [];
  private readonly stderr: () => string;
  private onHello?: (m: Extract<HostMessage, { t: 'hello' }>) => void;
  private onLoadFailed?: (e: Error) => void;
  /** The worlds this host was sent, by their tools (one frozen list per world harness) and policy. */
  private readonly worlds = new WeakMap<readonly unknown[], Map<string, number>>();
  private worldCount = 0;
  /** Messages of this turn, written together (see `send`). */
  private readonly lines = lineBatcher((lines) => {
    if (this.alive) (this.child.stdio[3] as NodeJS.WritableStream).write(lines);
  });

  constructor(
    spec: string,
    start: SandboxedStart,
    private readonly options: HostedOptions,
    /** Told once the host is gone, and whether it was serving episodes then. */
    private readonly onDeath: (host: Host, served: boolean) => void,
  ) {
    const { script, execArgv } = entryCommand();
    const { limits } = options;
    const lineLimit = pipeLineBytes(limits);
    // Without the sandbox the loader's own flags stand alone; with it, they join the permission flags.
    const flags = start.execArgv.length > 0 ? [...start.execArgv, ...execArgv] : execArgv.filter((f) => f !== '--allow-worker');
    const argv = [...flags, `--max-old-space-size=${limits.memoryMb}`, script, start.module, options.cwd ?? process.cwd(), String(lineLimit), spec];
    // In namespaces of its own where the machine allows it: the run directory and the tasks covered, no other process in sight.
    const enclosed = start.namespaces ? enclose(process.execPath, argv, { hidden: start.hidden }) : undefined;
    this.child = spawn(enclosed?.file ?? process.execPath, enclosed?.args ?? argv, {
      cwd: options.cwd ?? process.cwd(),
      env: agentEnv(options.env ?? [], { ...start.env, ...enclosed?.env }),
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      // A process group of its own: what the agent starts ends with its host.
      detached: true,
    });
    this.child.stdout?.resume();
    this.stderr = tailOf(this.child.stderr);
    // A host holds this process open while it loads and while it serves an episode, never when idle.
    this.hold(true);
    this.lastPong = performance.now(); // clock: the heartbeat measures real time by definition
    const pipe = this.child.stdio[3] as unknown as NodeJS.ReadWriteStream;
    pipe.on('data', lineReader(lineLimit, (line) => this.receive(line), (bytes) => this.end(agentFailure('AgentLimitExceeded', `the agent's process sent a message of more than ${bytes} bytes: more than its largest tool request or reply may take (\`limits.requestBytes\`, \`limits.replyBytes\`)`))));
    pipe.on('error', () => undefined);
    this.hello = new Promise((resolve, reject) => {
      this.onHello = resolve;
      this.onLoadFailed = reject;
    });
    this.hello.then(
      () => this.episodes.size === 0 && this.hold(false),
      () => undefined,
    );
    this.child.once('exit', (code, signal) => this.end(this.exitError(code, signal)));
    this.child.once('error', (error) => this.end(agentFailure('AgentCrash', `the agent's process could not start: ${error.message}`)));
    if (this.child.pid !== undefined) {
      this.stops.push(watchMemory(this.child.pid, limits.memoryMb, () => this.end(this.outOfMemory())));
    }
    // clock: a real heartbeat; an agent that answers it within its hang limit is never disturbed by it.
    const hangMs = Math.max(300, Math.min(limits.hangMs, (options.deadlineMs ?? 60_000) / 2));
    const every = Math.min(HEARTBEAT_MS, hangMs / 3);
    let lastTick = performance.now();
    const beat = setInterval(() => {
      // A tick that comes late says this process's own event loop was held up (a loaded machine, a long
      // synchronous step): the host's answers waited in the pipe meanwhile, so that time is not its silence.
      const now = performance.now();
      const late = now - lastTick - every;
      lastTick = now;
      if (late > every) this.lastPong += late;
      if (this.episodes.size === 0) {
        this.lastPong = now;
        return;
      }
      if (performance.now() - this.lastPong > hangMs) {
        this.end(agentFailure('AgentHung', `the agent's process answered nothing for ${Math.round(hangMs)} ms (a synchronous loop?); the limit is \`limits.hangMs\` or half the deadline`));
        return;
      }
      this.send({ t: 'ping', n: ++this.pinged });
    }, every);
    beat.unref();
    this.stops.push(() => clearInterval(beat));
  }

  /** Holds this process open while the host serves an episode, and lets it go when idle. */
  private hold(on: boolean): void {
    const handles = [this.child, this.child.stdout, this.child.stderr, this.child.stdio[3]] as ({ ref?: () => void; unref?: () => void } | null)[];
    for (const h of handles) (on ? h?.ref : h?.unref)?.call(h);
  }

  get alive(): boolean {
    return this.death === undefined;
  }

  get open(): number {
    return this.episodes.size;
  }

  /** The same words whether its heap limit or the watch on its memory stopped it first. */
  private outOfMemory(): Error {
    return agentFailure('AgentOutOfMemory', `the agent's process ran out of memory (the limit is ${this.options.limits.memoryMb} MB, heap and off-heap: \`limits.memoryMb\`)`);
  }

  private exitError(code: number | null, signal: NodeJS.Signals | null): Error {
    const tail = this.stderr();
    if (/heap out of memory|Reached heap limit|Allocation failed/i.test(tail)) return this.outOfMemory();
    return agentFailure('AgentCrash', `the agent's process exited (${signal ? `signal ${signal}` : `code ${code}`})${tail ? `; its stderr ended with: ${tail.slice(-600)}` : ''}`);
  }

  /**
   * Messages are written together once the current turn of the event loop is done (`setImmediate`): each
   * write to the pipe is a system call and wakes the host. Flushed at the end of the microtasks instead,
   * the answers to the host's calls of one read went out one write each, since each answer is made
   * several promises after the flush was queued; with several episodes in flight, a write a turn cut the
   * CPU of a contained episode by about a third (docs/performance.md).
   */
  private send(message: RunnerMessage): void {
    if (!this.alive) return;
    this.lines.send(message);
  }

  /** The host is gone: every open episode learns why, charged when it was alone. */
  end(cause: Error): void {
    if (this.death) return;
    this.death = cause;
    for (const stop of this.stops) stop();
    killGroup(this.child);
    this.hold(false);
    this.onLoadFailed?.(cause);
    const served = this.episodes.size > 0;
    const alone = this.episodes.size === 1;
    for (const [h, ep] of this.episodes) {
      const error = alone ? cause : agentFailure('AgentHostLost', `the agent's process ended under ${this.episodes.size} episodes (${cause.message}); each runs again alone`);
      ep.waiter?.reject(error);
      ep.waiter = undefined;
      ep.breach ??= error;
      if (ep.onAbort) ep.ctx.signal.removeEventListener('abort', ep.onAbort);
      this.episodes.delete(h);
    }
    this.onDeath(this, served);
  }

  private receive(line: string): void {
    let parsed: HostMessage;
    try {
      const r = hostMessage.safeParse(JSON.parse(line));
      if (!r.success) throw new Error(r.error.issues[0]?.message ?? 'not a message');
      parsed = r.data;
    } catch (error) {
      this.end(agentFailure('AgentCrash', `the agent's process broke the protocol: ${(error as Error).message} in ${line.slice(0, 200)}`));
      return;
    }
    const m = parsed;
    switch (m.t) {
      case 'hello':
        return this.onHello?.(m);
      case 'load-failed':
        return this.onLoadFailed?.(fromWire(m.error));
      case 'pong':
        if (m.n > this.pong) {
          this.pong = m.n;
          this.lastPong = performance.now();
        }
        return;
      case 'fetch':
        return void this.fetch(m);
      case 'sleep':
        return void this.sleep(m);
      case 'usage':
        return this.episodes.get(m.h)?.ctx.reportUsage?.(m.usage);
      case 'escalate':
        return this.episodes.get(m.h)?.ctx.escalate(m.reason);
      default: {
        const ep = this.episodes.get(m.h);
        const w = ep?.waiter;
        if (!ep || !w || !w.expect.includes(m.t)) return;
        ep.waiter = undefined;
        w.resolve(m);
      }
    }
  }

  private async fetch(m: Extract<HostMessage, { t: 'fetch' }>): Promise<void> {
    const ep = this.episodes.get(m.h);
    const now = () => ep?.ctx.clock.now() ?? 0;
    const fail = (error: WireError) => this.send({ t: 'fetch-failed', id: m.id, now: now(), error });
    if (!ep) return fail({ name: 'TypeError', message: 'fetch failed: the episode is over' });
    const { limits } = this.options;
    const body = m.body === undefined ? undefined : Buffer.from(m.body, 'base64');
    const bytes = m.url.length + m.method.length + m.headers.reduce((n, [k, v]) => n + k.length + v.length, 0) + (body?.length ?? 0);
    ep.bytes += bytes;
    const breach =
      bytes > limits.requestBytes
        ? `the agent sent a tool request of ${bytes} bytes, past the limit of ${limits.requestBytes} (\`limits.requestBytes\`)`
        : ep.bytes > limits.episodeBytes
          ? `the agent sent ${ep.bytes} bytes of tool requests in one episode, past the limit of ${limits.episodeBytes} (\`limits.episodeBytes\`)`
          : undefined;
    if (breach) return this.breach(m.h, ep, agentFailure('AgentLimitExceeded', breach), fail);
    let request: Request;
    try {
      const init = { method: m.method, headers: m.headers as [string, string][] };
      const sent = body && m.method !== 'GET' && m.method !== 'HEAD' ? body : undefined;
      // Bytes of UTF-8 under a named type are the request a string body makes (a string adds no type then):
      // the engine takes that one's text without a body stream.
      request = requestOf(m.url, sent && isUtf8(sent) && m.headers.some(([k]) => k === 'content-type') ? { ...init, body: sent.toString('utf8') } : { ...init, ...(sent ? { body: sent } : {}) });
    } catch (error) {
      return fail(toWire(new TypeError(`fetch failed: ${(error as Error).message}`)));
    }
    try {
      // The session's own fetch gives the answer as bytes, to send on as it is; a wrapped one, a Response to read.
      const plain = plainFetchOf(ep.ctx.fetch);
      const got = plain ? await plain(request) : await plainOf(await ep.ctx.fetch(request));
      const body = Buffer.from(got.body.buffer, got.body.byteOffset, got.body.byteLength).toString('base64');
      this.send({ t: 'fetched', id: m.id, now: now(), status: got.status, statusText: got.statusText, headers: got.headers, body });
    } catch (error) {
      fail(toWire(error));
    }
  }

  private async sleep(m: Extract<HostMessage, { t: 'sleep' }>): Promise<void> {
    const ep = this.episodes.get(m.h);
    if (!ep) return this.send({ t: 'sleep-failed', id: m.id, error: { name: 'Error', message: 'the episode is over' } });
    const ms = Number.isFinite(m.ms) ? Math.min(MAX_SLEEP_MS, Math.max(0, m.ms)) : 0;
    try {
      await ep.ctx.clock.sleep(ms, ep.ctx.signal);
      this.send({ t: 'slept', id: m.id, now: ep.ctx.clock.now() });
    } catch (error) {
      this.send({ t: 'sleep-failed', id: m.id, error: toWire(error) });
    }
  }

  /** A limit was passed: the agent's call fails, and its episode ends with the breach. */
  private breach(h: number, ep: OpenEpisode, error: Error, fail: (e: WireError) => void): void {
    ep.breach ??= error;
    fail(toWire(new TypeError(`fetch failed: ${error.message}`)));
    ep.waiter?.reject(error);
    ep.waiter = undefined;
    this.send({ t: 'abort', h, error: toWire(error) });
  }

  /** The number of an episode's world in this host: its policy and tools are sent the first time. */
  private worldOf(ctx: Pick<AgentContext, 'policy' | 'tools'>): number {
    let byPolicy = this.worlds.get(ctx.tools);
    if (!byPolicy) this.worlds.set(ctx.tools, (byPolicy = new Map()));
    let k = byPolicy.get(ctx.policy);
    if (k === undefined) {
      byPolicy.set(ctx.policy, (k = ++this.worldCount));
      this.send({ t: 'world', k, policy: ctx.policy, tools: ctx.tools });
    }
    return k;
  }

  /** Sends a message for an episode and waits for one of the answers named. */
  private exchange(h: number, ep: OpenEpisode, message: RunnerMessage, expect: HostMessage['t'][]): Promise<HostMessage> {
    if (this.death) return Promise.reject(ep.breach ?? this.death);
    if (ep.breach) return Promise.reject(ep.breach);
    return new Promise((resolve, reject) => {
      ep.waiter = { resolve, reject, expect };
      this.send(message);
    });
  }

  async create(ctx: AgentContext, msPerModelCall: number): Promise<Agent> {
    // A host started for this episode (its predecessor died) first loads the module.
    await this.hello;
    const h = ++this.handles;
    const ep: OpenEpisode = { ctx, bytes: 0 };
    this.episodes.set(h, ep);
    this.hold(true);
    ep.onAbort = () => this.send({ t: 'abort', h, error: toWire(ctx.signal.reason) });
    ctx.signal.addEventListener('abort', ep.onAbort, { once: true });
    const created = await this.exchange(h, ep, { t: 'create', h, ctx: { episodeId: ctx.episodeId, world: ctx.world, k: this.worldOf(ctx), baseUrl: ctx.baseUrl, seed: ctx.seed, now: ctx.clock.now(), ...(msPerModelCall > 0 ? { msPerModelCall } : {}) } }, ['created', 'create-failed']);
    if (created.t === 'create-failed') {
      this.forget(h, ep);
      throw fromWire(created.error);
    }
    return {
      reply: async (message: string) => {
        const answer = await this.exchange(h, ep, { t: 'reply', h, message, now: ctx.clock.now() }, ['replied', 'reply-failed']);
        if (answer.t === 'reply-failed') throw fromWire(answer.error);
        if (ep.breach) throw ep.breach;
        return (answer as Extract<HostMessage, { t: 'replied' }>).text;
      },
      close: async () => {
        if (this.alive && this.episodes.has(h)) {
          // A host that does not acknowledge in time is stuck: ended, so that it cannot hold the others.
          // clock: a real grace for the agent's own close().
          const grace = setTimeout(() => this.end(agentFailure('AgentHung', "the agent's process did not end its episode within 5 s of being told")), 5_000);
          grace.unref();
          await this.exchange(h, ep, { t: 'close', h }, ['closed']).catch(() => undefined);
          clearTimeout(grace);
        }
        this.forget(h, ep);
      },
    };
  }

  private forget(h: number, ep: OpenEpisode): void {
    if (ep.onAbort) ep.ctx.signal.removeEventListener('abort', ep.onAbort);
    this.episodes.delete(h);
    if (this.episodes.size === 0) this.hold(false);
  }

  stop(): void {
    this.end(agentFailure('AgentCrash', 'the run is over'));
  }
}

/**
 * The factory for a module agent in a process of its own: starts its host, which imports the module and
 * names the agent (an import that throws, exits or never settles is refused here, before any episode).
 */
export async function hostedAgent(spec: string, options: HostedOptions): Promise<AgentFactory> {
  const cwd = options.cwd ?? process.cwd();
  if (!existsSync(resolvePath(cwd, spec))) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to load agent module \`${spec}\`: no such file (looked at ${resolvePath(cwd, spec)}). Check the path; it is relative to the current directory.`);
  let sandboxed: SandboxedStart;
  try {
    sandboxed = await sandboxFor(spec, cwd, options.sandbox ?? { enabled: true, read: [], write: [], childProcess: false }, options.hidden ?? []);
  } catch (error) {
    if (error instanceof ShakedownError) throw error;
    throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to load agent module \`${spec}\`: compiling it threw ${(error as Error).message.split('\n')[0]}. Fix the module so that it compiles.`, { cause: error });
  }
  let host: Host | undefined;
  const hosts = new Set<Host>();
  let disposed = false;
  const start = (): Host => {
    const h = new Host(spec, sandboxed, options, (dead, served) => {
      hosts.delete(dead);
      if (host === dead) host = undefined;
      // Its episodes run again (or the next ones come): a new host loads the module meanwhile.
      if (served && !disposed) host = start();
    });
    hosts.add(h);
    return h;
  };
  host = start();
  let hello: Extract<HostMessage, { t: 'hello' }>;
  let timer: NodeJS.Timeout | undefined;
  try {
    // clock: a real limit on how long a module may take to load.
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`it did not finish loading within ${options.limits.loadMs} ms (a top-level await that never settles?); the limit is \`limits.loadMs\``)), options.limits.loadMs)));
    hello = await Promise.race([host.hello, timeout]);
  } catch (error) {
    host?.stop();
    sandboxed.cleanup();
    const e = error as Error;
    if (e instanceof ShakedownError) throw e;
    // The module loader's own refusals (no such file, no agent exported) say what to fix already.
    if (e.name === 'ShakedownError') throw new ShakedownError('SHAKEDOWN_AGENT', e.message, { cause: error });
    const why = e.name === 'AgentCrash' ? e.message.replace(/^the agent's process /, 'its process ') : `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}`;
    throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to load agent module \`${spec}\`: ${why}. Fix the module so that it imports and exports an agent.`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  const agent = hello.agent;
  if (/[\s|]/.test(agent.id)) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to load agent module \`${spec}\`: its id \`${agent.id}\` has spaces or \`|\`. Use letters, digits, \`-\`, \`:\` or \`+\`.`);
  const time = agentTimeOf(agent.time);
  return {
    id: agent.id,
    description: agent.description,
    ...(agent.worlds ? { worlds: agent.worlds } : {}),
    ...(time ? { time } : {}),
    isolation: 'process',
    enclosed: sandboxed.namespaces,
    async create(ctx: AgentContext) {
      if (disposed) throw agentFailure('AgentCrash', 'the run is over: its agent processes have ended');
      host ??= start();
      const msPerModelCall = time?.mode === 'model' ? time.msPerCall : 0;
      return host.create(ctx, msPerModelCall);
    },
    async ready() {
      if (!disposed) await (host ??= start()).hello.then(() => undefined, () => undefined);
    },
    dispose() {
      disposed = true;
      for (const h of hosts) h.stop();
      hosts.clear();
      host = undefined;
      sandboxed.cleanup();
    },
  };
}

