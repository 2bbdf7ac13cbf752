import { z } from 'zod';
import { volatile } from '../../src/ground/world.js';

/** Fare classes, cheapest first. Each has its own seats, prices and fare rules (see policy.md). */
export const cabin = z.enum(['basic_economy', 'economy', 'business']);
export type Cabin = z.infer<typeof cabin>;

export const flightStatus = z.enum(['scheduled', 'delayed', 'cancelled', 'landed']);
export type FlightStatus = z.infer<typeof flightStatus>;

/** One flight on one day: its status, the seats left and the price of a seat in each cabin. */
export const flightDaySchema = z.object({
  status: flightStatus,
  seats: z.record(cabin, z.number().int().nonnegative()),
  prices: z.record(cabin, z.number().positive()),
});
export type FlightDay = z.infer<typeof flightDaySchema>;

export const flightSchema = z.object({
  number: z.string(),
  origin: z.string().length(3),
  destination: z.string().length(3),
  /** Local departure and arrival times, `HH:MM`. */
  departs: z.string(),
  arrives: z.string(),
  /** By date (`YYYY-MM-DD`). */
  days: z.record(z.string(), flightDaySchema),
});
export type Flight = z.infer<typeof flightSchema>;

export const paymentMethodSchema = z.discriminatedUnion('source', [
  z.object({ id: z.string(), source: z.literal('credit_card'), brand: z.string(), last4: z.string().regex(/^\d{4}$/) }),
  /** Credit from earlier refunds; spent like money, refilled by refunds of economy fares. */
  z.object({ id: z.string(), source: z.literal('travel_credit'), balance: z.number().nonnegative() }),
  /** A certificate (from compensation or a voucher): spent like credit, never refilled by a refund except of what was paid with it. */
  z.object({ id: z.string(), source: z.literal('certificate'), balance: z.number().nonnegative() }),
]);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const membership = z.enum(['regular', 'silver', 'gold']);
export type Membership = z.infer<typeof membership>;

export const userSchema = z.object({
  id: z.string(),
  name: z.object({ first: z.string(), last: z.string() }),
  email: z.string(),
  dob: z.string(),
  membership,
  paymentMethods: z.record(z.string(), paymentMethodSchema),
  reservations: z.array(z.string()),
});
export type User = z.infer<typeof userSchema>;

export const passengerSchema = z.object({ first: z.string(), last: z.string(), dob: z.string() });

export const segmentSchema = z.object({
  number: z.string(),
  date: z.string(),
  /** The fare paid per passenger for this flight. */
  price: z.number(),
});
export type Segment = z.infer<typeof segmentSchema>;

export const transactionSchema = z.object({
  id: volatile(z.string()),
  type: z.enum(['payment', 'refund']),
  /** What the money moved for: the fare, a fare difference, bags. */
  purpose: z.enum(['fare', 'fare_difference', 'baggage']),
  amount: z.number(),
  paymentMethodId: z.string(),
  at: volatile(z.string()),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const reservationStatus = z.enum(['confirmed', 'cancelled']);

export const reservationSchema = z.object({
  id: z.string(),
  userId: z.string(),
  origin: z.string(),
  destination: z.string(),
  cabin,
  flights: z.array(segmentSchema).min(1),
  passengers: z.array(passengerSchema).min(1),
  /** Checked bags for the whole reservation. */
  bags: z.number().int().nonnegative(),
  payments: z.array(transactionSchema),
  status: reservationStatus,
  bookedAt: z.string(),
  cancelReason: z.string().optional(),
  /** Compensation issued for a disrupted flight, once per reservation. */
  compensation: z.object({ amount: z.number(), certificateId: z.string(), flight: z.string() }).optional(),
});
export type Reservation = z.infer<typeof reservationSchema>;

export const travelDbSchema = z.object({
  users: z.record(z.string(), userSchema),
  flights: z.record(z.string(), flightSchema),
  reservations: z.record(z.string(), reservationSchema),
});
export type TravelDb = z.infer<typeof travelDbSchema>;

/** Rounds to cents; every amount the API computes goes through it. */
export const cents = (x: number): number => Math.round(x * 100) / 100;

/** What the passengers paid for their flights, after fare differences. */
export const fareTotal = (r: Reservation): number => cents(r.flights.reduce((s, f) => s + f.price, 0) * r.passengers.length);

/** Everything charged on the reservation minus everything refunded. */
export const amountPaid = (r: Reservation): number => cents(r.payments.reduce((s, p) => s + (p.type === 'payment' ? p.amount : -p.amount), 0));

/** Free checked bags per passenger by fare class; gold members get one more each. */
export const FREE_BAGS: Readonly<Record<Cabin, number>> = { basic_economy: 0, economy: 1, business: 2 };
export const BAG_FEE = 35;
export const MAX_BAGS_PER_PASSENGER = 3;

export const bagAllowance = (r: Reservation, tier: Membership): number => (FREE_BAGS[r.cabin] + (tier === 'gold' ? 1 : 0)) * r.passengers.length;

/** Compensation per passenger for a disrupted flight. */
export const COMPENSATION: Readonly<Record<'delayed' | 'cancelled', number>> = { delayed: 50, cancelled: 100 };

/** The day the world starts on (the reference epoch): flights before it have landed. */
export const TODAY = '2026-01-15';
