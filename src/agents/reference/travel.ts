import { AIRPORTS } from '../../../scenarios/travel/network.js';
// The figures of the policy text, as the world states them.
import { BAG_FEE, COMPENSATION, MAX_BAGS_PER_PASSENGER } from '../../../scenarios/travel/schema.js';
import type { ToolResult } from '../../ground/tools.js';
import type { AgentContext } from '../contract.js';
import type { Strategy, ToolCall, WriteCheck } from '../strategies.js';
import { Failure, isObj, NotFound, ReferenceAgentBase } from './base.js';
import { money } from './text.js';
import {
  bagCount,
  BIRTH_WORDS,
  cancelReason,
  datesOf,
  detectTravelIntent,
  FLIGHT_DIGITS,
  FLIGHT_PREFIX,
  paymentChoice,
  RESERVATION_DIGITS,
  RESERVATION_PREFIX,
  withoutDatesOf,
  type CancelReason,
  type PaymentChoice,
  type TravelIntent,
} from './travel-understanding.js';
import { travelAlternative, verifyTravelWrite } from './travel-recovery.js';
import { asFlightDay, asFlightList, asReservation, asReservationList, asTraveller, cabinText, pmText, type FlightDayView, type PaymentMethodView, type ReservationView } from './travel-views.js';
import type { Understanding } from './understanding.js';

/** Each airport code as a word of its own, written in capitals. */
const AIRPORT_CODES: Readonly<Record<string, RegExp>> = Object.fromEntries(Object.keys(AIRPORTS).map((code) => [code, new RegExp(`\\b${code}\\b`)]));

interface Task {
  intent: TravelIntent;
  reservationId?: string;
  /** The flight the traveller named: the one asked about, or the one to move to. */
  flight?: string;
  /** The day the traveller named for the flight (asked about or moved to). */
  date?: string;
  /** An airport code the traveller named by city or code ("my trip to Chicago"). */
  destination?: string;
  reason?: CancelReason;
  bags?: number;
  payment?: PaymentChoice;
}

/**
 * The scripted reference agent for the travel world, on the same conversation loop and strategy layer
 * as the retail one: its own reading of intents, reservation ids, flight numbers and dates, and the fare
 * rules of the policy followed step by step.
 */
export class TravelReferenceAgent extends ReferenceAgentBase {
  private readonly clock: AgentContext['clock'];
  /** The reservation as it was when the agent planned a write, to tell afterwards whether the write took effect. */
  private planned: ReservationView | undefined;
  private dob: string | undefined;
  private task: Task | undefined;

  constructor(ctx: AgentContext, strategies: readonly Strategy[], understanding: Understanding, params: Readonly<Record<string, unknown>> = {}) {
    super(
      ctx,
      strategies,
      understanding,
      {
        giveUp: "I'm sorry, I couldn't understand your request, so I can't help with it here. Please contact us again with your reservation number and what you need.",
        identityAsk: 'your email address, or your first and last name and date of birth',
        accountMissing: 'this reservation',
        system: 'reservation system',
      },
      params,
    );
    this.clock = ctx.clock;
  }

  protected dropTask(): void {
    this.task = undefined;
  }

  protected override taskSignature(): string {
    // What the change is, not how the user put it: a "no" that only adds words (or a reason) declines.
    if (!this.task) return 'null';
    const { text: _text, reason: _reason, ...what } = this.task as Task & { text?: string };
    return JSON.stringify(what);
  }

  private today(): string {
    return new Date(this.clock.now()).toISOString().slice(0, 10);
  }

