import { z } from 'zod';
import { cabin, fareTotal, flightStatus, membership, type PaymentMethod, type Reservation, type TravelDb } from './schema.js';

const setupPayment = z.discriminatedUnion('kind', [
  z.object({ id: z.string(), kind: z.literal('credit_card'), brand: z.string().default('visa'), last4: z.string().regex(/^\d{4}$/) }),
  z.object({ id: z.string(), kind: z.literal('travel_credit'), balance: z.number().nonnegative() }),
  z.object({ id: z.string(), kind: z.literal('certificate'), balance: z.number().nonnegative() }),
]);

const personName = z.string().regex(/^\S+ \S+$/, 'write the name as "First Last"');

/** A scenario's own entities, written compactly; `applyTravelSetup` expands them into records. */
export const travelSetupSchema = z.object({
  users: z
    .array(
      z.object({
        id: z.string().regex(/^[a-z0-9_]+$/, 'a user id is lower-case letters, digits and underscores'),
        name: personName,
        email: z.email(),
        dob: z.iso.date(),
        membership: membership.default('regular'),
        payment: z.array(setupPayment).min(1),
      }),
    )
    .default([]),
  /** Changes to the schedule on given days: a delay, a cancellation, a full cabin. Applied before the reservations. */
  flights: z
    .array(
      z.object({
        flight: z.string().regex(/^SK\d{3}$/, 'a flight number is SK and three digits'),
        date: z.iso.date(),
        status: flightStatus.optional(),
        seats: z.partialRecord(cabin, z.number().int().nonnegative()).optional(),
      }),
    )
    .default([]),
  reservations: z
    .array(
      z.object({
        id: z.string().regex(/^R9\d{5}$/, 'scenario reservation ids are R9 followed by five digits (generated ones stay below R900000)'),
        user: z.string(),
        cabin,
        flights: z.array(z.object({ flight: z.string(), date: z.iso.date() })).min(1),
        /** Other passengers besides the traveller, as "First Last". @default [] */
        companions: z.array(z.object({ name: personName, dob: z.iso.date() })).default([]),
        bags: z.number().int().nonnegative().default(0),
        payment: z.string(),
        status: z.enum(['confirmed', 'cancelled']).default('confirmed'),
        bookedAt: z.iso.date().default('2026-01-05'),
      }),
    )
    .default([]),
});
export type TravelSetup = z.infer<typeof travelSetupSchema>;

/** Adds a scenario's travellers, schedule changes and reservations to the database. Throws, naming the entity, on any conflict. */
export function applyTravelSetup(db: TravelDb, setup: TravelSetup): void {
  for (const u of setup.users) {
    if (db.users[u.id]) throw new Error(`user \`${u.id}\` already exists in the base database; choose another id`);
    const email = u.email.toLowerCase();
    if (Object.values(db.users).some((x) => x.email === email)) throw new Error(`e-mail \`${u.email}\` is already taken`);
    const [first, last] = u.name.split(' ') as [string, string];
    const paymentMethods: Record<string, PaymentMethod> = {};
    for (const p of u.payment) {
      paymentMethods[p.id] = p.kind === 'credit_card' ? { id: p.id, source: 'credit_card', brand: p.brand, last4: p.last4 } : { id: p.id, source: p.kind, balance: p.balance };
    }
    db.users[u.id] = { id: u.id, name: { first, last }, email, dob: u.dob, membership: u.membership, paymentMethods, reservations: [] };
  }
  for (const f of setup.flights) {
    const day = db.flights[f.flight]?.days[f.date];
    if (!day) throw new Error(`flight \`${f.flight}\` does not fly on ${f.date} (the schedule runs 2026-01-05 to 2026-02-28; see scenarios/travel/network.ts)`);
    if (f.status) day.status = f.status;
    for (const [c, n] of Object.entries(f.seats ?? {})) day.seats[c as keyof typeof day.seats] = n;
  }
  for (const r of setup.reservations) {
    if (db.reservations[r.id]) throw new Error(`reservation \`${r.id}\` already exists`);
    const user = db.users[r.user];
    if (!user) throw new Error(`reservation \`${r.id}\` names user \`${r.user}\`, who is not in the setup or the base database`);
    if (!user.paymentMethods[r.payment]) throw new Error(`reservation \`${r.id}\` is paid with \`${r.payment}\`, which user \`${r.user}\` does not have`);
    const segments = r.flights.map(({ flight, date }) => {
      const f = db.flights[flight];
      const day = f?.days[date];
      if (!f || !day) throw new Error(`reservation \`${r.id}\` names flight \`${flight}\` on ${date}, which is not in the schedule`);
      return { number: flight, date, price: day.prices[r.cabin], origin: f.origin, destination: f.destination };
    });
    const passengers = [{ first: user.name.first, last: user.name.last, dob: user.dob }, ...r.companions.map((c) => ({ first: c.name.split(' ')[0] ?? '', last: c.name.split(' ')[1] ?? '', dob: c.dob }))];
    const at = `${r.bookedAt}T12:00:00.000Z`;
    // The schedule's seat counts are what is left after every booking, this one's included: no seat is taken here.
    const reservation: Reservation = {
      id: r.id,
      userId: user.id,
      origin: segments[0]?.origin ?? '',
      destination: segments[0]?.destination ?? '',
      cabin: r.cabin,
      flights: segments.map(({ number, date, price }) => ({ number, date, price })),
      passengers,
      bags: r.bags,
      payments: [],
      status: r.status,
      bookedAt: at,
    };
    reservation.payments.push({ id: `txn_${r.id}_1`, type: 'payment', purpose: 'fare', amount: fareTotal(reservation), paymentMethodId: r.payment, at });
    if (r.status === 'cancelled') reservation.cancelReason = 'change of plans';
    db.reservations[r.id] = reservation;
    user.reservations.push(r.id);
  }
}
