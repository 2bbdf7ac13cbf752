import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getPerturbationFamily, perturbationFamilies } from '../../perturbations/index.js';
import { checkMeaning, joinSegments, perturb, resolveFamilies, standingText, type MessageAbout, type PerturbationFamily, type Segment } from '../../src/ground/perturb.js';
import { makeRng } from '../../src/ground/seeds.js';
import { ShakedownError } from '../../src/ground/errors.js';
import type { UserLanguage } from '../../src/ground/world.js';
import { renderTemplate } from '../../src/ground/simulator.js';
import { retail } from '../helpers.js';

/** The retail language, with amount and date slots as well, so that every entity format is exercised. */
const base = retail.userLanguage;
const language: UserLanguage = {
  ...base,
  perturbation: {
    ...(base.perturbation as NonNullable<UserLanguage['perturbation']>),
    entityFormats: { ...base.perturbation?.entityFormats, amount: 'amount', date: 'date' },
  },
};

const slotValues = fc.record({
  order: fc.integer({ min: 0, max: 9_999_999 }).map((n) => `#W${String(n).padStart(7, '0')}`),
  email: fc.tuple(fc.constantFrom('ada', 'emma', 'li', 'noah'), fc.constantFrom('novak', 'wu', 'reyes')).map(([a, b]) => `${a}.${b}@example.org`),
  name: fc.tuple(fc.constantFrom('Ada', 'Emma', 'Noah'), fc.constantFrom('Novak', 'Osei', 'Reyes')).map(([a, b]) => `${a} ${b}`),
  zip: fc.integer({ min: 10_000, max: 99_999 }).map(String),
  items: fc.constantFrom('desk lamp', 'tea kettle and the yoga mat', 'blue T-Shirt'),
  target: fc.constantFrom('the red one', 'size L'),
  reason: fc.constantFrom('I ordered it by mistake', "I don't need it anymore"),
  amount: fc.integer({ min: 1, max: 99_999 }).map((c) => `$${(c / 100).toFixed(2)}`),
  date: fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
});

const REQUESTS: readonly (readonly [string, string])[] = [
  ['cancel', 'I want to cancel order {order}.'],
  ['cancel', "I'd like to cancel an order."],
  ['return', "I'd like to return the {items}."],
  ['exchange', "I'd like to exchange the {items} for {target}."],
  ['order_status', 'Can you tell me where my order {order} is?'],
  ['order_total', 'I was charged {amount} on {date} for order {order}, is that right?'],
];

const DETAILS: readonly (readonly [string, string])[] = [
  ['identity', 'My email is {email}.'],
  ['identity', "I'm {name}, zip code {zip}."],
  ['slot:order', 'The order number is {order}.'],
  ['slot:reason', 'Well, {reason}.'],
];

/** A message as the scripted user builds one: a request part, detail parts, what it is about. */
const messageArb = fc
  .tuple(fc.constantFrom(...REQUESTS), fc.subarray([...DETAILS]), slotValues, fc.boolean())
  .map(([[intent, request], details, values, states]) => {
    const parts = [renderTemplate(request, values, 'request'), ...details.map(([part, t]) => renderTemplate(t, values, part))];
    const segments = parts.flatMap((p, i) => (i === 0 ? p : [{ text: ' ' }, ...p]));
    const about: MessageAbout = { intent, slots: values, states, deferrable: states ? ['order', 'email', 'name', 'zip', 'items', 'target'] : [] };
    return { segments, about };
  });

/** A message every family applies to: several parts, ids, an e-mail, words with synonyms and abbreviations. */
const rich: { segments: Segment[]; about: MessageAbout } = (() => {
  const values = { order: '#W9000201', email: 'emma.novak@example.org', name: 'Emma Novak', zip: '10001', reason: 'I ordered it by mistake', items: 'desk lamp' };
  const parts = [
    renderTemplate('Please, I want to cancel order {order}, thank you because you are great.', values, 'request'),
    renderTemplate('My email is {email}.', values, 'identity'),
    renderTemplate('Well, {reason}.', values, 'slot:reason'),
  ];
  return {
    segments: parts.flatMap((p, i) => (i === 0 ? p : [{ text: ' ' }, ...p])),
    about: { intent: 'cancel', slots: values, states: true, deferrable: ['order', 'email', 'reason'] },
  };
})();

const ctx = (family: PerturbationFamily, level: number, seed: string, about: MessageAbout) => ({ eps: level, level, rng: makeRng(seed), about, language });

