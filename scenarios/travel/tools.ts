import { z } from 'zod';
import type { ToolSpec } from '../../src/ground/world.js';
import { cabin, flightStatus, membership, paymentMethodSchema, reservationSchema, reservationStatus } from './schema.js';

const reservationId = z.string().describe('reservation id, e.g. "R900101" (a leading "#" is ignored)');
const userId = z.string().describe('user id as returned by the find_user tools');
const date = z.iso.date().describe('a day, YYYY-MM-DD');
const flightNumber = z.string().regex(/^SK\d{3}$/i, 'a flight number is SK and three digits').describe('flight number, e.g. "SK204"');
const paymentMethodId = z.string().describe("id of one of the user's payment methods");

const found = z.object({ userId: z.string() });
const reservationView = reservationSchema.extend({ total: z.number(), paid: z.number(), freeBags: z.number().int() });
const flightDayView = z.object({
  number: z.string(),
  origin: z.string(),
  destination: z.string(),
  date: z.string(),
  departs: z.string(),
  arrives: z.string(),
  status: flightStatus,
  seats: z.record(cabin, z.number().int()),
  prices: z.record(cabin, z.number()),
});

/** What each tool answers on success: schema drift and empty results derive their changes from it. */
const OUTPUTS: Readonly<Record<string, z.ZodType>> = {
  find_user_by_email: found,
  find_user_by_name_dob: found,
  get_user: z.object({ id: z.string(), name: z.object({ first: z.string(), last: z.string() }), email: z.string(), dob: z.string(), membership, paymentMethods: z.record(z.string(), paymentMethodSchema), reservations: z.array(z.string()) }),
  list_user_reservations: z.object({
    reservations: z.array(z.object({ reservationId: z.string(), status: reservationStatus, origin: z.string(), destination: z.string(), cabin, flights: z.array(z.object({ number: z.string(), date: z.string() })), passengers: z.number().int() })),
  }),
  get_reservation: reservationView,
  search_flights: z.object({ flights: z.array(flightDayView) }),
  get_flight_status: flightDayView,
  cancel_reservation: z.object({ reservation: reservationView, refund: z.object({ amount: z.number(), to: z.array(z.string()) }) }),
  change_flight: z.object({ reservation: reservationView, fareDifference: z.number(), paymentMethodId: z.string() }),
  update_baggage: z.object({ reservation: reservationView, fee: z.number(), paymentMethodId: z.string().optional() }),
  issue_compensation: z.object({ reservation: reservationView, certificate: z.object({ id: z.string(), amount: z.number() }) }),
};

/** The travel tool API, as agents see it. */
export const travelTools: readonly ToolSpec[] = ([
  {
    name: 'find_user_by_email',
    description: "Finds a traveller's user id by e-mail address. 404 if no user has it.",
    method: 'GET',
    path: '/users/by-email',
    input: z.object({ email: z.string().describe('e-mail address') }),
    write: false,
  },
  {
    name: 'find_user_by_name_dob',
    description: "Finds a traveller's user id by first name, last name and date of birth. 404 if none matches.",
    method: 'GET',
    path: '/users/by-name',
    input: z.object({ first: z.string(), last: z.string(), dob: date.describe('date of birth, YYYY-MM-DD') }),
    write: false,
  },
  {
    name: 'get_user',
    description: "Gets a traveller's profile: name, e-mail, date of birth, membership tier (regular, silver, gold), payment methods (cards, travel credit and certificates with balances) and reservation ids.",
    method: 'GET',
    path: '/users/{userId}',
    input: z.object({ userId }),
    write: false,
  },
  {
    name: 'list_user_reservations',
    description: "Lists a traveller's reservations: status, route, fare class, flights and number of passengers.",
    method: 'GET',
    path: '/users/{userId}/reservations',
    input: z.object({ userId }),
    write: false,
  },
  {
    name: 'get_reservation',
    description: 'Gets a reservation: route, fare class, flights with the fare paid per passenger, passengers, checked bags and free allowance, payments and refunds, total fare and amount paid.',
    method: 'GET',
    path: '/reservations/{reservationId}',
    input: z.object({ reservationId }),
    write: false,
  },
  {
    name: 'search_flights',
    description: 'Lists the flights between two airports (IATA codes, e.g. "JFK") on a day, with status, seats left and price per seat in each fare class.',
    method: 'GET',
    path: '/flights/search',
    input: z.object({ origin: z.string().length(3), destination: z.string().length(3), date }),
    write: false,
  },
  {
    name: 'get_flight_status',
    description: 'Gets one flight on one day: status (scheduled, delayed, cancelled, landed), times, seats and prices.',
    method: 'GET',
    path: '/flights/{flightNumber}/days/{date}',
    input: z.object({ flightNumber, date }),
    write: false,
  },
  {
    name: 'cancel_reservation',
    description: 'Cancels a reservation under the fare rules and refunds it (see the policy). Honours Idempotency-Key.',
    method: 'POST',
    path: '/reservations/{reservationId}/cancel',
    input: z.object({ reservationId, reason: z.enum(['change of plans', 'airline cancelled flight', 'other']) }),
    write: true,
    money: true,
  },
  {
    name: 'change_flight',
    description: 'Moves a reservation from one of its flights to another flight on the same route, in the same fare class; the fare difference for all passengers is charged to, or refunded to, a payment method. Honours Idempotency-Key.',
    method: 'POST',
    path: '/reservations/{reservationId}/flights',
    input: z.object({ reservationId, flightNumber: flightNumber.describe('the flight being replaced'), newFlightNumber: flightNumber, newDate: date, paymentMethodId }),
    write: true,
    money: true,
  },
  {
    name: 'update_baggage',
    description: 'Adds checked bags to a reservation (bags can be added, not removed): the bags given are added to those it has. Bags beyond the free allowance cost 35 each, charged to a payment method. Not idempotent without a key: the same call made twice adds twice. Honours Idempotency-Key.',
    method: 'POST',
    path: '/reservations/{reservationId}/bags',
    input: z.object({ reservationId, addBags: z.number().int().min(1).describe('how many bags to add'), paymentMethodId: paymentMethodId.optional() }),
    write: true,
    money: true,
  },
  {
    name: 'issue_compensation',
    description: 'Issues compensation for a delayed or cancelled flight of a reservation, as a certificate on the traveller (see the policy for who is eligible). Honours Idempotency-Key.',
    method: 'POST',
    path: '/reservations/{reservationId}/compensation',
    input: z.object({ reservationId }),
    write: true,
    money: true,
  },
] as const satisfies readonly Omit<ToolSpec, 'output'>[]).map((t): ToolSpec => {
  const output = OUTPUTS[t.name];
  return output ? { ...t, output } : t;
});
