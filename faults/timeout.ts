import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';

const params = z
  .object({
  /** Simulated time the call hangs before the gateway gives up. @default 30000 */
  gatewayMs: z.number().int().positive().default(30_000),
  /** Share of timeouts on writes that strike after the database changed. @default 0.5 */
  afterCommit: z.number().min(0).max(1).default(0.5),
  })
  .strict();

/** The call hangs until a simulated gateway deadline passes, then fails with 504. */
export const timeout: TransientFaultKind<typeof params> = {
  id: 'timeout',
  description: 'the call hangs until a simulated gateway deadline passes, then fails with 504 (writes may have committed)',
  scope: 'transient',
  touches: ['timing', 'status'],
  appliesTo: 'any',
  canStrikeAfterCommit: true,
  params,
  async strike(ctx, p) {
    ctx.note({ status: 504, gatewayMs: p.gatewayMs });
    await ctx.clock.sleep(p.gatewayMs, ctx.signal);
    return Response.json({ error: 'gateway_timeout', message: 'The upstream service did not answer in time.' }, { status: 504 });
  },
};