  protected absorb(message: string): void {
    const text = this.absorbEmail(message);
    // A date in a sentence about birth, or more than a year back, is a date of birth; any other date is
    // the travel day.
    const sentences = text.split(/(?<=[.?!])\s+/).map((s) => ({ s, birth: this.u.hasAny(this.u.tokens(s), BIRTH_WORDS) }));
    const yearAgo = new Date(this.clock.now() - 365 * 86_400_000).toISOString().slice(0, 10);
    const dated = sentences.flatMap(({ s, birth }) => datesOf(this.u, s).map((date) => ({ date, birth: date < yearAgo || birth })));
    const dob = dated.filter((d) => d.birth).at(-1)?.date;
    if (dob) {
      this.dob = dob;
      this.absorbName(text);
    }
    const travel = sentences.filter((x) => !x.birth).map((x) => x.s).join(' ');
    const date = dated.filter((d) => !d.birth).at(-1)?.date;
    let rest = withoutDatesOf(this.u, travel);
    const reservationIds = this.u.ids(rest, RESERVATION_PREFIX, RESERVATION_DIGITS);
    rest = this.u.withoutIds(rest, RESERVATION_PREFIX, RESERVATION_DIGITS);
    const flights = this.u.ids(rest, FLIGHT_PREFIX, FLIGHT_DIGITS);
    rest = this.u.withoutIds(rest, FLIGHT_PREFIX, FLIGHT_DIGITS);
    const toks = this.u.tokens(rest);
    if (!this.task && !this.pending) {
      const intent = detectTravelIntent(this.u, toks);
      if (intent) this.task = { intent };
    }
    const task = this.task;
    if (!task) return;
    const lastReservation = reservationIds.at(-1);
    if (lastReservation) task.reservationId = lastReservation;
    // The last flight named wins, as the last id does: "SK201, sorry, I mean SK203".
    const lastFlight = flights.at(-1);
    if (lastFlight) task.flight = lastFlight;
    if (date) task.date = date;
    // A city by name ("Chicago"), or an airport code as written in capitals ("ORD"): a lower-case "mia" is a name as often.
    const destination = Object.entries(AIRPORTS).find(([code, city]) => this.u.hasAny(toks, [city.toLowerCase()]) || AIRPORT_CODES[code]?.test(rest))?.[0];
    if (destination) task.destination = destination;
    const reason = cancelReason(this.u, toks);
    if (reason) task.reason = reason;
    const bags = bagCount(this.u, toks);
    if (bags) task.bags = bags;
    const payment = paymentChoice(this.u, toks);
    if (payment) task.payment = payment;
  }

  protected async step(): Promise<string> {
    const task = this.task;
    if (!task) return this.notUnderstood('Could you tell me what you need help with today?');
    this.placed();
    const userId = await this.identify();
    if (!userId) return this.identityQuestion();
    if (task.intent === 'credit_balance') return this.done(await this.creditBalance(userId));
    if (task.intent === 'flight_status' && !task.reservationId && task.flight) {
      if (!task.date) return `Which date is flight ${task.flight} on?`;
      const day = await this.flightDay(task.flight, task.date);
      return this.done(`Flight ${day.number} on ${day.date} is ${day.status}.`);
    }
    if (!task.reservationId) {
      const question = await this.findReservation(userId, task);
      if (question) return question;
    }
    const reservation = await this.loadNamed(this.getReservation(task.reservationId as string), (id) => `I'm sorry, I still can't find reservation ${id} in our system, so I can't help with it here.`);
    if (reservation instanceof NotFound) return `I couldn't find reservation ${reservation.entityId}. Could you check the reservation number and give it to me again?`;
    this.planned = reservation;
    if (reservation.userId !== userId) throw new Failure(`I'm sorry, reservation ${reservation.id} is not on your account, so I can't look into it or change it.`);
    switch (task.intent) {
      case 'flight_status': {
        const segment = reservation.flights.find((s) => s.date >= this.today()) ?? reservation.flights[0];
        const day = await this.flightDay(segment?.number ?? '', segment?.date ?? '');
        return this.done(`Flight ${day.number} on ${day.date} (reservation ${reservation.id}) is ${day.status}.`);
      }
      case 'reservation_total':
        return this.done(`You paid ${money(reservation.paid)} in total for reservation ${reservation.id}.`);
      case 'cancel':
        return this.planCancel(reservation, task);
      case 'change_flight':
        return this.planChange(reservation, task, userId);
      case 'add_bags':
        return this.planBags(reservation, task, userId);
      case 'compensation':
        return this.planCompensation(reservation, userId);
    }
  }

  private identify(): Promise<string | undefined> {
    const lookups = [];
    if (this.email) lookups.push({ key: this.email, tool: 'find_user_by_email', args: { email: this.email } });
    if (this.name && this.dob) lookups.push({ key: `${this.name.first} ${this.name.last} ${this.dob}`.toLowerCase(), tool: 'find_user_by_name_dob', args: { first: this.name.first, last: this.name.last, dob: this.dob } });
    return this.lookUpUser(lookups);
  }

  private async traveller(userId: string): Promise<{ membership: string; paymentMethods: PaymentMethodView[] }> {
    const r = await this.call('get_user', { userId });
    if (!r.ok) throw this.systemFailure(r);
    return asTraveller(r.body) ?? (() => { throw this.malformed(); })();
  }

