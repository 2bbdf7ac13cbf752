import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';
import type { Rng } from '../src/ground/seeds.js';
import { isPlainObject } from '../src/ground/shape.js';

const params = z
  .object({
    /** Fields never changed: identifiers and the identity a lookup matches on (a wrong one fails loudly, not plausibly). */
    keep: z.array(z.string()).default(['id', 'email', 'name', 'firstName', 'lastName', 'dob', 'zip']),
  })
  .strict();

interface Leaf {
  readonly path: readonly (string | number)[];
  readonly key: string;
  readonly value: string | number | boolean;
}

function leaves(value: unknown, path: (string | number)[] = [], key = ''): Leaf[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i], key));
  if (isPlainObject(value)) return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k], k));
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [{ path, key, value }];
  return [];
}

/** Another valid value of the leaf's type: a number moved a little (money to the cent), a flag flipped, another value the same field takes in the answer. */
function otherValue(leaf: Leaf, all: readonly Leaf[], rng: Rng): string | number | boolean | undefined {
  const v = leaf.value;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') {
    if (Number.isInteger(v)) {
      const step = Math.max(1, Math.round(Math.abs(v) * (0.1 + 0.2 * rng())));
      return v - step >= 0 && rng() < 0.5 ? v - step : v + step;
    }
    const factor = rng() < 0.5 ? 1 - (0.05 + 0.25 * rng()) : 1 + (0.05 + 0.25 * rng());
    const moved = Math.round(v * factor * 100) / 100;
    return moved === v ? Math.round((v + 1) * 100) / 100 : moved;
  }
  // A string: only another value the same field has elsewhere in the answer (a status, a colour, a
  // cabin), never an invented one.
  const others = [...new Set(all.filter((l) => l.key === leaf.key && typeof l.value === 'string' && l.value !== v).map((l) => l.value as string))];
  return others.length > 0 ? others[Math.floor(rng() * others.length)] : undefined;
}

function setAt(body: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

/**
 * A read answers 200 with one field changed to another valid value of its type: a mis-joined row, a
 * currency or unit converted twice, a cache entry of a neighbouring record. Nothing in the answer's
 * shape says so; only a second source (another read, the user) can.
 */
export const wrongValue: TransientFaultKind<typeof params> = {
  id: 'wrong-value',
  description: 'a read answers with one field changed to another plausible value of its type (a number, a flag, a status)',
  scope: 'transient',
  touches: ['body'],
  appliesTo: 'read',
  canStrikeAfterCommit: false,
  lies: true,
  params,
  async strike(ctx, p) {
    const real = await ctx.real();
    const text = real.status >= 200 && real.status < 300 ? await real.clone().text() : '';
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const keep = new Set(p.keep.map((k) => k.toLowerCase()));
    const all = leaves(body);
    // Fields it may change: not ids or identity, not id-like strings, and a string only where the same
    // field takes another value elsewhere in the answer.
    const alternatives = (l: Leaf) => typeof l.value !== 'string' || all.some((o) => o.key === l.key && typeof o.value === 'string' && o.value !== l.value);
    const candidates = all.filter((l) => l.key !== '' && !keep.has(l.key.toLowerCase()) && !/id$/i.test(l.key) && !(typeof l.value === 'string' && /^[#\w-]*\d{3,}/.test(l.value)) && alternatives(l));
    const leaf = candidates[Math.floor(ctx.rng() * candidates.length)];
    const other = leaf ? otherValue(leaf, all, ctx.rng) : undefined;
    if (!leaf || other === undefined) {
      ctx.note({ lied: false });
      return real;
    }
    ctx.note({ lied: true, field: leaf.path.join('.'), was: String(leaf.value), now: String(other) });
    return Response.json(setAt(body, leaf.path, other), { status: real.status });
  },
};
