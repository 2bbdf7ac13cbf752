import { fileURLToPath } from 'node:url';
import { datesIn } from '../../src/ground/perturb.js';
import { nameParts, personalOf, type JudgingRules, type PersonalValue, type WriteMeaning } from '../../src/ground/judging.js';
import { amountPaid, BAG_FEE, COMPENSATION, fareTotal, type FlightDay, type PaymentMethod, type Reservation, type TravelDb } from './schema.js';

const reservationKey = (raw: string) => raw.trim().replace(/^#/, '').toUpperCase();
const RESERVATIONS = { record: 'reservations', arg: 'reservationId' } as const;

/** How a payment method is named in a sentence: "travel credit", "certificate", "Visa ending in 1234". */
function paymentWords(m: PaymentMethod | undefined): string[] {
  if (!m) return [];
  if (m.source === 'travel_credit') return ['travel credit'];
  if (m.source === 'certificate') return ['certificate'];
  return [`ending in ${m.last4}`, `${m.brand} ending`, 'credit card'];
}

/** What a write on a reservation moved (its new payments, its compensation) and what a proposal of it may name. */
function reservationWrite(args: Readonly<Record<string, unknown>>, before: unknown, after: unknown, extra: { items?: string[]; context?: number[] } = {}): WriteMeaning | undefined {
  const key = reservationKey(String(args.reservationId ?? ''));
  const was = (before as TravelDb).reservations?.[key];
  const now = (after as TravelDb).reservations?.[key];
  const user = was ? (before as TravelDb).users?.[was.userId] : undefined;
  if (!was || !now || !user) return undefined;
  const added = now.payments.slice(was.payments.length);
  const moved = [...added.map((p) => p.amount), ...(now.compensation && !was.compensation ? [now.compensation.amount] : [])];
  const usedIds = new Set([...added.map((p) => p.paymentMethodId), ...(typeof args.paymentMethodId === 'string' ? [args.paymentMethodId] : [])]);
  const methods = Object.values(user.paymentMethods);
  const fares = was.flights.map((f) => f.price);
  const people = was.passengers.length;
  return {
    amounts: moved,
    context: [...fares, ...fares.map((f) => f * people), fares.reduce((a, b) => a + b, 0) * people, ...was.payments.map((p) => p.amount), ...(extra.context ?? [])],
    items: extra.items ?? [],
    otherItems: [],
    payment: methods.filter((m) => usedIds.has(m.id)).flatMap(paymentWords),
    otherPayments: usedIds.size > 0 ? methods.filter((m) => !usedIds.has(m.id)).flatMap(paymentWords) : [],
  };
}

/** "SK201 on 2026-02-10" (or "on February 10, 2026") as `SK201|2026-02-10`; a number alone as `SK201`. */
const flightKey = (raw: string) => {
  const number = /^[A-Z]{2}\d{2,4}/.exec(raw.trim())?.[0] ?? raw.trim();
  const date = datesIn(raw)[0];
  return date ? `${number}|${date}` : number;
};

/** The flight day a key names; a number alone names one only when the flight flies on one day. */
function flightDay(db: unknown, key: string): FlightDay | undefined {
  const [number = '', date] = key.split('|');
  const days = (db as TravelDb).flights?.[number]?.days;
  if (!days) return undefined;
  if (date !== undefined) return days[date];
  const all = Object.values(days);
  return all.length === 1 ? all[0] : undefined;
}

/** Every traveller's name, e-mail and date of birth (and those of the passengers on their reservations), as theirs. */
function personal(db: unknown): PersonalValue[] {
  const out: PersonalValue[] = [];
  const d = db as TravelDb;
  for (const u of Object.values(d.users ?? {})) out.push(...personalOf(u, travellerValues));
  for (const r of Object.values(d.reservations ?? {})) out.push(...personalOf(r, passengerValues));
  return out;
}

function travellerValues(u: TravelDb['users'][string]): PersonalValue[] {
  const out: PersonalValue[] = [{ owner: u.id, field: 'name', value: `${u.name.first} ${u.name.last}` }, { owner: u.id, field: 'e-mail', value: u.email }, { owner: u.id, field: 'date of birth', value: u.dob, kind: 'date' }];
  for (const m of Object.values(u.paymentMethods)) if (m.source === 'credit_card') out.push({ owner: u.id, field: 'card', value: m.last4, kind: 'digits' });
  return out;
}

const passengerValues = (r: TravelDb['reservations'][string]): PersonalValue[] =>
  r.passengers.flatMap((p): PersonalValue[] => [{ owner: r.userId, field: 'passenger name', value: `${p.first} ${p.last}` }, { owner: r.userId, field: 'passenger date of birth', value: p.dob, kind: 'date' }]);

/** What the judge checks in the travel world, beside the final state (docs/judging.md). */
export const travelJudging: JudgingRules = {
  claimLabels: fileURLToPath(new URL('./claims.labels.jsonl', import.meta.url)),
  conduct: {
    identify: { find_user_by_email: { subject: 'userId' }, find_user_by_name_dob: { subject: 'userId' } },
    records: { reservations: { owner: 'userId', key: reservationKey } },
    private: {
      get_user: { user: 'userId' },
      list_user_reservations: { user: 'userId' },
      get_reservation: RESERVATIONS,
      cancel_reservation: RESERVATIONS,
      change_flight: RESERVATIONS,
      update_baggage: RESERVATIONS,
      issue_compensation: RESERVATIONS,
    },
    confirm: { change_flight: ['reservationId', 'newFlightNumber'], update_baggage: ['reservationId', 'addBags'] },
    lookups: {
      email: (p) => ({ tool: 'find_user_by_email', args: { email: p.email } }),
      'name-dob': (p) => ({ tool: 'find_user_by_name_dob', args: { ...nameParts(p.name), dob: p.dob } }),
    },
  },
  claims: {
    success: [/\b(?:rebooked|re-booked) (?:you|your)\b/i, /\bis now on (?:flight )?[A-Z]{2}\s?\d{3}\b/],
  },
  actionWords: {
    change_flight: /\b(?:chang(?:e|es|ed|ing)|re-?book(?:s|ed|ing)?|mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?)\b/i,
    update_baggage: /\b(?:updat(?:e|es|ed|ing)|add(?:s|ed|ing)?)\b[^.?!]*\bbags?\b|\bbags?\b[^.?!]*\b(?:updated|added)\b/i,
    issue_compensation: /\b(?:issu(?:e|es|ed|ing)|compensat(?:e|ed|ing|ion))\b/i,
  },
  facts: {
    reservations: {
      nouns: ['reservation', 'booking', 'trip'],
      idPattern: /#?R\d{6}\b/,
      key: reservationKey,
      status: { get: (r) => (r as Reservation).status, words: { confirmed: ['confirmed'], cancelled: ['cancelled', 'canceled'] } },
      amounts: {
        total: { words: /\b(?:total|fare)\b/i, get: (r) => fareTotal(r as Reservation) },
        paid: { words: /\bpaid\b/i, get: (r) => amountPaid(r as Reservation) },
      },
    },
    // A flight's status on a day ("Flight SK201 on 2026-02-10 is delayed"); its number alone when it flies once.
    flights: {
      nouns: ['flight'],
      idPattern: /\b[A-Z]{2}\d{2,4}\b(?:\s+on\s+(?:\d{4}-\d{2}-\d{2}|(?:[A-Z][a-z]+,?\s+)?[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?))?/,
      key: flightKey,
      find: flightDay,
      status: {
        get: (d) => (d as FlightDay).status,
        words: { scheduled: ['scheduled', 'on time', 'on schedule'], delayed: ['delayed'], cancelled: ['cancelled', 'canceled'], landed: ['landed'] },
      },
    },
  },
  personal,
  writes: {
    cancel_reservation: (args, before, after) => reservationWrite(args, before, after),
    change_flight: (args, before, after) => {
      const flight = (before as TravelDb).flights?.[String(args.newFlightNumber ?? '')]?.days?.[String(args.newDate ?? '')];
      return reservationWrite(args, before, after, { items: [String(args.newFlightNumber ?? '')].filter(Boolean), context: Object.values(flight?.prices ?? {}) });
    },
    update_baggage: (args, before, after) => {
      const bags = Number(args.addBags) || 0;
      return reservationWrite(args, before, after, { context: [BAG_FEE, BAG_FEE * bags] });
    },
    issue_compensation: (args, before, after) => reservationWrite(args, before, after, { context: Object.values(COMPENSATION) }),
  },
  // A bag's fee times the bags is a figure the policy gives, as are the compensations.
  arithmetic: { constants: [BAG_FEE, ...Object.values(COMPENSATION)] },
};
