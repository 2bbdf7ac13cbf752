import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';

const params = z
  .object({
    /** Smallest share of the body that arrives. @default 0.2 */
    minKeep: z.number().min(0).max(1).default(0.2),
    /** Largest share of the body that arrives. @default 0.8 */
    maxKeep: z.number().min(0).max(1).default(0.8),
  })
  .strict();

/**
 * The world answers, but the body arrives cut short: status 200 and JSON that does not parse. A write
 * has committed; the agent cannot read whether it did.
 */
export const truncatedBody: TransientFaultKind<typeof params> = {
  id: 'truncated-body',
  description: 'the response arrives cut short: 200 with JSON that stops midway (a write has committed)',
  scope: 'transient',
  touches: ['body'],
  appliesTo: 'any',
  canStrikeAfterCommit: false,
  params,
  async strike(ctx, p) {
    const real = await ctx.real();
    const text = await real.text();
    const lo = Math.min(p.minKeep, p.maxKeep);
    const hi = Math.max(p.minKeep, p.maxKeep);
    // At least one character goes missing, so the body never parses whole.
    const keep = Math.min(text.length - 1, Math.max(1, Math.floor(text.length * (lo + ctx.rng() * (hi - lo)))));
    ctx.note({ status: 200, keptBytes: keep, ofBytes: text.length });
    return new Response(text.slice(0, Math.max(0, keep)), { status: 200, headers: { 'content-type': 'application/json' } });
  },
};
