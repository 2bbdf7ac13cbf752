/**
 * Task families (docs/worlds.md, "Task families"): every hand-written scenario is the template of a
 * family, and a seeded generator expands it into variants that ask the same of an agent about other
 * people and records. A variant re-draws, consistently everywhere in the scenario (setup, the user's
 * profile and request slots, gold arguments, outputs, reads):
 * - each user of the setup: first and last name, id, e-mail, payment method ids and card digits, street
 *   address and zip code (when the world has addresses), date of birth (when it has them);
 * - the ids of the setup's records (orders `W9…`, reservations `R9…`: any id of a capital letter, 9 and digits);
 * - which identity route the user takes (any of the world's routes their profile allows), except in the
 *   `identity` category, where the route is what is tested;
 * - whether the user states their identity in the opening message or waits to be asked, except in the
 *   `missing-info` and `identity` categories.
 * A variant is `TEMPLATE--vN`. It is validated like a hand-written task (gold succeeds, `noop` fails,
 * `oracle` passes at ε = λ = 0) and left out, with the reason, when it does not hold. Tasks of one family
 * are not independent: the statistics cluster them (docs/statistics.md, "Task families").
 */
import { escapeRegExp as escape } from '../ground/regex.js';
import type { Faker } from '@faker-js/faker';
import { englishFaker } from '../ground/faker.js';
import { parseScenario, slotsOf, type Scenario } from '../ground/scenario.js';
import { deriveSeed, hash53, makeRng } from '../ground/seeds.js';
import type { WorldDefinition } from '../ground/world.js';
import { familyOf } from '../ground/family-id.js';

export { familyOf, VARIANT_SUFFIX } from '../ground/family-id.js';

/** Variants each template is expanded into. @default 12 */
export const VARIANTS_PER_FAMILY = 12;

/** Categories whose point is how the user identifies: the route and when it is said stay as written. */
const ROUTE_FIXED = new Set(['identity']);
/** Categories whose point is a detail held back: the identity is said as written. */
const TELL_FIXED = new Set(['identity', 'missing-info']);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Applies every replacement (in order) to every string of a JSON value. */
function replaceAll(value: Json, pairs: readonly (readonly [RegExp, string])[]): Json {
  if (typeof value === 'string') return pairs.reduce((s, [re, to]) => s.replace(re, to), value);
  if (Array.isArray(value)) return value.map((v) => replaceAll(v, pairs));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceAll(v, pairs)]));
  return value;
}

/** A replacement: what it replaces (for ordering), how it finds it, and what it puts there. */
type Replacement = readonly [from: string, pattern: RegExp, to: string];
/** A whole-word, case-sensitive match of a literal (a name, an id, digits). */
const word = (s: string, to: string): Replacement => [s, new RegExp(`(?<![A-Za-z0-9_])${escape(s)}(?![A-Za-z0-9_])`, 'g'), to];
/** A literal anywhere (an e-mail, an id inside `#W9000201`), either case for e-mails. */
const literal = (s: string, to: string, flags = 'g'): Replacement => [s, new RegExp(escape(s), flags), to];

