/**
 * English Faker instances without loading every locale.
 *
 * `@faker-js/faker`'s root module imports all of its 70-odd locales (and a prebuilt instance of each)
 * before a line of ours runs: about 0.45 s of CPU at every start of the CLI and of every worker thread,
 * where each module is a round trip to the TypeScript loader's thread. `@faker-js/faker/locale/en` loads
 * the English locale and the base one only. It exports a ready instance; a fresh instance of the same
 * class over the same merged definitions (`rawDefinitions`, public) draws exactly what
 * `new Faker({ locale: [en, base] })` draws, which `test/ground/faker.test.ts` holds.
 */
import type { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';

const FakerClass = english.constructor as typeof Faker;

/** A new English Faker (the `en` locale over `base`) with a generator of its own; seed it before use. */
export function englishFaker(): Faker {
  return new FakerClass({ locale: english.rawDefinitions });
}
