import { describe, expect, it } from 'vitest';
import { getFaultProfile } from '../../faults/index.js';
import { getWorld, loadScenarios } from '../../scenarios/index.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { WorldHarness } from '../../src/run/episode.js';
import { controlOf, runSelfTest, type Mutant } from '../../src/run/selftest.js';
import { mutants } from '../../src/run/mutants.js';
import { shakedown } from '../cli-run.js';
import { episodeOptions } from '../helpers.js';

const selfTest = (world: string, list: readonly Mutant[], trials = 2) => {
  const w = getWorld(world);
  return runSelfTest({
    harness: new WorldHarness(w, '42'),
    scenarios: loadScenarios(w),
    mutants: list,
    resolve: resolveAgent,
    trials,
    profileOf: (p) => getFaultProfile(p ?? 'mixed'),
    options: (p) => episodeOptions({ profileId: p ?? 'mixed' }),
  });
};

describe('the benchmark tests itself by mutation (shakedown selftest)', () => {
  it.each(['retail', 'travel'])('%s: every planted bug is caught where it bites and nowhere else; every control matches its base', async (world) => {
    const r = await selfTest(world, mutants);
    const verdicts = Object.fromEntries(r.mutants.map((m) => [m.id, m.verdict]));
    expect(verdicts).toEqual(Object.fromEntries(mutants.map((m) => [m.id, m.probe ? 'passes' : 'caught'])));
    expect(mutants.filter((m) => m.probe).length).toBeGreaterThanOrEqual(2);
    for (const c of r.controls) expect(c.differing).toEqual([]);
    expect(r.ok).toBe(true);
  }, 240_000);

  it('would notice a judge that lets a bug through: a mutant whose bug is no bug is missed', async () => {
    const harmless: Mutant = { id: 'harmless', description: 'the base in a pass-through wrapper', base: 'reference:none', bites: [{ eps: 0, lambda: 0 }], mutate: controlOf };
    const r = await selfTest('retail', [harmless], 1);
    expect(r.mutants[0]?.verdict).toBe('missed');
    expect(r.ok).toBe(false);
  }, 120_000);

  it('would notice a judge that fails correct behaviour: a probe that changes a verdict is flagged', async () => {
    const bad: Mutant = {
      id: 'probe:says-nothing',
      description: 'a "probe" that drops every reply: no correct agent does that',
      base: 'reference:none',
      probe: true,
      bites: [{ eps: 0, lambda: 0 }],
      mutate: (base) => ({ ...base, id: 'probe:says-nothing', async create(ctx) {
        const inner = await base.create(ctx);
        return { reply: async (m: string) => (await inner.reply(m), 'OK.') };
      } }),
    };
    const r = await selfTest('retail', [bad], 1);
    expect(r.mutants[0]?.verdict).toBe('flagged');
    expect(r.ok).toBe(false);
  }, 120_000);

  it('prints the mutant table and exits 1 when a mutant is missed', async () => {
    const r = await shakedown('selftest', '--world', 'retail', '--only', 'double-submit', '--trials', '1');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^double-submit +ε=0 λ=0 +\d+ tasks? +duplicated-write \d+ \| /m);
    expect(r.stdout).toMatch(/-> CAUGHT/);
    expect(r.stdout).toMatch(/^control\(reference:none\): \d+ episodes, identical to its base$/m);
    const bad = await shakedown('selftest', '--only', 'teleport');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no such mutant. Mutants: double-submit, /);
  }, 120_000);
});