/** One variant of a template: the template with new people, records and (where allowed) identity route. */
function variantOf(world: WorldDefinition, template: Scenario, n: number, faker: Faker): unknown {
  const raw = JSON.parse(JSON.stringify(template)) as { [k: string]: Json } & { setup: { [k: string]: Json }; user: { identity: string; tellIdentity: boolean; profile: Record<string, string> }; tags: { category: string } };
  const pairs: Replacement[] = [];
  const used = new Set<string>();
  const digits = (len: number) => {
    for (;;) {
      const d = faker.string.numeric({ length: len, allowLeadingZeros: false });
      if (!used.has(d)) {
        used.add(d);
        return d;
      }
    }
  };
  const users = Array.isArray(raw.setup?.users) ? (raw.setup.users as { [k: string]: Json }[]) : [];
  for (const u of users) {
    const [oldFirst, oldLast] = String(u.name ?? '').split(' ');
    let first = '';
    let last = '';
    do {
      first = faker.person.firstName();
      last = faker.person.lastName();
    } while (!/^[A-Z][a-z]{2,}$/.test(first) || !/^[A-Z][a-z]{2,}$/.test(last) || first === oldFirst || last === oldLast);
    const suffix = digits(4);
    const id = `${first}_${last}_${suffix}`.toLowerCase();
    const email = `${first}.${last}.${suffix}@example.org`.toLowerCase();
    if (typeof u.email === 'string') pairs.push(literal(u.email, email, 'gi'));
    if (typeof u.id === 'string') pairs.push(word(u.id, id));
    if (oldFirst && oldLast) pairs.push(word(`${oldFirst} ${oldLast}`, `${first} ${last}`), word(oldFirst, first), word(oldLast, last));
    for (const p of Array.isArray(u.payment) ? (u.payment as { [k: string]: Json }[]) : []) {
      if (typeof p.id === 'string') pairs.push(word(p.id, p.id.replace(/\d+$/, digits(4))));
      if (typeof p.last4 === 'string') pairs.push(word(p.last4, digits(4)));
    }
    if (typeof u.address === 'string') {
      const m = /^\s*([^,]+?)\s*,\s*(?:([^,]+?)\s*,\s*)?([^,]+?)\s*,\s*([A-Z]{2})\s+(\d{5})\s*$/.exec(u.address);
      if (m) {
        const street = `${faker.number.int({ min: 2, max: 980 })} ${faker.location.street()}`.replace(/[^A-Za-z0-9 ]/g, '');
        const zip = digits(5);
        pairs.push(word(m[1] as string, street), word(m[5] as string, zip));
      }
    }
    if (typeof u.dob === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(u.dob)) {
      const [y, mo, d] = u.dob.split('-').map(Number) as [number, number, number];
      const year = faker.number.int({ min: 1950, max: 2002 });
      const month = faker.number.int({ min: 1, max: 12 });
      const day = faker.number.int({ min: 1, max: 28 });
      const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      pairs.push(literal(u.dob, iso), literal(`${MONTHS[mo - 1]} ${d}, ${y}`, `${MONTHS[month - 1]} ${day}, ${year}`));
    }
  }
  // Record ids (`W9000201`, `R900803`): the same shape, new digits.
  const ids = new Set<string>();
  for (const list of Object.values(raw.setup ?? {})) {
    if (!Array.isArray(list)) continue;
    for (const r of list as { [k: string]: Json }[]) if (r && typeof r === 'object' && typeof r.id === 'string' && /^[A-Z]9\d+$/.test(r.id)) ids.add(r.id);
  }
  for (const id of ids) pairs.push(literal(id, `${id.slice(0, 2)}${digits(id.length - 2)}`));
  // Longest first, so that a full name is replaced before its parts.
  pairs.sort((a, b) => b[0].length - a[0].length);
  const { id: _id, title, ...rest } = raw;
  const out = replaceAll(rest as Json, pairs.map(([, pattern, to]) => [pattern, to] as const)) as typeof raw;
  // The identity route and whether it is said up front, where the category allows.
  const routes = Object.keys(world.userLanguage.identity).filter((r) => (world.userLanguage.identity[r] ?? []).every((t) => slotsOf(t).every((slot) => out.user.profile[slot] !== undefined)));
  if (!ROUTE_FIXED.has(out.tags.category) && routes.length > 1) out.user.identity = faker.helpers.arrayElement(routes);
  if (!TELL_FIXED.has(out.tags.category)) out.user.tellIdentity = faker.datatype.boolean({ probability: 0.7 });
  return { ...out, id: `${template.id}--v${n}`, title: `${String(title)} (variant ${n})` };
}

