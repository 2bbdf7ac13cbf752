import { episodeSeeds } from '../ground/record.js';
import { joinSegments, perturb, tokenDistance, type ResolvedFamily, type Segment } from '../ground/perturb.js';
import type { Scenario } from '../ground/scenario.js';
import { makeRng } from '../ground/seeds.js';
import { ScriptedUser } from '../user/index.js';
import type { WorldDefinition } from '../ground/world.js';

/** One perturbed opening message beside its original. */
export interface PerturbSample {
  /** The trial whose first message this is: a sweep's episode at this ε and trial sees exactly this text. */
  readonly trial: number;
  readonly original: string;
  readonly perturbed: string;
  readonly applied: readonly string[];
  readonly rejected: readonly string[];
  /** The entities of the original message and how the perturbed message writes them (`undefined` when held back for later turns). */
  readonly entities: readonly { readonly slot: string; readonly value: string; readonly written?: string }[];
  /** Normalised token edit distance from the original. */
  readonly distance: number;
}

/**
 * The first user message of a scenario at ε for trials 0..samples-1, perturbed exactly as in a sweep
 * with the same run seed.
 */
export function perturbSamples(world: WorldDefinition, scenario: Scenario, eps: number, families: readonly ResolvedFamily[], runSeed: string, samples: number): PerturbSample[] {
  const out: PerturbSample[] = [];
  for (let trial = 0; trial < samples; trial++) {
    const seeds = episodeSeeds(runSeed, { scenario: scenario.id, agent: '', eps, lambda: 0, trial });
    const user = new ScriptedUser(scenario, world.userLanguage, makeRng(seeds.user));
    const message = user.opening();
    const result = perturb(message.segments, eps, families, seeds.perturbation, 0, message.about, world.userLanguage);
    const original = joinSegments(message.segments);
    const perturbed = joinSegments(result.segments);
    out.push({
      trial,
      original,
      perturbed,
      applied: result.applied,
      rejected: result.rejected,
      entities: entitiesOf(message.segments, result.segments),
      distance: tokenDistance(original, perturbed),
    });
  }
  return out;
}

function entitiesOf(before: readonly Segment[], after: readonly Segment[]): PerturbSample['entities'] {
  const standing = after.filter((s) => s.protected && !s.retracted);
  return before
    .filter((s) => s.protected && s.slot)
    .map((s) => {
      const value = s.value ?? s.text;
      const written = standing.find((a) => a.slot === s.slot && (a.value ?? a.text) === value)?.text;
      return { slot: s.slot as string, value, ...(written === undefined ? {} : { written }) };
    });
}

/** The measured variation at one ε. */
export interface LadderStep {
  readonly eps: number;
  readonly messages: number;
  /** Mean normalised token edit distance from the original. */
  readonly meanDistance: number;
  /** Share of messages some family changed. */
  readonly changed: number;
  /** Family outputs discarded because an entity was lost, per message. */
  readonly rejectedPerMessage: number;
  /** Share of messages each family changed. */
  readonly families: Readonly<Record<string, number>>;
}

/** Measures the ε ladder: mean distance of perturbed opening messages from their originals at each ε. */
export function measureLadder(world: WorldDefinition, scenarios: readonly Scenario[], levels: readonly number[], families: readonly ResolvedFamily[], runSeed: string, samples: number): LadderStep[] {
  return levels.map((eps) => {
    let distance = 0;
    let changed = 0;
    let rejected = 0;
    let messages = 0;
    const fired: Record<string, number> = Object.fromEntries(families.map((f) => [f.family.id, 0]));
    for (const scenario of scenarios) {
      for (const s of perturbSamples(world, scenario, eps, families, runSeed, samples)) {
        messages++;
        distance += s.distance;
        if (s.applied.length > 0) changed++;
        rejected += s.rejected.length;
        for (const id of s.applied) fired[id] = (fired[id] ?? 0) + 1;
      }
    }
    const per = (n: number) => (messages === 0 ? 0 : n / messages);
    return {
      eps,
      messages,
      meanDistance: per(distance),
      changed: per(changed),
      rejectedPerMessage: per(rejected),
      families: Object.fromEntries(Object.entries(fired).map(([id, n]) => [id, per(n)])),
    };
  });
}
