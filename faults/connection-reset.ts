import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';

const params = z
  .object({
    /** Share of resets on writes that strike after the database changed. @default 0.5 */
    afterCommit: z.number().min(0).max(1).default(0.5),
  })
  .strict();

/**
 * The error Node's own fetch (undici) rejects with when the peer resets the connection: a TypeError
 * "fetch failed" whose cause is a system error with code ECONNRESET.
 */
export function connectionResetError(): TypeError {
  const cause = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
  return new TypeError('fetch failed', { cause });
}

/** The connection is reset: the fetch rejects as Node's fetch does. On a write, before or after the commit. */
export const connectionReset: TransientFaultKind<typeof params> = {
  id: 'connection-reset',
  description: "the connection is reset: fetch rejects with TypeError 'fetch failed', cause ECONNRESET (writes may have committed)",
  scope: 'transient',
  touches: ['connection'],
  appliesTo: 'any',
  canStrikeAfterCommit: true,
  params,
  async strike() {
    throw connectionResetError();
  },
};
