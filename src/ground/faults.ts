import { z } from 'zod';
import type { EpisodeClock } from './clock.js';
import { deriveSeed, makeRng, pickWeighted, type Rng } from './seeds.js';
import type { ToolSpec } from './world.js';
import { ShakedownError, unknownId } from './errors.js';
import { deepFreeze } from './freeze.js';

/** What a fault touches; the engine reads these flags and never switches on a fault's id. */
export type FaultTouch = 'status' | 'timing' | 'body' | 'connection';

/** Where a transient fault on a write strikes relative to the commit (DESIGN decision 6). */
export type CommitPhase = 'before' | 'after';

export interface StrikeContext {
  readonly tool: ToolSpec;
  readonly ordinal: number;
  /** The episode clock; its `sleep` may also wait real time, scaled down, for agents with their own timers. */
  readonly clock: EpisodeClock;
  readonly rng: Rng;
  readonly signal?: AbortSignal;
  /** Per-episode fault state: a kind may open a window here. */
  readonly state: FaultState;
  /** Set when the call falls inside a window this kind opened: the window's end, simulated ms. */
  readonly windowUntil?: number;
  /** The time an HTTP date in the answer is written on (the wall clock for an agent on real time). @default the episode clock */
  readonly httpNow?: () => number;
  /** How much earlier a window a kind opens should close (an agent on the wall clock reads whole-second dates). @default 0 */
  readonly windowSlackMs?: number;
  /**
   * The real response of the world's handler, computed once: a write commits when it is called. A kind
   * that is slow but correct, or that cuts a real body short, calls it; one that fails before the world
   * sees the call does not.
   */
  real(): Promise<Response>;
  /** The call's JSON body (a write's arguments), when it has one. */
  readonly body?: unknown;
  /**
   * For kinds that lie: the world's answer to this call computed on a copy of the episode's database,
   * which is then thrown away, so that nothing commits. With `body`, the answer to the call with that body
   * instead; with `state: 'before-last-write'`, on the database as it was before the episode's last
   * committed write (null when it has made none, or the kind did not declare `history`).
   */
  pretend(options?: { readonly body?: unknown; readonly state?: 'now' | 'before-last-write' }): Promise<Response | null>;
  /** For kinds that lie: the world's answer to this call with another body, committed (a write that does part of what was asked). */
  commit(body: unknown): Promise<Response>;
  /** Records what the strike chose (a status, a delay, where a body was cut) in the episode's fault log. */
  note(detail: Readonly<Record<string, string | number | boolean>>): void;
}

export interface FaultState {
  /**
   * A window opened by a transient kind (a rate limit's Retry-After): until it ends, every call is struck
   * by that kind again, whatever the schedule says.
   */
  window: { readonly kind: string; readonly until: number } | null;
  /** Calls the agent made inside windows so far in the episode (a kind that escalates counts them). */
  inWindow: number;
}

/** What every fault kind declares: the engine reads these and never switches on the id. */
interface FaultKindBase<P extends z.ZodObject> {
  readonly id: string;
  readonly description: string;
  readonly touches: readonly FaultTouch[];
  /** Which calls it may strike. */
  readonly appliesTo: 'read' | 'write' | 'any';
  /** Its parameters, with defaults. */
  readonly params: P;
  /**
   * It answers 200 with something untrue (a write acknowledged that did nothing, a stale or wrong value):
   * a strike that lied notes `lied: true`, the trace marks the call, and the judge tells a failure that
   * follows it apart from the agent's own.
   */
  readonly lies?: boolean;
  /** It needs the database as it was before each write (a stale read): the runtime keeps a copy while it is active. */
  readonly history?: boolean;
}

/** A fault that strikes one call: it produces the failed response (or rejects) instead of the real one. */
export interface TransientFaultKind<P extends z.ZodObject = z.ZodObject> extends FaultKindBase<P> {
  readonly scope: 'transient';
  /** Whether, on a write, it may strike after the database changed. */
  readonly canStrikeAfterCommit: boolean;
  strike(ctx: StrikeContext, params: z.output<P>): Promise<Response>;
}

