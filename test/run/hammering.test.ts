// A price for hammering (docs/faults.md, `rate-limit`): calls inside a Retry-After window lengthen it and,
// past a threshold, block the client for the episode, so that an agent that retries a 429 at once scores
// below its base that waits, under the default profile, and the faults it provoked show in its cells.
import { describe, expect, it } from 'vitest';
import { getFaultProfile } from '../../faults/index.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { mutants } from '../../src/run/mutants.js';
import { Tally } from '../../src/stats/stats.js';
import type { EpisodeRecord } from '../../src/ground/record.js';
import type { FaultProfile } from '../../src/ground/faults.js';
import { episodeOptions, retail, retailScenarios } from '../helpers.js';

const harness = new WorldHarness(retail, '42');

async function sweepOf(spec: string, profile: FaultProfile): Promise<EpisodeRecord[]> {
  const m = mutants.find((x) => x.id === spec);
  const factory = m ? m.mutate(resolveAgent(m.base)) : resolveAgent(spec);
  const out: EpisodeRecord[] = [];
  for (const s of retailScenarios) {
    const prepared = await harness.prepare(s);
    for (const trial of [0, 1]) out.push(await runEpisode(harness, prepared, factory, { scenario: s.id, agent: factory.id, eps: 0, lambda: 0.3, trial }, episodeOptions({ profile })));
  }
  return out;
}

const cellOf = (records: readonly EpisodeRecord[]) => {
  const tally = new Tally();
  for (const r of records) tally.add({ agent: 'a', eps: 0, lambda: 0.3, scenario: r.key.scenario }, r.outcome, { calls: r.trace.filter((t) => t.tool !== null).length, fired: r.faults });
  return tally.cells('a' as never);
};

describe('a price for hammering', () => {
  it('an agent that retries a 429 at once scores below its base under the default profile, and its cells show what it provoked', async () => {
    const mixed = getFaultProfile('mixed');
    const base = await sweepOf('reference:idempotency+backoff', mixed);
    const hammer = await sweepOf('ignore-retry-after', mixed);
    const passes = (rs: readonly EpisodeRecord[]) => rs.filter((r) => r.outcome === 'pass').length;
    expect(passes(hammer)).toBeLessThan(passes(base));
    // The price is the escalation's: without it the hammer loses only what its own retries cost it.
    const lenient = await sweepOf('ignore-retry-after', { ...mixed, id: 'mixed-lenient', params: { 'rate-limit': { extendSeconds: 0, blockAfter: 0 } } });
    expect(passes(base) - passes(hammer)).toBeGreaterThanOrEqual(passes(base) - passes(lenient) + 5);
    const inWindow = (rs: readonly EpisodeRecord[]) => rs.flatMap((r) => r.faults).filter((f) => f.window).length;
    expect(inWindow(hammer)).toBeGreaterThan(3 * Math.max(1, inWindow(base)));
    // Some episode blocked it for good: a 429 that names an hour.
    expect(hammer.some((r) => r.faults.some((f) => f.detail?.blocked === true && f.detail.retryAfterSeconds === 3600))).toBe(true);
    const [cell] = cellOf(hammer);
    expect(cell?.load?.inWindowPerEpisode).toBeGreaterThan(0);
    expect(cell?.load?.blockedEpisodes).toBeGreaterThan(0);
  }, 120_000);

  it('costs nothing when escalation is off: each call inside the window only meets what is left of it', async () => {
    const mixed = getFaultProfile('mixed');
    const lenient: FaultProfile = { ...mixed, id: 'mixed-lenient', params: { 'rate-limit': { extendSeconds: 0, blockAfter: 0 } } };
    const hammer = await sweepOf('ignore-retry-after', lenient);
    expect(hammer.some((r) => r.faults.some((f) => f.detail?.blocked === true))).toBe(false);
  }, 120_000);
});
