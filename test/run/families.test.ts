/**
 * Task families: each hand-written scenario expands into seeded variants about other people and records,
 * each validated like a hand-written task; a `--tasks N` sample is stratified by category and family.
 */
import { describe, expect, it } from 'vitest';
import { getWorld, loadScenarios } from '../../scenarios/index.js';
import { expandFamily, familyOf, sampleTasks, taskPool, VARIANTS_PER_FAMILY } from '../../src/run/families.js';
import { WorldHarness } from '../../src/run/episode.js';
import { validateScenarios } from '../../src/run/validate.js';
import { noopAgent, oracleAgent } from '../../src/agents/baselines.js';
import { episodeOptions } from '../helpers.js';
import type { Scenario } from '../../src/ground/scenario.js';

const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v !== null && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);

describe('task families', () => {
  for (const id of ['retail', 'travel']) {
    const world = getWorld(id);
    const hand = loadScenarios(world);

    it(`${id}: variants re-draw every person and record of the template, consistently, and the same way every time`, () => {
      for (const template of hand) {
        const variants = expandFamily(world, template);
        expect(variants.map((v) => v.id)).toEqual(Array.from({ length: VARIANTS_PER_FAMILY }, (_, i) => `${template.id}--v${i + 1}`));
        expect(expandFamily(world, template)).toEqual(variants);
        const setup = template.setup as { users?: { id: string; name: string; email: string }[] };
        for (const v of variants) {
          expect('scenario' in v, `${v.id}: ${'problem' in v ? v.problem : ''}`).toBe(true);
          if (!('scenario' in v)) continue;
          const text = strings({ ...v.scenario, id: '', title: '' }).join('\n');
          // Nothing of the template's people is left anywhere: not in the setup, the profile, the slots, the gold or the outputs.
          for (const u of setup.users ?? []) {
            expect(text, v.id).not.toContain(u.email);
            expect(text, v.id).not.toMatch(new RegExp(`(?<![A-Za-z0-9_])${u.id}(?![A-Za-z0-9_])`));
            expect(text, v.id).not.toContain(u.name);
          }
          const vs = v.scenario.setup as { users?: { email: string; name: string }[] };
          // The user's profile names the new person of the setup.
          if (vs.users?.[0] && v.scenario.user.profile.email) expect(vs.users.some((u) => u.email === v.scenario.user.profile.email)).toBe(true);
          expect(familyOf(v.id)).toBe(template.id);
          // The route the user identifies by, and when, are the template's where they are its point.
          if (template.tags.category === 'identity') expect(v.scenario.user.identity).toBe(template.user.identity);
          if (template.tags.category === 'missing-info' || template.tags.category === 'identity') expect(v.scenario.user.tellIdentity).toBe(template.user.tellIdentity);
        }
      }
    });

    it(`${id}: at least 200 tasks hold as hand-written ones must (gold succeeds, noop fails, oracle passes)`, async () => {
      const all = taskPool(world, hand, true);
      const results = await validateScenarios(new WorldHarness(world, '42'), all, { noop: noopAgent, oracle: oracleAgent }, episodeOptions());
      const held = results.filter((r) => r.ok);
      expect(held.length).toBeGreaterThanOrEqual(200);
      // Every category keeps its tasks.
      for (const c of new Set(hand.map((s) => s.tags.category))) expect(held.filter((r) => all.find((s) => s.id === r.scenario)?.tags.category === c).length).toBeGreaterThanOrEqual(hand.filter((s) => s.tags.category === c).length);
    }, 120_000);
  }

  it('a sample of N tasks is stratified by category and spread over families, seeded', () => {
    const world = getWorld('retail');
    const all = taskPool(world, loadScenarios(world), true);
    const sample = sampleTasks(all, 60, '42');
    expect(sample.length).toBe(60);
    expect(sampleTasks(all, 60, '42')).toEqual(sample);
    expect(sampleTasks(all, 60, '7').map((s) => s.id)).not.toEqual(sample.map((s) => s.id));
    const count = (xs: readonly Scenario[], f: (s: Scenario) => string) => xs.reduce((m, s) => m.set(f(s), (m.get(f(s)) ?? 0) + 1), new Map<string, number>());
    const byCategory = count(all, (s) => s.tags.category);
    for (const [c, n] of count(sample, (s) => s.tags.category)) expect(Math.abs(n - ((byCategory.get(c) ?? 0) * 60) / all.length)).toBeLessThanOrEqual(1);
    // Within a category no family gives a second task before every family of it gave one.
    for (const c of byCategory.keys()) {
      const families = count(sample.filter((s) => s.tags.category === c), (s) => familyOf(s.id));
      const inCategory = new Set(all.filter((s) => s.tags.category === c).map((s) => familyOf(s.id))).size;
      if (Math.max(...families.values()) > 1) expect(families.size).toBe(inCategory);
    }
    expect(sampleTasks(all, 10_000, '42')).toEqual(all);
  });
});
