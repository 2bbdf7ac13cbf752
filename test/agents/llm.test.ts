import { afterEach, describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/agents/llm.js';
import { llmSettingsSchema } from '../../src/ground/config.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { ShakedownError } from '../../src/ground/errors.js';
import { startLlmStub, type LlmStub } from '../llm-stub.js';
import { episodeOptions, retail, scenario } from '../helpers.js';

const SECRET = 'sk-test-5f3a9c0d-never-in-files';
const harness = new WorldHarness(retail, '42');
let stub: LlmStub | undefined;

afterEach(async () => {
  await stub?.close();
  stub = undefined;
  delete process.env.SHAKEDOWN_TEST_LLM_KEY;
});

async function episode(options: Parameters<typeof startLlmStub>[0] = {}, settings: Record<string, unknown> = {}, lambda = 0, profileId = 'mixed') {
  stub = await startLlmStub(options);
  process.env.SHAKEDOWN_TEST_LLM_KEY = SECRET;
  const agent = llmAgent(llmSettingsSchema.parse({ baseUrl: stub.baseUrl, model: 'stub-model', apiKeyEnv: 'SHAKEDOWN_TEST_LLM_KEY', ...settings }));
  const s = scenario('read-order-status');
  return runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps: 0, lambda, trial: 0 }, episodeOptions({ profileId }));
}

describe('the LLM agent', () => {
  it('turns tool specs into function tools and tool calls into HTTP requests, and records token usage', async () => {
    const r = await episode();
    expect(r.outcome).toBe('pass');
    expect(r.trace.map((t) => t.tool)).toEqual(['find_user_by_email', 'get_order']);
    const first = stub?.requests[0];
    expect(first?.authorization).toBe(`Bearer ${SECRET}`);
    expect(first?.body).toMatchObject({ model: 'stub-model', temperature: 0 });
    expect((first?.body.tools as { type: string; function: { name: string; parameters: object } }[]).map((t) => t.function.name)).toContain('get_order');
    expect((first?.body.messages as { role: string }[])[0]?.role).toBe('system');
    expect(r.usage).toMatchObject({ calls: 3, completionTokens: 36 });
    expect(r.usage?.promptTokens).toBeGreaterThan(0);
  });

  it('tells the model about malformed arguments instead of crashing, and the model recovers', async () => {
    const r = await episode({ malformedFirst: true });
    expect(r.outcome).toBe('pass');
    const toolMessages = (stub?.requests.at(-2)?.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
    expect(toolMessages[0]?.content).toMatch(/not valid JSON/);
  });

  it('retries its own API calls apart from tool faults, and an API that stays down is an agent error without the key', async () => {
    expect((await episode({ failFirst: 2 }, { retries: 2 })).outcome).toBe('pass');
    await stub?.close();
    const down = await episode({ failFirst: 100 }, { retries: 1 });
    expect(down.outcome).toBe('error');
    expect(down.error?.message).toMatch(/the LLM API at http:\/\/127.0.0.1:\d+\/v1 failed: 500/);
    expect(JSON.stringify(down)).not.toContain(SECRET);
  });

  it('meets the tool faults like any agent: they reach it through its tool calls', async () => {
    const r = await episode({}, {}, 1, 'server');
    expect(r.faults[0]).toMatchObject({ kind: 'server-error', tool: 'find_user_by_email' });
    expect(r.messages[1]?.text).toMatch(/could not verify your identity \(5\d\d\)/);
    expect(r.outcome).toBe('fail');
  });

  it('refuses to start without its API key, naming the variable to set', async () => {
    const agent = llmAgent(llmSettingsSchema.parse({ apiKeyEnv: 'SHAKEDOWN_TEST_MISSING_KEY' }));
    await expect(agent.create({} as never)).rejects.toThrow(ShakedownError);
    await expect(agent.create({} as never)).rejects.toThrow(/`SHAKEDOWN_TEST_MISSING_KEY` is empty/);
  });

  it('refuses strategies around tools it takes over MCP, saying why', () => {
    expect(() => llmAgent(llmSettingsSchema.parse({ tools: 'mcp' }), 'backoff')).toThrow(/strategies wrap tool calls made over HTTP/);
    expect(() => llmAgent(llmSettingsSchema.parse({ tools: 'mcp' }))).not.toThrow();
  });
});
