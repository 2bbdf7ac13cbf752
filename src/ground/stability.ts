/**
 * What makes two trials of a task "the same" for the stability metrics (docs/statistics.md, "Stability"):
 * the same final state, and the same path. Both are kept in the record as short keys, so that reading a
 * run of a million records needs no diff or trace parsed again.
 *
 * - **State**: the episode's final database in the comparator's canonical form (volatile fields out),
 *   named by its differences from the task's goal (each difference's path, kind and actual value). Two
 *   trials end in the same state exactly when their differences from the same goal are the same; every
 *   passing trial ends in the goal.
 * - **Path**: the writes that changed the database, in the order they did, with three rules that set
 *   equivalent paths together: (1) reads are set aside (they change nothing); (2) writes that changed
 *   nothing (refused, failed before commit, answered from the idempotency store) are set aside; (3) writes
 *   to different records commute: a path is, per record, the writes to it in order, and the records in a
 *   fixed order. A write's record is its URL path without a final action word (`/orders/%23W1/cancel`
 *   writes `/orders/%23W1`).
 */
import { createHash } from 'node:crypto';
import { stableJson, type DiffEntry } from './canonical.js';
import type { TraceEntry } from './runtime.js';

const short = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The key of a final state: its differences from the goal, in path order. */
export function stateKey(diff: readonly DiffEntry[]): string {
  return short(stableJson([...diff].map((d) => [d.path, d.kind, d.actual ?? null]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0))));
}

/**
 * The record a write changes: its URL path without the final action word of the tool's path template
 * (`/orders/{orderId}/cancel` writes `/orders/%23W1`; `/users/{userId}` writes `/users/alice`). Without
 * a template, a final segment of letters is taken for the action word.
 */
export function writeTarget(path: string, template?: string): string {
  const bare = path.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '').replace(/\/+$/, '');
  const parts = bare.split('/');
  const last = template?.replace(/\/+$/, '').split('/').at(-1);
  const action = last !== undefined ? !last.includes('{') : parts.length > 2 && /^[a-z][a-z_-]*$/i.test(parts[parts.length - 1] as string);
  return action && parts.length > 2 ? parts.slice(0, -1).join('/') : bare;
}

/** The path a trace takes under the three rules, one line per record: `record: write(args) > write(args)`. */
export function pathOf(trace: readonly TraceEntry[], templates: ReadonlyMap<string, string> = new Map()): string[] {
  const perRecord = new Map<string, string[]>();
  for (const t of trace) {
    if (t.effect !== true || t.tool === null) continue;
    const target = writeTarget(t.path, templates.get(t.tool));
    const list = perRecord.get(target) ?? [];
    list.push(`${t.tool}(${stableJson(t.args ?? {})})`);
    perRecord.set(target, list);
  }
  return [...perRecord.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([target, writes]) => `${target}: ${writes.join(' > ')}`);
}

/** The key of a path. */
export const pathKey = (trace: readonly TraceEntry[], templates?: ReadonlyMap<string, string>): string => short(pathOf(trace, templates).join('\n'));

/** The world's tools' path templates by name, for `writeTarget`. */
const templatesOf = new WeakMap<readonly { readonly name: string; readonly path: string }[], ReadonlyMap<string, string>>();

/** The stability fields every record carries: the keys of its state and path, and its user turns. */
export function stabilityFields(diff: readonly DiffEntry[], trace: readonly TraceEntry[], messages: readonly { readonly role: string }[], tools: readonly { readonly name: string; readonly path: string }[] = []): { stateKey: string; pathKey: string; turns: number } {
  let templates = templatesOf.get(tools);
  if (!templates) templatesOf.set(tools, (templates = new Map(tools.map((t) => [t.name, t.path]))));
  return { stateKey: stateKey(diff), pathKey: pathKey(trace, templates), turns: messages.filter((m) => m.role === 'user').length };
}
