// The benchmark tests itself by mutation (DESIGN decision 18): a correct agent with one planted bug must
// be caught where its bug can bite (its verdict differs from its base's), and a control (the same wrapper
// without the bug) must match its base.
import type { Agent, AgentContext, AgentFactory } from '../agents/contract.js';
import { runEpisode, type EpisodeOptions, type WorldHarness } from './episode.js';
import { type EpisodeKey } from '../ground/record.js';
import type { FaultProfile } from '../ground/faults.js';
import type { Scenario } from '../ground/scenario.js';

/** A cell where a bug can bite: an (ε, λ) and the fault profile that makes it bite. */
export interface BiteCell {
  readonly eps: number;
  readonly lambda: number;
  /** Fault profile id. @default the run's profile */
  readonly profile?: string;
}

/** A planted-bug agent: a correct base agent and the one bug wrapped around it. */
export interface Mutant {
  readonly id: string;
  /** The bug, in a sentence. */
  readonly description: string;
  /** The agent spec of the correct base, e.g. `reference:none`. */
  readonly base: string;
  /** Where the bug can bite; it must be caught in at least one task in each. */
  readonly bites: readonly BiteCell[];
  /** The failure classes a catch is expected under (informative; any failure counts as a catch). */
  readonly expect?: readonly string[];
  /**
   * A probe of correct behaviour, not a bug: a change the judge must not mind (an amount said only in
   * the proposal, a stock closing line). It passes where its base passes, in every cell it runs in.
   */
  readonly probe?: true;
  /** Wraps the base factory with the bug. */
  mutate(base: AgentFactory): AgentFactory;
}

/** What the self-test found for one mutant at one cell. */
export interface MutantCell {
  readonly cell: BiteCell;
  /** Whether the bug can bite here (a listed cell) or the cell checks that nothing else changed. */
  readonly bites: boolean;
  /** Tasks where the mutant's verdict on an episode differs from the base's: a failure where the base passed, or another failure class. */
  readonly caught: readonly string[];
  /** Failure classes of the caught episodes, counted. */
  readonly classes: Readonly<Record<string, number>>;
  /** Tasks where the mutant passed an episode the base did not (should stay empty). */
  readonly better: readonly string[];
}

export interface MutantResult {
  readonly id: string;
  readonly description: string;
  readonly base: string;
  readonly cells: readonly MutantCell[];
  /**
   * `caught` when caught in a task at every cell where it bites and nowhere else; else `missed` or
   * `noisy`. A probe `passes` when no cell tells it from its base, else it is `flagged`.
   */
  readonly verdict: 'caught' | 'missed' | 'noisy' | 'passes' | 'flagged';
}

export interface SelfTestResult {
  readonly mutants: readonly MutantResult[];
  /** Each control against its base: episodes compared and those whose outcome or failure class differ. */
  readonly controls: readonly { readonly base: string; readonly episodes: number; readonly differing: readonly string[] }[];
  readonly ok: boolean;
}

/** The quiet cell: where a bug that needs faults or wording changes must leave every outcome as it is. */
const QUIET: BiteCell = { eps: 0, lambda: 0 };

const sameCell = (a: BiteCell, b: BiteCell) => a.eps === b.eps && a.lambda === b.lambda && (a.profile ?? '') === (b.profile ?? '');

/**
 * A wrapper that passes everything through: the same shape as a mutant's (a context with a wrapped
 * fetch, a wrapped reply), so that a difference between a mutant and its base is the bug's alone.
 */
export function controlOf(base: AgentFactory): AgentFactory {
  return {
    id: `control(${base.id})`,
    description: `${base.id} inside a pass-through wrapper`,
    ...(base.worlds ? { worlds: base.worlds } : {}),
    async create(ctx: AgentContext): Promise<Agent> {
      const fetch: typeof globalThis.fetch = (input, init) => ctx.fetch(input, init);
      const inner = await base.create({ ...ctx, fetch });
      return { reply: (m) => inner.reply(m), ...(inner.close ? { close: () => inner.close?.() } : {}) };
    },
  };
}

/**
 * Runs each mutant and its base over the scenarios at the cells where its bug bites (and at ε = λ = 0,
 * where a bug that needs faults must change nothing), and the control against its base everywhere.
 */
