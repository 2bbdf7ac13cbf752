import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';
import { isPlainObject } from '../src/ground/shape.js';

const params = z.object({}).strict();

/**
 * A write over several items commits some of them and answers as if it had done all: a batch that
 * stopped at its first failure and reported the batch, a fan-out whose last shard timed out silently.
 * The items are the body's top-level lists of two or more (lists of the same length are cut together,
 * as paired lists of items and their replacements are); the part kept is a seeded prefix.
 */
export const partialCommit: TransientFaultKind<typeof params> = {
  id: 'partial-commit',
  description: 'a write over several items commits only some and answers as if it had done all',
  scope: 'transient',
  touches: ['body'],
  appliesTo: 'write',
  canStrikeAfterCommit: false,
  lies: true,
  params,
  async strike(ctx) {
    const body = ctx.body;
    const lists = isPlainObject(body) ? Object.entries(body).filter(([, v]) => Array.isArray(v) && v.length >= 2) : [];
    const n = (lists[0]?.[1] as unknown[] | undefined)?.length ?? 0;
    if (!isPlainObject(body) || n < 2) {
      // One item, or none: nothing to leave out. The truth.
      ctx.note({ lied: false });
      return ctx.real();
    }
    const kept = 1 + Math.floor(ctx.rng() * (n - 1));
    const cut = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, Array.isArray(v) && v.length === n ? v.slice(0, kept) : v]));
    // Both answers from copies first: the one for all items (what the agent is told), and whether the
    // part alone would commit.
    const all = await ctx.pretend();
    const part = await ctx.pretend({ body: cut });
    const ok = (r: Response | null) => r !== null && r.status >= 200 && r.status < 300;
    if (!ok(all) || !ok(part)) {
      ctx.note({ lied: false });
      return ctx.real();
    }
    await ctx.commit(cut);
    ctx.note({ lied: true, kept, of: n });
    return all as Response;
  },
};
