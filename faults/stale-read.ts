import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';

const params = z.object({}).strict();

/**
 * A read answers with the record as it was before the episode's last write: a replica that lags the
 * primary, a cache not yet invalidated. Before any write, or where the last write changed nothing the
 * read shows, the answer is true and no lie is logged.
 */
export const staleRead: TransientFaultKind<typeof params> = {
  id: 'stale-read',
  description: "a read answers with the state before the episode's last write (a lagging replica or a stale cache)",
  scope: 'transient',
  touches: ['body'],
  appliesTo: 'read',
  canStrikeAfterCommit: false,
  lies: true,
  history: true,
  params,
  async strike(ctx) {
    const stale = await ctx.pretend({ state: 'before-last-write' });
    const real = await ctx.real();
    if (!stale || stale.status !== real.status) {
      ctx.note({ lied: false });
      return real;
    }
    const [then, now] = await Promise.all([stale.clone().text(), real.clone().text()]);
    if (then === now) {
      ctx.note({ lied: false });
      return real;
    }
    ctx.note({ lied: true });
    return stale;
  },
};
