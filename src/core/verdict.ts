// The verdict on an episode: whether its final database and what the agent said meet the goal, and
// if not, which failure class it falls in.
import { canonicalize, diffCanonical, diffSparse, outputMatches, type DiffEntry } from './canonical.js';
import type { OverlayDb } from './overlay.js';
import type { EpisodeOutcome, EpisodeRecord, PreparedScenario } from './episode.js';
import type { FailureClass } from './stats.js';
import type { WorldDefinition } from './world.js';

/**
 * Compares the final database with the gold state and checks the required outputs. With the episode's
 * overlay, only the entries it touched and those the gold actions change are compared; the result is
 * the same as comparing the whole database.
 */
export function judge(world: WorldDefinition, finalDb: unknown, prepared: PreparedScenario, agentTexts: readonly string[], overlay?: OverlayDb): { diff: DiffEntry[]; missingOutputs: string[]; wrongActions: number } {
  let diffFrom: (expected: unknown) => DiffEntry[];
  if (overlay) {
    // Both comparisons below look at the same entries: gather them once per field.
    const gathered = new Map<string, ReadonlySet<string> | undefined>();
    const candidates = (field: string): ReadonlySet<string> | undefined => {
      if (gathered.has(field)) return gathered.get(field);
      const touched = overlay.touched(field);
      const gold = prepared.goldChanged.get(field);
      const keys = touched && gold && gold.size > 0 ? new Set([...touched, ...gold]) : touched;
      gathered.set(field, keys);
      return keys;
    };
    diffFrom = (expected) => diffSparse(world.dbSchema, expected, overlay.db, candidates);
  } else {
    const finalCanonical = canonicalize(world.dbSchema, finalDb);
    diffFrom = (expected) => diffCanonical(expected, finalCanonical);
  }
  const diff = diffFrom(prepared.goldCanonical);
  const said = agentTexts.join('\n');
  const missingOutputs = prepared.scenario.outputs.filter((o) => !outputMatches(o, said));
  // A wrong action changed something away from both the start and the goal; an action not taken did not.
  const changed = new Set(diff.length === 0 ? [] : diffFrom(prepared.initialCanonical).map((d) => d.path));
  const wrongActions = diff.filter((d) => changed.has(d.path)).length;
  return { diff, missingOutputs, wrongActions };
}

/**
 * The failure class of an episode that did not pass: how it ended for errors, a hand-off, or what its
 * diff shows (a duplicate, a wrong change where the goal changes something, any change where the goal is
 * a refusal, a write not made, or only an output not stated).
 */
export function classifyFailure(e: {
  outcome: EpisodeOutcome;
  ended: EpisodeRecord['ended'];
  errorName?: string | undefined;
  diff: readonly DiffEntry[];
  missingOutputs: readonly string[];
  wrongActions: number;
  goldChangesState: boolean;
}): FailureClass | undefined {
  if (e.outcome === 'pass') return undefined;
  if (e.outcome === 'error') return e.errorName === 'WorldError' ? 'world-error' : e.ended === 'deadline' ? 'deadline' : e.ended === 'simulator-error' ? 'simulator-error' : 'agent-error';
  if (e.outcome === 'escalated') return 'escalated';
  if (e.diff.some((d) => d.kind === 'duplicated')) return 'duplicated-write';
  if (e.wrongActions > 0) return e.goldChangesState ? 'wrong-target-or-value' : 'policy-violation';
  if (e.diff.length > 0) return 'missing-write';
  return 'missing-output';
}