/** A fault that holds for a whole episode on one tool: it rewrites every response of that tool. */
export interface PersistentFaultKind<P extends z.ZodObject = z.ZodObject> extends FaultKindBase<P> {
  readonly scope: 'persistent';
  /** Picks the episode's variant of the fault for a tool (e.g. which drift), from the seeded stream. */
  variant(rng: Rng, params: z.output<P>, tool: ToolSpec): string;
  /** Rewrites one response of the tool; `tool.output`, when the world declares it, says the response's shape. */
  transform(response: { status: number; body: unknown }, variant: string, params: z.output<P>, tool: ToolSpec): { status: number; body: unknown };
}

export type FaultKind = TransientFaultKind | PersistentFaultKind;

/** Which calls a profile's faults may strike. */
export interface FaultTarget {
  /** Only these tools, by name. @default every tool */
  readonly tools?: readonly string[];
  /** Only reads or only writes. @default both */
  readonly access?: 'read' | 'write';
}

/** A named mix of fault kinds: the weight scales λ for each kind (DESIGN decision 5). */
export interface FaultProfile {
  readonly id: string;
  readonly description: string;
  readonly weights: Readonly<Record<string, number>>;
  /** Which calls may be struck. @default every call */
  readonly target?: FaultTarget;
  /**
   * Bursty faults: a transient fault that strikes opens a short outage, and every call in the next
   * `outageMs` of simulated time fails the same way. @default independent faults
   */
  readonly burst?: { readonly outageMs: number };
  /** Parameters per kind for this profile (e.g. `{ timeout: { afterCommit: 1 } }`); options passed to the injector win. */
  readonly params?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** A fault that fired, as logged in the episode record. */
export interface FiredFault {
  readonly kind: string;
  readonly tool: string;
  readonly ordinal: number;
  readonly scope: 'transient' | 'persistent';
  /** For writes: whether it struck before or after the commit. */
  readonly phase?: CommitPhase;
  readonly variant?: string;
  /** True for a call refused inside a window (a rate limit's, or an outage's) that an earlier fault opened. */
  readonly window?: boolean;
  /** What the strike chose: status, Retry-After, delay, where a body was cut. */
  readonly detail?: Readonly<Record<string, string | number | boolean>>;
}

export interface TransientDecision {
  readonly kind: TransientFaultKind;
  readonly phase: CommitPhase;
}

export interface PersistentDecision {
  readonly kind: PersistentFaultKind;
  readonly variant: string;
}

export interface FaultInjectorOptions {
  /** Seed of the episode's fault stream: derived from (run, scenario, ε, λ, trial), never the agent. */
  readonly seed: string;
  readonly lambda: number;
  readonly profile: FaultProfile;
  readonly kinds: readonly FaultKind[];
  /** Parameters per kind id, validated by the kind's schema. */
  readonly params?: Readonly<Record<string, unknown>>;
}

/** The kinds' parameters, validated once per (kinds, profile, parameters) rather than once per episode. */
const paramsCache = new WeakMap<readonly FaultKind[], WeakMap<FaultProfile, WeakMap<object, ReadonlyMap<string, unknown>>>>();
const NO_PARAMS = {};

/**
 * Each kind's parameters, the profile's overridden by the run's, validated by the kind's schema. Shared by
 * every episode of the same kinds, profile and parameters, so frozen: a kind reads its parameters and
 * never changes them.
 */
function parsedParams(options: FaultInjectorOptions): ReadonlyMap<string, unknown> {
  let byProfile = paramsCache.get(options.kinds);
  if (!byProfile) paramsCache.set(options.kinds, (byProfile = new WeakMap()));
  let byParams = byProfile.get(options.profile);
  if (!byParams) byProfile.set(options.profile, (byParams = new WeakMap()));
  // No parameters, however given (a fresh `{}` per episode), share one validation.
  const key = options.params !== undefined && Object.keys(options.params).length > 0 ? options.params : NO_PARAMS;
  const cached = byParams.get(key);
  if (cached) return cached;
  const params = new Map<string, unknown>();
  for (const kind of options.kinds) {
    const given = { ...options.profile.params?.[kind.id], ...(options.params?.[kind.id] as Record<string, unknown> | undefined) };
    const parsed = kind.params.safeParse(given);
    if (!parsed.success) {
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to configure fault kind \`${kind.id}\`:\n${z.prettifyError(parsed.error)}\nFix \`faultParams.${kind.id}\` (or the profile's parameters).`);
    }
    params.set(kind.id, deepFreeze(parsed.data));
  }
  byParams.set(key, params);
  return params;
}

