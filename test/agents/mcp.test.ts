import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin } from '../cli-run.js';
import { faultKinds } from '../../faults/index.js';
import { mcpClientFor } from '../../src/agents/mcp.js';
import { cloneJson } from '../../src/ground/canonical.js';
import { createClock } from '../../src/ground/clock.js';
import { WorldHarness } from '../../src/run/episode.js';
import { FaultInjector, type FaultProfile } from '../../src/ground/faults.js';
import type { RetailDb } from '../../scenarios/retail/schema.js';
import { retail, scenario } from '../helpers.js';

const only = (id: string, params: Record<string, Record<string, unknown>> = {}): FaultProfile => ({ id, description: id, weights: { [id]: 1 }, params });
const harness = new WorldHarness(retail, '42');
let opened = 0;

/** An episode with one fault kind on every call, and an MCP client to its tools. */
async function episode(profile: FaultProfile | undefined, scenarioId = 'return-one-of-two') {
  const prepared = await harness.prepare(scenario(scenarioId));
  const db = cloneJson(prepared.initial) as RetailDb;
  const faults = profile ? new FaultInjector({ seed: 'mcp', lambda: 1, profile, kinds: faultKinds }) : undefined;
  const session = harness.runtime.open({ episodeId: `m${++opened}`, db, clock: createClock(), ...(faults ? { faults } : {}) });
  const client = await mcpClientFor({ tools: harness.toolsJson, toolSpecs: retail.tools, baseUrl: session.baseUrl, fetch: session.fetch });
  return { session, db, client };
}

type Seen = { rejected?: string; isError?: boolean; text?: string };
async function call(client: Awaited<ReturnType<typeof mcpClientFor>>, name: string, args: Record<string, unknown>): Promise<Seen> {
  try {
    const r = await client.callTool({ name, arguments: args });
    return { isError: r.isError === true, text: (r.content as { text: string }[])[0]?.text ?? '' };
  } catch (error) {
    return { rejected: (error as Error).message };
  }
}

describe('the tools over MCP', () => {
  it('lists every tool with its description and input schema, and a key argument on writes', async () => {
    const { session, client } = await episode(undefined);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(retail.tools.map((t) => t.name));
      const cancel = tools.find((t) => t.name === 'cancel_order');
      expect(Object.keys(cancel?.inputSchema.properties ?? {})).toEqual(['orderId', 'reason', 'idempotency_key']);
      expect(Object.keys(tools.find((t) => t.name === 'get_order')?.inputSchema.properties ?? {})).toEqual(['orderId']);
      const ok = await call(client, 'get_order', { orderId: '#W9000403' });
      expect(ok.isError).toBe(false);
      expect(JSON.parse(ok.text ?? '')).toMatchObject({ orderId: '#W9000403' });
    } finally {
      await client.close();
      session.close();
    }
  });

  it.each([
    ['rate-limit', only('rate-limit'), (s: Seen) => s.isError === true && JSON.parse(s.text ?? '{}').status === 429 && typeof JSON.parse(s.text ?? '{}').retryAfter === 'string'],
    ['server-error', only('server-error', { 'server-error': { statuses: [503], retryAfter: 1 } }), (s: Seen) => s.isError === true && JSON.parse(s.text ?? '{}').status === 503],
    ['timeout', only('timeout'), (s: Seen) => /timed out/.test(s.rejected ?? '')],
    ['connection-reset', only('connection-reset'), (s: Seen) => /connection was reset/.test(s.rejected ?? '')],
    ['truncated-body', only('truncated-body'), (s: Seen) => s.isError === false && (() => { try { JSON.parse(s.text ?? ''); return false; } catch { return true; } })()],
  ])('%s reaches an MCP client as it would over the wire', async (_name, profile, check) => {
    const { session, client } = await episode(profile);
    try {
      const seen = await call(client, 'get_order', { orderId: '#W9000403' });
      expect(check(seen), JSON.stringify(seen)).toBe(true);
      expect(session.faults.length).toBeGreaterThan(0);
    } finally {
      await client.close();
      session.close();
    }
  });

  it('schema drift arrives as a successful result whose fields drifted from the undrifted answer', async () => {
    const plain = await episode(undefined);
    const drifted = await episode(only('schema-drift'));
    try {
      const a = await call(plain.client, 'get_order', { orderId: '#W9000403' });
      const b = await call(drifted.client, 'get_order', { orderId: '#W9000403' });
      expect([a.isError, b.isError]).toEqual([false, false]);
      expect(JSON.parse(b.text ?? '')).not.toEqual(JSON.parse(a.text ?? ''));
      expect(drifted.session.faults.map((f) => f.kind)).toContain('schema-drift');
    } finally {
      await plain.client.close();
      await drifted.client.close();
      plain.session.close();
      drifted.session.close();
    }
  });

  it('a retried top-up with the same idempotency_key adds funds once after a timeout that committed; without a key, twice', async () => {
    const topUps = async (key: string | undefined) => {
      const { session, client } = await episode(only('timeout', { timeout: { afterCommit: 1 } }), 'top-up-gift-card');
      try {
        const args = { userId: 'owen_price_6110', giftCardId: 'gift_card_6110', amount: 50, paymentMethodId: 'credit_card_6110', ...(key ? { idempotency_key: key } : {}) };
        // Every call times out after the write committed (λ = 1): the client sees a timeout both times.
        expect((await call(client, 'add_gift_card_funds', args)).rejected).toMatch(/timed out/);
        expect((await call(client, 'add_gift_card_funds', args)).rejected).toMatch(/timed out/);
        return session.trace.filter((t) => t.effect).length;
      } finally {
        await client.close();
        session.close();
      }
    };
    expect(await topUps('k-1')).toBe(1);
    expect(await topUps(undefined)).toBe(2);
  });
});

describe('shakedown serve-tools --mcp', () => {
  it('serves one episode over MCP on stdio, with its faults, and reports them when the client closes', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'serve-tools', '--scenario', 'read-order-status', '--lambda', '1', '--profile', 'rate-limit', '--mcp'], env: { ...process.env, CI: '1' } as Record<string, string>, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_order');
    const r = await client.callTool({ name: 'get_order', arguments: { orderId: '#W9000101' } });
    expect(r.isError).toBe(true);
    expect(JSON.parse((r.content as { text: string }[])[0]?.text ?? '{}')).toMatchObject({ status: 429 });
    const exited = new Promise<void>((resolve) => transport.onclose = () => resolve());
    await client.close();
    await exited;
    await expect.poll(() => stderr).toMatch(/1 tool call\(s\); faults fired: rate-limit on get_order#0/);
  }, 60_000);
});
