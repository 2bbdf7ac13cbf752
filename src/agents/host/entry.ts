/**
 * The host process of one module agent (DESIGN decision 19): the only place its code runs. It imports
 * the module, says the agent's name, then creates and drives the agent of each episode it is told of,
 * answering every call the agent makes through its context over the pipe on fd 3. It holds no world, no
 * database, no judge and no log: what the agent does here reaches the run only as messages, which the
 * runner checks (hosted.ts). Started as `node entry.js MODULE CWD MAX_LINE_BYTES SPEC` (SPEC: how the user named the module).
 */
import { Socket } from 'node:net';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import type { Agent, AgentContext, AgentFactory } from '../contract.js';
import type { ToolSpec, ToolSpecJson } from '../../ground/world.js';
import { loadModuleAgent } from '../module.js';
import { asError } from '../../ground/episode-errors.js';
import { deepFreeze } from '../../ground/freeze.js';
import { lazyResponse, NULL_BODY_STATUSES } from '../../ground/bodies.js';
import { fromWire, lineBatcher, lineReader, plainWireRequest, toWire as wire, type RunnerMessage, type WireContext, type WireRequest } from './protocol.js';

/** What the agent threw, as the episode runner would read it in process. */
const toWire = (thrown: unknown) => wire(asError(thrown));

const [module = '', cwd = process.cwd(), maxLine = '1048576', spec = module] = process.argv.slice(2);
const pipe = new Socket({ fd: 3, readable: true, writable: true });
// Messages of one turn of the event loop go in one write: each write to the pipe is a system call that wakes the runner.
const { send, flush } = lineBatcher((lines) => pipe.write(lines));

// The agent's process.exit() throws into its own code: its episode ends as an error (`agent-crash`),
// the process and the agent's other episodes live on. Node's own exit on an uncaught exception goes through.
const exit = process.exit.bind(process);
let dying = false;
process.on('uncaughtExceptionMonitor', () => {
  dying = true;
  // What was said before the agent broke the process still reaches the runner.
  flush();
});
process.exit = ((code?: number) => {
  if (dying) return exit(code);
  const error = new Error(`the agent called process.exit(${code ?? ''})`);
  error.name = 'AgentExit';
  throw error;
}) as typeof process.exit;

// The runner gone (its pipe closed): end this process and everything the agent started.
const leave = () => {
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    exit(0);
  }
};
pipe.on('end', leave);
pipe.on('error', leave);

interface Episode {
  readonly controller: AbortController;
  now: number;
  readonly msPerModelCall: number;
  calls: number;
  agent?: Agent;
  mcp?: Promise<McpClient>;
}

const episodes = new Map<number, Episode>();
const waiting = new Map<number, { resolve: (m: RunnerMessage) => void; reject: (e: Error) => void }>();
let seq = 0;
let factory: AgentFactory | undefined;

/** Sends a request and waits for its answer; an abort (the agent's own signal) stops the wait. */
function ask(message: { t: 'fetch' | 'sleep'; h: number } & Record<string, unknown>, signal?: AbortSignal | null): Promise<RunnerMessage> {
  const id = ++seq;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      waiting.delete(id);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    waiting.set(id, {
      resolve: (m) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(m);
      },
      reject,
    });
    send({ ...message, id });
  });
}

/** A request's wire form, its body read. */
async function wireOf(request: Request): Promise<WireRequest> {
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
  return { url: request.url, method: request.method, headers: [...request.headers], ...(body ? { body } : {}) };
}

/** The world's tools with zod input schemas, rebuilt from their JSON Schema once per tool list. */
const specsByList = new Map<string, ToolSpec[]>();
function toolSpecsOf(tools: readonly ToolSpecJson[]): ToolSpec[] {
  const key = JSON.stringify(tools);
  let specs = specsByList.get(key);
  if (!specs) {
    specs = tools.map((t) => ({
      name: t.name,
      description: t.description,
      method: t.method,
      path: t.path,
      write: t.write,
      input: z.fromJSONSchema(t.inputSchema as Parameters<typeof z.fromJSONSchema>[0]) as ToolSpec['input'],
      ...(t.outputSchema ? { output: z.fromJSONSchema(t.outputSchema as Parameters<typeof z.fromJSONSchema>[0]) } : {}),
    })) as ToolSpec[];
    specsByList.set(key, specs);
  }
  return specs;
}

/** The worlds the runner sent, by number: policy and tools frozen, shared by their episodes as in the sweep's process. */
const worlds = new Map<number, { readonly policy: string; readonly tools: ToolSpecJson[] }>();

