import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAgent } from '../../src/agents/loader.js';
import { isModuleSpec, loadModuleAgent } from '../../src/agents/module.js';
import { defineAgent } from '../../src/agents/contract.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { ShakedownError } from '../../src/ground/errors.js';
import { episodeOptions, retail, scenario } from '../helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('agent specs', () => {
  it('tell a module path and a service URL from a built-in', async () => {
    expect(isModuleSpec('./my-agent.ts')).toBe(true);
    expect(isModuleSpec('agents/bot.mjs')).toBe(true);
    expect(isModuleSpec('reference:robust')).toBe(false);
    expect((await loadAgent('reference:robust')).id).toBe('reference:robust');
    await expect(loadAgent('http://127.0.0.1:9/')).rejects.toThrow(/Failed to reach the agent service at http:\/\/127\.0\.0\.1:9 .*Start the service first/);
  });

  it('name a service by what it says at GET /agent, or by its URL when it says nothing', async () => {
    let says: unknown = { id: 'status-bot-node', description: 'answers order status questions' };
    const server = createServer((req, res) => {
      if (req.url === '/agent' && says !== undefined) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(says));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const named = await loadAgent(`${url}/`);
      expect([named.id, named.description, named.time]).toEqual(['status-bot-node', 'answers order status questions', { mode: 'real' }]);
      says = undefined;
      expect((await loadAgent(url)).id).toBe(url);
      says = { id: 'two words' };
      await expect(loadAgent(url)).rejects.toThrow(/names itself `two words` at GET \/agent\. Use 1 to 80 letters/);
    } finally {
      server.close();
    }
  });

  it('load a TypeScript module and a plain JavaScript one without a build step', async () => {
    expect((await loadModuleAgent('./examples/status-bot.ts', root)).id).toBe('status-bot');
    const echo = await loadModuleAgent('test/fixtures/agents/echo.mjs', root);
    const agent = await echo.create({} as never);
    expect(await agent.reply('hi')).toBe('You said: hi');
  });

  it('refuse a missing file, a module without an agent and one that throws, saying what to fix', async () => {
    await expect(loadModuleAgent('./nope.ts', root)).rejects.toThrow(/no such file .*Check the path/);
    await expect(loadModuleAgent('test/fixtures/agents/no-default.ts', root)).rejects.toThrow(/must `export default defineAgent\(\{ id, description, create \}\)`.*no default export/);
    await expect(loadModuleAgent('test/fixtures/agents/throws-on-import.ts', root)).rejects.toThrow(/importing it threw Error: missing API key/);
    await expect(loadModuleAgent('test/fixtures/agents/throws-on-import.ts', root)).rejects.toBeInstanceOf(ShakedownError);
  });
});

describe('misbehaving agents', () => {
  it('a call to a URL outside the world is refused and recorded, and the episode goes on', async () => {
    const wanderer = defineAgent({
      id: 'wanderer',
      description: 'tries the real internet first',
      create: (ctx) => ({
        async reply() {
          const outside = await ctx.fetch('https://api.example.com/orders').then(
            () => 'reached',
            (e: Error) => e.message,
          );
          return `Tried outside: ${outside}`;
        },
      }),
    });
    const harness = new WorldHarness(retail, '42');
    const s = scenario('read-order-status');
    const r = await runEpisode(harness, await harness.prepare(s), wanderer, { scenario: s.id, agent: 'wanderer', eps: 0, lambda: 0, trial: 0 }, episodeOptions());
    expect(r.trace[0]).toMatchObject({ tool: null, status: 0, path: 'https://api.example.com/orders', refused: 'outside the world' });
    expect(r.messages[1]?.text).toMatch(/fetch failed: api.example.com is not this episode's tool host/);
    expect(r.outcome).toBe('fail');
  });
});
