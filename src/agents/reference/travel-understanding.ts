/** How the travel reference agent understands the traveller: intents, ids, dates, reasons, bags, payment. */
import { datesIn, withoutDates } from '../../ground/perturb.js';
import type { Understanding } from './understanding.js';

export type TravelIntent = 'flight_status' | 'reservation_total' | 'credit_balance' | 'cancel' | 'change_flight' | 'add_bags' | 'compensation';
export type CancelReason = 'change of plans' | 'airline cancelled flight' | 'other';
export type PaymentChoice = { kind: 'credit_card' | 'travel_credit' | 'certificate'; brand?: string };

/** Reservation ids: `R` and six digits; flight numbers: `SK` and three digits. */
export const RESERVATION_PREFIX = 'R';
export const RESERVATION_DIGITS = 6;
export const FLIGHT_PREFIX = 'SK';
export const FLIGHT_DIGITS = 3;

/** Cue phrases per intent, most specific first; general English, not any generator's templates. */
const INTENTS: readonly [TravelIntent, readonly string[]][] = [
  ['compensation', ['compensation', 'compensate', 'compensated', 'entitled to', 'for the trouble']],
  ['cancel', ['cancel', 'call off', 'called off', 'cancel the whole trip']],
  ['add_bags', ['checked bags', 'checked bag', 'bags', 'bag', 'suitcases', 'suitcase', 'luggage', 'baggage']],
  ['change_flight', ['change the flight', 'change reservation', 'change my flight', 'different flight', 'move reservation', 'move my', 'switch', 'rebook', 'put me on', 'fly on', 'change']],
  ['credit_balance', ['travel credit', 'credit balance', 'credit is left', 'credit left']],
  ['reservation_total', ['how much', 'total', 'cost me', 'charged', 'amount', 'what did i pay']],
  ['flight_status', ['on time', 'status', 'on schedule', 'delayed', 'as planned', 'running late']],
];

export function detectTravelIntent(u: Understanding, toks: readonly string[]): TravelIntent | undefined {
  for (const [intent, phrases] of INTENTS) if (u.hasAny(toks, phrases)) return intent;
  return undefined;
}

export function cancelReason(u: Understanding, toks: readonly string[]): CancelReason | undefined {
  if (u.hasAny(toks, ['airline cancelled', 'airline canceled', 'cancelled my flight', 'canceled my flight', 'flight was cancelled', 'flight was canceled', 'flight got cancelled'])) return 'airline cancelled flight';
  if (u.hasAny(toks, ['change of plans', 'plans changed', 'my plans', 'plans fell through', 'changed my mind', 'no longer', "can't make it", 'cannot make it'])) return 'change of plans';
  if (u.hasAny(toks, ['other reason', 'personal reasons', 'rather not say'])) return 'other';
  return undefined;
}

export function paymentChoice(u: Understanding, toks: readonly string[]): PaymentChoice | undefined {
  if (u.hasAny(toks, ['travel credit', 'flight credit', 'my credit'])) return { kind: 'travel_credit' };
  if (u.hasAny(toks, ['certificate', 'voucher'])) return { kind: 'certificate' };
  for (const brand of ['visa', 'mastercard', 'amex']) if (u.hasAny(toks, [brand])) return { kind: 'credit_card', brand };
  if (u.hasAny(toks, ['credit card', 'card on file', 'my card', 'the card'])) return { kind: 'credit_card' };
  return undefined;
}

const NUMBER_WORDS: Readonly<Record<string, number>> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, a: 1, an: 1, another: 1 };

/** How many bags the traveller wants to add: a number word or digit in a message about bags, or a bare answer ("two more"). */
export function bagCount(u: Understanding, toks: readonly string[]): number | undefined {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] ?? '';
    const n = /^\d$/.test(t) ? Number(t) : Object.entries(NUMBER_WORDS).find(([w]) => w.length >= 3 && u.wordMatches(t, w))?.[1];
    if (n === undefined) continue;
    const next = toks.slice(i + 1, i + 3);
    // "add two", "two bags", "two more", "two checked bags", or a number on its own ("Two, please.").
    if (u.wordMatches(toks[i - 1] ?? '', 'add') || next.length === 0 || next.some((w) => ['bag', 'bags', 'more', 'checked', 'suitcases', 'please', 'extra'].some((x) => u.wordMatches(w, x)))) return n;
  }
  return undefined;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const STRICT_DATE = new RegExp(`\\b(\\d{4})-(\\d{2})-(\\d{2})\\b|\\b(${MONTHS.join('|')}) (\\d{1,2}), (\\d{4})\\b`, 'gi');

/** Calendar days in a text as `YYYY-MM-DD`: strictly ISO or "February 9, 2026"; tolerantly any common format. */
export function datesOf(u: Understanding, text: string): string[] {
  if (u.mode === 'tolerant') return datesIn(text.normalize('NFKC'));
  return [...text.matchAll(STRICT_DATE)].map((m) => (m[1] ? `${m[1]}-${m[2]}-${m[3]}` : `${m[6]}-${String(MONTHS.indexOf((m[4] ?? '').toLowerCase()) + 1).padStart(2, '0')}-${String(m[5]).padStart(2, '0')}`));
}

/** Removes the dates `datesOf` reads, so that their digits are not read as anything else. */
export function withoutDatesOf(u: Understanding, text: string): string {
  return u.mode === 'tolerant' ? withoutDates(text.normalize('NFKC')) : text.normalize('NFKC').replace(STRICT_DATE, ' ');
}

/** Words of a sentence that gives a date of birth. */
export const BIRTH_WORDS: readonly string[] = ['born', 'birth', 'birthday', 'dob', 'birthdate'];