  private async creditBalance(userId: string): Promise<string> {
    const credits = (await this.traveller(userId)).paymentMethods.filter((p) => p.source === 'travel_credit');
    if (credits.length === 0) return "You don't have any travel credit on your account.";
    return `Your travel credit balance is ${money(credits.reduce((s, c) => s + (c.balance ?? 0), 0))}.`;
  }

  private async flightDay(number: string, date: string): Promise<FlightDayView> {
    const r = await this.call('get_flight_status', { flightNumber: number, date });
    if (r.status === 404) throw new Failure(`I'm sorry, flight ${number} does not fly on ${date}.`);
    if (!r.ok) throw this.systemFailure(r);
    return asFlightDay(r.body) ?? (() => { throw this.malformed(); })();
  }

  private async getReservation(id: string): Promise<ReservationView> {
    const r = await this.call('get_reservation', { reservationId: id });
    if (r.status === 404) {
      if (this.task) delete this.task.reservationId;
      throw new NotFound(id, `I couldn't find reservation ${id}.`);
    }
    if (!r.ok) throw this.systemFailure(r);
    return asReservation(r.body) ?? (() => { throw this.malformed(); })();
  }

  /** Resolves the reservation from the destination the traveller named; returns a question when it cannot. */
  private async findReservation(userId: string, task: Task): Promise<string | undefined> {
    if (!task.destination) return 'Which reservation is it? Please give me the reservation number.';
    const r = await this.call('list_user_reservations', { userId });
    if (!r.ok) throw this.systemFailure(r);
    const list = asReservationList(r.body);
    if (!list) throw this.malformed();
    const writes = task.intent !== 'reservation_total' && task.intent !== 'flight_status';
    const candidates = list.filter((x) => x.destination === task.destination && (!writes || x.status === 'confirmed'));
    if (candidates.length === 1) {
      task.reservationId = (candidates[0] as { reservationId: string }).reservationId;
      return undefined;
    }
    if (candidates.length > 1) {
      const described = candidates.map((x) => `${x.reservationId} (${x.origin} to ${x.destination}, ${x.flights.map((f) => `${f.number} on ${f.date}`).join(', ')})`).join(' and ');
      return `I found several reservations that match: ${described}. Which reservation do you mean?`;
    }
    return `I couldn't find a reservation to ${AIRPORTS[task.destination] ?? task.destination} on your account. Which reservation is it? Please give me the reservation number.`;
  }

  private flown(reservation: ReservationView): boolean {
    return reservation.flights.some((s) => s.date < this.today());
  }

  private async statuses(reservation: ReservationView): Promise<FlightDayView[]> {
    const out: FlightDayView[] = [];
    for (const s of reservation.flights) out.push(await this.flightDay(s.number, s.date));
    return out;
  }

  private async planCancel(reservation: ReservationView, task: Task): Promise<string> {
    if (reservation.status === 'cancelled') throw new Failure(`I'm sorry, reservation ${reservation.id} is already cancelled.`);
    const days = await this.statuses(reservation);
    if (this.flown(reservation) || days.some((d) => d.status === 'landed')) throw new Failure(`I'm sorry, reservation ${reservation.id} has a flight that has already flown, so it can't be cancelled.`);
    const airlineCancelled = days.some((d) => d.status === 'cancelled');
    if (reservation.cabin === 'basic_economy' && !airlineCancelled) {
      throw new Failure(`I'm sorry, reservation ${reservation.id} is a basic economy fare, which can't be cancelled unless we cancelled one of its flights.`);
    }
    if (!task.reason) return 'What is the reason for cancelling: a change of plans, the airline cancelled your flight, or another reason?';
    const where = airlineCancelled || reservation.cabin === 'business' ? 'refunded to the original payment method' : 'added to your travel credit';
    return this.confirm(`To confirm: I'll cancel reservation ${reservation.id} (reason: ${task.reason}); ${money(reservation.paid)} will be ${where}.`, {
      tool: 'cancel_reservation',
      what: `the cancellation of reservation ${reservation.id}`,
      args: { reservationId: reservation.id, reason: task.reason },
      success: (body) => {
        const amount = isObj(body) && isObj(body.refund) && typeof body.refund.amount === 'number' ? body.refund.amount : reservation.paid;
        return `Reservation ${reservation.id} is now cancelled, and ${money(amount)} will be ${where}.`;
      },
    });
  }

