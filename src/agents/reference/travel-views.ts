/** The shapes the travel reference agent reads from tool responses, checked before use (a drifted schema fails the check). */
import { isObj } from './base.js';

export type Cabin = 'basic_economy' | 'economy' | 'business';
const CABINS: readonly string[] = ['basic_economy', 'economy', 'business'];
const FLIGHT_STATUSES: readonly string[] = ['scheduled', 'delayed', 'cancelled', 'landed'];

export interface SegmentView {
  number: string;
  date: string;
  price: number;
}

export interface ReservationView {
  id: string;
  userId: string;
  status: 'confirmed' | 'cancelled';
  origin: string;
  destination: string;
  cabin: Cabin;
  flights: SegmentView[];
  passengers: unknown[];
  bags: number;
  freeBags: number;
  paid: number;
  payments: { type: string; amount: number; paymentMethodId: string }[];
  compensation?: { amount: number };
}

export interface FlightDayView {
  number: string;
  origin: string;
  destination: string;
  date: string;
  departs: string;
  status: 'scheduled' | 'delayed' | 'cancelled' | 'landed';
  seats: Record<Cabin, number>;
  prices: Record<Cabin, number>;
}

export type PaymentMethodView = { id: string; source: string; brand?: string; last4?: string; balance?: number };

const isSegment = (v: unknown): v is SegmentView => isObj(v) && typeof v.number === 'string' && typeof v.date === 'string' && typeof v.price === 'number';
const isCabinNumbers = (v: unknown): v is Record<Cabin, number> => isObj(v) && CABINS.every((c) => typeof v[c] === 'number');

export function asReservation(body: unknown): ReservationView | undefined {
  if (!isObj(body) || typeof body.id !== 'string' || typeof body.userId !== 'string' || (body.status !== 'confirmed' && body.status !== 'cancelled')) return undefined;
  if (typeof body.cabin !== 'string' || !CABINS.includes(body.cabin) || typeof body.origin !== 'string' || typeof body.destination !== 'string') return undefined;
  if (!Array.isArray(body.flights) || body.flights.length === 0 || !body.flights.every(isSegment) || !Array.isArray(body.passengers) || !Array.isArray(body.payments)) return undefined;
  if (typeof body.bags !== 'number' || typeof body.freeBags !== 'number' || typeof body.paid !== 'number') return undefined;
  return body as unknown as ReservationView;
}

export function asFlightDay(body: unknown): FlightDayView | undefined {
  if (!isObj(body) || typeof body.number !== 'string' || typeof body.date !== 'string' || typeof body.status !== 'string' || !FLIGHT_STATUSES.includes(body.status)) return undefined;
  if (typeof body.origin !== 'string' || typeof body.destination !== 'string' || !isCabinNumbers(body.seats) || !isCabinNumbers(body.prices)) return undefined;
  return body as unknown as FlightDayView;
}

export function asFlightList(body: unknown): FlightDayView[] | undefined {
  if (!isObj(body) || !Array.isArray(body.flights)) return undefined;
  const list = body.flights.map(asFlightDay);
  return list.every((f) => f !== undefined) ? (list as FlightDayView[]) : undefined;
}

export function asReservationList(body: unknown): { reservationId: string; status: string; origin: string; destination: string; flights: { number: string; date: string }[] }[] | undefined {
  if (!isObj(body) || !Array.isArray(body.reservations)) return undefined;
  const ok = body.reservations.every((r) => isObj(r) && typeof r.reservationId === 'string' && typeof r.status === 'string' && typeof r.destination === 'string' && Array.isArray(r.flights));
  return ok ? (body.reservations as never) : undefined;
}

export function asTraveller(body: unknown): { membership: string; paymentMethods: PaymentMethodView[]; reservations: string[] } | undefined {
  if (!isObj(body) || typeof body.membership !== 'string' || !isObj(body.paymentMethods) || !Array.isArray(body.reservations)) return undefined;
  const list = Object.values(body.paymentMethods);
  if (!list.every((p) => isObj(p) && typeof p.id === 'string' && typeof p.source === 'string')) return undefined;
  return { membership: body.membership, paymentMethods: list as PaymentMethodView[], reservations: body.reservations.filter((x): x is string => typeof x === 'string') };
}

export const cabinText = (c: Cabin): string => c.replace('_', ' ');

export const pmText = (pm: PaymentMethodView | undefined): string =>
  !pm ? 'the original payment method' : pm.source === 'travel_credit' ? 'your travel credit' : pm.source === 'certificate' ? `your certificate (${pm.id})` : `your ${pm.brand ?? 'credit'} card ending in ${pm.last4 ?? '????'}`;
