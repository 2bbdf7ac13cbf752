/**
 * The worlds' and task families' Faker instances come from the English locale module alone
 * (`src/ground/faker.ts`); they must draw exactly what an instance built from the root module's `en` and
 * `base` draws, or every generated database and task variant would change under a run's seed.
 */
import { Faker, base, en } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { englishFaker } from '../../src/ground/faker.js';

/** One draw of every kind the worlds' generators and the task families make, plus a few they may come to. */
const draws = (f: Faker): unknown[] => [
  f.person.firstName(),
  f.person.lastName(),
  f.person.fullName(),
  f.location.streetAddress(),
  f.location.street(),
  f.location.secondaryAddress(),
  f.location.city(),
  f.location.state({ abbreviated: true }),
  f.location.zipCode(),
  f.date.birthdate({ min: 18, max: 80, mode: 'age', refDate: 1_700_000_000_000 }).toISOString(),
  f.date.recent({ days: 30, refDate: 1_700_000_000_000 }).toISOString(),
  f.datatype.boolean(0.3),
  f.number.int({ min: 1, max: 1_000_000 }),
  f.string.numeric(7),
  f.helpers.arrayElement(['a', 'b', 'c', 'd']),
  f.helpers.arrayElements(['a', 'b', 'c', 'd', 'e'], 2),
  f.internet.email(),
  f.commerce.productName(),
  f.airline.airport().iataCode,
  f.lorem.sentence(),
];

describe('englishFaker', () => {
  it('draws what new Faker({ locale: [en, base] }) draws, seed for seed', () => {
    for (const seed of [0, 1, 42, 2 ** 31 + 7]) {
      const reference = new Faker({ locale: [en, base] });
      const ours = englishFaker();
      reference.seed(seed);
      ours.seed(seed);
      for (let i = 0; i < 200; i++) expect(draws(ours)).toEqual(draws(reference));
    }
  });

  it('gives each caller a generator of its own', () => {
    const a = englishFaker();
    const b = englishFaker();
    a.seed(7);
    b.seed(7);
    const first = a.string.numeric(12);
    a.string.numeric(12); // a moves on; b must not
    expect(b.string.numeric(12)).toBe(first);
    expect(a).not.toBe(b);
  });

  it('knows the English locale, not only the base one', () => {
    const f = englishFaker();
    f.seed(3);
    expect(f.rawDefinitions.metadata?.code).toBe('en');
    expect(() => f.person.firstName()).not.toThrow();
    expect(() => f.location.state()).not.toThrow();
  });
});
