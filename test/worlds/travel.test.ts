import { describe, expect, it } from 'vitest';
import { perturbationFamilies } from '../../perturbations/index.js';
import { getWorld, loadScenarios } from '../../scenarios/index.js';
import { generateTravel } from '../../scenarios/travel/generate.js';
import { fareOn } from '../../scenarios/travel/network.js';
import { travelDbSchema, type TravelDb } from '../../scenarios/travel/schema.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { cloneJson } from '../../src/ground/canonical.js';
import { createClock } from '../../src/ground/clock.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { checkMeaning, perturb, resolveFamilies } from '../../src/ground/perturb.js';
import { scenarioCategories } from '../../src/ground/scenario.js';
import { makeRng } from '../../src/ground/seeds.js';
import { callTool } from '../../src/ground/tools.js';
import { ScriptedUser } from '../../src/user/index.js';
import { type UserSimulatorFactory } from '../../src/ground/simulator.js';
import { validateScenarios } from '../../src/run/validate.js';
import { episodeOptions, failuresAtZero } from '../helpers.js';

const travel = getWorld('travel');
const scenarios = loadScenarios(travel);
const byId = (id: string) => scenarios.find((s) => s.id === id) ?? (() => { throw new Error(`no scenario ${id}`); })();

/** An episode of a scenario's initial state with a tool caller, without any agent. */
async function episodeOf(id: string) {
  const harness = new WorldHarness(travel, '42');
  const prepared = await harness.prepare(byId(id));
  const db = cloneJson(prepared.initial) as TravelDb;
  const session = harness.runtime.open({ episodeId: `t-${id}`, db, clock: createClock() });
  const call = async (tool: string, args: Record<string, unknown>) => {
    const spec = travel.tools.find((t) => t.name === tool);
    if (!spec) throw new Error(`no tool ${tool}`);
    const r = await callTool(session.fetch, session.baseUrl, spec, args);
    return { status: r.status, body: r.body as Record<string, unknown> & { error?: string } };
  };
  return { db, call, close: () => session.close() };
}

describe('travel world: generator', () => {
  it('is deterministic per seed, valid against its schema, and keeps scenario ids free', () => {
    const a = generateTravel('42');
    expect(generateTravel('42')).toEqual(a);
    expect(generateTravel('7')).not.toEqual(a);
    expect(travelDbSchema.safeParse(a).success).toBe(true);
    expect(Object.keys(a.reservations).every((id) => /^R[1-8]\d{5}$/.test(id))).toBe(true);
    // Prices are fixed by the schedule, not by the seed: scenarios name them.
    expect(generateTravel('7').flights.SK201?.days['2026-02-09']?.prices).toEqual(a.flights.SK201?.days['2026-02-09']?.prices);
    expect(a.flights.SK201?.days['2026-02-09']?.prices).toEqual(fareOn({ economy: 189 }, '2026-02-09'));
    // No generated flight is sold out, and flights before the reference day have landed.
    const days = Object.values(a.flights).flatMap((f) => Object.entries(f.days));
    expect(days.every(([, d]) => d.seats.economy > 0 && d.seats.business > 0 && d.seats.basic_economy > 0)).toBe(true);
    expect(days.every(([date, d]) => (date < '2026-01-15') === (d.status === 'landed'))).toBe(true);
  });
});

