import { http, type RequestHandler } from 'msw';
import { apiError, json, readInput } from '../../src/ground/handlers.js';
import type { WorldInstance } from '../../src/ground/world.js';
import { findEntry } from '../../src/ground/overlay.js';
import { amountPaid, bagAllowance, BAG_FEE, cents, COMPENSATION, fareTotal, MAX_BAGS_PER_PASSENGER, type Flight, type PaymentMethod, type Reservation, type Segment, type TravelDb, type User } from './schema.js';
import { travelTools } from './tools.js';

type Instance = WorldInstance<TravelDb>;

const inputOf = (name: string) => {
  const spec = travelTools.find((t) => t.name === name);
  if (!spec) throw new Error(`no travel tool ${name}`);
  return spec.input;
};

const normReservationId = (id: string) => id.trim().replace(/^#/, '').toUpperCase();
/** The episode's day: flights before it have flown. */
const today = (w: Instance) => new Date(w.clock.now()).toISOString().slice(0, 10);

function reservationView(w: Instance, r: Reservation) {
  const tier = w.db.users[r.userId]?.membership ?? 'regular';
  return { ...r, total: fareTotal(r), paid: amountPaid(r), freeBags: bagAllowance(r, tier) };
}

function flightDayView(f: Flight, date: string) {
  const day = f.days[date];
  return day ? { number: f.number, origin: f.origin, destination: f.destination, date, departs: f.departs, arrives: f.arrives, status: day.status, seats: { ...day.seats }, prices: { ...day.prices } } : undefined;
}

/** Whether a reservation's flight has flown: its day has passed, or it has landed. */
const flown = (w: Instance, s: Segment) => s.date < today(w) || w.db.flights[s.number]?.days[s.date]?.status === 'landed';

/** The shared start of every reservation write: parse the input, find the reservation, check it is still open. */
async function beginWrite(w: Instance, request: Request, params: Record<string, unknown>, tool: string): Promise<{ reservation: Reservation; user: User; input: Record<string, unknown> } | Response> {
  const input = await readInput(request, inputOf(tool), { reservationId: params.reservationId });
  if (!input.ok) return input.response;
  const reservation = w.db.reservations[normReservationId(String(params.reservationId))];
  if (!reservation) return apiError(404, 'reservation_not_found', `No reservation ${String(params.reservationId)}.`);
  const user = w.db.users[reservation.userId];
  if (!user) return apiError(500, 'orphan_reservation', `Reservation ${reservation.id} has no traveller.`);
  return { reservation, user, input: input.value as Record<string, unknown> };
}

/** A payment method of the traveller that can pay `amount` (balances must cover it), or the error to send. */
function payer(user: User, paymentMethodId: unknown, amount: number): PaymentMethod | Response {
  if (typeof paymentMethodId !== 'string') return apiError(400, 'payment_required', `${amount} is due; give a paymentMethodId.`);
  const pm = user.paymentMethods[paymentMethodId];
  if (!pm) return apiError(400, 'invalid_payment_method', `Payment method ${paymentMethodId} does not belong to the traveller.`);
  if (pm.source !== 'credit_card' && amount > 0 && pm.balance < amount) return apiError(402, 'insufficient_balance', `${paymentMethodId} has ${pm.balance} left; ${amount} is due.`);
  return pm;
}

/** Moves money on a reservation: a payment (positive) or a refund (negative), and a balance with it. */
function settle(w: Instance, r: Reservation, pm: PaymentMethod, amount: number, purpose: 'fare' | 'fare_difference' | 'baggage'): void {
  if (amount === 0) return;
  r.payments.push({ id: w.nextId('txn'), type: amount > 0 ? 'payment' : 'refund', purpose, amount: Math.abs(amount), paymentMethodId: pm.id, at: new Date(w.clock.now()).toISOString() });
  if (pm.source !== 'credit_card') pm.balance = cents(pm.balance - amount);
}

/** The travel API as msw handlers over the episode's database, found from the request's host. */
export function travelHandlers(instance: (request: Request) => Instance): RequestHandler[] {
  return [
    http.get('*/api/users/by-email', async ({ request }) => {
      const w = instance(request);
      const input = await readInput(request, inputOf('find_user_by_email'), {});
      if (!input.ok) return input.response;
      const email = String(input.value.email).trim().toLowerCase();
      const user = findEntry(w.db.users, (u) => u.email === email);
      return user ? json({ userId: user.id }) : apiError(404, 'user_not_found', `No traveller with e-mail ${email}.`);
    }),
    http.get('*/api/users/by-name', async ({ request }) => {
      const w = instance(request);
      const input = await readInput(request, inputOf('find_user_by_name_dob'), {});
      if (!input.ok) return input.response;
      const { first, last, dob } = input.value as { first: string; last: string; dob: string };
      const user = findEntry(w.db.users, (u) => u.name.first.toLowerCase() === first.trim().toLowerCase() && u.name.last.toLowerCase() === last.trim().toLowerCase() && u.dob === dob);
      return user ? json({ userId: user.id }) : apiError(404, 'user_not_found', 'No traveller with that name and date of birth.');
    }),
    http.get('*/api/users/:userId/reservations', ({ request, params }) => {
      const w = instance(request);
      const user = w.db.users[String(params.userId)];
      if (!user) return apiError(404, 'user_not_found', `No traveller ${String(params.userId)}.`);
      const reservations = user.reservations
        .map((id) => w.db.reservations[id])
        .filter((r): r is Reservation => !!r)
        .map((r) => ({ reservationId: r.id, status: r.status, origin: r.origin, destination: r.destination, cabin: r.cabin, flights: r.flights.map((f) => ({ number: f.number, date: f.date })), passengers: r.passengers.length }));
      return json({ reservations });
    }),
    http.get('*/api/users/:userId', ({ request, params }) => {
      const user = instance(request).db.users[String(params.userId)];
      return user ? json(user) : apiError(404, 'user_not_found', `No traveller ${String(params.userId)}.`);
    }),
    http.get('*/api/reservations/:reservationId', ({ request, params }) => {
      const w = instance(request);
      const r = w.db.reservations[normReservationId(String(params.reservationId))];
      return r ? json(reservationView(w, r)) : apiError(404, 'reservation_not_found', `No reservation ${String(params.reservationId)}.`);
    }),
    http.get('*/api/flights/search', async ({ request }) => {
      const w = instance(request);
      const input = await readInput(request, inputOf('search_flights'), {});
      if (!input.ok) return input.response;
      const { origin, destination, date } = input.value as { origin: string; destination: string; date: string };
      const flights = Object.values(w.db.flights)
        .filter((f) => f.origin === origin.toUpperCase() && f.destination === destination.toUpperCase())
        .map((f) => flightDayView(f, date))
        .filter((f) => f !== undefined);
      return json({ flights });
    }),
    http.get('*/api/flights/:flightNumber/days/:date', async ({ request, params }) => {
      const w = instance(request);
      const input = await readInput(request, inputOf('get_flight_status'), { flightNumber: params.flightNumber, date: params.date });
      if (!input.ok) return input.response;
      const { flightNumber, date } = input.value as { flightNumber: string; date: string };
      const flight = w.db.flights[flightNumber.toUpperCase()];
      if (!flight) return apiError(404, 'flight_not_found', `No flight ${flightNumber}.`);
      const view = flightDayView(flight, date);
      return view ? json(view) : apiError(404, 'no_flight_that_day', `Flight ${flight.number} does not fly on ${date}.`);
    }),

    http.post('*/api/reservations/:reservationId/cancel', async ({ request, params }) => {
      const w = instance(request);
      const begun = await beginWrite(w, request, params, 'cancel_reservation');
      if (begun instanceof Response) return begun;
      const { reservation: r, user, input } = begun;
      if (r.status === 'cancelled') return apiError(409, 'already_cancelled', `Reservation ${r.id} is already cancelled.`);
      if (r.flights.some((s) => flown(w, s))) return apiError(409, 'already_flown', `Reservation ${r.id} has a flight that has already flown; it cannot be cancelled.`);
      const airlineCancelled = r.flights.some((s) => w.db.flights[s.number]?.days[s.date]?.status === 'cancelled');
      if (r.cabin === 'basic_economy' && !airlineCancelled) return apiError(409, 'non_refundable', `Reservation ${r.id} is basic economy, which cannot be cancelled unless the airline cancelled a flight.`);
      // What was paid, net of refunds, per payment method.
      const net = new Map<string, number>();
      for (const p of r.payments) net.set(p.paymentMethodId, cents((net.get(p.paymentMethodId) ?? 0) + (p.type === 'payment' ? p.amount : -p.amount)));
      const refunded: string[] = [];
      let amount = 0;
      if (airlineCancelled || r.cabin === 'business') {
        for (const [pmId, paid] of net) {
          const pm = user.paymentMethods[pmId];
          if (!pm || paid <= 0) continue;
          settle(w, r, pm, -paid, 'fare');
          refunded.push(pmId);
          amount = cents(amount + paid);
        }
      } else {
        // Economy: the whole amount becomes travel credit, on the traveller's credit or a new one.
        const total = cents([...net.values()].reduce((s, x) => s + x, 0));
        let credit = Object.values(user.paymentMethods).find((p) => p.source === 'travel_credit');
        if (!credit) {
          credit = { id: `travel_credit_${r.id}`, source: 'travel_credit', balance: 0 };
          user.paymentMethods[credit.id] = credit;
        }
        if (total > 0) {
          settle(w, r, credit, -total, 'fare');
          refunded.push(credit.id);
          amount = total;
        }
      }
      for (const s of r.flights) {
        const day = w.db.flights[s.number]?.days[s.date];
        if (day) day.seats[r.cabin] += r.passengers.length;
      }
      r.status = 'cancelled';
      r.cancelReason = String(input.reason);
      return json({ reservation: reservationView(w, r), refund: { amount, to: refunded } });
    }),

    http.post('*/api/reservations/:reservationId/flights', async ({ request, params }) => {
      const w = instance(request);
      const begun = await beginWrite(w, request, params, 'change_flight');
      if (begun instanceof Response) return begun;
      const { reservation: r, user } = begun;
      const { flightNumber, newFlightNumber, newDate, paymentMethodId } = begun.input as { flightNumber: string; newFlightNumber: string; newDate: string; paymentMethodId: string };
      if (r.status === 'cancelled') return apiError(409, 'not_changeable', `Reservation ${r.id} is cancelled.`);
      if (r.cabin === 'basic_economy') return apiError(409, 'not_changeable', `Reservation ${r.id} is basic economy, whose flights cannot be changed.`);
      const segment = r.flights.find((s) => s.number === flightNumber.toUpperCase());
      if (!segment) return apiError(400, 'flight_not_in_reservation', `Flight ${flightNumber} is not in reservation ${r.id}.`);
      if (flown(w, segment)) return apiError(409, 'already_flown', `Flight ${segment.number} on ${segment.date} has already flown.`);
      const from = w.db.flights[segment.number];
      const to = w.db.flights[newFlightNumber.toUpperCase()];
      if (!to) return apiError(404, 'flight_not_found', `No flight ${newFlightNumber}.`);
      if (!from || from.origin !== to.origin || from.destination !== to.destination) return apiError(400, 'different_route', `Flight ${to.number} does not fly ${from?.origin ?? '?'}-${from?.destination ?? '?'}.`);
      const day = to.days[newDate];
      if (!day) return apiError(404, 'no_flight_that_day', `Flight ${to.number} does not fly on ${newDate}.`);
      if (newDate < today(w)) return apiError(400, 'in_the_past', `${newDate} has passed.`);
      if (to.number === segment.number && newDate === segment.date) return apiError(400, 'same_flight', 'That is the flight already booked.');
      if (day.status === 'cancelled' || day.status === 'landed') return apiError(409, 'not_bookable', `Flight ${to.number} on ${newDate} is ${day.status}.`);
      const n = r.passengers.length;
      if (day.seats[r.cabin] < n) return apiError(409, 'no_seats', `Flight ${to.number} on ${newDate} has ${day.seats[r.cabin]} ${r.cabin} seat(s) left; ${n} needed.`);
      const difference = cents((day.prices[r.cabin] - segment.price) * n);
      const pm = payer(user, paymentMethodId, difference);
      if (pm instanceof Response) return pm;
      const old = from.days[segment.date];
      if (old) old.seats[r.cabin] += n;
      day.seats[r.cabin] -= n;
      segment.number = to.number;
      segment.date = newDate;
      segment.price = day.prices[r.cabin];
      settle(w, r, pm, difference, 'fare_difference');
      return json({ reservation: reservationView(w, r), fareDifference: difference, paymentMethodId: pm.id });
    }),

    http.post('*/api/reservations/:reservationId/bags', async ({ request, params }) => {
      const w = instance(request);
      const begun = await beginWrite(w, request, params, 'update_baggage');
      if (begun instanceof Response) return begun;
      const { reservation: r, user } = begun;
      const { addBags, paymentMethodId } = begun.input as { addBags: number; paymentMethodId?: string };
      if (r.status === 'cancelled') return apiError(409, 'not_changeable', `Reservation ${r.id} is cancelled.`);
      if (r.flights.every((s) => flown(w, s))) return apiError(409, 'already_flown', `Reservation ${r.id} has flown.`);
      // Bags are added by count, as airline APIs do: the same call made twice adds (and charges) twice.
      const totalBags = r.bags + addBags;
      if (totalBags > MAX_BAGS_PER_PASSENGER * r.passengers.length) return apiError(400, 'too_many_bags', `At most ${MAX_BAGS_PER_PASSENGER} bags per passenger; reservation ${r.id} has ${r.bags}.`);
      const free = bagAllowance(r, user.membership);
      const fee = cents(BAG_FEE * (Math.max(0, totalBags - free) - Math.max(0, r.bags - free)));
      let pm: PaymentMethod | undefined;
      if (fee > 0) {
        const found = payer(user, paymentMethodId, fee);
        if (found instanceof Response) return found;
        pm = found;
        settle(w, r, pm, fee, 'baggage');
      }
      r.bags = totalBags;
      return json({ reservation: reservationView(w, r), fee, ...(pm ? { paymentMethodId: pm.id } : {}) });
    }),

    http.post('*/api/reservations/:reservationId/compensation', async ({ request, params }) => {
      const w = instance(request);
      const begun = await beginWrite(w, request, params, 'issue_compensation');
      if (begun instanceof Response) return begun;
      const { reservation: r, user } = begun;
      if (r.compensation) return apiError(409, 'already_compensated', `Reservation ${r.id} was already compensated (${r.compensation.certificateId}).`);
      const disrupted = r.flights
        .map((s) => ({ s, status: w.db.flights[s.number]?.days[s.date]?.status }))
        .find((x): x is { s: (typeof r.flights)[number]; status: 'delayed' | 'cancelled' } => x.status === 'delayed' || x.status === 'cancelled');
      if (!disrupted) return apiError(409, 'no_disruption', `No flight of reservation ${r.id} was delayed or cancelled.`);
      if (user.membership === 'regular' && r.cabin !== 'business') return apiError(409, 'not_eligible', 'Compensation is for silver and gold members and business travellers.');
      const amount = COMPENSATION[disrupted.status] * r.passengers.length;
      const id = `certificate_${r.id}`;
      user.paymentMethods[id] = { id, source: 'certificate', balance: amount };
      r.compensation = { amount, certificateId: id, flight: disrupted.s.number };
      return json({ reservation: reservationView(w, r), certificate: { id, amount } });
    }),
  ];
}
