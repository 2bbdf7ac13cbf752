import { z } from 'zod';
import type { TransientFaultKind } from '../src/ground/faults.js';

const status = z.union([z.literal(500), z.literal(502), z.literal(503)]);

const params = z
  .object({
    /** Statuses to draw from, equally likely. @default [500, 502, 503] */
    statuses: z.array(status).min(1).default([500, 502, 503]),
    /** Share of 503 responses that carry Retry-After. @default 0.5 */
    retryAfter: z.number().min(0).max(1).default(0.5),
    /** Largest Retry-After, in seconds (at least 1). @default 5 */
    maxRetryAfterSeconds: z.number().int().min(1).default(5),
  })
  .strict();

/** What servers and the proxies in front of them send: JSON from the app, HTML from a gateway. */
function body(code: 500 | 502 | 503): { text: string; type: string } {
  if (code === 502) return { text: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>', type: 'text/html' };
  if (code === 503) return { text: JSON.stringify({ error: 'service_unavailable', message: 'The service is temporarily unavailable.' }), type: 'application/json' };
  return { text: JSON.stringify({ error: 'internal_error', message: 'Internal server error.' }), type: 'application/json' };
}

/** 500, 502 or 503 before the world sees the call; a 503 may say when to come back. */
export const serverError: TransientFaultKind<typeof params> = {
  id: 'server-error',
  description: '500, 502 (an HTML page from the gateway) or 503, optionally with Retry-After; nothing is written',
  scope: 'transient',
  touches: ['status', 'body'],
  appliesTo: 'any',
  canStrikeAfterCommit: false,
  params,
  async strike(ctx, p) {
    const code = p.statuses[Math.floor(ctx.rng() * p.statuses.length)] ?? 500;
    const headers: Record<string, string> = { 'content-type': body(code).type };
    if (code === 503 && ctx.rng() < p.retryAfter) headers['retry-after'] = String(1 + Math.floor(ctx.rng() * p.maxRetryAfterSeconds));
    ctx.note({ status: code, ...(headers['retry-after'] ? { retryAfterSeconds: Number(headers['retry-after']) } : {}) });
    return new Response(body(code).text, { status: code, headers });
  },
};
