import type { FaultProfile } from '../src/core/faults.js';

/**
 * Named fault mixes. A transient kind's weight times λ is its per-call probability (the transient
 * weights of a profile sum to at most 1, so λ is the per-call fault rate); a persistent kind's weight
 * times λ is its per-episode, per-tool probability.
 */
export const profiles: readonly FaultProfile[] = [
  {
    id: 'mixed',
    description: 'timeouts and rate limits per call; schema drift and empty results per tool, ten times rarer',
    weights: { timeout: 0.5, 'rate-limit': 0.5, 'schema-drift': 0.1, 'empty-result': 0.1 },
  },
  { id: 'network', description: 'timeouts only (writes may commit before the timeout)', weights: { timeout: 1 } },
  { id: 'rate-limit', description: '429 with Retry-After only', weights: { 'rate-limit': 1 } },
  { id: 'drift', description: 'schema drift only, per tool and episode', weights: { 'schema-drift': 1 } },
  { id: 'empty', description: 'empty results only, per read tool and episode', weights: { 'empty-result': 1 } },
];