export async function runSelfTest(input: {
  readonly harness: WorldHarness;
  readonly scenarios: readonly Scenario[];
  readonly mutants: readonly Mutant[];
  readonly resolve: (spec: string) => AgentFactory;
  readonly options: (profile: string | undefined) => EpisodeOptions;
  readonly trials: number;
  readonly profileOf: (id: string | undefined) => FaultProfile;
  readonly onProgress?: (done: string) => void;
}): Promise<SelfTestResult> {
  const { harness, scenarios, trials } = input;
  // Outcomes by agent, cell and key; each (agent, cell) runs once however many mutants share it.
  const runs = new Map<string, Promise<Map<string, { pass: boolean; failure?: string }>>>();
  const run = (factory: AgentFactory, label: string, cell: BiteCell) => {
    const id = `${label}|${cell.eps}|${cell.lambda}|${cell.profile ?? ''}`;
    let p = runs.get(id);
    if (!p) {
      p = (async () => {
        const out = new Map<string, { pass: boolean; failure?: string }>();
        const options = input.options(cell.profile);
        for (const s of scenarios) {
          const prepared = await harness.prepare(s);
          for (let t = 0; t < trials; t++) {
            const key: EpisodeKey = { scenario: s.id, agent: factory.id, eps: cell.eps, lambda: cell.lambda, trial: t };
            const r = await runEpisode(harness, prepared, factory, key, options);
            out.set(`${s.id}|${t}`, { pass: r.outcome === 'pass', ...(r.failure ? { failure: r.failure } : {}) });
          }
        }
        input.onProgress?.(id);
        return out;
      })();
      runs.set(id, p);
    }
    return p;
  };

  const results: MutantResult[] = [];
  for (const m of input.mutants) {
    const base = input.resolve(m.base);
    const mutant = m.mutate(base);
    const cells = m.bites.some((c) => sameCell(c, QUIET)) ? m.bites : [...m.bites, QUIET];
    const out: MutantCell[] = [];
    for (const cell of cells) {
      const [b, x] = await Promise.all([run(base, m.base, cell), run(mutant, `mutant:${m.id}`, cell)]);
      const caught = new Set<string>();
      const better = new Set<string>();
      const classes: Record<string, number> = {};
      for (const [k, bo] of b) {
        const xo = x.get(k);
        const task = k.slice(0, k.lastIndexOf('|'));
        // Caught: the verdict changed, from a pass to a failure or from one failure class to another
        // (a write that failed is a missing write for the base, a false claim for a mutant that lies).
        if (xo && !xo.pass && (bo.pass || xo.failure !== bo.failure)) {
          caught.add(task);
          classes[xo.failure ?? 'fail'] = (classes[xo.failure ?? 'fail'] ?? 0) + 1;
        }
        if (!bo.pass && xo?.pass) better.add(task);
      }
      out.push({ cell, bites: m.bites.some((c) => sameCell(c, cell)), caught: [...caught].sort(), classes, better: [...better].sort() });
    }
    const missed = out.some((c) => c.bites && c.caught.length === 0);
    const noisy = out.some((c) => !c.bites && c.caught.length > 0);
    const flagged = out.some((c) => c.caught.length > 0);
    const verdict = m.probe ? (flagged ? 'flagged' : 'passes') : missed ? 'missed' : noisy ? 'noisy' : 'caught';
    results.push({ id: m.id, description: m.description, base: m.base, cells: out, verdict });
  }

  // One control per base the mutants name, at every cell its mutants used.
  const controls: { base: string; episodes: number; differing: string[] }[] = [];
  for (const baseSpec of [...new Set(input.mutants.map((m) => m.base))]) {
    const base = input.resolve(baseSpec);
    const control = controlOf(base);
    const cells: BiteCell[] = [];
    for (const m of input.mutants.filter((x) => x.base === baseSpec)) for (const c of [...m.bites, QUIET]) if (!cells.some((x) => sameCell(x, c))) cells.push(c);
    const differing: string[] = [];
    let episodes = 0;
    for (const cell of cells) {
      const [b, x] = await Promise.all([run(base, baseSpec, cell), run(control, `control:${baseSpec}`, cell)]);
      for (const [k, bo] of b) {
        episodes++;
        const xo = x.get(k);
        if (!xo || xo.pass !== bo.pass || xo.failure !== bo.failure) differing.push(`${k} at ε=${cell.eps} λ=${cell.lambda}${cell.profile ? ` (${cell.profile})` : ''}`);
      }
    }
    controls.push({ base: baseSpec, episodes, differing });
  }
  return { mutants: results, controls, ok: results.every((r) => r.verdict === 'caught' || r.verdict === 'passes') && controls.every((c) => c.differing.length === 0) };
}

