import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';

const params = z.object({}).strict();

/**
 * A write is acknowledged with the answer it would have had, and nothing is committed: a primary that
 * acknowledged before a failover lost the write, a queue that dropped the job after the 202, a cache
 * that answered for a service that never saw the call. The agent sees success; the state check does not.
 */
export const silentWrite: TransientFaultKind<typeof params> = {
  id: 'silent-write',
  description: 'a write answers with its real success body and commits nothing (a lost acknowledged write)',
  scope: 'transient',
  touches: ['body'],
  appliesTo: 'write',
  canStrikeAfterCommit: false,
  lies: true,
  params,
  async strike(ctx) {
    // The answer as if it committed, from a copy of the database that is thrown away.
    const answer = await ctx.pretend();
    if (!answer || answer.status < 200 || answer.status >= 300) {
      // The write would have failed anyway: the truth (a refusal commits nothing), no lie told.
      ctx.note({ lied: false });
      return answer ?? ctx.real();
    }
    ctx.note({ lied: true, status: answer.status });
    return answer;
  },
};
