import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/agents/registry.js';
import { composeStrategies, parseStrategies, type ToolCall } from '../../src/agents/strategies.js';
import { createClock } from '../../src/ground/clock.js';
import { ShakedownError } from '../../src/ground/errors.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { detectIntent } from '../../src/agents/reference/retail-understanding.js';
import { editDistance } from '../../src/agents/reference/text.js';
import { strictUnderstanding, tolerantUnderstanding } from '../../src/agents/reference/understanding.js';
import { episodeOptions, failuresAtZero, retail, retailScenarios } from '../helpers.js';

describe('agent registry', () => {
  it('resolves built-in agents and strategy compositions', () => {
    expect(resolveAgent('noop').id).toBe('noop');
    expect(resolveAgent('reference').id).toBe('reference:none');
    expect(resolveAgent('reference:retry').id).toBe('reference:retry');
    expect(resolveAgent('reference:robust').id).toBe('reference:robust');
    expect(resolveAgent('reference:backoff+idempotency').id).toBe(resolveAgent('reference:idempotency+backoff').id);
    expect(() => resolveAgent('reference:retry+none')).toThrow(/`none` means no strategy/);
    expect(() => resolveAgent('reference:retry+backoff')).toThrow(/pick one/);
    expect(resolveAgent('reference-strict:retry').id).toBe('reference-strict:retry');
  });

  it('names the valid ids for an unknown agent or strategy', () => {
    expect(() => resolveAgent('gpt')).toThrow(/Built-in agents: noop, oracle, reference/);
    expect(() => resolveAgent('reference:teleport')).toThrow(/Valid strategy ids: none, retry, backoff, idempotency, verify, breaker, tolerant, fallback, escalate, robust/);
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

describe('reference agent understanding', () => {
  const strict = strictUnderstanding();
  const tolerant = tolerantUnderstanding(retail.userLanguage.perturbation?.lexicon);
  const intent = (u: typeof strict, text: string) => detectIntent(u, u.tokens(text));

  it('reads exact keywords in strict mode and nothing else', () => {
    expect(intent(strict, 'I want to cancel my order')).toBe('cancel');
    expect(intent(strict, 'I wnat to cancle my order')).toBeUndefined();
    expect(intent(strict, 'pls call off my purchase')).toBe('cancel');
    expect(intent(strict, 'whats the progress of my purchase?')).toBeUndefined();
    expect(strict.ids('order #W9000404, not w9000405', 'W', 7)).toEqual(['W9000404']);
    expect(strict.ids('order W9000404', 'W', 7)).toEqual([]);
  });

  it('reads typos, chat-speak, the world lexicon and other id formats in tolerant mode', () => {
    expect(intent(tolerant, 'I wnat to cancle my order')).toBe('cancel');
    expect(intent(tolerant, 'whats the progress of my purchase?')).toBe('order_status');
    expect(intent(tolerant, 'how much credit do i still have on my gidt card')).toBe('gift_card_balance');
    expect(intent(tolerant, 'Can I swap the T-Shirt for the red one?')).toBe('exchange');
    expect(intent(tolerant, 'Can you update where my order ships to?')).toBe('change_address');
    expect(intent(tolerant, 'hello')).toBeUndefined();
    expect(tolerant.tokens('u r great, id like to send back the lamp')).toEqual(['you', 'are', 'great', "i'd", 'like', 'to', 'return', 'the', 'lamp']);
    expect(tolerant.ids('order # w 9000404, no: W-9000405 and #W9000406', 'W', 7)).toEqual(['W9000404', 'W9000405', 'W9000406']);
    expect(editDistance('mistake', 'mistkae')).toBe(1);
  });

  it('keeps a longer word apart from a shorter one inside it, and a four-letter word from its neighbours', () => {
    expect(tolerant.wordMatches('change', 'exchange')).toBe(false);
    expect(tolerant.wordMatches('crad', 'card')).toBe(true);
    expect(tolerant.wordMatches('cart', 'card')).toBe(false);
    expect(tolerant.wordMatches('exchagne', 'exchange')).toBe(true);
  });
});

describe('reference agent', () => {
  it.each(['reference:none', 'reference:retry', 'reference-strict:none'])('%s passes every retail scenario at ε = λ = 0', async (spec) => {
    expect(await failuresAtZero(retail, retailScenarios, spec)).toEqual([]);
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
