// Tools that lie, end to end (docs/faults.md): under `--profile lying` the reference agents rank by how
// little they take on trust (none below verify, verify no better than robust), and the verdict tells a
// failure after a tool's lie (`believed-lie`) apart from the agent's own false claim.
import { describe, expect, it } from 'vitest';
import { getFaultProfile } from '../../faults/index.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { mutants } from '../../src/run/mutants.js';
import type { EpisodeRecord } from '../../src/ground/record.js';
import type { FaultProfile } from '../../src/ground/faults.js';
import { episodeOptions, retail, retailScenarios } from '../helpers.js';

const harness = new WorldHarness(retail, '42');

async function sweepOf(spec: string, profile: FaultProfile, lambda: number, trials = 4): Promise<EpisodeRecord[]> {
  const m = mutants.find((x) => x.id === spec);
  const factory = m ? m.mutate(resolveAgent(m.base)) : resolveAgent(spec);
  const out: EpisodeRecord[] = [];
  for (const s of retailScenarios) {
    const prepared = await harness.prepare(s);
    for (let trial = 0; trial < trials; trial++) out.push(await runEpisode(harness, prepared, factory, { scenario: s.id, agent: factory.id, eps: 0, lambda, trial }, episodeOptions({ profile })));
  }
  return out;
}

const passes = (rs: readonly EpisodeRecord[]) => rs.filter((r) => r.outcome === 'pass').length;
const lied = (r: EpisodeRecord) => r.trace.some((t) => t.lied === true);

describe('tools that lie', () => {
  it('rank the reference agents none < verify <= robust, and every failure after a lie is `believed-lie` unless the agent broke a rule itself', async () => {
    const lying = getFaultProfile('lying');
    const [none, verify, robust] = await Promise.all(['reference:none', 'reference:verify', 'reference:robust'].map((a) => sweepOf(a, lying, 0.3)));
    const [n, v, r] = [passes(none as EpisodeRecord[]), passes(verify as EpisodeRecord[]), passes(robust as EpisodeRecord[])];
    expect(n).toBeLessThan(v);
    expect(v).toBeLessThanOrEqual(r);
    // Lies were told, and the agent that trusts them fails after them.
    const failed = (none as EpisodeRecord[]).filter((x) => x.outcome === 'fail');
    expect(failed.length).toBeGreaterThan(5);
    for (const x of failed) expect(x.failure === 'believed-lie').toBe(lied(x));
    // Episodes where the tools lied but nothing the agent relied on was untrue still pass.
    expect((none as EpisodeRecord[]).some((x) => lied(x) && x.outcome === 'pass')).toBe(true);
  }, 120_000);

  it('keeps an agent\'s own false claim its own: a success claimed after a failure is `false-success-claim` where no tool lied', async () => {
    const own = await sweepOf('success-after-failure', getFaultProfile('server'), 0.3, 2);
    const classes = new Set(own.filter((x) => x.outcome === 'fail').map((x) => x.failure));
    expect(classes.has('false-success-claim')).toBe(true);
    expect(classes.has('believed-lie')).toBe(false);
  }, 120_000);
});