function contextOf(h: number, w: WireContext, ep: Episode): AgentContext {
  const world = worlds.get(w.k);
  if (!world) throw new Error(`the runner named world ${w.k} before sending it`);
  const { tools } = world;
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // A URL and a plain init cross as they are; anything else goes through a Request, which reads it.
    const wire = plainWireRequest(input, init) ?? (await wireOf(input instanceof Request && init === undefined ? input : new Request(input, init)));
    // As a Request's: the init's when it names one (null for none), else the input Request's.
    const signal = init?.signal !== undefined ? (init.signal ?? undefined) : input instanceof Request ? input.signal : undefined;
    const { method, body } = wire;
    const answer = await ask({ t: 'fetch', h, url: wire.url, method, headers: wire.headers, ...(body && body.length > 0 ? { body: body.toString('base64') } : {}) }, signal);
    if (answer.t === 'fetch-failed') {
      ep.now = answer.now;
      throw fromWire(answer.error);
    }
    if (answer.t !== 'fetched') throw new TypeError('fetch failed: the runner answered out of turn');
    ep.now = answer.now;
    const bytes = Buffer.from(answer.body, 'base64');
    const empty = NULL_BODY_STATUSES.has(answer.status) || method === 'HEAD';
    const answered = { status: answer.status, statusText: answer.statusText, headers: answer.headers as [string, string][] };
    // Its stream made only if the agent reads the body as one (src/ground/bodies.ts).
    return empty ? new Response(null, answered) : lazyResponse(bytes, answered);
  };
  const ctx: AgentContext = {
    episodeId: w.episodeId,
    world: w.world,
    policy: world.policy,
    tools,
    get toolSpecs() {
      return toolSpecsOf(tools);
    },
    baseUrl: w.baseUrl,
    fetch: fetchFn as typeof fetch,
    clock: {
      now: () => ep.now,
      async sleep(ms: number, signal?: AbortSignal) {
        const answer = await ask({ t: 'sleep', h, ms }, signal);
        if (answer.t === 'sleep-failed') throw fromWire(answer.error);
        if (answer.t === 'slept') ep.now = answer.now;
      },
    },
    signal: ep.controller.signal,
    seed: w.seed,
    escalate: (reason: string) => void send({ t: 'escalate', h, reason: String(reason).slice(0, 2_000) }),
    reportUsage: (usage) => {
      const calls = Number(usage.calls) || 0;
      // Under `model` agent time each reported call is thinking time: the runner's clock moves, and so does this copy.
      if (ep.msPerModelCall > 0 && calls > ep.calls) ep.now += (calls - ep.calls) * ep.msPerModelCall;
      ep.calls = Math.max(ep.calls, calls);
      send({ t: 'usage', h, usage: { promptTokens: Number(usage.promptTokens) || 0, completionTokens: Number(usage.completionTokens) || 0, calls } });
    },
    mcp: () =>
      (ep.mcp ??= import('../mcp.js').then((m) => m.mcpClientFor({ tools, toolSpecs: toolSpecsOf(tools), baseUrl: w.baseUrl, fetch: fetchFn as typeof fetch, signal: ep.controller.signal }))),
  };
  return ctx;
}

async function create(h: number, w: WireContext): Promise<void> {
  const ep: Episode = { controller: new AbortController(), now: w.now, msPerModelCall: w.msPerModelCall ?? 0, calls: 0 };
  episodes.set(h, ep);
  try {
    ep.agent = await (factory as AgentFactory).create(contextOf(h, w, ep));
    send({ t: 'created', h });
  } catch (error) {
    send({ t: 'create-failed', h, error: toWire(error) });
  }
}

async function reply(h: number, message: string, now: number): Promise<void> {
  const ep = episodes.get(h);
  if (!ep?.agent) return void send({ t: 'reply-failed', h, error: toWire(new Error('no such episode in this host')) });
  ep.now = now;
  try {
    const text: unknown = await ep.agent.reply(message);
    if (typeof text !== 'string') throw new TypeError(`the agent's reply must be a string, got ${typeof text}`);
    send({ t: 'replied', h, text });
  } catch (error) {
    send({ t: 'reply-failed', h, error: toWire(error) });
  }
}

async function close(h: number): Promise<void> {
  const ep = episodes.get(h);
  episodes.delete(h);
  try {
    if (ep?.mcp) await ep.mcp.then((c) => c.close()).catch(() => undefined);
    await ep?.agent?.close?.();
  } catch {
    // The outcome depends on the conversation and the database only: a close() that fails is ignored.
  }
  send({ t: 'closed', h });
}

function onMessage(line: string): void {
  let m: RunnerMessage;
  try {
    m = JSON.parse(line) as RunnerMessage;
  } catch {
    return;
  }
  switch (m.t) {
    case 'world':
      return void worlds.set(m.k, { policy: m.policy, tools: deepFreeze(m.tools as ToolSpecJson[]) });
    case 'create':
      return void create(m.h, m.ctx);
    case 'reply':
      return void reply(m.h, m.message, m.now);
    case 'close':
      return void close(m.h);
    case 'abort':
      return void episodes.get(m.h)?.controller.abort(fromWire(m.error));
    case 'ping':
      return void send({ t: 'pong', n: m.n });
    default: {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      w?.resolve(m);
    }
  }
}

pipe.on('data', lineReader(Number(maxLine), onMessage, () => leave()));

try {
  factory = await loadModuleAgent(spec, cwd, module);
  if (factory.needsGold) throw new Error('a module agent cannot be given the gold actions (`needsGold`): only the built-in baselines are');
  send({ t: 'hello', agent: { id: factory.id, description: String(factory.description ?? '').slice(0, 1_000), ...(factory.worlds ? { worlds: [...factory.worlds] } : {}), ...(factory.time ? { time: factory.time } : {}) } });
} catch (error) {
  send({ t: 'load-failed', error: toWire(error) });
}