  /** The payment method the traveller chose, or a question; balances must cover `amount`. */
  private async payer(userId: string, task: Task, amount: number, what: string): Promise<PaymentMethodView | string> {
    const methods = (await this.traveller(userId)).paymentMethods;
    const choice = task.payment;
    if (!choice) {
      const offered = methods.filter((p) => p.source === 'credit_card' || (p.balance ?? 0) >= amount).map(pmText).join(', ');
      return `${what} Which payment method would you like to use (${offered})?`;
    }
    const pm = methods.find((p) => p.source === choice.kind && (!choice.brand || p.brand === choice.brand));
    if (!pm) throw new Failure(`I'm sorry, I can't find ${choice.kind === 'credit_card' ? `a ${choice.brand ?? 'credit'} card` : choice.kind.replace('_', ' ')} on your account.`);
    if (pm.source !== 'credit_card' && (pm.balance ?? 0) < amount) throw new Failure(`I'm sorry, ${pmText(pm)} has ${money(pm.balance ?? 0)} left, which doesn't cover ${money(amount)}.`);
    return pm;
  }

  private async planChange(reservation: ReservationView, task: Task, userId: string): Promise<string> {
    if (reservation.cabin === 'basic_economy') throw new Failure(`I'm sorry, reservation ${reservation.id} is a basic economy fare, and basic economy flights can't be changed.`);
    if (reservation.status === 'cancelled') throw new Failure(`I'm sorry, reservation ${reservation.id} is cancelled, so its flights can't be changed.`);
    const segment = reservation.flights.find((s) => s.date >= this.today());
    if (!segment) throw new Failure(`I'm sorry, the flights of reservation ${reservation.id} have already flown, so they can't be changed.`);
    if (!task.date) return 'Which date would you like to fly on instead?';
    if (task.date < this.today()) throw new Failure(`I'm sorry, ${task.date} has already passed.`);
    const n = reservation.passengers.length;
    let target: FlightDayView;
    if (task.flight) {
      target = await this.flightDay(task.flight, task.date);
      if (target.origin !== reservation.origin || target.destination !== reservation.destination) throw new Failure(`I'm sorry, flight ${target.number} doesn't fly ${reservation.origin} to ${reservation.destination}, so I can't move your reservation to it.`);
    } else {
      const r = await this.call('search_flights', { origin: reservation.origin, destination: reservation.destination, date: task.date });
      if (!r.ok) throw this.systemFailure(r);
      const found = asFlightList(r.body);
      if (!found) throw this.malformed();
      const flying = found.filter((f) => f.status !== 'cancelled' && f.status !== 'landed' && !(f.number === segment.number && f.date === segment.date));
      const open = flying.filter((f) => f.seats[reservation.cabin] >= n);
      if (flying.length === 0) throw new Failure(`I'm sorry, there is no other flight from ${reservation.origin} to ${reservation.destination} on ${task.date} that I can book.`);
      if (open.length === 0) throw new Failure(`I'm sorry, every other flight from ${reservation.origin} to ${reservation.destination} on ${task.date} is sold out in ${cabinText(reservation.cabin)}.`);
      if (open.length > 1) {
        return `On ${task.date} I can offer ${open.map((f) => `${f.number} (departs ${f.departs}, ${money(f.prices[reservation.cabin])} per passenger)`).join(' or ')}. Which of these flights would you like?`;
      }
      target = open[0] as FlightDayView;
    }
    if (target.number === segment.number && target.date === segment.date) throw new Failure(`Reservation ${reservation.id} is already on flight ${target.number} on ${target.date}.`);
    if (target.status === 'cancelled' || target.status === 'landed') throw new Failure(`I'm sorry, flight ${target.number} on ${target.date} is ${target.status}, so I can't book it.`);
    if (target.seats[reservation.cabin] < n) throw new Failure(`I'm sorry, flight ${target.number} on ${target.date} is sold out in ${cabinText(reservation.cabin)}, so I can't move your reservation to it.`);
    const difference = Math.round((target.prices[reservation.cabin] - segment.price) * n * 100) / 100;
    let pm: PaymentMethodView | undefined;
    if (difference > 0) {
      const chosen = await this.payer(userId, task, difference, `Moving to ${target.number} on ${target.date} costs a fare difference of ${money(difference)}.`);
      if (typeof chosen === 'string') return chosen;
      pm = chosen;
    } else {
      const originalId = reservation.payments.find((p) => p.type === 'payment')?.paymentMethodId;
      pm = (await this.traveller(userId)).paymentMethods.find((p) => p.id === originalId);
      if (!pm) throw this.malformed();
    }
    const money_ = difference === 0 ? 'There is no fare difference.' : difference > 0 ? `The fare difference of ${money(difference)} will be charged to ${pmText(pm)}.` : `The fare difference of ${money(-difference)} will be refunded to ${pmText(pm)}.`;
    return this.confirm(`To confirm: I'll move reservation ${reservation.id} from ${segment.number} on ${segment.date} to ${target.number} on ${target.date}. ${money_}`, {
      tool: 'change_flight',
      what: `the move of reservation ${reservation.id} to ${target.number}`,
      args: { reservationId: reservation.id, flightNumber: segment.number, newFlightNumber: target.number, newDate: target.date, paymentMethodId: pm.id },
      success: () => `Reservation ${reservation.id} is now on ${target.number} on ${target.date}. ${money_}`,
    });
  }