/**
 * Decides, for each (tool, ordinal of the call to that tool), whether a transient fault strikes, and for
 * each tool whether a persistent fault holds. Decisions are pure functions of the seed and the key
 * (DESIGN decision 4), so an extra call by the agent shifts no later fault.
 */
export class FaultInjector {
  readonly lambda: number;
  readonly state: FaultState = { window: null, inWindow: 0 };
  private readonly seed: string;
  private readonly kinds: ReadonlyMap<string, FaultKind>;
  private readonly transient: TransientFaultKind[];
  private readonly persistent: PersistentFaultKind[];
  private readonly weights: Record<string, number>;
  private readonly params: ReadonlyMap<string, unknown>;
  private readonly persistentCache = new Map<string, PersistentDecision | null>();
  private readonly target: FaultTarget | undefined;
  /** The profile's outage length when faults are bursty. */
  readonly outageMs: number | undefined;

  constructor(options: FaultInjectorOptions) {
    if (!(options.lambda >= 0 && options.lambda <= 1)) throw new RangeError(`λ must be in [0, 1], got ${options.lambda}`);
    this.seed = options.seed;
    this.lambda = options.lambda;
    this.kinds = new Map(options.kinds.map((k) => [k.id, k]));
    for (const id of Object.keys(options.profile.weights)) {
      if (!this.kinds.has(id)) throw unknownId('fault kind', id, [...this.kinds.keys()]);
    }
    this.weights = { ...options.profile.weights };
    this.transient = options.kinds.filter((k): k is TransientFaultKind => k.scope === 'transient' && (this.weights[k.id] ?? 0) > 0);
    this.persistent = options.kinds.filter((k): k is PersistentFaultKind => k.scope === 'persistent' && (this.weights[k.id] ?? 0) > 0);
    for (const id of Object.keys(options.params ?? {})) if (!this.kinds.has(id)) throw unknownId('fault kind', id, [...this.kinds.keys()]);
    for (const tool of options.profile.target?.tools ?? []) if (!/^[\w-]+$/.test(tool)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to target faults at tool \`${tool}\`: not a tool name.`);
    this.target = options.profile.target;
    this.outageMs = options.profile.burst?.outageMs;
    this.params = parsedParams(options);
  }

  /** Whether an active kind needs the database as it was before each write. */
  get history(): boolean {
    return this.lambda > 0 && this.transient.some((k) => k.history === true);
  }

  /** Whether the profile's target lets faults strike this tool. */
  targets(tool: ToolSpec): boolean {
    const t = this.target;
    if (!t) return true;
    if (t.tools && !t.tools.includes(tool.name)) return false;
    return t.access === undefined || (t.access === 'write') === tool.write;
  }

  paramsOf(kind: FaultKind): unknown {
    return this.params.get(kind.id);
  }

  /** The kind whose window is open at this simulated instant, if any, with the window's end. */
  openWindow(now: number): { kind: TransientFaultKind; until: number } | null {
    const w = this.state.window;
    const kind = w && now < w.until ? this.kinds.get(w.kind) : undefined;
    return kind?.scope === 'transient' && w ? { kind, until: w.until } : null;
  }

