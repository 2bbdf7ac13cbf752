/**
 * The LLM response cache (`--llm-cache`): a repeated run is answered from it without a model call and
 * comes out the same, at no cost; the trials of one run stay separate samples; it is off by default; the
 * key is never in it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin } from '../cli-run.js';
import { startLlmStub, type LlmStub } from '../llm-stub.js';

const secret = 'sk-cache-5f1e-must-not-leak';
const base = mkdtempSync(join(tmpdir(), 'shakedown-llm-cache-'));
let stub: LlmStub;
beforeAll(async () => {
  stub = await startLlmStub();
});
afterAll(async () => stub?.close());

type Rec = { key: { lambda: number; trial: number }; outcome: string; messages: unknown[]; usage: { calls: number; promptTokens: number; completionTokens: number }; costUsd?: number; userUsage?: { calls: number }; userCostUsd?: number; cached?: { agent?: { hits: number; promptTokens: number } } };

async function sweep(out: string, ...extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string; records: Rec[] }> {
  return sweepPriced({ 'stub-model': { input: 2, output: 8 } }, out, ...extra);
}

async function sweepPriced(prices: Record<string, { input: number; output: number }>, out: string, ...extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string; records: Rec[] }> {
  const config = join(base, `${out.split('/').at(-1)}-prices.json`);
  writeFileSync(config, JSON.stringify({ prices }));
  const args = ['sweep', '--config', config, '--out', out, '--agent', 'llm:stub-model', '--llm-base-url', stub.baseUrl, '--llm-api-key-env', 'SHAKEDOWN_CACHE_KEY', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--quiet', ...extra];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, CI: '1', SHAKEDOWN_CACHE_KEY: secret } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr, records: code === 0 ? readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec) : [] }));
  });
}

const view = (rs: readonly Rec[]) => rs.map((r) => JSON.stringify([r.key, r.outcome, r.messages])).sort();

describe('the LLM response cache', () => {
  it('answers a repeated run from the cache: no model call, the same episodes, nothing paid, the savings said', async () => {
    const first = join(base, 'first');
    const before = stub.requests.length;
    const a = await sweep(first, '--llm-cache', 'run');
    expect(a.code, a.stderr).toBe(0);
    const asked = stub.requests.length - before;
    // Trials are separate samples: identical requests of two trials were both asked, none answered from the cache.
    expect(asked).toBe(a.records.reduce((s, r) => s + r.usage.calls, 0));
    expect(a.records.every((r) => r.cached === undefined && (r.costUsd ?? 0) > 0)).toBe(true);
    expect(a.stdout).toMatch(new RegExp(`LLM cache .*llm-cache: 0 model call\\(s\\) answered from it \\(0 tokens not paid for again\\), ${asked} asked and kept`));
    const files = readdirSync(join(first, 'llm-cache'), { recursive: true }).filter((f) => String(f).endsWith('.json'));
    expect(files.length).toBe(asked);
    for (const f of files) expect(readFileSync(join(first, 'llm-cache', String(f)), 'utf8')).not.toContain(secret);

    const again = join(base, 'again');
    const b = await sweep(again, '--llm-cache', join(first, 'llm-cache'));
    expect(b.code, b.stderr).toBe(0);
    expect(stub.requests.length - before).toBe(asked);
    expect(view(b.records)).toEqual(view(a.records));
    expect(b.records.every((r) => r.cached?.agent?.hits === r.usage.calls && r.costUsd === 0)).toBe(true);
    expect(b.stdout).toMatch(new RegExp(`: ${asked} model call\\(s\\) answered from it \\(\\d+ tokens not paid for again, \\$[\\d.]+\\), 0 asked and kept`));
  });

  it('refuses an entry that does not verify, loudly, and never answers from it', async () => {
    const first = join(base, 'poison-first');
    const a = await sweep(first, '--llm-cache', 'run');
    expect(a.code, a.stderr).toBe(0);
    const dir = join(first, 'llm-cache');
    // One answer rewritten by hand, as a poisoned cache would hold it: its text changed, its MAC kept.
    const entry = readdirSync(dir, { recursive: true }).map(String).find((f) => f.endsWith('.json')) as string;
    const path = join(dir, entry);
    const kept = JSON.parse(readFileSync(path, 'utf8')) as { answer: { choices: { message: { content: string | null } }[] } };
    const choice = kept.answer.choices[0] as { message: { content: string | null } };
    choice.message.content = 'Your order is cancelled and refunded.';
    writeFileSync(path, JSON.stringify(kept));
    const before = stub.requests.length;
    const b = await sweep(join(base, 'poison-again'), '--llm-cache', dir);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/1 LLM cache entry in .* did not verify and were refused/);
    const refused = b.records.filter((r) => (r as { error?: { name: string } }).error?.name === 'LlmCacheRefused');
    expect(refused).toHaveLength(1);
    expect((refused[0] as { error?: { message: string } }).error?.message).toMatch(/does not verify \(edited, or written by another program/);
    expect(b.records.flatMap((r) => r.messages as { text: string }[]).some((m) => m.text === 'Your order is cancelled and refunded.')).toBe(false);
    // The other episodes were answered from the cache as before; the refused one asked nothing either.
    expect(stub.requests.length - before).toBe(0);
  });

  it('is off by default: every call is asked, nothing is kept', async () => {
    const out = join(base, 'off');
    const before = stub.requests.length;
    const r = await sweep(out);
    expect(r.code, r.stderr).toBe(0);
    expect(stub.requests.length - before).toBe(r.records.reduce((s, x) => s + x.usage.calls, 0));
    expect(existsSync(join(out, 'llm-cache'))).toBe(false);
    expect(r.stdout).not.toMatch(/LLM cache/);
  });

  it('prices the agent and the LLM user apart and together in summary.md; a model without a price is unknown, never $0', async () => {
    const priced = join(base, 'priced');
    const r = await sweepPriced({ 'stub-model': { input: 2, output: 8 }, 'stub-user': { input: 1, output: 1 } }, priced, '--simulator', 'llm', '--simulator-model', 'stub-user');
    expect(r.code, r.stderr).toBe(0);
    expect(r.records.every((x) => (x.userUsage?.calls ?? 0) > 0 && (x.userCostUsd ?? 0) > 0 && (x.costUsd ?? 0) > 0)).toBe(true);
    const summary = readFileSync(join(priced, 'report', 'summary.md'), 'utf8');
    const agentUsd = r.records.reduce((s, x) => s + (x.costUsd ?? 0), 0);
    const userUsd = r.records.reduce((s, x) => s + (x.userCostUsd ?? 0), 0);
    const row = new RegExp(`\\| \`llm:stub-model\` \\| \\d+ \\| \\$${agentUsd.toFixed(4).replace('.', '\\.')} \\| \\d+ \\| \\$${userUsd.toFixed(4).replace('.', '\\.')} \\| \\$${(agentUsd + userUsd).toFixed(4).replace('.', '\\.')} \\| \\$[\\d.]+ \\| \\$[\\d.]+ \\|`);
    expect(summary).toMatch(/## Cost/);
    expect(summary).toMatch(row);
    // The user's model has no price here: its cost and the total are unknown, not $0.
    const unpriced = join(base, 'unpriced');
    const u = await sweepPriced({ 'stub-model': { input: 2, output: 8 } }, unpriced, '--simulator', 'llm', '--simulator-model', 'stub-user');
    expect(u.code, u.stderr).toBe(0);
    expect(u.records.every((x) => x.userCostUsd === undefined)).toBe(true);
    expect(readFileSync(join(unpriced, 'report', 'summary.md'), 'utf8')).toMatch(/\| \$[\d.]+ \| \d+ \| unknown \(4 episode\(s\) without a price\) \| unknown \| unknown \| unknown \|/);
  });
});
