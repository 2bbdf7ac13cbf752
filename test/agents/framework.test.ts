import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadModuleAgent } from '../../src/agents/module.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { episodeOptions, retail, scenario } from '../helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a framework agent (Vercel AI SDK 6, examples/ai-sdk-agent.ts)', () => {
  it('runs through Shakedown: its tools fetch the tool URLs, it passes, and faults reach it', async () => {
    const agent = await loadModuleAgent('./examples/ai-sdk-agent.ts', root);
    const harness = new WorldHarness(retail, '42');
    const s = scenario('read-order-status');
    const run = async (lambda: number, profileId: string) => runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps: 0, lambda, trial: 0 }, episodeOptions({ profileId }));
    const quiet = await run(0, 'mixed');
    expect(quiet.outcome).toBe('pass');
    expect(quiet.trace.map((t) => [t.tool, t.status])).toEqual([['find_user_by_email', 200], ['get_order', 200]]);
    const faulty = await run(1, 'server');
    expect(faulty.faults[0]).toMatchObject({ kind: 'server-error', tool: 'find_user_by_email' });
    expect(faulty.messages[1]?.text).toMatch(/could not verify your identity/);
    expect(faulty.outcome).toBe('fail');
  });
});
