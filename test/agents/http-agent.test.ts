import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpAgent, probeService } from '../../src/agents/http-agent.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { episodeOptions, retail, scenario } from '../helpers.js';

/** What the service saw of the protocol, for the assertions. */
const seen: { context?: Record<string, unknown>; clockBefore?: number; clockAfter?: number; toolDate?: string | null; toolClock?: number } = {};

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = '';
  for await (const c of req) raw += String(c);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

/** A service on the protocol that uses every part of it: the clock, a tool, escalation and usage. */
const service = createServer((req, res) => {
  void (async () => {
    const send = (status: number, b: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(b));
    if (req.method === 'GET' && req.url === '/agent') return send(200, { id: 'probe-bot', description: 'uses the whole protocol' });
    if (req.method === 'POST' && req.url === '/episodes') {
      seen.context = await body(req);
      return send(200, {});
    }
    if (req.method === 'POST' && req.url?.endsWith('/messages')) {
      await body(req);
      const ctx = seen.context as { clockUrl: string; toolBaseUrl: string };
      seen.clockBefore = ((await (await fetch(ctx.clockUrl)).json()) as { epochMs: number }).epochMs;
      const slept = await fetch(`${ctx.clockUrl}/sleep`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 2.5 }) });
      seen.clockAfter = ((await slept.json()) as { epochMs: number }).epochMs;
      const bad = await fetch(`${ctx.clockUrl}/sleep`, { method: 'POST', body: JSON.stringify({ ms: -1 }) });
      if (bad.status !== 400) return send(500, { error: `a negative wait was answered ${bad.status}` });
      const tool = await fetch(`${ctx.toolBaseUrl}/users/by-email?email=ava.moreno%40example.org`);
      seen.toolDate = tool.headers.get('date');
      seen.toolClock = ((await (await fetch(ctx.clockUrl)).json()) as { epochMs: number }).epochMs;
      return send(200, { reply: "I'm handing you to a colleague who can help with this.", escalate: 'needs a human', usage: { promptTokens: 120, completionTokens: 30, calls: 2 } });
    }
    if (req.method === 'DELETE') return send(200, {});
    return send(404, {});
  })();
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(() => {
  service.closeAllConnections();
  service.close();
});

describe('the HTTP agent protocol', () => {
  it('gives the service the clock, the episode time and the tools with their answer schemas; takes escalation and usage back', async () => {
    const agent = httpAgent(url, await probeService(url));
    const harness = new WorldHarness(retail, '42');
    const s = scenario('read-order-status');
    try {
      const r = await runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: agent.id, eps: 0, lambda: 0, trial: 0 }, episodeOptions({ agentTime: { mode: 'simulated' } }));
      expect(agent.id).toBe('probe-bot');
      expect(r.error).toBeUndefined();
      const ctx = seen.context as { now: string; clockUrl: string; tools: { name: string; outputSchema?: { properties?: Record<string, unknown> } }[] };
      expect(ctx.now).toBe('2026-01-15T09:00:00.000Z');
      expect(ctx.tools.find((t) => t.name === 'get_order')?.outputSchema?.properties).toHaveProperty('status');
      // The clock endpoint waits on the episode clock, and every tool answer carries the episode's time.
      expect((seen.clockAfter ?? 0) - (seen.clockBefore ?? 0)).toBe(2_500);
      expect(seen.toolDate).toBe(new Date(seen.toolClock ?? 0).toUTCString());
      expect(r.simulatedMs).toBe(2_500);
      expect(r.escalation).toEqual({ reason: 'needs a human', turn: 1 });
      expect(r.outcome).toBe('escalated');
      expect(r.usage).toEqual({ promptTokens: 120, completionTokens: 30, calls: 2 });
    } finally {
      await agent.dispose?.();
    }
  });

  it('under model agent time, each model call the service reports moves the episode clock', async () => {
    const agent = httpAgent(url);
    const harness = new WorldHarness(retail, '42');
    const s = scenario('read-order-status');
    try {
      const r = await runEpisode(harness, await harness.prepare(s), agent, { scenario: s.id, agent: 'probe', eps: 0, lambda: 0, trial: 0 }, episodeOptions({ agentTime: { mode: 'model', msPerCall: 1_000 } }));
      expect(r.simulatedMs).toBe(2_500 + 2 * 1_000);
    } finally {
      await agent.dispose?.();
    }
  });
});