describe('travel world: fare rules in the handlers', () => {
  it('refunds business to the card and economy as travel credit, and releases the seats', async () => {
    const biz = await episodeOf('cancel-business-refund-to-card');
    const seatsBefore = biz.db.flights.SK401?.days['2026-02-12']?.seats.business ?? 0;
    const r = await biz.call('cancel_reservation', { reservationId: 'R900201', reason: 'change of plans' });
    expect(r.status).toBe(200);
    expect(r.body.refund).toEqual({ amount: 867, to: ['credit_card_9201'] });
    expect(biz.db.flights.SK401?.days['2026-02-12']?.seats.business).toBe(seatsBefore + 1);
    biz.close();

    const eco = await episodeOf('cancel-economy-to-travel-credit');
    expect((await eco.call('cancel_reservation', { reservationId: 'R900202', reason: 'change of plans' })).body.refund).toEqual({ amount: 418, to: ['travel_credit_9202'] });
    expect(eco.db.users.felix_braun_9202?.paymentMethods.travel_credit_9202).toMatchObject({ balance: 468 });
    expect((await eco.call('cancel_reservation', { reservationId: 'R900202', reason: 'change of plans' })).body.error).toBe('already_cancelled');
    eco.close();
  });

  it('refuses to cancel basic economy unless the airline cancelled a flight, and anything that has flown', async () => {
    const basic = await episodeOf('refusal-cancel-basic-economy');
    const refused = await basic.call('cancel_reservation', { reservationId: 'R900901', reason: 'change of plans' });
    expect([refused.status, refused.body.error]).toEqual([409, 'non_refundable']);
    expect(basic.db.reservations.R900901?.status).toBe('confirmed');
    basic.close();
    const airline = await episodeOf('cancel-basic-airline-cancelled');
    expect((await airline.call('cancel_reservation', { reservationId: 'R900203', reason: 'airline cancelled flight' })).body.refund).toEqual({ amount: 132, to: ['credit_card_9203'] });
    airline.close();
    const flown = await episodeOf('refusal-cancel-flown');
    expect((await flown.call('cancel_reservation', { reservationId: 'R900905', reason: 'change of plans' })).body.error).toBe('already_flown');
    flown.close();
  });

  it('changes a flight on the same route, charging or refunding the fare difference, and checks seats and route', async () => {
    const e = await episodeOf('change-flight-pay-difference');
    const wrongRoute = await e.call('change_flight', { reservationId: 'R900301', flightNumber: 'SK201', newFlightNumber: 'SK101', newDate: '2026-02-09', paymentMethodId: 'credit_card_9301' });
    expect(wrongRoute.body.error).toBe('different_route');
    const same = await e.call('change_flight', { reservationId: 'R900301', flightNumber: 'SK201', newFlightNumber: 'SK201', newDate: '2026-02-09', paymentMethodId: 'credit_card_9301' });
    expect(same.body.error).toBe('same_flight');
    const seats = e.db.flights.SK203?.days['2026-02-09']?.seats.economy ?? 0;
    const ok = await e.call('change_flight', { reservationId: 'R900301', flightNumber: 'SK201', newFlightNumber: 'SK203', newDate: '2026-02-09', paymentMethodId: 'credit_card_9301' });
    expect(ok.body.fareDifference).toBe(20);
    expect(e.db.reservations.R900301?.flights).toEqual([{ number: 'SK203', date: '2026-02-09', price: 229 }]);
    expect(e.db.flights.SK203?.days['2026-02-09']?.seats.economy).toBe(seats - 1);
    e.close();

    const cheaper = await episodeOf('change-flight-cheaper-refund');
    const r = await cheaper.call('change_flight', { reservationId: 'R900302', flightNumber: 'SK203', newFlightNumber: 'SK201', newDate: '2026-02-12', paymentMethodId: 'credit_card_9302' });
    expect(r.body.fareDifference).toBe(-80);
    expect(cheaper.db.reservations.R900302?.payments.at(-1)).toMatchObject({ type: 'refund', purpose: 'fare_difference', amount: 80 });
    cheaper.close();

    const full = await episodeOf('refusal-change-no-seats');
    expect((await full.call('change_flight', { reservationId: 'R900904', flightNumber: 'SK101', newFlightNumber: 'SK103', newDate: '2026-02-16', paymentMethodId: 'credit_card_9904' })).body.error).toBe('no_seats');
    full.close();
    const basic = await episodeOf('refusal-change-basic-economy');
    expect((await basic.call('change_flight', { reservationId: 'R900902', flightNumber: 'SK201', newFlightNumber: 'SK203', newDate: '2026-02-10', paymentMethodId: 'credit_card_9902' })).body.error).toBe('not_changeable');
    basic.close();
  });

  it('refuses a balance that does not cover the charge', async () => {
    const e = await episodeOf('change-flight-pay-with-certificate');
    const certificate = e.db.users.yusuf_demir_9303?.paymentMethods.certificate_9303;
    if (certificate?.source !== 'certificate') throw new Error('the scenario has no certificate');
    certificate.balance = 100;
    // The business fare difference is 627 - 507 = 120, more than the 100 left.
    const r = await e.call('change_flight', { reservationId: 'R900303', flightNumber: 'SK101', newFlightNumber: 'SK103', newDate: '2026-02-03', paymentMethodId: 'certificate_9303' });
    expect([r.status, r.body.error]).toEqual([402, 'insufficient_balance']);
    expect(e.db.reservations.R900303?.flights[0]?.number).toBe('SK101');
    e.close();
  });

  it('charges $35 per bag beyond the allowance (one more per passenger for gold), adds by count and never removes bags', async () => {
    const e = await episodeOf('bags-economy-extra-fee');
    expect((await e.call('update_baggage', { reservationId: 'R900401', addBags: 2 })).body.error).toBe('payment_required');
    expect((await e.call('update_baggage', { reservationId: 'R900401', addBags: 3, paymentMethodId: 'credit_card_9401' })).body.error).toBe('too_many_bags');
    const ok = await e.call('update_baggage', { reservationId: 'R900401', addBags: 2, paymentMethodId: 'credit_card_9401' });
    expect(ok.body.fee).toBe(70);
    expect((await e.call('update_baggage', { reservationId: 'R900401', addBags: 0, paymentMethodId: 'credit_card_9401' })).status).toBe(400);
    e.close();
    const gold = await episodeOf('bags-gold-within-allowance');
    const free = await gold.call('update_baggage', { reservationId: 'R900402', addBags: 2 });
    expect([free.status, free.body.fee]).toEqual([200, 0]);
    // The same call again adds two more: a duplicate shows in the final state.
    const again = await gold.call('update_baggage', { reservationId: 'R900402', addBags: 2 });
    expect([again.status, gold.db.reservations.R900402?.bags]).toEqual([200, 4]);
    gold.close();
  });

  it('compensates silver, gold and business travellers once, by disruption and passengers', async () => {
    const gold = await episodeOf('compensation-gold-delay');
    const r = await gold.call('issue_compensation', { reservationId: 'R900501' });
    expect(r.body.certificate).toEqual({ id: 'certificate_R900501', amount: 100 });
    expect(gold.db.users.samir_khan_9501?.paymentMethods.certificate_R900501).toEqual({ id: 'certificate_R900501', source: 'certificate', balance: 100 });
    expect((await gold.call('issue_compensation', { reservationId: 'R900501' })).body.error).toBe('already_compensated');
    gold.close();
    const regular = await episodeOf('refusal-compensation-regular-economy');
    expect((await regular.call('issue_compensation', { reservationId: 'R900903' })).body.error).toBe('not_eligible');
    regular.close();
    const calm = await episodeOf('bags-gold-within-allowance');
    expect((await calm.call('issue_compensation', { reservationId: 'R900402' })).body.error).toBe('no_disruption');
    calm.close();
  });
});

