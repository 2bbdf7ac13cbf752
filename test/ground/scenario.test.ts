import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarios, scenarioDir } from '../../scenarios/index.js';
import { resolveAgent } from '../../src/agents/registry.js';
import { ShakedownError } from '../../src/ground/errors.js';
import { WorldHarness } from '../../src/run/episode.js';
import { parseScenario, scenarioCategories } from '../../src/ground/scenario.js';
import { validateScenarios } from '../../src/run/validate.js';
import { episodeOptions, retail, retailScenarios } from '../helpers.js';

const raw = (id: string) => JSON.parse(readFileSync(join(scenarioDir('retail'), `${id}.json`), 'utf8')) as Record<string, unknown>;

describe('retail scenarios', () => {
  it('number at least 24 and cover every category', () => {
    expect(retailScenarios.length).toBeGreaterThanOrEqual(24);
    const categories = new Set(retailScenarios.map((s) => s.tags.category));
    for (const c of scenarioCategories) expect(categories).toContain(c);
  });

  it('all hold: gold succeeds, noop fails, oracle passes at ε = λ = 0', async () => {
    const results = await validateScenarios(new WorldHarness(retail, '42'), retailScenarios, { noop: resolveAgent('noop'), oracle: resolveAgent('oracle') }, episodeOptions());
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });

  it('hold under another seed too (their entities do not collide with generated data)', async () => {
    const results = await validateScenarios(new WorldHarness(retail, 'another-seed'), retailScenarios, { noop: resolveAgent('noop'), oracle: resolveAgent('oracle') }, episodeOptions({ runSeed: 'another-seed' }));
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });

  it('validation names what does not hold', async () => {
    const s = parseScenario(retail, { ...raw('cancel-pending-mistake'), id: 'broken', gold: [{ tool: 'cancel_order', args: { orderId: '#W9000201', reason: 'no longer needed' } }, { tool: 'cancel_order', args: { orderId: '#W9000201', reason: 'no longer needed' } }] }, 'inline');
    const [r] = await validateScenarios(new WorldHarness(retail, '42'), [s], { noop: resolveAgent('noop'), oracle: resolveAgent('oracle') }, episodeOptions());
    expect(r?.ok).toBe(false);
    expect(r?.problems.join('\n')).toMatch(/gold\[1\] \(cancel_order\) answered 409/);

    const silent = parseScenario(retail, { ...raw('refusal-cancel-delivered'), id: 'silent', outputs: [] }, 'inline');
    const [q] = await validateScenarios(new WorldHarness(retail, '42'), [silent], { noop: resolveAgent('noop'), oracle: resolveAgent('oracle') }, episodeOptions());
    expect(q?.problems.join('\n')).toMatch(/`noop` passes it/);
  });
});

describe('scenario parsing', () => {
  const fails = (patch: Record<string, unknown>) => () => parseScenario(retail, { ...raw('cancel-pending-mistake'), ...patch }, 'x.json');

  it('shows zod errors with their path', () => {
    expect(fails({ title: 7 })).toThrow(ShakedownError);
    expect(fails({ title: 7 })).toThrow(/Failed to load scenario x\.json:[\s\S]*title/);
  });

  it('refuses unknown tools, intents, slots and bad gold arguments, naming the valid ones', () => {
    expect(fails({ gold: [{ tool: 'refund_everything', args: {} }] })).toThrow(/valid tools: find_user_by_email/);
    expect(fails({ gold: [{ tool: 'cancel_order', args: { orderId: 'W1' } }] })).toThrow(/invalid args[\s\S]*reason/);
    expect(fails({ user: { profile: { email: 'a@b.c' }, identity: 'email', requests: [{ intent: 'teleport' }] } })).toThrow(/intent `teleport` is not one of: order_status/);
    expect(fails({ user: { profile: { email: 'a@b.c' }, identity: 'email', requests: [{ intent: 'cancel', slots: { mood: 'x' } }] } })).toThrow(/slot `mood`/);
    expect(fails({ user: { profile: {}, identity: 'email', requests: [{ intent: 'cancel' }] } })).toThrow(/needs `email`/);
    const terse = { ...retail, userLanguage: { ...retail.userLanguage, intents: { ...retail.userLanguage.intents, cancel: ['Cancel {order}.'] } } };
    const holdsBack = { ...raw('cancel-pending-mistake'), user: { profile: { email: 'a@b.c' }, identity: 'email', requests: [{ intent: 'cancel', slots: { order: '#W9000201', reason: 'x' }, tell: ['reason'] }] } };
    expect(() => parseScenario(terse, holdsBack, 'x.json')).toThrow(/no phrasing of intent `cancel` uses only the slots it tells \(reason\)/);
  });

  it("takes the shared categories and the world's own, and names them all for any other", () => {
    const tagged = (category: string) => ({ ...raw('cancel-pending-mistake'), tags: { category, tools: [] } });
    expect(parseScenario(retail, tagged('refusal'), 'x.json').tags.category).toBe('refusal');
    expect(parseScenario(retail, tagged('exchange'), 'x.json').tags.category).toBe('exchange');
    expect(() => parseScenario(retail, tagged('baggage'), 'x.json')).toThrow(/tags\.category `baggage` is not one of: read, multi-step, missing-info, ambiguous, refusal, decline, ownership, identity, read-after-write, cancel, return, exchange, address, top-up\./);
    expect(() => parseScenario({ ...retail, categories: ['baggage'] }, tagged('baggage'), 'x.json')).not.toThrow();
  });

  it('refuses a setup that does not fit the world', () => {
    expect(fails({ setup: { users: [], orders: [{ id: 'W1', user: 'x', status: 'pending', items: [{ item: 'tee-blue-m' }], payment: 'p' }] } })).toThrow(/orders\[0\]\.id|W9 followed by six digits/);
  });

  it('refuses duplicate ids and broken JSON, naming the files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-scenarios-'));
    writeFileSync(join(dir, 'a.json'), JSON.stringify(raw('cancel-pending-mistake')));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(raw('cancel-pending-mistake')));
    expect(() => loadScenarios(retail, dir)).toThrow(/b\.json: id `cancel-pending-mistake` is already used by .*a\.json/);
    writeFileSync(join(dir, 'b.json'), '{ "id": ');
    expect(() => loadScenarios(retail, dir)).toThrow(/b\.json: .*Fix the JSON/);
    expect(() => loadScenarios(retail, join(dir, 'nope'))).toThrow(/Failed to read scenarios/);
  });
});
