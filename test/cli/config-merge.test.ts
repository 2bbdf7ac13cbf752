import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/cli/config-file.js';

const dir = mkdtempSync(join(tmpdir(), 'shakedown-config-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a flag and a config file', () => {
  it('a flag sets one setting of a section, keeping what the file wrote there', async () => {
    const file = join(dir, 'shakedown.config.json');
    writeFileSync(file, JSON.stringify({ llm: { model: 'my-model', maxSteps: 20 }, anthropic: { model: 'claude-x' } }));
    const config = await loadConfig({ config: file, 'llm-base-url': 'http://127.0.0.1:9/v1', 'llm-tools': 'mcp' });
    expect(config.llm).toMatchObject({ model: 'my-model', maxSteps: 20, baseUrl: 'http://127.0.0.1:9/v1', tools: 'mcp' });
    expect(config.anthropic).toMatchObject({ model: 'claude-x', tools: 'mcp' });
  });
});
