import { afterEach, describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/agents/llm.js';
import { protectValues } from '../../src/user/llm.js';
import { llmUserSimulator, userInstructions } from '../../src/user/index.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { llmSettingsSchema } from '../../src/ground/config.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { getWorld, loadScenarios } from '../../scenarios/index.js';
import { startLlmStub, type LlmStub } from '../llm-stub.js';
import { episodeOptions, retail, scenario } from '../helpers.js';

const harness = new WorldHarness(retail, '42');
let stub: LlmStub | undefined;

afterEach(async () => {
  await stub?.close();
  delete process.env.SHAKEDOWN_TEST_USER_KEY;
});

describe('the LLM user simulator', () => {
  it('takes its instructions from the scenario goal and profile', () => {
    const text = userInstructions(scenario('read-order-status'), retail.userLanguage);
    expect(text).toMatch(/order status \(order = #W9000101\)/);
    expect(text).toMatch(/Identify yourself by email when asked/);
    // The identity comes from the world's language: a travel user gives name and date of birth.
    const travel = getWorld('travel');
    const byName = loadScenarios(travel).find((s) => s.user.identity === 'name-dob');
    if (!byName) throw new Error('no travel scenario identifies by name');
    expect(userInstructions(byName, travel.userLanguage)).toMatch(/Identify yourself by name and dob when asked/);
    expect(userInstructions(byName, travel.userLanguage)).toMatch(/the Shakedown `travel` world/);
    expect(text).toMatch(/email: liam\.okafor@example\.org|email: [\w.]+@example\.org/);
    expect(text).toMatch(/reply with exactly: DONE/);
  });

  it('holds a free-form conversation with an LLM agent and with the reference agent; the record says which simulator ran', async () => {
    stub = await startLlmStub();
    process.env.SHAKEDOWN_TEST_USER_KEY = 'sk-user-test';
    const settings = llmSettingsSchema.parse({ baseUrl: stub.baseUrl, model: 'stub-user', apiKeyEnv: 'SHAKEDOWN_TEST_USER_KEY' });
    const options = episodeOptions({ userSimulator: llmUserSimulator(settings) });
    const s = scenario('read-order-status');
    for (const agent of [llmAgent({ ...settings, model: 'stub-agent' }), resolveAgent('reference:none')]) {
      const r = await runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps: 0, lambda: 0, trial: 0 }, options);
      expect(r.simulator).toBe('llm:stub-user');
      expect(r.ended).toBe('done');
      expect(r.outcome).toBe('pass');
      expect(r.messages.filter((m) => m.role === 'user').every((m) => m.original === undefined)).toBe(true);
    }
    // ε perturbs the LLM user's messages after they are written, keeping the profile's and the request's values.
    const loud = await runEpisode(harness, await harness.prepare(s), resolveAgent('reference:none'), { scenario: s.id, agent: 'reference:none', eps: 1, lambda: 0, trial: 0 }, options);
    const opening = loud.messages[0];
    expect(opening?.perturbations?.length).toBeGreaterThan(0);
    expect(opening?.original).toMatch(/^Hi, what's the status of order #W9000101\? My email is /);
    expect(opening?.text).not.toBe(opening?.original);
    expect(opening?.text.toLowerCase()).toContain((s.user.profile.email ?? '').toLowerCase());
    expect(loud.outcome).toBe('pass');
    const scripted = await runEpisode(harness, await harness.prepare(s), resolveAgent('reference:none'), { scenario: s.id, agent: 'reference:none', eps: 0, lambda: 0, trial: 0 }, episodeOptions());
    expect(scripted.simulator).toBe('scripted');
  });
});

describe('protectValues', () => {
  it("keeps the profile's and the request's values as protected segments, longest first", () => {
    const segs = protectValues('My email is Ada@Example.org and I want order #W9000101 cancelled.', { email: 'ada@example.org', order: '#W9000101', name: 'Ada' });
    expect(segs.filter((x) => x.protected).map((x) => [x.slot, x.text])).toEqual([['email', 'Ada@Example.org'], ['order', '#W9000101']]);
    expect(segs.map((x) => x.text).join('')).toBe('My email is Ada@Example.org and I want order #W9000101 cancelled.');
  });
});
