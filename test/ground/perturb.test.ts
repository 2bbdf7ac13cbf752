import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { perturbationFamilies } from '../../perturbations/index.js';
import { measureLadder, perturbSamples } from '../../src/run/ladder.js';
import {
  amountsIn,
  checkMeaning,
  datesIn,
  familyLevel,
  joinParts,
  partsOf,
  perturb,
  recoverable,
  resolveFamilies,
  tokenDistance,
  type MessageAbout,
  type PerturbationFamily,
  type Segment,
} from '../../src/ground/perturb.js';
import { ShakedownError } from '../../src/ground/errors.js';
import { renderTemplate } from '../../src/ground/simulator.js';
import { retail, retailScenarios, scenario } from '../helpers.js';

const lang = retail.userLanguage;
const values = { order: '#W9000201', email: 'emma.novak@example.org', items: 'desk lamp' };
const message: Segment[] = [...renderTemplate('Please cancel order {order}.', values, 'request'), { text: ' ' }, ...renderTemplate('My email is {email}.', values, 'identity')];
const about: MessageAbout = { intent: 'cancel', slots: values, states: true, deferrable: ['order', 'email'] };

/** A family that does what no family may: it rewrites the message with `f`. */
const rogue = (id: string, f: (segments: readonly Segment[]) => Segment[], defers = false): PerturbationFamily => ({
  id,
  description: 'a deliberately broken family for the checker',
  touches: ['wording'],
  onset: 0,
  ...(defers ? { defers } : {}),
  params: z.object({}),
  apply: (segments, { level }) => (level === 0 ? [...segments] : f(segments)),
});

describe('recognising entities after reformatting', () => {
  it('reads ids without regard to case, # and spacing, and only as whole ids', () => {
    for (const t of ['order #W9000201', 'order W9000201', 'order # w 9000201', 'order W-9000201']) expect(recoverable('id', '#W9000201', t)).toBe(true);
    expect(recoverable('id', '#W9000201', 'order #W90002011')).toBe(false);
    expect(recoverable('id', '#W9000201', 'order #W9000210')).toBe(false);
  });

  it('reads amounts as numbers and dates as days', () => {
    expect(recoverable('amount', '$12.50', 'it was 12.5 dollars')).toBe(true);
    expect(recoverable('amount', '$12.50', 'it was USD 12.50')).toBe(true);
    expect(recoverable('amount', '$12.50', 'it was $125.0')).toBe(false);
    expect(amountsIn('$1,234.50 and 3 bucks')).toEqual([1234.5, 3]);
    expect(datesIn('on January 10, 2026 or 10 Jan 2026 or 1/10/2026 or 2026-01-10')).toEqual(['2026-01-10', '2026-01-10', '2026-01-10', '2026-01-10']);
    expect(recoverable('date', '2026-01-10', 'on Jan 11 2026')).toBe(false);
  });

  it('reads e-mails and names case-insensitively, text with any spacing, verbatim only as written', () => {
    expect(recoverable('email', 'emma.novak@example.org', 'mail EMMA.Novak@Example.org')).toBe(true);
    expect(recoverable('email', 'emma.novak@example.org', 'mail xemma.novak@example.org')).toBe(false);
    expect(recoverable('text', 'tea kettle and the yoga mat', 'the Tea  Kettle and the yoga MAT')).toBe(true);
    expect(recoverable('verbatim', '12 Bay Street, Tampa, FL 33602', 'to 12 bay street, Tampa, FL 33602')).toBe(false);
  });
});

describe('the meaning check', () => {
  it('accepts a message that keeps every entity', () => {
    expect(checkMeaning(message, [{ text: 'hi ' }, ...message], lang)).toBeUndefined();
  });

  it('names a lost entity, a competing id or e-mail, and a competing item', () => {
    expect(checkMeaning(message, message.filter((s) => s.slot !== 'email'), lang)).toMatch(/entity `email`/);
    expect(checkMeaning(message, [...message, { text: ' Or maybe #W9000202.' }], lang)).toMatch(/competing id/);
    expect(checkMeaning(message, [...message, { text: ' Or ada@example.org.' }], lang)).toMatch(/competing email/);
    expect(checkMeaning(message, [...message, { text: ' I also bought a kettle.' }], lang)).toMatch(/competing mention of "kettle"/);
  });

  it('lets a held-back entity go only where the user gives it when asked, and ignores what the user took back', () => {
    const withoutEmail = message.filter((s) => s.slot !== 'email');
    expect(checkMeaning(message, withoutEmail, lang, ['email'])).toBeUndefined();
    expect(checkMeaning(message, withoutEmail, lang, ['order'])).toMatch(/email/);
    const corrected: Segment[] = [{ text: '#W9000202', retracted: true, slot: 'order' }, { text: ', sorry, I mean ' }, ...message];
    expect(checkMeaning(message, corrected, lang)).toBeUndefined();
  });
});

