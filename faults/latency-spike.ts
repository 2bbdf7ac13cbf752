import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';

const params = z
  .object({
    /** Shortest extra delay, simulated ms. @default 2000 */
    minMs: z.number().int().min(0).default(2_000),
    /** Longest extra delay, simulated ms. @default 12000 */
    maxMs: z.number().int().min(0).default(12_000),
  })
  .strict();

/** Slow but correct: the real response, after a delay on the episode clock. */
export const latencySpike: TransientFaultKind<typeof params> = {
  id: 'latency-spike',
  description: 'slow but correct: the real response after 2-12 s of simulated delay',
  scope: 'transient',
  touches: ['timing'],
  appliesTo: 'any',
  canStrikeAfterCommit: false,
  params,
  async strike(ctx, p) {
    const lo = Math.min(p.minMs, p.maxMs);
    const hi = Math.max(p.minMs, p.maxMs);
    const delayMs = Math.round(lo + ctx.rng() * (hi - lo));
    ctx.note({ delayMs });
    await ctx.clock.sleep(delayMs, ctx.signal);
    return ctx.real();
  },
};
