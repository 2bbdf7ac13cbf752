// The outcomes of a run's episodes, kept as columns (src/ground/outcomes.ts), read exactly as the map of
// key strings they replace: the first outcome of a key kept, the same order, the same keys.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EpisodeOutcomes } from '../../src/ground/outcomes.js';
import { keyString, type EpisodeKey } from '../../src/ground/record.js';

/** What the reader did before: a map of key strings, the first outcome of each kept. */
function asMap(adds: readonly [EpisodeKey, boolean][]): { map: Map<string, boolean>; added: boolean[] } {
  const map = new Map<string, boolean>();
  const added = adds.map(([k, pass]) => {
    const s = keyString(k);
    if (map.has(s)) return false;
    map.set(s, pass);
    return true;
  });
  return { map, added };
}

// Few scenarios, agents and numbers, so that keys repeat; 0 and -0, NaN, and values that differ in the last bit.
const key = fc.record({
  scenario: fc.constantFrom('cancel-a', 'cancel-b', 'return|c', 'x'),
  agent: fc.constantFrom('reference:robust', 'reference:none', 'llm'),
  eps: fc.constantFrom(0, -0, 0.1, 0.30000000000000004, 0.3, Number.NaN),
  lambda: fc.constantFrom(0, 0.25, 0.5, 1e21),
  trial: fc.integer({ min: 0, max: 9 }),
});

describe('EpisodeOutcomes', () => {
  it('adds, counts, iterates and looks up as a map keyed by keyString, first outcome kept', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.boolean()), { minLength: 200, maxLength: 3000 }), (adds) => {
        const expected = asMap(adds);
        const outcomes = new EpisodeOutcomes();
        expect(adds.map(([k, pass]) => outcomes.add(k, pass))).toEqual(expected.added);
        expect(outcomes.size).toBe(expected.map.size);
        expect([...outcomes]).toEqual([...expected.map]);
        for (const [k] of adds.slice(0, 50)) expect(outcomes.get(keyString(k))).toBe(expected.map.get(keyString(k)));
        expect(outcomes.get('no|such|key|0|0')).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });

  it('holds a key whose numbers are not numbers as its string, beside the others', () => {
    const outcomes = new EpisodeOutcomes();
    expect(outcomes.add({ scenario: 's', agent: 'a', eps: 0.1, lambda: 0, trial: 0 }, true)).toBe(true);
    // Written by another program: the same key string, so the same episode.
    expect(outcomes.add({ scenario: 's', agent: 'a', eps: '0.1', lambda: 0, trial: 0 } as unknown as EpisodeKey, false)).toBe(false);
    expect(outcomes.add({ scenario: 's', agent: 'a', eps: 0.1, lambda: 0, trial: 1 }, false)).toBe(true);
    expect([...outcomes]).toEqual([
      ['s|a|0.1|0|0', true],
      ['s|a|0.1|0|1', false],
    ]);
    expect(outcomes.size).toBe(2);
  });

  it('keeps adding after it was read as a map, and grows past its first tables', () => {
    const outcomes = new EpisodeOutcomes();
    for (let t = 0; t < 5000; t++) expect(outcomes.add({ scenario: `s${t % 7}`, agent: 'a', eps: 0, lambda: 0, trial: t }, t % 3 === 0)).toBe(true);
    expect(outcomes.has('s0|a|0|0|0')).toBe(true);
    expect(outcomes.add({ scenario: 's0', agent: 'a', eps: 0, lambda: 0, trial: 0 }, false)).toBe(false);
    expect(outcomes.add({ scenario: 's0', agent: 'a', eps: 0, lambda: 0, trial: 5000 }, true)).toBe(true);
    expect(outcomes.size).toBe(5001);
    expect(outcomes.get('s3|a|0|0|3')).toBe(true);
    expect(outcomes.get('s4|a|0|0|4')).toBe(false);
  });
});