  /** The transient fault for this call, if any. */
  decide(tool: ToolSpec, ordinal: number): TransientDecision | null {
    if (this.lambda === 0 || this.transient.length === 0 || !this.targets(tool)) return null;
    const eligible = this.transient.filter((k) => applies(k.appliesTo, tool));
    if (eligible.length === 0) return null;
    const rng = makeRng(deriveSeed(this.seed, 'transient', tool.name, ordinal));
    const weights: Record<string, number> = {};
    let total = 0;
    for (const k of eligible) {
      weights[k.id] = this.weights[k.id] ?? 0;
      total += weights[k.id] ?? 0;
    }
    const u = rng();
    const pick = rng();
    const phaseDraw = rng();
    if (u >= this.lambda * Math.min(1, total)) return null;
    const id = pickWeighted(pick, weights);
    const kind = eligible.find((k) => k.id === id);
    if (!kind) return null;
    const share = (this.params.get(kind.id) as { afterCommit?: number } | undefined)?.afterCommit ?? 0;
    const phase: CommitPhase = tool.write && kind.canStrikeAfterCommit && phaseDraw < share ? 'after' : 'before';
    return { kind, phase };
  }

  /** The persistent fault holding on this tool for the whole episode, if any. */
  persistentFor(tool: ToolSpec): PersistentDecision | null {
    const cached = this.persistentCache.get(tool.name);
    if (cached !== undefined) return cached;
    let decision: PersistentDecision | null = null;
    if (this.lambda > 0 && this.targets(tool)) {
      for (const kind of this.persistent) {
        if (!applies(kind.appliesTo, tool)) continue;
        const rng = makeRng(deriveSeed(this.seed, 'persistent', tool.name, kind.id));
        if (rng() < this.lambda * Math.min(1, this.weights[kind.id] ?? 0)) {
          decision = { kind, variant: kind.variant(rng, this.params.get(kind.id) as never, tool) };
          break;
        }
      }
    }
    this.persistentCache.set(tool.name, decision);
    return decision;
  }

  /** A stream for the strike itself (e.g. which status, how long a Retry-After), keyed like the decision. */
  strikeRng(tool: ToolSpec, ordinal: number): Rng {
    return makeRng(deriveSeed(this.seed, 'strike', tool.name, ordinal));
  }
}

function applies(target: 'read' | 'write' | 'any', tool: ToolSpec): boolean {
  return target === 'any' || (target === 'write') === tool.write;
}

/** One planned fault: what strikes which call (transient) or which tool for the episode (persistent). */
export interface PlannedFault {
  readonly tool: string;
  /** The call to that tool, counting from 0; absent for a persistent fault. */
  readonly ordinal?: number;
  readonly kind: string;
  readonly scope: 'transient' | 'persistent';
  /** For a transient fault on a write that can strike after the commit: where it strikes. */
  readonly phase?: CommitPhase;
  /** For a persistent fault: its variant (which drift). */
  readonly variant?: string;
}

/**
 * The faults the seed plans for the first `calls` calls to each tool, and the persistent faults of the
 * episode: what `shakedown faults` prints. Windows and outages that a strike opens come on top, since
 * they depend on when the agent calls.
 */
export function faultSchedule(injector: FaultInjector, tools: readonly ToolSpec[], calls: number): PlannedFault[] {
  const out: PlannedFault[] = [];
  for (const tool of tools) {
    const persistent = injector.persistentFor(tool);
    if (persistent) out.push({ tool: tool.name, kind: persistent.kind.id, scope: 'persistent', variant: persistent.variant });
    for (let i = 0; i < calls; i++) {
      const d = injector.decide(tool, i);
      if (d) out.push({ tool: tool.name, ordinal: i, kind: d.kind.id, scope: 'transient', ...(tool.write && d.kind.canStrikeAfterCommit ? { phase: d.phase } : {}) });
    }
  }
  return out;
}

/** The schedule of transient faults for the first `calls` calls to each tool: for inspection and tests. */
export function transientSchedule(injector: FaultInjector, tools: readonly ToolSpec[], calls: number): { tool: string; ordinal: number; kind: string; phase: CommitPhase }[] {
  const out: { tool: string; ordinal: number; kind: string; phase: CommitPhase }[] = [];
  for (const tool of tools) {
    for (let i = 0; i < calls; i++) {
      const d = injector.decide(tool, i);
      if (d) out.push({ tool: tool.name, ordinal: i, kind: d.kind.id, phase: d.phase });
    }
  }
  return out;
}
