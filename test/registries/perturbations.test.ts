import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getPerturbationFamily, perturbationFamilies } from '../../perturbations/index.js';
import { joinSegments, perturb, type Segment } from '../../src/core/perturb.js';
import { makeRng } from '../../src/core/seeds.js';
import { ShakedownError } from '../../src/core/errors.js';

const message: Segment[] = [
  { text: 'I would like to cancel order ' },
  { text: '#W9000201', protected: true },
  { text: ' because I ordered it by mistake. My email is ' },
  { text: 'emma.novak@example.org', protected: true },
  { text: ', thanks.' },
];

const segmentsArb = fc.array(
  fc.record({ text: fc.string({ minLength: 1, maxLength: 40 }), protected: fc.boolean() }).map((s): Segment => (s.protected ? s : { text: s.text })),
  { minLength: 1, maxLength: 6 },
);

describe.each(perturbationFamilies.map((f) => [f.id, f] as const))('perturbation family %s', (_id, family) => {
  const params = family.params.parse({});

  it('declares what it touches and a description', () => {
    expect(family.touches.length).toBeGreaterThan(0);
    expect(family.description.length).toBeGreaterThan(10);
  });

  it('is the identity at ε = 0', () => {
    fc.assert(
      fc.property(segmentsArb, fc.string(), (segments, seed) => {
        expect(family.apply(segments, { eps: 0, rng: makeRng(seed) }, params)).toEqual(segments);
      }),
    );
  });

  it('gives the same output for the same seed', () => {
    fc.assert(
      fc.property(segmentsArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.string(), (segments, eps, seed) => {
        const a = family.apply(segments, { eps, rng: makeRng(seed) }, params);
        const b = family.apply(segments, { eps, rng: makeRng(seed) }, params);
        expect(a).toEqual(b);
      }),
    );
  });

  it('never changes a protected segment', () => {
    fc.assert(
      fc.property(segmentsArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.string(), (segments, eps, seed) => {
        const out = family.apply(segments, { eps, rng: makeRng(seed) }, params);
        expect(out.filter((s) => s.protected).map((s) => s.text)).toEqual(segments.filter((s) => s.protected).map((s) => s.text));
      }),
    );
  });

  it('changes the wording at ε > 0 for some seed', () => {
    const changed = Array.from({ length: 20 }, (_, i) => joinSegments(family.apply(message, { eps: 1, rng: makeRng(`s${i}`) }, params))).filter(
      (t) => t !== joinSegments(message),
    );
    expect(changed.length).toBeGreaterThan(0);
  });
});

describe('perturb()', () => {
  it('applies every family and keeps entities intact', () => {
    const { segments, applied } = perturb(message, 1, perturbationFamilies, 'seed', 0);
    const text = joinSegments(segments);
    expect(text).toContain('#W9000201');
    expect(text).toContain('emma.novak@example.org');
    expect(applied.length).toBeGreaterThan(0);
  });

  it('is pinned for seed 42, so that a library upgrade cannot silently change the wording', () => {
    const out = [0.5, 1].map((eps) => joinSegments(perturb(message, eps, perturbationFamilies, '42', 0).segments));
    expect(out).toMatchInlineSnapshot(`
      [
        "I would lie to cancel order #W9000201 because I ordered it by mistke. My email is emma.novak@example.org, thanks.",
        "Hello, if tht is okay, I would like to cancel ordr #W9000201 because I orderd it by mistake. My eamil is emma.novak@example.org, thanks. Appfeciate the help.",
      ]
    `);
  });

  it('rejects ε outside [0, 1]', () => {
    expect(() => perturb(message, 1.5, perturbationFamilies, 's', 0)).toThrow(RangeError);
  });

  it('names the valid ids for an unknown family', () => {
    expect(() => getPerturbationFamily('nope')).toThrow(ShakedownError);
    expect(() => getPerturbationFamily('nope')).toThrow(/filler, typos/);
  });
});
