// Pacing of model requests: a provider's limits read from its headers, its 429s waited out and sent again,
// never an agent's failure; and a sweep against a stub that enforces a quota runs at it with no episode lost.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { durationMs, ProviderPace, untilMs } from '../../src/model/pace.js';
import { startStubModel } from '../../src/run/stub-model.js';
import { shakedown } from '../cli-run.js';

describe('pacing', () => {
  it("reads OpenAI's durations and Retry-After in seconds, as a date or as RFC 3339", () => {
    expect(durationMs('1s')).toBe(1000);
    expect(durationMs('6m0s')).toBe(360_000);
    expect(durationMs('20ms')).toBe(20);
    expect(durationMs('1m30.5s')).toBe(90_500);
    expect(untilMs('2', 0)).toBe(2000);
    expect(untilMs('Thu, 01 Jan 1970 00:00:05 GMT', 1000)).toBe(4000);
    expect(untilMs('1970-01-01T00:00:03Z', 1000)).toBe(2000);
    expect(untilMs('soon', 0)).toBeUndefined();
  });

  it('learns the limits from the headers, and lets no request through while a 429 pauses the provider', async () => {
    const pace = new ProviderPace();
    pace.learn(200, { 'x-ratelimit-limit-requests': '600', 'x-ratelimit-limit-tokens': '90000' });
    expect(pace.report()).toMatchObject({ rpm: 600, tpm: 90000, learned: true });
    pace.learn(429, { 'retry-after': '0.2' });
    expect(pace.report().throttled).toBe(1);
    // clock: the test measures that a real pause happened; it waits on the pace's own promise, not a sleep.
    const before = performance.now();
    await pace.acquire(10);
    expect(performance.now() - before).toBeGreaterThanOrEqual(150);
    pace.release(10, { prompt: 8, completion: 2 });
    expect(pace.report()).toMatchObject({ requests: 1, tokens: 10 });
  });

  it('holds a configured concurrency: the request past it waits for a release', async () => {
    const pace = new ProviderPace({ concurrency: 1 });
    await pace.acquire(1);
    let second = false;
    const waiting = pace.acquire(1).then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    pace.release(1);
    await waiting;
    expect(second).toBe(true);
  });

  it('runs an LLM sweep into a provider quota with every 429 waited out and no episode lost', async () => {
    // 20 requests in any second; the sweep learns the limit from the headers.
    const stub = await startStubModel({ script: 'status', quota: { rpm: 1200, windowMs: 1000 } });
    const key = process.env.SHAKEDOWN_PACE_KEY;
    process.env.SHAKEDOWN_PACE_KEY = 'k';
    try {
      const out = join(mkdtempSync(join(tmpdir(), 'shakedown-pace-')), 'run');
      const r = await shakedown('sweep', '--agent', 'llm:stub', '--llm-base-url', stub.baseUrl, '--llm-api-key-env', 'SHAKEDOWN_PACE_KEY', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '40', '--concurrency', '16', '--out', out);
      expect(r.code, r.stderr).toBe(0);
      const stats = (await (await fetch(`${stub.baseUrl}/stats`)).json()) as { accepted: number; refused: number };
      expect(stats.accepted).toBeGreaterThanOrEqual(80);
      const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8'));
      expect(grid.agents[0].cells[0].passHatK[0].value).toBe(1);
      expect(r.stdout).toMatch(/model requests: \d+ to stub at \d+ a minute \(limit 1200 a minute, learned from the provider\)/);
    } finally {
      if (key === undefined) delete process.env.SHAKEDOWN_PACE_KEY;
      else process.env.SHAKEDOWN_PACE_KEY = key;
      await stub.close();
    }
  }, 120_000);
});