describe.each(perturbationFamilies.map((f) => [f.id, f] as const))('perturbation family %s', (_id, family) => {
  const params = family.params.parse({});

  it('declares what it touches, an onset in [0, 1) and a description', () => {
    expect(family.touches.length).toBeGreaterThan(0);
    expect(family.onset).toBeGreaterThanOrEqual(0);
    expect(family.onset).toBeLessThan(1);
    expect(family.description.length).toBeGreaterThan(10);
  });

  it('is the identity at level 0, and perturb() is the identity at ε = 0', () => {
    fc.assert(
      fc.property(messageArb, fc.string(), ({ segments, about }, seed) => {
        expect(family.apply(segments, ctx(family, 0, seed, about), params)).toEqual(segments);
        expect(perturb(segments, 0, resolveFamilies([family]), seed, 0, about, language).segments).toEqual(segments);
      }),
      { numRuns: 50 },
    );
  });

  it('gives the same output for the same seed', () => {
    fc.assert(
      fc.property(messageArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.string(), ({ segments, about }, level, seed) => {
        expect(family.apply(segments, ctx(family, level, seed, about), params)).toEqual(family.apply(segments, ctx(family, level, seed, about), params));
      }),
      { numRuns: 50 },
    );
  });

  it('keeps every entity recoverable and adds no competing one, by construction', () => {
    fc.assert(
      fc.property(messageArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.string(), ({ segments, about }, level, seed) => {
        const out = family.apply(segments, ctx(family, level, seed, about), params);
        expect(checkMeaning(segments, out, language, family.defers ? about.deferrable : [])).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('varies with the seed where it applies', () => {
    const outputs = new Set(Array.from({ length: 40 }, (_, i) => joinSegments(family.apply(rich.segments, ctx(family, 1, `s${i}`, rich.about), params))));
    expect(outputs.size).toBeGreaterThan(1);
  });

  it('rejects malformed parameters with the path to fix', () => {
    expect(() => resolveFamilies(perturbationFamilies, [family.id], { [family.id]: { bogus: 1 } })).toThrow(ShakedownError);
    expect(() => resolveFamilies(perturbationFamilies, [family.id], { [family.id]: { bogus: 1 } })).toThrow(`perturbationParams.${family.id}`);
    const numeric = Object.keys(family.params.shape)[0] as string;
    expect(family.params.safeParse({ [numeric]: 7 }).success).toBe(false);
  });
});

describe('the families together', () => {
  it('are pinned for seed 42, each alone at ε = 1, so that a library upgrade cannot silently change the wording', () => {
    const out = Object.fromEntries(
      perturbationFamilies.map((f) => [f.id, [0, 1, 2, 3, 4].map((m) => joinSegments(perturb(rich.segments, 1, resolveFamilies([f]), '42', m, rich.about, language).segments))]),
    );
    expect(out).toMatchSnapshot();
  });

  it('keep every entity of any message recoverable at any ε', () => {
    const all = resolveFamilies(perturbationFamilies);
    fc.assert(
      fc.property(messageArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.string(), ({ segments, about }, eps, seed) => {
        const { segments: out } = perturb(segments, eps, all, seed, 0, about, language);
        expect(checkMeaning(segments, out, language, about.deferrable)).toBeUndefined();
        // Anything held back belongs to a message that states the request, and only deferrable slots may go.
        if (!about.states) expect(checkMeaning(segments, out, language)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('never let a retracted value stand: the right one follows it in the same message', () => {
    const all = resolveFamilies([getPerturbationFamily('self-correct')]);
    for (let i = 0; i < 30; i++) {
      const { segments } = perturb(rich.segments, 1, all, `c${i}`, 0, rich.about, language);
      const retracted = segments.findIndex((s) => s.retracted);
      if (retracted < 0) continue;
      const wrong = segments[retracted] as Segment;
      const right = segments.slice(retracted + 1).find((s) => s.protected && s.slot === wrong.slot);
      expect(right?.text).toBe(rich.segments.find((s) => s.slot === wrong.slot)?.text);
      expect(standingText(segments)).not.toContain(wrong.text);
    }
  });

  it('name the valid ids for an unknown family', () => {
    expect(() => getPerturbationFamily('nope')).toThrow(ShakedownError);
    expect(() => getPerturbationFamily('nope')).toThrow(/spread, paraphrase/);
    expect(() => resolveFamilies(perturbationFamilies, ['typos', 'nope'])).toThrow(/Valid|valid/);
  });

  it('apply in ladder order whatever order they are listed in', () => {
    expect(resolveFamilies(perturbationFamilies, ['casing', 'filler', 'spread']).map((f) => f.family.id)).toEqual(['spread', 'filler', 'casing']);
  });
});
