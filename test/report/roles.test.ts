// Who a release review is for: declared candidates, else the agents given from outside, else every
// agent that is not a baseline; the rest are comparators, never gated.
import { describe, expect, it } from 'vitest';
import { releaseRoles } from '../../src/report/roles.js';

describe('release roles', () => {
  const ids = ['oracle', 'noop', 'reference:none', 'reference:robust', 'my-agent', 'llm:gpt-4o'];
  const specs = ['oracle', 'noop', 'reference:none', 'reference:robust', './agents/my-agent.ts', 'llm:gpt-4o'];

  it('takes the agents given from outside as the candidates when none are declared', () => {
    const roles = releaseRoles(ids, specs, {});
    expect(roles.candidates).toEqual(['my-agent', 'llm:gpt-4o']);
    expect(roles.comparators).toEqual(['oracle', 'noop', 'reference:none', 'reference:robust']);
    expect(roles.declared).toBe(false);
  });

  it('takes every agent but the baselines when all are built in', () => {
    expect(releaseRoles(ids.slice(0, 4), specs.slice(0, 4), {}).candidates).toEqual(['reference:none', 'reference:robust']);
  });

  it('takes the declared candidates by id or by spec, and the baseline agent', () => {
    const roles = releaseRoles(ids, specs, { candidates: ['./agents/my-agent.ts'], baselineAgent: 'reference:robust' });
    expect(roles).toEqual({ candidates: ['my-agent'], comparators: ['oracle', 'noop', 'reference:none', 'reference:robust', 'llm:gpt-4o'], baselineAgent: 'reference:robust', declared: true });
  });

  it('never infers the baseline agent as a candidate', () => {
    const two = releaseRoles(['v2', 'v1'], ['./v2.ts', './v1.ts'], { baselineAgent: './v1.ts' });
    expect(two).toMatchObject({ candidates: ['v2'], comparators: ['v1'], baselineAgent: 'v1' });
  });

  it('refuses a candidate or a baseline that is not an agent of the run, and a baseline that is a candidate', () => {
    expect(() => releaseRoles(ids, specs, { candidates: ['my-agnet'] })).toThrow(/no agent `my-agnet`. Did you mean `my-agent`\?/);
    expect(() => releaseRoles(ids, specs, { baselineAgent: 'referense:none' })).toThrow(/Failed to read `baselineAgent`/);
    expect(() => releaseRoles(ids, specs, { candidates: ['my-agent'], baselineAgent: 'my-agent' })).toThrow(/is also a candidate/);
  });
});
