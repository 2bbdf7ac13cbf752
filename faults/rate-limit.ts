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
    /**
     * Seconds each call inside an open window adds to it, as real APIs lengthen the wait of a client
     * that keeps calling (0: a window never grows). @default 1
     */
    extendSeconds: z.number().min(0).max(60).default(1),
    /**
     * Past this many calls inside windows in one episode the client is refused for the rest of it
     * (a 429 with a Retry-After of an hour), as an API blocks a client that hammers it (0: never). @default 10
     */
    blockAfter: z.number().int().min(0).default(10),
  })
  .strict();

/**
 * 429 Too Many Requests with Retry-After; further calls fail until the window has passed, each of them
 * lengthens it, and a client that keeps calling inside windows is blocked for the episode.
 */
export const rateLimit: TransientFaultKind<typeof params> = {
  id: 'rate-limit',
  description: '429 Too Many Requests with Retry-After (seconds or an HTTP date); calls inside the window fail too and lengthen it, and past a threshold the client is blocked for the episode',
  scope: 'transient',
  touches: ['status', 'timing'],
  appliesTo: 'any',
  canStrikeAfterCommit: false,
  params,
  async strike(ctx, p) {
    let seconds: number;
    let blocked = false;
    if (ctx.windowUntil !== undefined) {
      // Inside the window an earlier 429 opened: the call lengthens it, and past the threshold the client
      // is blocked for the rest of the episode; say how long is left of it.
      const calls = ++ctx.state.inWindow;
      blocked = p.blockAfter > 0 && calls > p.blockAfter;
      const until = blocked ? Number.POSITIVE_INFINITY : ctx.windowUntil + p.extendSeconds * 1000;
      if (p.window && until > ctx.windowUntil) ctx.state.window = { kind: rateLimit.id, until };
      seconds = blocked ? 3600 : Math.max(1, Math.ceil((until - ctx.clock.now()) / 1000));
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
    ctx.note({ status: 429, retryAfterSeconds: seconds, ...(asDate ? { retryAfter } : {}), ...(blocked ? { blocked: true } : {}) });
    return Response.json({ error: 'rate_limited', message: `Too many requests. Retry after ${seconds} s.` }, { status: 429, headers: { 'Retry-After': retryAfter } });
  },
};