describe('perturb()', () => {
  it('discards and counts an output that loses an entity, and keeps going with the next family', () => {
    const dropper = rogue('dropper', (s) => s.filter((x) => !x.protected));
    const shouter = rogue('shouter', (s) => s.map((x) => (x.protected ? x : { ...x, text: x.text.toUpperCase() })));
    const r = perturb(message, 1, resolveFamilies([dropper, shouter]), 's', 0, about, lang);
    expect(r.rejected).toEqual(['dropper']);
    expect(r.applied).toEqual(['shouter']);
    expect(r.segments.map((s) => s.text).join('')).toBe('PLEASE CANCEL ORDER #W9000201. MY EMAIL IS emma.novak@example.org.');
  });

  it('lets only a family that declares `defers` hold details back', () => {
    const holdBack = (defers: boolean) => rogue('hold', (s) => s.filter((x) => x.part !== 'identity'), defers);
    expect(perturb(message, 1, resolveFamilies([holdBack(false)]), 's', 0, about, lang).rejected).toEqual(['hold']);
    expect(perturb(message, 1, resolveFamilies([holdBack(true)]), 's', 0, about, lang).applied).toEqual(['hold']);
    expect(perturb(message, 1, resolveFamilies([holdBack(true)]), 's', 0, { ...about, deferrable: [] }, lang).rejected).toEqual(['hold']);
  });

  it('rejects ε outside [0, 1] with what to fix', () => {
    expect(() => perturb(message, 1.5, resolveFamilies(perturbationFamilies), 's', 0, about, lang)).toThrow(ShakedownError);
    expect(() => perturb(message, Number.NaN, resolveFamilies(perturbationFamilies), 's', 0, about, lang)).toThrow(/`eps`/);
  });

  it('perturbs a message once per seed, index, ε and content: a repeat gives what a fresh perturbation gives', () => {
    let applied = 0;
    const counted = perturbationFamilies.map((f) => ({ ...f, apply: (...args: Parameters<typeof f.apply>) => (applied++, f.apply(...args)) }));
    const shared = resolveFamilies(counted);
    const cases: [string, number, number, Segment[], MessageAbout][] = [];
    for (const seed of ['s1', 's2']) for (const index of [0, 1]) for (const eps of [0.5, 1]) cases.push([seed, index, eps, message, about]);
    cases.push(['s1', 0, 1, [...message, { text: ' Thanks.' }], about], ['s1', 0, 1, message, { ...about, deferrable: [] }]);
    for (const [seed, index, eps, segments, a] of cases) {
      // A fresh list of families has a memo of its own: what the shared one must give.
      const fresh = perturb(segments, eps, resolveFamilies(perturbationFamilies), seed, index, a, lang);
      const before = applied;
      const first = perturb(segments, eps, shared, seed, index, a, lang);
      expect(applied).toBeGreaterThan(before);
      const mid = applied;
      // A caller that changes what it was given changes nothing the next one gets.
      first.segments.push({ text: 'x' });
      first.applied.push('x');
      const again = perturb(segments, eps, shared, seed, index, a, lang);
      expect(applied).toBe(mid);
      expect(again).toEqual(fresh);
    }
  });

  it('switches a family on above its onset and ramps it to full strength at ε = 1', () => {
    expect(familyLevel(0.2, 0.2)).toBe(0);
    expect(familyLevel(0.6, 0.2)).toBeCloseTo(0.5);
    expect(familyLevel(1, 0.6)).toBe(1);
  });
});

describe('message parts', () => {
  it('keeps two asides side by side as two parts, so that joining them keeps the space between', () => {
    const segments: Segment[] = [{ text: 'One.', part: 'aside' }, { text: ' ' }, { text: 'Two.', part: 'aside' }, { text: ' ' }, ...message];
    expect(partsOf(segments).map((p) => p.map((s) => s.text).join(''))).toEqual(['One.', 'Two.', 'Please cancel order #W9000201.', 'My email is emma.novak@example.org.']);
    expect(joinParts(partsOf(segments)).map((s) => s.text).join('')).toBe('One. Two. Please cancel order #W9000201. My email is emma.novak@example.org.');
  });
});

describe('token distance', () => {
  it('is 0 for the same words, 1 for nothing in common, and counts word edits', () => {
    expect(tokenDistance('Cancel my order.', 'cancel my order')).toBe(0);
    expect(tokenDistance('cancel my order', 'hello there friend')).toBe(1);
    expect(tokenDistance('cancel my order', 'pls cancel my order')).toBeCloseTo(1 / 4);
  });
});

describe('the ε ladder', () => {
  it('rises at every step of the documented levels, with few outputs discarded', () => {
    const levels = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
    const steps = measureLadder(retail, retailScenarios, levels, resolveFamilies(perturbationFamilies), '42', 3);
    expect(steps[0]?.meanDistance).toBe(0);
    for (let i = 1; i < steps.length; i++) expect(steps[i]?.meanDistance).toBeGreaterThan(steps[i - 1]?.meanDistance ?? 0);
    // A typo can turn "read" into "red", another variant: the check discards it; that stays rare.
    expect(steps.every((s) => s.rejectedPerMessage < 0.02)).toBe(true);
  });

  it('samples exactly what the trials of a sweep see first, with the entities and how they are written', () => {
    const samples = perturbSamples(retail, scenario('return-two-items'), 1, resolveFamilies(perturbationFamilies), '42', 3);
    expect(samples.map((s) => s.trial)).toEqual([0, 1, 2]);
    for (const s of samples) {
      expect(s.entities.map((e) => e.slot)).toEqual(expect.arrayContaining(['items', 'order']));
      expect(s.distance).toBeGreaterThan(0);
    }
  });
});
