import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMessage } from '../../src/model/anthropic.js';
import { loadAgent } from '../../src/agents/loader.js';
import { anthropicSettingsSchema } from '../../src/ground/config.js';

describe('the Anthropic agent', () => {
  it('is refused before any episode when its key is not set, naming the variable', async () => {
    await expect(loadAgent('anthropic:claude-x', undefined, undefined, anthropicSettingsSchema.parse({ apiKeyEnv: 'SHAKEDOWN_UNSET_ANTHROPIC_KEY' }))).rejects.toThrow(/`SHAKEDOWN_UNSET_ANTHROPIC_KEY` is empty\. Set it to your API key/);
    process.env.SHAKEDOWN_SET_ANTHROPIC_KEY = 'sk-ant-x';
    const agent = await loadAgent('anthropic:claude-x+backoff', undefined, undefined, anthropicSettingsSchema.parse({ apiKeyEnv: 'SHAKEDOWN_SET_ANTHROPIC_KEY' }));
    expect([agent.id, agent.time]).toEqual(['anthropic:claude-x+backoff', { mode: 'real' }]);
  });

  it('retries its own API calls on 429 and 5xx, and an error never shows the key', async () => {
    let served = 0;
    const server = createServer((req, res) => {
      served++;
      req.resume();
      // Echo the key back in the error body, as a careless proxy might.
      if (served < 3) res.writeHead(529, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { message: `overloaded for ${req.headers['x-api-key']}` } }));
      else res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { message: `bad request from ${req.headers['x-api-key']}` } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const settings = anthropicSettingsSchema.parse({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, retries: 3 });
      const error = await createMessage(settings, 'sk-ant-secret', { messages: [] }).catch((e: Error) => e);
      expect(served).toBe(3);
      expect(String((error as Error).message)).toMatch(/the Anthropic API at .* failed: 400 .*bad request from \[key\]/);
      expect(String((error as Error).message)).not.toContain('sk-ant-secret');
    } finally {
      server.close();
    }
  });
});
