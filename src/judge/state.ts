// The state part of the verdict: the final database against the gold state (DESIGN decision 8).
import { canonicalize, diffCanonical, diffSparse, type DiffEntry } from '../ground/canonical.js';
import type { OverlayDb } from '../ground/overlay.js';
import type { PreparedScenario } from '../ground/record.js';
import type { WorldDefinition } from '../ground/world.js';

/** The final state against the goal: what differs, and how many of the differences are wrong actions. */
export interface StateVerdict {
  readonly diff: DiffEntry[];
  /** Differences that changed something away from both the start and the goal (a wrong action, not an action not taken). */
  readonly wrongActions: number;
}

/**
 * Compares the final database with the gold state. With the episode's overlay, only the entries it
 * touched and those the gold actions change are compared; the result is the same as comparing the
 * whole database.
 */
export function compareState(world: WorldDefinition, finalDb: unknown, prepared: PreparedScenario, overlay?: OverlayDb): StateVerdict {
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
  // A wrong action changed something away from both the start and the goal; an action not taken did not.
  const changed = new Set(diff.length === 0 ? [] : diffFrom(prepared.initialCanonical).map((d) => d.path));
  const wrongActions = diff.filter((d) => changed.has(d.path)).length;
  return { diff, wrongActions };
}