describe('travel world: scenarios', () => {
  it('number at least 20 and cover every shared category and each kind of write', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
    const categories = new Set(scenarios.map((s) => s.tags.category));
    for (const c of [...scenarioCategories, ...(travel.categories ?? [])]) expect(categories, c).toContain(c);
  });

  it.each(['42', 'another-seed'])('hold on seed %s: noop fails, oracle passes, every gold action answers 2xx', async (seed) => {
    const results = await validateScenarios(new WorldHarness(travel, seed), scenarios, { noop: resolveAgent('noop'), oracle: resolveAgent('oracle') }, episodeOptions({ runSeed: seed }));
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });
});

describe('travel world: reference agents', () => {
  it.each(['reference:none', 'reference:retry', 'reference-strict:none'])('%s passes every travel scenario at ε = λ = 0', async (spec) => {
    expect(await failuresAtZero(travel, scenarios, spec)).toEqual([]);
  });

  it('refuses against the fare rules without calling the write', async () => {
    const harness = new WorldHarness(travel, '42');
    for (const [id, write, said] of [
      ['refusal-cancel-basic-economy', 'cancel_reservation', /basic economy/],
      ['refusal-compensation-regular-economy', 'issue_compensation', /not eligible/],
      ['refusal-change-no-seats', 'change_flight', /sold out/],
    ] as const) {
      const r = await runEpisode(harness, await harness.prepare(byId(id)), resolveAgent('reference:none'), { scenario: id, agent: 'reference:none', eps: 0, lambda: 0, trial: 0 }, episodeOptions());
      expect(r.outcome, id).toBe('pass');
      expect(r.trace.some((t) => t.tool === write), id).toBe(false);
      expect(r.messages.filter((m) => m.role === 'agent').at(-1)?.text, id).toMatch(said);
    }
  });

  it('finds a flight that a read lost through the search of its route (fallback), where one attempt cannot', async () => {
    const harness = new WorldHarness(travel, '42');
    const profile = { id: 'lost-flight', description: 'get_flight_status returns nothing', weights: { 'empty-result': 1 }, target: { tools: ['get_flight_status'] }, params: { 'empty-result': { variants: ['empty'] } } };
    const s = byId('compensation-gold-delay');
    const run = async (spec: string) => runEpisode(harness, await harness.prepare(s), resolveAgent(spec), { scenario: s.id, agent: spec, eps: 0, lambda: 1, trial: 0 }, episodeOptions({ profile }));
    const plain = await run('reference:none');
    expect(plain.faults.map((f) => `${f.kind} ${f.tool}`)).toContain('empty-result get_flight_status');
    expect(plain.outcome).toBe('fail');
    const fallback = await run('reference:fallback');
    expect(fallback.outcome).toBe('pass');
    expect(fallback.trace.some((t) => t.tool === 'search_flights')).toBe(true);
  });

  it('reads a date of birth as one even without the word "born", and a travel day in any common format', async () => {
    // A user who writes as people do: a US date for the trip, a mistyped "born" before an old date.
    const lines = ['I need to fly on 2/13/2026 instead; my booking is R900702.', 'im Sofia Rossi brn 11/11/1987', 'SK203 please', 'my visa card', 'yes'];
    const scripted: UserSimulatorFactory = () => {
      let i = 0;
      const about = { slots: {}, states: false, deferrable: [] };
      return {
        id: 'fixed',
        perturbable: false,
        confusions: [],
        opening: () => ({ segments: [{ text: lines[i++] as string }], about }),
        respond: () => (i < lines.length ? { kind: 'message', segments: [{ text: lines[i++] as string }], about } : { kind: 'end', reason: 'done' }),
      };
    };
    const harness = new WorldHarness(travel, '42');
    const s = byId('missing-info-change-which-flight');
    const r = await runEpisode(harness, await harness.prepare(s), resolveAgent('reference:none'), { scenario: s.id, agent: 'reference:none', eps: 0, lambda: 0, trial: 0 }, episodeOptions({ userSimulator: scripted }));
    expect(r.trace.find((t) => t.tool === 'find_user_by_name_dob')?.path).toContain('dob=1987-11-11');
    expect(r.trace.find((t) => t.tool === 'search_flights')?.path).toContain('date=2026-02-13');
    expect(r.outcome).toBe('pass');
  });

  it('asks which reservation when two trips go to the same city', async () => {
    const harness = new WorldHarness(travel, '42');
    const r = await runEpisode(harness, await harness.prepare(byId('ambiguous-two-chicago-trips')), resolveAgent('reference:none'), { scenario: 'ambiguous-two-chicago-trips', agent: 'reference:none', eps: 0, lambda: 0, trial: 0 }, episodeOptions());
    expect(r.outcome).toBe('pass');
    expect(r.messages.some((m) => m.role === 'agent' && /R900801.*R900802.*Which reservation/.test(m.text))).toBe(true);
  });
});

