import type { Faker } from '@faker-js/faker';
import { englishFaker } from '../../src/ground/faker.js';
import { REFERENCE_EPOCH_MS } from '../../src/ground/clock.js';
import { hash53 } from '../../src/ground/seeds.js';
import { buildFlights, scheduleDays } from './network.js';
import { cabin, cents, membership, type PaymentMethod, type Reservation, type TravelDb, type User } from './schema.js';

/** Sizes of the generated base database. */
export interface TravelSize {
  /** @default 40 */
  readonly users: number;
  /** @default 120 */
  readonly reservations: number;
}

export const DEFAULT_TRAVEL_SIZE: TravelSize = { users: 40, reservations: 120 };

/**
 * Generates the base travel database for a seed: the fixed schedule with seeded seat counts (never
 * sold out: a scenario that needs a full flight says so in its setup), then travellers and their
 * reservations drawn by a Faker instance of its own with a fixed reference date. Generated reservation
 * ids stay below R900000, which scenarios keep for themselves.
 */
export function generateTravel(seed: string, size: TravelSize = DEFAULT_TRAVEL_SIZE): TravelDb {
  const faker = englishFaker();
  faker.seed(hash53(`travel|${seed}`) % 2 ** 32);
  faker.setDefaultRefDate(new Date(REFERENCE_EPOCH_MS));
  const flights = buildFlights(() => ({
    basic_economy: faker.number.int({ min: 2, max: 9 }),
    economy: faker.number.int({ min: 3, max: 20 }),
    business: faker.number.int({ min: 1, max: 6 }),
  }));
  const days = scheduleDays();

  const users: Record<string, User> = {};
  for (let i = 0; i < size.users; i++) {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    let id = `${first}_${last}_${faker.string.numeric(4)}`.toLowerCase().replace(/[^a-z0-9_]/g, '');
    while (users[id]) id = `${id}x`;
    const paymentMethods: Record<string, PaymentMethod> = {};
    const cardId = `credit_card_${faker.string.numeric(7)}`;
    paymentMethods[cardId] = { id: cardId, source: 'credit_card', brand: faker.helpers.arrayElement(['visa', 'mastercard', 'amex']), last4: faker.string.numeric(4) };
    if (faker.datatype.boolean({ probability: 0.4 })) {
      const pmId = `travel_credit_${faker.string.numeric(7)}`;
      paymentMethods[pmId] = { id: pmId, source: 'travel_credit', balance: faker.number.int({ min: 0, max: 300 }) };
    }
    if (faker.datatype.boolean({ probability: 0.25 })) {
      const pmId = `certificate_${faker.string.numeric(7)}`;
      paymentMethods[pmId] = { id: pmId, source: 'certificate', balance: faker.helpers.arrayElement([50, 100, 150, 250]) };
    }
    users[id] = {
      id,
      name: { first, last },
      email: `${first}.${last}${faker.string.numeric(3)}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, ''),
      dob: faker.date.birthdate({ min: 18, max: 80, mode: 'age' }).toISOString().slice(0, 10),
      membership: faker.helpers.arrayElement(membership.options),
      paymentMethods,
      reservations: [],
    };
  }

  const userIds = Object.keys(users);
  const numbers = Object.keys(flights);
  const reservations: Record<string, Reservation> = {};
  for (let i = 0; i < size.reservations && userIds.length > 0; i++) {
    let id = `R${faker.number.int({ min: 100_000, max: 899_999 })}`;
    while (reservations[id]) id = `R${faker.number.int({ min: 100_000, max: 899_999 })}`;
    const user = users[faker.helpers.arrayElement(userIds)] as User;
    const flight = flights[faker.helpers.arrayElement(numbers)];
    if (!flight) continue;
    const date = faker.helpers.arrayElement(days);
    const fare = faker.helpers.arrayElement(cabin.options);
    const price = flight.days[date]?.prices[fare] ?? 0;
    const companions = faker.number.int({ min: 0, max: 2 });
    const passengers = [{ first: user.name.first, last: user.name.last, dob: user.dob }];
    for (let c = 0; c < companions; c++) passengers.push({ first: faker.person.firstName(), last: user.name.last, dob: faker.date.birthdate({ min: 2, max: 80, mode: 'age' }).toISOString().slice(0, 10) });
    const card = Object.values(user.paymentMethods).find((p) => p.source === 'credit_card') as PaymentMethod;
    const bookedAt = faker.date.recent({ days: 40 }).toISOString();
    const reservation: Reservation = {
      id,
      userId: user.id,
      origin: flight.origin,
      destination: flight.destination,
      cabin: fare,
      flights: [{ number: flight.number, date, price }],
      passengers,
      bags: faker.number.int({ min: 0, max: passengers.length }),
      payments: [{ id: `txn_${id}_1`, type: 'payment', purpose: 'fare', amount: cents(price * passengers.length), paymentMethodId: card.id, at: bookedAt }],
      status: faker.datatype.boolean({ probability: 0.1 }) ? 'cancelled' : 'confirmed',
      bookedAt,
    };
    if (reservation.status === 'cancelled') reservation.cancelReason = 'change of plans';
    reservations[id] = reservation;
    user.reservations.push(id);
  }
  return { users, flights, reservations };
}
