/** What the travel reference agent knows about recovering: how to check a write, and other routes to a fact. */
import type { ToolResult } from '../../ground/tools.js';
import type { ToolCall, WriteCheck } from '../strategies.js';
import { fallbackResult } from './base.js';
import { asFlightList, asReservation, asTraveller, type ReservationView } from './travel-views.js';

/**
 * Reads the reservation to tell whether a write took effect: a cancellation shows in the status, a
 * flight change in the flights, bags in the count, compensation in its record (against the reservation
 * as it was planned).
 */
export async function verifyTravelWrite(call: ToolCall, tool: string, args: Readonly<Record<string, unknown>>, planned: ReservationView | undefined): Promise<WriteCheck> {
  const r = await call('get_reservation', { reservationId: String(args.reservationId ?? '') });
  const now = r.ok ? asReservation(r.body) : undefined;
  if (!now) return 'unknown';
  switch (tool) {
    case 'cancel_reservation':
      return now.status === 'cancelled' ? 'done' : 'not-done';
    case 'change_flight':
      return now.flights.some((s) => s.number === args.newFlightNumber && s.date === args.newDate) ? 'done' : 'not-done';
    case 'update_baggage':
      if (!planned) return 'unknown';
      return now.bags === planned.bags + Number(args.addBags) ? 'done' : now.bags === planned.bags ? 'not-done' : 'unknown';
    case 'issue_compensation':
      return now.compensation && !planned?.compensation ? 'done' : 'not-done';
    default:
      return 'unknown';
  }
}

/**
 * Another route to a fact a read did not return: a flight's day from the search of its route (the
 * route of the reservation at hand), or the reservation list from the traveller's profile and each
 * reservation.
 */
export async function travelAlternative(call: ToolCall, tool: string, args: Readonly<Record<string, unknown>>, planned: ReservationView | undefined): Promise<ToolResult | undefined> {
  if (tool === 'get_flight_status') {
    if (!planned) return undefined;
    const r = await call('search_flights', { origin: planned.origin, destination: planned.destination, date: String(args.date ?? '') });
    const day = (r.ok ? asFlightList(r.body) : undefined)?.find((f) => f.number === String(args.flightNumber ?? '').toUpperCase());
    return day ? fallbackResult(day) : undefined;
  }
  if (tool !== 'list_user_reservations') return undefined;
  const user = await call('get_user', { userId: String(args.userId ?? '') });
  const ids = user.ok ? (asTraveller(user.body)?.reservations ?? []) : [];
  if (ids.length === 0) return undefined;
  const reservations = [];
  for (const id of ids) {
    const r = await call('get_reservation', { reservationId: id });
    const v = r.ok ? asReservation(r.body) : undefined;
    if (!v) return undefined;
    reservations.push({ reservationId: v.id, status: v.status, origin: v.origin, destination: v.destination, cabin: v.cabin, flights: v.flights.map((f) => ({ number: f.number, date: f.date })), passengers: v.passengers.length });
  }
  return fallbackResult({ reservations });
}
