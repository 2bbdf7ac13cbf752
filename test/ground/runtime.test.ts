import { describe, expect, it } from 'vitest';
import { cloneJson } from '../../src/ground/canonical.js';
import { createClock } from '../../src/ground/clock.js';
import { WorldHarness } from '../../src/run/episode.js';
import { callTool } from '../../src/ground/tools.js';
import type { RetailDb } from '../../scenarios/retail/schema.js';
import { retail, scenario } from '../helpers.js';

const tool = (name: string) => retail.tools.find((t) => t.name === name) ?? (() => { throw new Error(name); })();

async function twoEpisodes() {
  const harness = new WorldHarness(retail, '42');
  const prepared = await harness.prepare(scenario('cancel-pending-mistake'));
  const dbA = cloneJson(prepared.initial) as RetailDb;
  const dbB = cloneJson(prepared.initial) as RetailDb;
  const a = harness.runtime.open({ episodeId: 'ep-a', db: dbA, clock: createClock() });
  const b = harness.runtime.open({ episodeId: 'ep-b', db: dbB, clock: createClock() });
  return { harness, a, b, dbA, dbB };
}

describe('tool runtime', () => {
  it('routes each episode to its own database by host', async () => {
    const { a, b, dbA, dbB } = await twoEpisodes();
    expect(a.baseUrl).toBe('http://ep-a.retail.shakedown.test/api');
    const r = await callTool(a.fetch, a.baseUrl, tool('cancel_order'), { orderId: '#W9000201', reason: 'ordered by mistake' });
    expect(r.status).toBe(200);
    expect(dbA.orders.W9000201?.status).toBe('cancelled');
    expect(dbB.orders.W9000201?.status).toBe('pending');
    const rb = await callTool(b.fetch, b.baseUrl, tool('get_order'), { orderId: 'W9000201' });
    expect((rb.body as { status: string }).status).toBe('pending');
    a.close();
    b.close();
  });

  it("refuses a host that is not the episode's own", async () => {
    const { a, b } = await twoEpisodes();
    await expect(a.fetch(`${b.baseUrl}/orders/W9000201`)).rejects.toThrow(/not this episode's tool host/);
    a.close();
    b.close();
  });

  it('answers 404 with a message for an endpoint no tool serves, and 400 for invalid input', async () => {
    const { a, b } = await twoEpisodes();
    const missing = await a.fetch(`${a.baseUrl}/warehouses`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'no_such_endpoint' });
    const bad = await callTool(a.fetch, a.baseUrl, tool('cancel_order'), { orderId: '#W9000201', reason: 'bored' });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/reason/);
    a.close();
    b.close();
  });

  it('records every call in the trace, keyed by tool and ordinal', async () => {
    const { a, b } = await twoEpisodes();
    await callTool(a.fetch, a.baseUrl, tool('get_order'), { orderId: 'W9000201' });
    await callTool(a.fetch, a.baseUrl, tool('get_order'), { orderId: 'W9000201' });
    await callTool(a.fetch, a.baseUrl, tool('get_product'), { productId: 'jacket' });
    expect(a.trace.map((t) => `${t.tool}#${t.ordinal} ${t.status}`)).toEqual(['get_order#0 200', 'get_order#1 200', 'get_product#0 200']);
    a.close();
    b.close();
  });

  it('enforces the API rules of the world', async () => {
    const { a, b } = await twoEpisodes();
    await callTool(a.fetch, a.baseUrl, tool('cancel_order'), { orderId: '#W9000201', reason: 'ordered by mistake' });
    const again = await callTool(a.fetch, a.baseUrl, tool('cancel_order'), { orderId: '#W9000201', reason: 'ordered by mistake' });
    expect(again.status).toBe(409);
    expect((again.body as { message: string }).message).toMatch(/only pending orders/);
    a.close();
    b.close();
  });
});

describe('tool matching', () => {
  it('matches literal paths before templated ones, whatever the order of the specs', async () => {
    const { ToolRuntime } = await import('../../src/ground/runtime.js');
    const reversed = new ToolRuntime({ ...retail, tools: [...retail.tools].reverse() });
    expect(reversed.matchTool('GET', '/api/users/by-email')?.name).toBe('find_user_by_email');
    expect(reversed.matchTool('GET', '/api/users/ava_1')?.name).toBe('get_user');
    expect(reversed.matchTool('GET', '/api/users/ava_1/orders')?.name).toBe('list_user_orders');
    expect(reversed.matchTool('POST', '/api/users/ava_1')).toBeNull();
  });
});
