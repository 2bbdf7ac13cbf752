/**
 * Preparing a scenario on a shared base (src/run/episode.ts, `WorldHarness.prepare`): its setup and its
 * gold actions run on copy-on-read overlays of the frozen base database, so that scenarios share the
 * entries they leave alone. Held to the same world prepared on whole copies (a world with its own
 * `clone` takes that path): every field of every scenario of three worlds, byte for byte, key order
 * included; entries shared where nothing touched them; a setup the overlay cannot run is run on a copy.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getWorld, loadScenarios } from '../../scenarios/index.js';
import { canonicalize, cloneJson } from '../../src/ground/canonical.js';
import type { PreparedScenario } from '../../src/ground/record.js';
import type { Scenario } from '../../src/ground/scenario.js';
import type { WorldDefinition } from '../../src/ground/world.js';
import { WorldHarness } from '../../src/run/episode.js';
import { expandTasks } from '../../src/run/families.js';
import { deepFreeze } from '../../src/ground/freeze.js';
import { dataValues } from '../../src/judge/outputs.js';
import library from '../fixtures/worlds/library/index.js';

const worlds: [WorldDefinition, Scenario[]][] = [
  [getWorld('retail'), loadScenarios(getWorld('retail'))],
  [getWorld('travel'), loadScenarios(getWorld('travel'))],
  [library, loadScenarios(library, fileURLToPath(new URL('../fixtures/worlds/library/tasks', import.meta.url)))],
];

/** Everything a prepared scenario holds, as text: JSON keeps key order. */
const written = (p: PreparedScenario) =>
  JSON.stringify({
    initial: p.initial,
    goldCanonical: p.goldCanonical,
    initialCanonical: p.initialCanonical,
    goldStatuses: p.goldStatuses,
    goldChangesState: p.goldChangesState,
    goldChanged: [...p.goldChanged].map(([field, keys]) => [field, [...keys]]),
    outputsAreData: p.outputsAreData,
  });

describe('a scenario prepared on the shared base', () => {
  it('is the scenario prepared on whole copies, for every scenario of three worlds', async () => {
    for (const [world, scenarios] of worlds) {
      const shared = new WorldHarness(world, '42');
      const copied = new WorldHarness({ ...world, clone: (db) => cloneJson(db) }, '42');
      for (const scenario of scenarios) {
        const a = await shared.prepare(scenario);
        const b = await copied.prepare(scenario);
        expect([world.id, scenario.id, written(a)]).toEqual([world.id, scenario.id, written(b)]);
        expect(Object.isFrozen(a.initial)).toBe(true);
      }
    }
  });

  it('is so for generated tasks too, whose setups add and change records', async () => {
    for (const world of [getWorld('retail'), getWorld('travel')]) {
      const hand = loadScenarios(world);
      const tasks = expandTasks(world, hand, true).tasks.filter((t) => !hand.includes(t)).slice(0, 80);
      expect(tasks.length).toBeGreaterThan(20);
      const shared = new WorldHarness(world, '42');
      const copied = new WorldHarness({ ...world, clone: (db) => cloneJson(db) }, '42');
      for (const scenario of tasks) expect([scenario.id, written(await shared.prepare(scenario))]).toEqual([scenario.id, written(await copied.prepare(scenario))]);
    }
  });

  it('shares the entries that neither the setup nor the gold actions touch', async () => {
    const world = getWorld('retail');
    const harness = new WorldHarness(world, '42');
    const [one, two] = [(await harness.prepare(loadScenarios(world)[0] as Scenario)) as PreparedScenario, (await harness.prepare(loadScenarios(world)[1] as Scenario)) as PreparedScenario];
    const products = (p: PreparedScenario) => (p.initial as { products: Record<string, unknown> }).products;
    const key = Object.keys(products(one))[0] as string;
    expect(products(one)[key]).toBe(products(two)[key]);
    // Canonical forms of a shared entry are one object, in both scenarios and both states.
    const canon = (p: unknown) => (p as { products: Record<string, unknown> }).products[key];
    expect(canon(one.goldCanonical)).toBe(canon(two.initialCanonical));
    expect(Object.isFrozen(canon(one.goldCanonical))).toBe(true);
  });

  it('runs a setup the overlay cannot run on a whole copy', async () => {
    const world = getWorld('retail');
    // A setup that copies a collection with structuredClone, which a copy-on-read proxy cannot give it.
    const cloning: WorldDefinition = {
      ...world,
      applySetup: (db, setup) => {
        (db as { snapshot?: unknown }).snapshot = structuredClone((db as { users: unknown }).users);
        world.applySetup(db, setup);
      },
    };
    const scenario = loadScenarios(world)[0] as Scenario;
    const p = await new WorldHarness(cloning, '42').prepare(scenario);
    expect(Object.keys((p.initial as { snapshot: object }).snapshot).length).toBeGreaterThan(0);
    // A setup that fails on a whole copy as well is the scenario's error.
    const failing: WorldDefinition = { ...world, applySetup: () => { throw new Error('no such user u0'); } };
    await expect(new WorldHarness(failing, '42').prepare(scenario)).rejects.toThrow(/its setup does not fit the base database: no such user u0/);
  });
});

describe('canonical forms of frozen entries', () => {
  it('are the forms of the same entries unfrozen', () => {
    for (const [world] of worlds) {
      const db = world.generate('7') as Record<string, unknown>;
      const plain = canonicalize(world.dbSchema, cloneJson(db));
      const frozen = canonicalize(world.dbSchema, Object.freeze(Object.fromEntries(Object.entries(cloneJson(db)).map(([k, v]) => [k, typeof v === 'object' && v !== null ? Object.freeze(Object.fromEntries(Object.entries(v).map(([kk, e]) => [kk, Object.freeze(e)]))) : v]))));
      expect(JSON.stringify(frozen)).toBe(JSON.stringify(plain));
    }
  });
});

describe('the data values of frozen entries', () => {
  it('are those of the same entries unfrozen, in the same order, however often they are shared', () => {
    for (const [world] of worlds) {
      const db = world.generate('7') as Record<string, unknown>;
      const frozen = deepFreeze(cloneJson(db));
      const plain = dataValues(cloneJson(db), cloneJson(db));
      for (let i = 0; i < 2; i++) {
        const got = dataValues(frozen, { ...frozen, extra: ['Not In The Base', 12.5] });
        const want = dataValues(cloneJson(db), { ...cloneJson(db), extra: ['Not In The Base', 12.5] });
        expect([[...got.numbers], got.strings]).toEqual([[...want.numbers], want.strings]);
      }
      expect([[...dataValues(frozen).numbers], dataValues(frozen).strings]).toEqual([[...plain.numbers], plain.strings]);
    }
  });
});