describe('travel world: perturbations', () => {
  it('give every family material it can use at ε = 1 without a step being rejected for changing the meaning', () => {
    // perturb() drops a step that loses an entity or adds a competing term; a drop here means the world's
    // lexicon, paraphrases or asides name something they must not (e.g. a paraphrase saying "cancelled").
    const language = travel.userLanguage;
    const rejected: string[] = [];
    for (const family of perturbationFamilies) {
      for (const s of scenarios) {
        for (let seed = 0; seed < 4; seed++) {
          const { segments, about } = new ScriptedUser(s, language, makeRng(`u${seed}`)).opening();
          const r = perturb(segments, 1, resolveFamilies([family]), `p${seed}`, 0, about, language);
          if (r.rejected.length > 0) rejected.push(`${family.id} on ${s.id} (seed ${seed})`);
          expect(checkMeaning(segments, r.segments, language, about.deferrable)).toBeUndefined();
        }
      }
    }
    expect(rejected).toEqual([]);
  });

  it('have asides and stories that name no competing term and no id', () => {
    const language = travel.userLanguage;
    const material = language.perturbation;
    const asides = [...(material?.distractors ?? []), ...Object.values(material?.stories ?? {}).flat()];
    expect(asides.length).toBeGreaterThan(8);
    expect(asides.filter((text) => checkMeaning([{ text: '' }], [{ text }], language) !== undefined)).toEqual([]);
  });

  it('change the wording of travel requests where a family applies', () => {
    const language = travel.userLanguage;
    const changed = perturbationFamilies.filter((family) =>
      scenarios.some((s) => {
        const { segments, about } = new ScriptedUser(s, language, makeRng('u')).opening();
        return [0, 1, 2, 3].some((seed) => perturb(segments, 1, resolveFamilies([family]), `p${seed}`, 0, about, language).segments.map((x) => x.text).join('') !== segments.map((x) => x.text).join(''));
      }),
    );
    expect(changed.map((f) => f.id)).toEqual(perturbationFamilies.map((f) => f.id));
  });
});
