import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';

const params = z
  .object({
  /** Smallest Retry-After, in seconds. @default 1 */
  minRetryAfterSeconds: z.number().int().min(1).default(1),
  /** Largest Retry-After, in seconds. @default 4 */
  maxRetryAfterSeconds: z.number().int().min(1).default(4),
  /** Whether calls inside the Retry-After window are refused too. @default true */
  window: z.boolean().default(true),
    /** How Retry-After is written: delay seconds, an HTTP date, or either at random. @default "mixed" */
    retryAfterFormat: z.enum(['seconds', 'http-date', 'mixed']).default('mixed'),
  })
  .strict();

/** 429 Too Many Requests with Retry-After; further calls fail until the window has passed. */
export const rateLimit: TransientFaultKind<typeof params> = {
  id: 'rate-limit',
  description: '429 Too Many Requests with Retry-After (seconds or an HTTP date); calls inside the window fail too',
  scope: 'transient',
  touches: ['status', 'timing'],
  appliesTo: 'any',
  canStrikeAfterCommit: false,
  params,
  async strike(ctx, p) {
    let seconds: number;
    if (ctx.windowUntil !== undefined) {
      // Inside the window an earlier 429 opened: say how long is left of it.
      seconds = Math.max(1, Math.ceil((ctx.windowUntil - ctx.clock.now()) / 1000));
    } else {
      const lo = Math.min(p.minRetryAfterSeconds, p.maxRetryAfterSeconds);
      const hi = Math.max(p.minRetryAfterSeconds, p.maxRetryAfterSeconds);
      seconds = lo + Math.floor(ctx.rng() * (hi - lo + 1));
      if (p.window) ctx.state.window = { kind: rateLimit.id, until: ctx.clock.now() + seconds * 1000 - (ctx.windowSlackMs ?? 0) };
    }
    // An HTTP date is written on the clock the agent reads it against (the episode's, or the wall clock for
    // an agent on real time), so that it means the same wait as the seconds would, for every client.
    const asDate = p.retryAfterFormat === 'http-date' || (p.retryAfterFormat === 'mixed' && ctx.rng() < 0.5);
    const httpNow = (ctx.httpNow ?? ctx.clock.now)();
    // An HTTP date has whole seconds: round up, so that waiting until it never lands inside the window.
    const retryAfter = asDate ? new Date(Math.ceil((httpNow + seconds * 1000) / 1000) * 1000).toUTCString() : String(seconds);
    ctx.note({ status: 429, retryAfterSeconds: seconds, ...(asDate ? { retryAfter } : {}) });
    return Response.json({ error: 'rate_limited', message: `Too many requests. Retry after ${seconds} s.` }, { status: 429, headers: { 'Retry-After': retryAfter } });
  },
};
