import { getResponse, HttpHandler, matchRequestUrl, type RequestHandler } from 'msw';
import { withRealWaits, type EpisodeClock } from './clock.js';
import type { FaultInjector, FiredFault, StrikeContext } from './faults.js';
import { toolSpecJson, type ToolSpec, type ToolSpecJson, type WorldDefinition, type WorldInstance } from './world.js';
import { callArgs } from './tools.js';
import { Answer, bodyText, directResolver, notedText, plainOf, type PlainAnswer } from './resolve.js';
import { requestOf } from './bodies.js';

/** A call as `fetch` takes it, answered with `T`. */
type Call<T> = (input: string | URL | Request, init?: RequestInit) => Promise<T>;

/** Each session's fetch, with the call that gives its answer as bytes (see `plainFetchOf`). */
const plainFetches = new WeakMap<Call<Response>, Call<PlainAnswer>>();

/**
 * For a session's own fetch, the same call answering with status, headers and bytes rather than a
 * `Response`: for a delivery path that sends the answer on (an agent's host process), which would
 * otherwise make a `Response` only to read its body back. The calls are one: the same budget, trace,
 * faults and answer, headers included (`date`). Undefined for any other function (a fetch wrapped by a
 * strategy): call it as it is.
 */
export function plainFetchOf(f: unknown): Call<PlainAnswer> | undefined {
  return typeof f === 'function' ? plainFetches.get(f as never) : undefined;
}

/** The domain under which every episode's tool API lives: `http://<episode>.<world>.shakedown.test/api`. */
export const TOOL_DOMAIN = 'shakedown.test';

/** One tool call as recorded in the episode's trace. */
export interface TraceEntry {
  readonly tool: string | null;
  readonly method: string;
  readonly path: string;
  readonly ordinal: number;
  /** Response status, or 0 when the call rejected. */
  readonly status: number;
  /** Simulated time the call started, relative to the episode start. */
  readonly atMs: number;
  readonly fault?: string;
  readonly idempotencyKey?: string;
  readonly replayed?: boolean;
  /** Why the call was refused without reaching the world (a URL outside it). */
  readonly refused?: string;
  /** The user turn the call was made in: the index of the user message the agent was answering. */
  readonly turn?: number;
  /** The call's arguments: path parameters, then the query (GET) or the JSON body (POST). */
  readonly args?: Readonly<Record<string, unknown>>;
  /** A write whose handler changed the database on this call (not an idempotent replay), whatever the agent was answered. */
  readonly effect?: true;
  /** A 2xx answer whose body the agent could not parse (cut short). */
  readonly unreadable?: true;
  /** The answer was untrue (a lying fault): a write acknowledged that did nothing or part, a stale or wrong value. */
  readonly lied?: true;
  /** The user an identifying lookup returned (see the world's conduct rules). */
  readonly subject?: string;
  /** Indices of the scenario's required outputs that the answer the agent received contains. */
  readonly reveals?: readonly number[];
}

/**
 * What the judge needs the runtime to note on each call: the turn it is in, who an identifying lookup
 * returned, and which required outputs an answer shows. The runtime knows no rule; it only records.
 */
export interface CallObserver {
  /** The user turn the conversation is in. */
  turn(): number;
  /** The user an answer of `tool` identifies, for the world's identifying lookups. */
  subject?(tool: string, body: unknown): string | undefined;
  /** Indices of the required outputs a 2xx answer's text contains. */
  reveals?(text: string): number[];
}

interface CompiledTool {
  readonly spec: ToolSpec;
  readonly pattern: RegExp;
}

