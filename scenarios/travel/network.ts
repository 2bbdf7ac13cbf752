import { TODAY, type Cabin, type Flight, type FlightDay } from './schema.js';

/** The airports the airline flies to, with the city a traveller names. */
export const AIRPORTS: Readonly<Record<string, string>> = {
  JFK: 'New York',
  BOS: 'Boston',
  ORD: 'Chicago',
  SFO: 'San Francisco',
  LAX: 'Los Angeles',
  SEA: 'Seattle',
  MIA: 'Miami',
  DEN: 'Denver',
};

interface Route {
  readonly number: string;
  readonly origin: string;
  readonly destination: string;
  readonly departs: string;
  readonly arrives: string;
  /** The economy fare on a quiet day; other days and cabins derive from it. */
  readonly economy: number;
}

/**
 * The fixed schedule. Like the retail catalogue it is data, not generated, so that scenarios can name
 * flights (`SK204`) and know their prices on every seed. Most routes fly twice a day.
 */
const ROUTES: readonly Route[] = [
  { number: 'SK101', origin: 'JFK', destination: 'BOS', departs: '07:00', arrives: '08:15', economy: 129 },
  { number: 'SK103', origin: 'JFK', destination: 'BOS', departs: '17:30', arrives: '18:45', economy: 149 },
  { number: 'SK102', origin: 'BOS', destination: 'JFK', departs: '09:30', arrives: '10:45', economy: 129 },
  { number: 'SK104', origin: 'BOS', destination: 'JFK', departs: '19:30', arrives: '20:45', economy: 139 },
  { number: 'SK201', origin: 'JFK', destination: 'ORD', departs: '08:00', arrives: '09:50', economy: 189 },
  { number: 'SK203', origin: 'JFK', destination: 'ORD', departs: '15:00', arrives: '16:50', economy: 209 },
  { number: 'SK202', origin: 'ORD', destination: 'JFK', departs: '11:00', arrives: '14:05', economy: 189 },
  { number: 'SK204', origin: 'ORD', destination: 'JFK', departs: '18:00', arrives: '21:05', economy: 199 },
  { number: 'SK301', origin: 'SFO', destination: 'SEA', departs: '08:30', arrives: '10:35', economy: 159 },
  { number: 'SK303', origin: 'SFO', destination: 'SEA', departs: '16:00', arrives: '18:05', economy: 179 },
  { number: 'SK302', origin: 'SEA', destination: 'SFO', departs: '12:00', arrives: '14:05', economy: 159 },
  { number: 'SK401', origin: 'LAX', destination: 'MIA', departs: '07:15', arrives: '15:25', economy: 289 },
  { number: 'SK402', origin: 'MIA', destination: 'LAX', departs: '10:00', arrives: '12:55', economy: 279 },
  { number: 'SK501', origin: 'DEN', destination: 'LAX', departs: '09:00', arrives: '10:40', economy: 149 },
  { number: 'SK503', origin: 'DEN', destination: 'LAX', departs: '18:20', arrives: '20:00', economy: 139 },
  { number: 'SK502', origin: 'LAX', destination: 'DEN', departs: '12:10', arrives: '15:35', economy: 149 },
];

/** The days the schedule covers. */
export const FIRST_DAY = '2026-01-05';
export const LAST_DAY = '2026-02-28';

export function scheduleDays(): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${FIRST_DAY}T00:00:00Z`); t <= Date.parse(`${LAST_DAY}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/**
 * The price of a seat on a day: the route's economy fare plus a surcharge that cycles over the days of
 * the month (fixed, so that scenarios know it), basic economy at 70 % and business at three times it.
 */
export function fareOn(route: { economy: number }, date: string): Record<Cabin, number> {
  const day = Number(date.slice(8, 10));
  const economy = route.economy + (day % 4) * 20;
  return { basic_economy: Math.round(economy * 0.7), economy, business: economy * 3 };
}

/**
 * The schedule as database records, keyed by flight number. Seats come from `seats` (the generator's
 * seeded draw); flights before today have landed.
 */
export function buildFlights(seats: (number: string, date: string) => Record<Cabin, number>): Record<string, Flight> {
  const days = scheduleDays();
  const out: Record<string, Flight> = {};
  for (const r of ROUTES) {
    const record: Record<string, FlightDay> = {};
    for (const date of days) record[date] = { status: date < TODAY ? 'landed' : 'scheduled', seats: seats(r.number, date), prices: fareOn(r, date) };
    out[r.number] = { number: r.number, origin: r.origin, destination: r.destination, departs: r.departs, arrives: r.arrives, days: record };
  }
  return out;
}

/** The flight numbers of the schedule. */
export const flightNumbers = (): string[] => ROUTES.map((r) => r.number);
