import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/agents/registry.js';
import { composeStrategies, parseStrategies, type ToolCall } from '../../src/agents/strategies.js';
import { createClock } from '../../src/core/clock.js';
import { ShakedownError } from '../../src/core/errors.js';
import { runEpisode, WorldHarness } from '../../src/core/episode.js';
import { detectIntent } from '../../src/agents/reference/retail-understanding.js';
import { tokens, editDistance } from '../../src/agents/reference/text.js';
import { episodeOptions, retail, retailScenarios } from '../helpers.js';

describe('agent registry', () => {
  it('resolves built-in agents and strategy compositions', () => {
    expect(resolveAgent('noop').id).toBe('noop');
    expect(resolveAgent('reference').id).toBe('reference:none');
    expect(resolveAgent('reference:retry').id).toBe('reference:retry');
    expect(resolveAgent('reference:retry+none').id).toBe('reference:retry+none');
  });

  it('names the valid ids for an unknown agent or strategy', () => {
    expect(() => resolveAgent('gpt')).toThrow(/Built-in agents: noop, oracle, reference/);
    expect(() => resolveAgent('reference:teleport')).toThrow(/Valid strategy ids: none, retry/);
    expect(() => resolveAgent('noop:retry')).toThrow(ShakedownError);
    expect(() => parseStrategies('retry+retry')).toThrow(/listed twice/);
  });
});

describe('strategies', () => {
  const clock = createClock();
  const ctx = { clock, signal: new AbortController().signal, isWrite: () => false };
  const flaky = (failures: number, status = 503): { call: ToolCall; calls: () => number } => {
    let n = 0;
    return {
      calls: () => n,
      call: async () => {
        n++;
        return n <= failures ? { ok: false, status, body: {}, headers: new Headers() } : { ok: true, status: 200, body: {}, headers: new Headers() };
      },
    };
  };

  it('none makes one attempt', async () => {
    const f = flaky(1);
    const r = await composeStrategies(f.call, parseStrategies('none'), ctx)('get_order', {});
    expect(r.status).toBe(503);
    expect(f.calls()).toBe(1);
  });

  it('retry retries server errors after a pause on the simulated clock, and not client errors', async () => {
    const f = flaky(2);
    const t0 = clock.now();
    const r = await composeStrategies(f.call, parseStrategies('retry'), ctx)('get_order', {});
    expect(r.status).toBe(200);
    expect(f.calls()).toBe(3);
    expect(clock.now() - t0).toBe(2000);
    const g = flaky(1, 409);
    expect((await composeStrategies(g.call, parseStrategies('retry'), ctx)('cancel_order', {})).status).toBe(409);
    expect(g.calls()).toBe(1);
  });
});

describe('reference agent', () => {
  it('understands ordinary variation in wording', () => {
    expect(detectIntent(tokens('I wnat to cancle my order'))).toBe('cancel');
    expect(detectIntent(tokens('Can I swap the T-Shirt for the red one?'))).toBe('exchange');
    expect(detectIntent(tokens("What's my gift card balance?"))).toBe('gift_card_balance');
    expect(detectIntent(tokens('Can you update where my order ships to?'))).toBe('change_address');
    expect(detectIntent(tokens('hello'))).toBeUndefined();
    expect(editDistance('mistake', 'mistkae')).toBe(1);
  });

  it.each(['reference:none', 'reference:retry'])('%s passes every retail scenario at ε = λ = 0', async (spec) => {
    const harness = new WorldHarness(retail, '42');
    const agent = resolveAgent(spec);
    const failures: string[] = [];
    for (const s of retailScenarios) {
      const r = await runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps: 0, lambda: 0, trial: 0 }, episodeOptions());
      if (r.outcome !== 'pass' || r.confusions.length > 0) failures.push(`${s.id}: ${r.outcome} ${r.diff.map((d) => d.message).join('; ')} ${r.missingOutputs.join(', ')}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses against policy and changes nothing', async () => {
    const harness = new WorldHarness(retail, '42');
    const s = retailScenarios.find((x) => x.id === 'refusal-cancel-delivered');
    if (!s) throw new Error('scenario missing');
    const r = await runEpisode(harness, await harness.prepare(s), resolveAgent('reference:none'), { scenario: s.id, agent: 'reference:none', eps: 0, lambda: 0, trial: 0 }, episodeOptions());
    expect(r.outcome).toBe('pass');
    expect(r.trace.some((t) => t.tool === 'cancel_order')).toBe(false);
    expect(r.messages.filter((m) => m.role === 'agent').at(-1)?.text).toMatch(/delivered/);
  });
});

describe('a user-written agent (examples/status-bot.ts)', () => {
  it('runs on the contract and passes a status question, failing what it cannot do', async () => {
    const { default: statusBot } = await import('../../examples/status-bot.js');
    const harness = new WorldHarness(retail, '42');
    const byId = (id: string) => retailScenarios.find((s) => s.id === id) ?? (() => { throw new Error(id); })();
    const status = await runEpisode(harness, await harness.prepare(byId('read-order-status')), statusBot, { scenario: 'read-order-status', agent: statusBot.id, eps: 0, lambda: 0, trial: 0 }, episodeOptions());
    expect(status.outcome).toBe('pass');
    const cancel = await runEpisode(harness, await harness.prepare(byId('cancel-pending-mistake')), statusBot, { scenario: 'cancel-pending-mistake', agent: statusBot.id, eps: 0, lambda: 0, trial: 0 }, episodeOptions());
    expect(cancel.outcome).toBe('fail');
    expect(cancel.diff.map((d) => d.path)).toContain('orders.W9000201.status');
  });
});