/** Literal paths match before templated ones (`/users/by-email` before `/users/{userId}`), whatever the order of the specs. */
function compileTools(tools: readonly ToolSpec[]): CompiledTool[] {
  const placeholders = (t: ToolSpec) => (t.path.match(/\{/g) ?? []).length;
  return [...tools].sort((a, b) => placeholders(a) - placeholders(b)).map((spec) => ({
    spec,
    pattern: new RegExp(`^/api${spec.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  }));
}

interface StoredResponse {
  readonly tool: string;
  readonly answer: Answer;
}

/** How one tool's requests are answered; `partial` when only its own handlers are tried first. */
interface ToolResolver {
  resolve(request: Request): Promise<Response | undefined>;
  readonly partial: boolean;
}

/** What a dispatch to the world gives: the answer, read once, and whether it replayed or committed a write. */
interface Dispatched {
  readonly answer: Answer;
  readonly replayed: boolean;
  readonly committed?: boolean;
}

export interface EpisodeSession {
  readonly baseUrl: string;
  /** A fetch that resolves through the world's handlers (and the fault injector), never the network. */
  readonly fetch: typeof fetch;
  readonly trace: TraceEntry[];
  readonly faults: FiredFault[];
  /** Exceptions thrown by the world's own handlers: a bug in the world, never the agent's fault. */
  readonly worldErrors: string[];
  readonly instance: WorldInstance<unknown>;
  close(): void;
}

export interface OpenOptions {
  readonly episodeId: string;
  readonly db: unknown;
  /**
   * Copies of the episode's database for tools that lie: `scratch`, a writable copy whose writes leave
   * the original as it is; `freeze`, the state now, which later writes do not change; `null` for a state
   * that cannot be copied (a live server: tools that lie then tell the truth). The default,
   * structuredClone for both, serves a plain database only: an episode's overlay needs
   * `WorldHarness.copiesOf`. @default structuredClone for both
   */
  readonly copies?: { scratch(db: unknown): unknown; freeze(db: unknown): unknown } | null;
  readonly clock: EpisodeClock;
  readonly faults?: FaultInjector;
  readonly signal?: AbortSignal;
  /**
   * Real milliseconds a fault waits per simulated millisecond, on top of the simulated wait, for agents
   * that keep their own timers instead of the episode's `sleep`. 0 keeps simulated time free. @default 0
   */
  readonly realWaitScale?: number;
  /** Notes on each call for the judge (turn, identification, outputs shown). */
  readonly observer?: CallObserver;
  /**
   * Most tool calls the episode may make; the next one rejects and `onBudget` is told, once. A runaway
   * loop of calls ends there. @default unlimited
   */
  readonly maxCalls?: number;
  readonly onBudget?: (calls: number) => void;
  /** Told when a call enters and leaves the engine, so that an agent's own time excludes it (`AgentClock`). */
  readonly meter?: { callStarted(): void; callEnded(): void };
  /**
   * The time HTTP dates are written on (`Date`, a Retry-After date), in ms since the epoch. An agent that
   * lives on real time reads them against its own wall clock (as urllib3, got and p-retry do), so for it
   * they are written on the wall clock; an agent on the episode's clock reads them against `Date`, on that
   * clock. @default the episode clock
   */
  readonly httpNow?: () => number;
}

/**
 * How much earlier a window closes for an agent on the wall clock: an HTTP date has whole seconds, and an
 * answer takes some milliseconds to reach the client that reads it against its own clock.
 */
export const WALL_CLOCK_SLACK_MS = 500;

/**
 * Serves one world's tool API to many concurrent episodes. One handler set routes by host to the
 * episode's own database (DESIGN decision 10); calls resolve through msw's `getResponse`, without a
 * global fetch patch (DESIGN decision 11). Writes honour `Idempotency-Key`; faults strike here.
 */
export class ToolRuntime {
  readonly world: WorldDefinition;
  private readonly handlers: RequestHandler[];
  /** Per tool, how its requests are answered (see `resolverFor`). */
  private readonly resolvers = new Map<string, ToolResolver>();
  private readonly tools: CompiledTool[];
  private readonly instances = new Map<string, WorldInstance<unknown>>();
  /** Each open episode's fetch by its tool host, for the delivery paths that see a request without its session. */
  private readonly fetchers = new Map<string, typeof fetch>();

  /**
   * @param direct whether tools' handlers are called directly (`directResolver`) rather than through msw's
   * `getResponse`: the same answers, with less work per call (docs/performance.md). @default true
   */
  constructor(world: WorldDefinition, private readonly direct = true) {
    this.world = world;
    this.tools = compileTools(world.tools);
    this.handlers = world.handlers((request) => this.instanceFor(request));
  }

  private instanceFor(request: Request): WorldInstance<unknown> {
    const host = new URL(request.url).hostname;
    const episodeId = host.slice(0, host.indexOf('.'));
    const instance = this.instances.get(episodeId);
    if (!instance) throw new Error(`no open episode for host ${host}`);
    return instance;
  }

  /**
   * The handlers that may answer a tool's requests: those whose method and path match its first request,
   * in the world's order. msw tries every handler in turn (parsing the request and matching its path
   * against each), which cost about half of a tool call; the tool is known before dispatch, so only
   * its own handlers need trying. Undefined when none matches.
   */
  private handlersFor(request: Request): RequestHandler[] | undefined {
    const url = new URL(request.url);
    const found = this.handlers.filter((h) => {
      if (!(h instanceof HttpHandler)) return true;
      const { method, path } = h.info;
      const methodOk = method instanceof RegExp ? method.test(request.method) : method === 'all' || method.toUpperCase() === request.method;
      // A custom predicate cannot be matched ahead of time: keep its handler.
      return methodOk && (typeof path === 'function' || matchRequestUrl(url, path).matches);
    });
    return found.length > 0 ? found : undefined;
  }

  /**
   * How a tool's requests are answered: its own handlers called directly (`directResolver`), or through
   * msw's `getResponse` where they need msw's own handling. `partial` when the handlers are the tool's
   * only, so that a request they leave unanswered still goes to all of them.
   */
  private resolverFor(tool: ToolSpec, request: Request): ToolResolver {
    const cached = this.resolvers.get(tool.name);
    if (cached) return cached;
    const own = this.handlersFor(request);
    const list = own ?? this.handlers;
    const resolver = { resolve: (this.direct ? directResolver(list) : undefined) ?? ((r: Request) => getResponse(list, r)), partial: own !== undefined };
    // Until a request matches some of the world's handlers, the tool's own are not known: nothing is remembered.
    if (own) this.resolvers.set(tool.name, resolver);
    return resolver;
  }

  /** Whether a URL names a tool host of this world (`<episode>.<world>.shakedown.test`). */
  servesHost(host: string): boolean {
    return host.endsWith(`.${this.world.id}.${TOOL_DOMAIN}`);
  }

  /**
   * Answers a request by its host, through the open episode's fetch: the same handlers, faults and
   * idempotency as the injected fetch. Rejects as that fetch does (a reset is a TypeError with an
   * ECONNRESET cause); a host with no open episode rejects too.
   */
  async route(request: Request): Promise<Response> {
    const host = new URL(request.url).host;
    const f = this.fetchers.get(host);
    if (!f) throw new TypeError(`fetch failed: no open episode serves ${host}`);
    return f(request);
  }

  /** An open episode's tools for a tool server's MCP endpoint. */
  mcpOf(episodeId: string): { tools: ToolSpecJson[]; toolSpecs: readonly ToolSpec[]; baseUrl: string; fetch: typeof fetch } | undefined {
    const f = this.fetchers.get(`${episodeId}.${this.world.id}.${TOOL_DOMAIN}`);
    if (!f) return undefined;
    this.toolsJson ??= this.world.tools.map(toolSpecJson);
    return { tools: this.toolsJson, toolSpecs: this.world.tools, baseUrl: this.baseUrl(episodeId), fetch: f };
  }
  private toolsJson: ToolSpecJson[] | undefined;

  /** What a tool server needs to serve an open episode (its tool API, its clock, its MCP tools); throws for one not open. */
  access(episodeId: string): { baseUrl: string; fetch: typeof fetch; clock: EpisodeClock; mcp: NonNullable<ReturnType<ToolRuntime['mcpOf']>> } {
    const mcp = this.mcpOf(episodeId);
    const clock = this.clockOf(episodeId);
    if (!mcp || !clock) throw new Error(`no open episode ${episodeId}`);
    return { baseUrl: mcp.baseUrl, fetch: mcp.fetch, clock, mcp };
  }

  /** An open episode's clock (for a tool server's clock endpoints). */
  clockOf(episodeId: string): EpisodeClock | undefined {
    return this.instances.get(episodeId)?.clock;
  }

  baseUrl(episodeId: string): string {
    return `http://${episodeId}.${this.world.id}.${TOOL_DOMAIN}/api`;
  }

  matchTool(method: string, pathname: string): ToolSpec | null {
    for (const t of this.tools) if (t.spec.method === method && t.pattern.test(pathname)) return t.spec;
    return null;
  }

  /** Opens an episode: its database becomes reachable under its own host until `close()`. */
  open(options: OpenOptions): EpisodeSession {
    const { episodeId, clock, faults, signal } = options;
    const realWaitScale = options.realWaitScale ?? 0;
    if (!(realWaitScale >= 0 && realWaitScale <= 1)) throw new RangeError(`realWaitScale must be in [0, 1], got ${realWaitScale}`);
    if (!/^[a-z0-9-]+$/.test(episodeId)) throw new Error(`episode id must be a DNS label, got ${episodeId}`);
    if (this.instances.has(episodeId)) throw new Error(`episode ${episodeId} is already open`);
    let counter = 0;
    const instance: WorldInstance<unknown> = { episodeId, db: options.db, clock, nextId: (prefix) => `${prefix}_${++counter}` };
    this.instances.set(episodeId, instance);
    const trace: TraceEntry[] = [];
    const worldErrors: string[] = [];
    const fired: FiredFault[] = [];
    const ordinals = new Map<string, number>();
    const idempotency = new Map<string, StoredResponse>();
    const startMs = clock.now();
    const expectedHost = `${episodeId}.${this.world.id}.${TOOL_DOMAIN}`;

    // The database as it was before the episode's last committed write, kept only while a kind that reads
    // it (a stale read) is active.
    let beforeLastWrite: unknown;
    // A database that cannot be copied (a live server's handle): no history, and lying kinds tell the truth.
    const copies = options.copies === null ? null : (options.copies ?? { scratch: (db: unknown) => structuredClone(db), freeze: (db: unknown) => structuredClone(db) });
    const history = copies !== null && (faults?.history ?? false);
    const dispatch = async (request: Request, tool: ToolSpec | null): Promise<Dispatched> => {
      if (!history || !tool?.write) return dispatchOnce(request, tool);
      const before = copies?.freeze(instance.db);
      const d = await dispatchOnce(request, tool);
      if (d.committed) beforeLastWrite = before;
      return d;
    };
    /**
     * The world's answer on a copy of the database (`db`), thrown away after: nothing commits, no key is
     * kept. It runs in an instance of its own under a host of its own (`requestTo` builds the call for
     * that host), so that the episode's other calls (an agent's calls in parallel) never see the copy, and
     * its id counter starts where the episode's is without moving it.
     */
    let pretended = 0;
    const pretend = async (requestTo: (host: string) => Request, tool: ToolSpec, db: unknown, scratch: (db: unknown) => unknown): Promise<Response> => {
      const scratchId = `${episodeId}-lie-${++pretended}`;
      let scratchCounter = counter;
      this.instances.set(scratchId, { episodeId: scratchId, db: scratch(db), clock, nextId: (prefix) => `${prefix}_${++scratchCounter}` });
      try {
        return (await resolveOnce(requestTo(scratchId), tool)).response();
      } finally {
        this.instances.delete(scratchId);
      }
    };
    const resolveOnce = async (request: Request, tool: ToolSpec | null): Promise<Answer> => {
      const own = tool ? this.resolverFor(tool, request) : undefined;
      let response = own ? await own.resolve(request) : await getResponse(this.handlers, request);
      if (!response && own?.partial) response = await getResponse(this.handlers, request);
      // Read here, so that a body the handler broke is the world's error too.
      return response ? await Answer.of(response) : Answer.json({ error: 'no_such_endpoint', message: `No tool answers ${request.method} ${new URL(request.url).pathname}.` }, 404);
    };
    const dispatchOnce = async (request: Request, tool: ToolSpec | null): Promise<Dispatched> => {
      const key = tool?.write ? request.headers.get('idempotency-key') : null;
      if (tool && key) {
        const stored = idempotency.get(key);
        if (stored) {
          if (stored.tool !== tool.name) {
            return { answer: Answer.json({ error: 'idempotency_key_reused', message: `Idempotency-Key ${key} was used for ${stored.tool}.` }, 422), replayed: false };
          }
          const { answer } = stored;
          return { answer: Answer.make(answer.text(), answer.status, [...answer.headers, ['idempotent-replayed', 'true']]), replayed: true };
        }
      }
      let answer: Answer;
      try {
        answer = await resolveOnce(request, tool);
      } catch (error) {
        // The agent sees what a real API shows for its own bug; the episode is marked as a world error.
        worldErrors.push(`${request.method} ${new URL(request.url).pathname}: ${(error as Error).message ?? String(error)}`);
        return { answer: Answer.json({ error: 'internal_error', message: 'The service failed unexpectedly.' }, 500), replayed: false };
      }
      if (tool && key && answer.status < 500) idempotency.set(key, { tool: tool.name, answer });
      return { answer, replayed: false, committed: !!tool?.write && answer.status >= 200 && answer.status < 300 };
    };
    const observer = options.observer;

    /** What the judge notes about the answer the agent received: whether it reads, who it identifies, which outputs it shows. */
    const notes = (tool: ToolSpec | null, status: number, text: string, truth?: { status: number; body: unknown }): Partial<TraceEntry> => {
      if (!observer || !tool || status < 200 || status >= 300) return {};
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        return { unreadable: true };
      }
      // Who a lookup identified is the world's answer, before any drift renamed its fields.
      const subject = truth && truth.status >= 200 && truth.status < 300 ? observer.subject?.(tool.name, truth.body) : observer.subject?.(tool.name, body);
      const reveals = observer.reveals?.(text) ?? [];
      return { ...(subject !== undefined ? { subject } : {}), ...(reveals.length > 0 ? { reveals } : {}) };
    };

    let closed = false;
    const meter = options.meter;
    const httpNow = options.httpNow ?? clock.now;
    /** Every answer carries the episode's time in `Date`, on every delivery path, so that a Retry-After date reads against it. */
    // An HTTP date is to the second: made once per second of the episode's clock, not once per answer.
    let dateSecond = Number.NaN;
    let dateText = '';
    const dateNow = () => {
      const ms = httpNow();
      const second = Math.floor(ms / 1000);
      if (second !== dateSecond) {
        dateSecond = second;
        dateText = new Date(ms).toUTCString();
      }
      return dateText;
    };
    const dated = (response: Response): Response => {
      if (response.headers.has('date')) return response;
      const date = dateNow();
      try {
        response.headers.set('date', date);
        return response;
      } catch {
        // Immutable headers (a response from elsewhere): copy them.
        const headers = new Headers(response.headers);
        headers.set('date', date);
        return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
      }
    };
    let calls = 0;
    const maxCalls = options.maxCalls ?? Number.POSITIVE_INFINITY;
    /** One call: the budget, a turn of the event loop now and then, the meter; the answer as the world gave it (read once) or as a fault made it. */
    const call: Call<Answer | Response> = async (input, init) => {
      calls++;
      if (calls > maxCalls) {
        if (calls === maxCalls + 1) options.onBudget?.(maxCalls);
        throw new TypeError(`fetch failed: the episode's budget of ${maxCalls} tool calls is spent`);
      }
      // Every 64 calls, a turn of the event loop: an agent whose calls all resolve on microtasks would
      // otherwise starve the timers that end it (the deadline, Ctrl-C).
      if (calls % 64 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      meter?.callStarted();
      try {
        return await answer(input, init);
      } finally {
        meter?.callEnded();
      }
    };
    const sessionFetch: Call<Response> = async (input, init) => {
      const got = await call(input, init);
      return dated(got instanceof Answer ? got.response() : got);
    };
    /** The same call for a delivery path that sends the answer on as bytes: no `Response` made only to be read again. */
    const plainFetch: Call<PlainAnswer> = async (input, init) => {
      const got = await call(input, init);
      const plain = got instanceof Answer ? got.plain(dateNow) : undefined;
      if (plain) return plain;
      return plainOf(dated(got instanceof Answer ? got.response() : got));
    };
    const answer = async (input: string | URL | Request, init?: RequestInit): Promise<Answer | Response> => {
      if (closed) throw new TypeError('fetch failed: the episode is over');
      const request = input instanceof Request && init === undefined ? input : requestOf(input, init);
      const url = new URL(request.url);
      if (url.host !== expectedHost) {
        // Refused and recorded: an agent that wanders outside the world is visible in its trace.
        trace.push({ tool: null, method: request.method, path: url.href, ordinal: 0, status: 0, atMs: clock.now() - startMs, refused: 'outside the world' });
        throw new TypeError(`fetch failed: ${url.host} is not this episode's tool host (${expectedHost})`);
      }
      const tool = this.matchTool(request.method, url.pathname);
      const name = tool?.name ?? null;
      const ordinal = name ? (ordinals.get(name) ?? 0) : 0;
      if (name) ordinals.set(name, ordinal + 1);
      const atMs = clock.now() - startMs;
      const key = request.headers.get('idempotency-key') ?? undefined;
      const turn = observer?.turn();
      const args = observer && tool ? callArgs(tool, url, tool.method === 'GET' ? undefined : await bodyText(request, init)) : undefined;
      const record = (status: number, extra: Partial<TraceEntry> = {}) =>
        trace.push({
          tool: name,
          method: request.method,
          path: url.pathname + url.search,
          ordinal,
          status,
          atMs,
          ...(key ? { idempotencyKey: key } : {}),
          ...(turn !== undefined ? { turn } : {}),
          ...(args ? { args } : {}),
          ...extra,
        });

      if (faults && tool) {
        // A call inside a window an earlier fault opened is struck again, whatever the schedule says.
        const window = faults.openWindow(clock.now());
        const decision = window ? { kind: window.kind, phase: 'before' as const } : faults.decide(tool, ordinal);
        if (decision) {
          let dispatched: Promise<Dispatched> | undefined;
          const real = async () => (await (dispatched ??= dispatch(request, tool))).answer.response();
          const detail: Record<string, string | number | boolean> = {};
          // A kind that lies, on a database that cannot be copied (a live server) or on a keyed retry that
          // has a stored answer, strikes nothing: the call is answered truly, and the fault says why.
          const truthOnly = decision.kind.lies === true && (copies === null || (key !== undefined && tool.write && idempotency.has(key)));
          // A kind that lies reads the call's body, and answers from a copy of the database or commits a part.
          const lies = decision.kind.lies === true && !truthOnly && copies !== null ? copies : undefined;
          const text = lies && tool.method !== 'GET' ? await bodyText(request, init) : undefined;
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          /** The call, with another body (JSON) where given, to the episode's host or to another episode's. */
          const requestWith = (b: unknown, host?: string) => {
            const url = new URL(request.url);
            if (host) url.hostname = `${host}${url.hostname.slice(url.hostname.indexOf('.'))}`;
            const payload = b === undefined ? text : JSON.stringify(b);
            return requestOf(url, { method: request.method, headers: request.headers, ...(payload !== undefined ? { body: payload } : {}) });
          };
          const notLying = () => Promise.reject(new Error(`fault kind ${decision.kind.id} does not declare \`lies\``));
          const lying = lies
            ? {
                ...(body !== undefined ? { body } : {}),
                // A handler that throws on the copy is no lie to tell: the call is then answered truly.
                pretend: async (o: { body?: unknown; state?: 'now' | 'before-last-write' } = {}) => {
                  const db = o.state === 'before-last-write' ? beforeLastWrite : instance.db;
                  return db === undefined ? null : pretend((host) => requestWith(o.body, host), tool, db, lies.scratch).catch(() => null);
                },
                commit: async (b: unknown) => (await (dispatched ??= dispatch(requestWith(b), tool))).answer.response(),
              }
            : { pretend: notLying, commit: notLying };
          const ctx: StrikeContext = {
            tool,
            ordinal,
            clock: realWaitScale > 0 ? withRealWaits(clock, realWaitScale) : clock,
            rng: faults.strikeRng(tool, ordinal),
            state: faults.state,
            ...(signal ? { signal } : {}),
            ...(window ? { windowUntil: window.until } : {}),
            httpNow,
            ...(options.httpNow ? { windowSlackMs: WALL_CLOCK_SLACK_MS } : {}),
            real,
            ...lying,
            note: (d) => Object.assign(detail, d),
          };
          if (decision.phase === 'after') await real();
          const windowBefore = faults.state.window;
          try {
            const response = truthOnly ? (ctx.note({ lied: false, truth: copies === null ? 'a state that cannot be copied' : 'a replayed key' }), await real()) : await decision.kind.strike(ctx, faults.paramsOf(decision.kind) as never);
            // Bursty profiles: a fault opens a short outage, unless the kind opened a window of its own.
            if (!window && faults.outageMs !== undefined && faults.state.window === windowBefore) {
              faults.state.window = { kind: decision.kind.id, until: clock.now() + faults.outageMs };
            }
            const d = dispatched ? await dispatched : undefined;
            const effect = d?.committed ?? false;
            record(response.status, { fault: decision.kind.id, ...(d?.replayed ? { replayed: true } : {}), ...(effect ? { effect: true } : {}), ...(detail.lied === true ? { lied: true } : {}), ...notes(tool, response.status, await notedText(response)) });
            return response;
          } catch (error) {
            const effect = dispatched ? await dispatched.then((d) => d.committed, () => false) : false;
            record(0, { fault: decision.kind.id, ...(effect ? { effect: true } : {}) });
            throw error;
          } finally {
            fired.push({
              kind: decision.kind.id,
              tool: tool.name,
              ordinal,
              scope: 'transient',
              ...(window ? { window: true } : tool.write ? { phase: dispatched ? 'after' : 'before' } : {}),
              ...(Object.keys(detail).length > 0 ? { detail } : {}),
            });
          }
        }
      }

      const { answer, replayed, committed } = await dispatch(request, tool);
      const effect = committed ? { effect: true as const } : {};
      const persistent = faults && tool ? faults.persistentFor(tool) : null;
      if (faults && persistent && tool) {
        const text = answer.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON: a persistent fault rewrites JSON bodies only.
        }
        const out = persistent.kind.transform({ status: answer.status, body }, persistent.variant, faults.paramsOf(persistent.kind) as never, tool);
        if (out.status !== answer.status || out.body !== body) {
          fired.push({ kind: persistent.kind.id, tool: tool.name, ordinal, scope: 'persistent', variant: persistent.variant });
          const delivered = Answer.json(out.body, out.status);
          record(out.status, { fault: persistent.kind.id, ...(replayed ? { replayed } : {}), ...effect, ...notes(tool, out.status, delivered.text(), { status: answer.status, body }) });
          return delivered;
        }
      }
      record(answer.status, { ...(replayed ? { replayed } : {}), ...effect, ...notes(tool, answer.status, answer.text()) });
      return answer;
    };

    this.fetchers.set(expectedHost, sessionFetch as typeof fetch);
    plainFetches.set(sessionFetch, plainFetch);
    return {
      baseUrl: this.baseUrl(episodeId),
      fetch: sessionFetch as typeof fetch,
      trace,
      faults: fired,
      worldErrors,
      instance,
      close: () => {
        closed = true;
        this.instances.delete(episodeId);
        this.fetchers.delete(expectedHost);
      },
    };
  }
}
