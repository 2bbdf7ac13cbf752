// `shakedown stub-llm`: every LLM path tried without a key. The command serves a local model on both
// wire formats; the LLM agent and the Anthropic agent sweep both built-in worlds' desks through it, and
// the LLM user and the LLM judge run on it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';
import { stubLlmCommand } from '../../src/cli/stub-llm.js';

describe('shakedown stub-llm', () => {
  it('serves both wire formats and plays the retail and travel desks, the LLM user and the LLM judge', async () => {
    const out: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let printed!: () => void;
    const ready = new Promise<void>((resolve) => (printed = resolve));
    const served = stubLlmCommand({ port: '0' }, { out: (t) => void (out.push(t), /Stop with Ctrl-C/.test(t) && printed()), err: () => undefined, tty: false }, stopped);
    await ready;
    const base = /stub model on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out.join(''))?.[1] as string;
    expect(base).toBeDefined();
    // Each command the stub prints to try is a command that runs.
    expect(out.join('')).toContain(`--agent llm:stub --llm-base-url ${base}`);
    expect(out.join('')).toContain(`--agent anthropic:stub --anthropic-base-url ${base}`);

    // The wire formats as the SDKs read them.
    const openai = (await (await fetch(`${base}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'stub', messages: [{ role: 'user', content: 'Cancel order #W1234567, my email is a@example.org' }], tools: [{ type: 'function', function: { name: 'find_user_by_email' } }, { type: 'function', function: { name: 'get_order' } }] }) })).json()) as { object: string; choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] }; finish_reason: string }[]; usage: { total_tokens: number } };
    expect(openai.object).toBe('chat.completion');
    expect(openai.choices[0]?.finish_reason).toBe('tool_calls');
    expect(openai.choices[0]?.message.tool_calls[0]?.function).toEqual({ name: 'find_user_by_email', arguments: JSON.stringify({ email: 'a@example.org' }) });
    const anthropic = (await (await fetch(`${base}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: 'stub', max_tokens: 100, messages: [{ role: 'user', content: 'What is the status of reservation R900201? My email is b@example.org' }], tools: [{ name: 'find_user_by_email' }, { name: 'get_reservation' }] }) })).json()) as { type: string; stop_reason: string; content: { type: string; name: string; input: unknown }[] };
    expect(anthropic.type).toBe('message');
    expect(anthropic.stop_reason).toBe('tool_use');
    expect(anthropic.content[0]).toMatchObject({ type: 'tool_use', name: 'find_user_by_email', input: { email: 'b@example.org' } });

    const root = mkdtempSync(join(tmpdir(), 'shakedown-stub-llm-'));
    const key = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY };
    process.env.OPENAI_API_KEY = 'stub';
    process.env.ANTHROPIC_API_KEY = 'stub';
    try {
      const passes = (dir: string) => JSON.parse(readFileSync(join(dir, 'grid.json'), 'utf8')).agents[0].cells[0].passHatK[0].value as number;
      // The desks pass what they know how to do, at ε = λ = 0, on both APIs and both worlds.
      const retail = await shakedown('sweep', '--agent', 'llm:stub', '--llm-base-url', base, '--scenario', 'category:cancel', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '2', '--out', join(root, 'retail'));
      expect(retail.code, retail.stderr).toBe(0);
      expect(passes(join(root, 'retail'))).toBe(1);
      const travel = await shakedown('sweep', '--agent', 'anthropic:stub', '--anthropic-base-url', base, '--world', 'travel', '--scenario', 'category:cancel', '--eps', '0', '--lambda', '0', '--trials', '2', '--out', join(root, 'travel'));
      expect(travel.code, travel.stderr).toBe(0);
      expect(passes(join(root, 'travel'))).toBe(1);
      expect(travel.stdout).not.toMatch(/did not pass/);
      // The LLM user and the LLM judge (calibrated on the world's labels first) on the stub.
      const judged = await shakedown('sweep', '--agent', 'reference:robust', '--simulator', 'llm', '--judge', 'llm:stub', '--llm-base-url', base, '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '2', '--out', join(root, 'judged'));
      expect(judged.code, judged.stderr).toBe(0);
      expect(passes(join(root, 'judged'))).toBe(1);
      expect(JSON.parse(readFileSync(join(root, 'judged', 'run.json'), 'utf8')).judge.reader).toMatch(/llm:stub/);
    } finally {
      for (const [k, v] of Object.entries(key)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
      stop();
    }
    expect(await served).toBe(0);
    expect(out.join('')).toMatch(/\d+ request\(s\) answered/);
  }, 120_000);
});
