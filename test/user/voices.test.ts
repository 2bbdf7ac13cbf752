import { describe, expect, it } from 'vitest';
import { getWorld, loadScenarios } from '../../scenarios/index.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { VOICES, voiced } from '../../src/agents/reference/voice.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { episodeOptions } from '../helpers.js';

/** Outcome and failure class of every scenario of a world for one agent at (ε, λ), trial 0. */
async function outcomes(world: string, spec: string, eps = 0, lambda = 0): Promise<Record<string, string>> {
  const w = getWorld(world);
  const harness = new WorldHarness(w, '42');
  const agent = resolveAgent(spec);
  const out: Record<string, string> = {};
  for (const s of loadScenarios(w)) {
    const r = await runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps, lambda, trial: 0 }, episodeOptions());
    out[s.id] = `${r.outcome}${r.failure ? ` ${r.failure}` : ''}${r.confusions.length > 0 ? ` (${r.confusions.length} confusions)` : ''}`;
  }
  return out;
}

describe("an agent's wording style must not change its score (voices of the reference agents)", () => {
  it.each(['retail', 'travel'])('%s: every voice scores as terse on every scenario at ε = λ = 0, for both readers', async (world) => {
    for (const base of ['reference:none', 'reference-strict:none']) {
      const terse = await outcomes(world, base);
      expect(Object.values(terse).every((o) => o === 'pass')).toBe(true);
      for (const voice of VOICES.filter((v) => v !== 'terse')) expect(await outcomes(world, `${base}@${voice}`), `${base}@${voice}`).toEqual(terse);
    }
  }, 240_000);

  it('changes wording only: every id, amount and question of the terse reply survives', () => {
    const terse = "To confirm: I'll cancel order #W9000201 (reason: ordered by mistake); $149.00 will be refunded to the original payment method. Shall I proceed? (yes/no)";
    for (const voice of VOICES) {
      const text = voiced(terse, voice, 3).replace(/\*\*/g, '');
      for (const kept of ['#W9000201', '$149.00', 'Shall I proceed?', '(yes/no)', 'ordered by mistake']) expect(text, voice).toContain(kept);
    }
    expect(voiced(terse, 'verbose-markdown', 0)).toMatchInlineSnapshot(`
      "### Please confirm

      - To confirm: I'll cancel order **#W9000201** (reason: ordered by mistake); **$149.00** will be refunded to the original payment method.

      **Shall I proceed?** (yes/no)"
    `);
    expect(() => resolveAgent('reference:none@shouty')).toThrow(/no voice `shouty`. Voices: terse, verbose-markdown, chatty/);
  });
});