/** Why a variant was left out, or its scenario. */
export type Variant = { readonly id: string; readonly scenario: Scenario } | { readonly id: string; readonly problem: string };

/**
 * The variants of one template, drawn from a seed of their own (the same for every run, so that runs
 * compare task for task); one that does not parse is returned with its problem.
 */
export function expandFamily(world: WorldDefinition, template: Scenario, count: number = VARIANTS_PER_FAMILY): Variant[] {
  const faker = englishFaker();
  faker.seed(hash53(`family|${world.id}|${template.id}`) % 2 ** 32);
  const out: Variant[] = [];
  for (let n = 1; n <= count; n++) {
    const raw = variantOf(world, template, n, faker);
    const id = `${template.id}--v${n}`;
    try {
      out.push({ id, scenario: parseScenario(world, raw, `family ${template.id}, variant ${n}`) });
    } catch (error) {
      out.push({ id, problem: (error as Error).message });
    }
  }
  return out;
}

/**
 * Every task of a world: its hand-written scenarios, and with `families` their generated variants too
 * (not yet validated), sorted by id; `unparsed` holds the variants that did not even parse, with why.
 */
export function expandTasks(world: WorldDefinition, hand: readonly Scenario[], families: boolean): { tasks: Scenario[]; unparsed: { id: string; problem: string }[] } {
  if (!families) return { tasks: [...hand], unparsed: [] };
  const variants = hand.flatMap((s) => expandFamily(world, s));
  const parsed = variants.flatMap((v) => ('scenario' in v ? [v.scenario] : []));
  return { tasks: [...hand, ...parsed].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), unparsed: variants.flatMap((v) => ('problem' in v ? [v] : [])) };
}

/** `expandTasks`'s tasks alone. */
export const taskPool = (world: WorldDefinition, hand: readonly Scenario[], families: boolean): Scenario[] => expandTasks(world, hand, families).tasks;

/**
 * A seeded sample of `n` tasks, stratified by category and by family: each category gets its share of
 * `n` (largest remainders), and within a category the families take turns (in a seeded order), one task
 * each, before any family gives a second. Sorted by id.
 */
export function sampleTasks(tasks: readonly Scenario[], n: number, seed: string): Scenario[] {
  if (n >= tasks.length) return [...tasks];
  const byCategory = new Map<string, Scenario[]>();
  for (const t of tasks) byCategory.set(t.tags.category, [...(byCategory.get(t.tags.category) ?? []), t]);
  const categories = [...byCategory.keys()].sort();
  const exact = categories.map((c) => ((byCategory.get(c)?.length ?? 0) * n) / tasks.length);
  const share = exact.map(Math.floor);
  const order = categories.map((_, i) => i).sort((a, b) => (exact[b] as number) - (share[b] as number) - ((exact[a] as number) - (share[a] as number)) || a - b);
  for (let left = n - share.reduce((a, b) => a + b, 0), i = 0; left > 0; left--, i++) { const at = order[i % order.length] as number; share[at] = (share[at] as number) + 1; }
  const out: Scenario[] = [];
  categories.forEach((c, ci) => {
    const rng = makeRng(deriveSeed(seed, 'tasks', c));
    const families = new Map<string, Scenario[]>();
    for (const t of byCategory.get(c) ?? []) families.set(familyOf(t.id), [...(families.get(familyOf(t.id)) ?? []), t]);
    // A seeded order of families, and of each family's tasks.
    const shuffle = <T>(xs: T[]): T[] => {
      for (let i = xs.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
      }
      return xs;
    };
    const queues = shuffle([...families.keys()].sort()).map((f) => shuffle([...(families.get(f) ?? [])]));
    let want = share[ci] as number;
    while (want > 0 && queues.some((q) => q.length > 0)) {
      for (const q of queues) {
        const t = q.shift();
        if (t && want > 0) {
          out.push(t);
          want--;
        }
      }
    }
  });
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