  private async planBags(reservation: ReservationView, task: Task, userId: string): Promise<string> {
    if (reservation.status === 'cancelled') throw new Failure(`I'm sorry, reservation ${reservation.id} is cancelled, so I can't add bags to it.`);
    if (reservation.flights.every((s) => s.date < this.today())) throw new Failure(`I'm sorry, reservation ${reservation.id} has already flown.`);
    if (!task.bags) return 'How many checked bags would you like to add?';
    const total = reservation.bags + task.bags;
    const n = reservation.passengers.length;
    if (total > MAX_BAGS_PER_PASSENGER * n) throw new Failure(`I'm sorry, a reservation can have at most ${MAX_BAGS_PER_PASSENGER} checked bags per passenger, so I can't add ${task.bags}.`);
    const fee = BAG_FEE * (Math.max(0, total - reservation.freeBags) - Math.max(0, reservation.bags - reservation.freeBags));
    let pm: PaymentMethodView | undefined;
    if (fee > 0) {
      const chosen = await this.payer(userId, task, fee, `Adding ${task.bags} checked bag(s) costs ${money(fee)}.`);
      if (typeof chosen === 'string') return chosen;
      pm = chosen;
    }
    const money_ = fee > 0 ? `The fee of ${money(fee)} will be charged to ${pmText(pm)}.` : 'There is no fee: they are within your free allowance.';
    return this.confirm(`To confirm: I'll add ${task.bags} checked bag(s) to reservation ${reservation.id}, ${total} in total. ${money_}`, {
      tool: 'update_baggage',
      what: `adding the bags to reservation ${reservation.id}`,
      args: { reservationId: reservation.id, addBags: task.bags, ...(pm ? { paymentMethodId: pm.id } : {}) },
      success: () => `Reservation ${reservation.id} now has ${total} checked bag(s). ${money_}`,
    });
  }

  private async planCompensation(reservation: ReservationView, userId: string): Promise<string> {
    if (reservation.compensation) throw new Failure(`I'm sorry, reservation ${reservation.id} has already been compensated.`);
    const disrupted = (await this.statuses(reservation)).find((d) => d.status === 'delayed' || d.status === 'cancelled');
    if (!disrupted) throw new Failure(`I'm sorry, no flight of reservation ${reservation.id} was delayed or cancelled, so no compensation is due.`);
    const { membership } = await this.traveller(userId);
    if (membership === 'regular' && reservation.cabin !== 'business') {
      throw new Failure(`I'm sorry, compensation is for silver and gold members and business travellers, so you are not eligible for compensation on reservation ${reservation.id}.`);
    }
    const amount = COMPENSATION[disrupted.status as 'delayed' | 'cancelled'] * reservation.passengers.length;
    return this.confirm(`To confirm: flight ${disrupted.number} on ${disrupted.date} was ${disrupted.status}, so I'll issue a certificate of ${money(amount)} as compensation for reservation ${reservation.id}.`, {
      tool: 'issue_compensation',
      what: `the compensation for reservation ${reservation.id}`,
      args: { reservationId: reservation.id },
      success: () => `A certificate of ${money(amount)} is now on your account as compensation.`,
    });
  }

  protected verifyWrite(tool: string, args: Readonly<Record<string, unknown>>): Promise<WriteCheck> {
    return verifyTravelWrite(this.call, tool, args, this.planned);
  }

  protected alternative(tool: string, args: Readonly<Record<string, unknown>>, call: ToolCall): Promise<ToolResult | undefined> {
    return travelAlternative(call, tool, args, this.planned);
  }
}
