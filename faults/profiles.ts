import type { FaultProfile } from '../src/ground/faults.js';

/**
 * Named fault mixes. A transient kind's weight times λ is its per-call probability (the transient
 * weights of a profile sum to at most 1, so λ is the per-call fault rate); a persistent kind's weight
 * times λ is its per-episode, per-tool probability.
 */
export const profiles: readonly FaultProfile[] = [
  {
    id: 'mixed',
    description: 'every transient kind per call (timeouts, rate limits and server errors most often, tools that lie one fault in twenty); schema drift and empty results per tool, ten times rarer',
    weights: {
      timeout: 0.27,
      'rate-limit': 0.23,
      'server-error': 0.2,
      'connection-reset': 0.1,
      'latency-spike': 0.1,
      'truncated-body': 0.05,
      'schema-drift': 0.1,
      'empty-result': 0.1,
      'silent-write': 0.02,
      'stale-read': 0.01,
      'wrong-value': 0.01,
      'partial-commit': 0.01,
    },
  },
  {
    id: 'lying',
    description: 'tools that answer 200 with something untrue: writes acknowledged that did nothing or part, reads stale or with a wrong value',
    weights: { 'silent-write': 0.4, 'partial-commit': 0.2, 'stale-read': 0.2, 'wrong-value': 0.2 },
  },
  { id: 'network', description: 'the network: timeouts, connection resets and slow calls (writes may commit before a timeout or reset)', weights: { timeout: 0.5, 'connection-reset': 0.3, 'latency-spike': 0.2 } },
  { id: 'timeouts', description: 'timeouts only: every fault costs 30 s of simulated time', weights: { timeout: 1 } },
  { id: 'rate-limit', description: '429 with Retry-After only', weights: { 'rate-limit': 1 } },
  { id: 'server', description: '500, 502 and 503 only', weights: { 'server-error': 1 } },
  { id: 'drift', description: 'schema drift only, per tool and episode', weights: { 'schema-drift': 1 } },
  { id: 'empty', description: 'empty results only, per read tool and episode', weights: { 'empty-result': 1 } },
  {
    id: 'timeout-after-commit',
    description: 'timeouts on writes only, always after the database changed: a retry without an Idempotency-Key writes twice',
    weights: { timeout: 1 },
    target: { access: 'write' },
    params: { timeout: { afterCommit: 1 } },
  },
  {
    id: 'outage',
    description: 'bursty: a server error or timeout opens a 20 s outage in which every call fails the same way',
    weights: { 'server-error': 0.5, timeout: 0.5 },
    burst: { outageMs: 20_000 },
  },
];
