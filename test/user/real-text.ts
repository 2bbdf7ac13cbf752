// How the scripted user reads messages written by real LLM agents (corpora/turns.real.jsonl, hand-labelled,
// DESIGN decision 21): whether it ends a request on a message that still asks, whether it finds the asks
// it can answer, and whether it agrees to a proposal of something it never asked for. Shared by the test
// that holds the figures and by docs/user.md's table.
import { readFileSync } from 'node:fs';
import { getWorld, loadScenarios } from '../../scenarios/index.js';
import { makeRng } from '../../src/ground/seeds.js';
import type { WorldDefinition } from '../../src/ground/world.js';
import { ScriptedUser } from '../../src/user/index.js';
import { readAgentMessage } from '../../src/user/reading.js';

export interface RealTurn {
  readonly id: string;
  readonly text: string;
  readonly split: 'tune' | 'held-out';
  readonly model: string;
  readonly domain: string;
  readonly source: string;
  readonly expect: { asks: boolean; identity: boolean; details: string[]; goAhead: boolean; proposes: string | null; alsoProposes?: string[]; choice: boolean; progress: boolean };
}

/** The labelled turns of a corpus file under corpora/ (the first corpus unless named). */
export const realTurns = (file = 'turns.real.jsonl'): RealTurn[] =>
  readFileSync(new URL(`../../corpora/${file}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RealTurn);

/** The world whose user reads a domain's messages: τ's airline is our travel desk, the rest our shop. */
const worldOf = (domain: string): WorldDefinition => getWorld(domain === 'airline' ? 'travel' : 'retail');

/** A proposal's action as one of the world's intents, where the world has it. */
const INTENT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  retail: { cancel: 'cancel', change_address: 'change_address', return: 'return', exchange: 'exchange', modify_items: 'exchange' },
  travel: { cancel: 'cancel', change_flight: 'change_flight', add_bags: 'add_bags', compensation: 'compensation' },
};

/** A scenario per intent whose user wants that change and nothing else, to hand a proposal to. */
const SCENARIO: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  retail: { cancel: 'cancel-pending-mistake', change_address: 'address-change-pending', return: 'return-one-of-two', exchange: 'exchange-tee-color' },
  travel: { cancel: 'cancel-economy-to-travel-credit', change_flight: 'change-flight-pay-difference', add_bags: 'bags-economy-extra-fee', compensation: 'compensation-gold-delay' },
};

/** The go-ahead a user of `intent` gives a proposal: its record ids made the user's own, so that only the action decides. */
/** A world's scenarios, read once: every answer asks for one. */
const scenariosOf = new Map<string, ReturnType<typeof loadScenarios>>();
function answer(world: WorldDefinition, intent: string, text: string): 'accept' | 'decline' | 'none' {
  const id = SCENARIO[world.id]?.[intent];
  let scenarios = scenariosOf.get(world.id);
  if (!scenarios) scenariosOf.set(world.id, (scenarios = loadScenarios(world)));
  const scenario = scenarios.find((s) => s.id === id);
  if (!scenario) throw new Error(`no scenario for ${world.id}/${intent}`);
  const user = new ScriptedUser(scenario, world.userLanguage, makeRng(`real:${intent}`));
  user.opening();
  const own = Object.values(scenario.user.requests[0]?.slots ?? {}).find((v) => new RegExp(`^${world.userLanguage.entityPattern.source}$`).test(v));
  const pattern = new RegExp(world.userLanguage.entityPattern.source, 'g');
  const r = user.respond(own ? text.replace(pattern, own) : text);
  return r.kind === 'message' ? (r.act ?? 'none') : 'none';
}

/**
 * τ-airline's record ids in our travel desk's formats (flight HAT123 as SK 123, reservation 8WMF4C as
 * R + six digits), so that a message reads in our world as its own agents would write it. Retail ids
 * already share the format. Deterministic: one id, one mapped id.
 */
export function inWorld(domain: string, text: string): string {
  if (domain !== 'airline') return text;
  const digits = (id: string) => String([...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000_000, 7)).padStart(6, '0');
  return text
    .replace(/\bHAT ?(\d{3})\b/g, 'SK $1')
    .replace(/\b(?=[A-Z0-9]{6}\b)(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6}\b/g, (id) => `R${digits(id)}`);
}

export interface UserFigures {
  readonly n: number;
  /** Of the messages that still ask something, the share on which the user ended the request. */
  readonly closedWhileAsking: { readonly of: number; readonly rate: number };
  /** Of the messages that ask for identity, a go-ahead or a choice, the share where it found that ask. */
  readonly answerable: { readonly of: number; readonly rate: number };
  /** Of the go-ahead proposals, handed to a user who wants another change, the share it accepted. */
  readonly unsolicitedAccepted: { readonly of: number; readonly rate: number };
  /** Of the go-ahead proposals of one change the world has, handed to a user who wants it, the share it declined (it may also answer a detail asked beside it first). */
  readonly wantedDeclined: { readonly of: number; readonly rate: number };
  /** Of the same two sets, the share where it said neither yes nor no but what it wants ("not sure what that would change"). */
  readonly unsolicitedClarified: number;
  readonly wantedClarified: number;
  /** Of the go-ahead plans of a change the world has and another beside it, handed to a user who wants only the first, the share it accepted. */
  readonly planAccepted: { readonly of: number; readonly rate: number };
  readonly misses: { readonly closed: string[]; readonly unanswered: string[]; readonly unsolicited: string[]; readonly refused: string[]; readonly plans: string[] };
}

const rate = (hits: number, of: number) => ({ of, rate: of === 0 ? 0 : hits / of });

export function measureUser(items: readonly RealTurn[]): UserFigures {
  let asking = 0;
  let closed = 0;
  let answerableOf = 0;
  let answered = 0;
  let unsolicitedOf = 0;
  let unsolicited = 0;
  let wantedOf = 0;
  let wanted = 0;
  let unsolicitedUnsure = 0;
  let wantedUnsure = 0;
  let plansOf = 0;
  let plans = 0;
  const misses = { closed: [] as string[], unanswered: [] as string[], unsolicited: [] as string[], refused: [] as string[], plans: [] as string[] };
  for (const t of items) {
    if (t.domain !== 'retail' && t.domain !== 'airline') continue;
    const world = worldOf(t.domain);
    const text = inWorld(t.domain, t.text);
    const reading = readAgentMessage(text, world.userLanguage);
    const closes = reading.asks.length === 0 && !reading.progress;
    const e = t.expect;
    if (e.asks) {
      asking++;
      if (closes) {
        closed++;
        misses.closed.push(text);
      }
    }
    const kinds = new Set(reading.asks.map((a) => a.kind));
    const needs = [...(e.identity ? ['identity'] : []), ...(e.goAhead ? ['confirm'] : []), ...(e.choice ? ['choose'] : [])];
    if (needs.length > 0) {
      answerableOf++;
      // A choice is answered by naming the record, which the user also does for a slot it is asked.
      const found = needs.every((k) => kinds.has(k as never) || (k === 'choose' && kinds.has('slot')) || (k === 'confirm' && kinds.has('slot')));
      if (found) answered++;
      else misses.unanswered.push(`${needs.join('+')}: ${text}`);
    }
    if (e.goAhead && e.proposes) {
      const intents = Object.keys(SCENARIO[world.id] ?? {});
      const mine = INTENT[world.id]?.[e.proposes];
      // Handed to a user who wants something else: declined.
      const other = intents.find((i) => i !== mine) as string;
      unsolicitedOf++;
      const toOther = answer(world, other, text);
      if (toOther === 'none') unsolicitedUnsure++;
      if (toOther === 'accept') {
        unsolicited++;
        misses.unsolicited.push(`${e.proposes} to a user wanting ${other}: ${text}`);
      }
      if (mine && (e.alsoProposes ?? []).length === 0) {
        wantedOf++;
        const toMine = answer(world, mine, text);
        if (toMine === 'none') wantedUnsure++;
        if (toMine === 'decline') {
          wanted++;
          misses.refused.push(`${e.proposes}: ${text}`);
        }
      } else if (mine) {
        // A plan of its change and another: a user who wants only its own says no to the plan.
        plansOf++;
        if (answer(world, mine, text) === 'accept') {
          plans++;
          misses.plans.push(`${e.proposes} + ${(e.alsoProposes ?? []).join(', ')}: ${text}`);
        }
      }
    }
  }
  return { n: items.length, closedWhileAsking: rate(closed, asking), answerable: rate(answered, answerableOf), unsolicitedAccepted: rate(unsolicited, unsolicitedOf), wantedDeclined: rate(wanted, wantedOf), unsolicitedClarified: unsolicitedOf === 0 ? 0 : unsolicitedUnsure / unsolicitedOf, wantedClarified: wantedOf === 0 ? 0 : wantedUnsure / wantedOf, planAccepted: rate(plans, plansOf), misses };
}
