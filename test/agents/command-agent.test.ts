/**
 * Command agents (`cmd:COMMAND`, docs/agents.md "Command agents"): one process per episode, told where its
 * tools are through its environment, one JSON line per message and per reply; a command that cannot run,
 * dies, hangs or writes something else gets a clear error, and nothing it started outlives its episode.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { commandAgent, commandId, probeCommand } from '../../src/agents/command-agent.js';
import { loadAgent } from '../../src/agents/loader.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { parseArgs } from 'node:util';
import { configFromFlags, OPTIONS } from '../../src/cli/options.js';
import { episodeOptions, retail, scenario } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'shakedown-cmd-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes an agent script into the test's folder and returns the command that runs it. */
function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `import { createInterface } from 'node:readline';\nimport { readFileSync, writeFileSync } from 'node:fs';\n${body}\n`);
  return `"${process.execPath}" "${path}"`;
}

const harness = new WorldHarness(retail, '42');
const key = (agent: string, trial = 0) => ({ scenario: 'read-order-status', agent, eps: 0, lambda: 0, trial });

async function episode(command: string, deadlineMs = 30_000) {
  const agent = commandAgent(command, dir, await probeCommand(command, dir));
  try {
    return await runEpisode(harness, await harness.prepare(scenario('read-order-status')), agent, key(agent.id), episodeOptions({ profileId: 'mixed', deadlineMs }));
  } finally {
    await agent.dispose?.();
  }
}

describe('command agents', () => {
  it('give the process its episode in its environment, and read its replies, escalation and usage', async () => {
    const seen = join(dir, 'seen.json');
    const command = script(
      'whole.mjs',
      `process.stdout.write(JSON.stringify({ agent: { id: 'whole-protocol', description: 'uses every part' } }) + '\\n');
if (process.env.SHAKEDOWN_PROBE) process.exit(0);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('SHAKEDOWN_')));
const context = JSON.parse(readFileSync(env.SHAKEDOWN_CONTEXT, 'utf8'));
const mcp = JSON.parse(readFileSync(env.SHAKEDOWN_MCP_CONFIG, 'utf8'));
for await (const line of createInterface({ input: process.stdin })) {
  const { message } = JSON.parse(line);
  const tool = await fetch(env.SHAKEDOWN_TOOL_BASE_URL + '/users/by-email?email=nobody%40example.org');
  const clock = await (await fetch(env.SHAKEDOWN_CLOCK_URL)).json();
  writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ env, context, mcp, message, toolStatus: tool.status, clock }));
  process.stdout.write(JSON.stringify({ reply: "I'm handing you to a colleague.", escalate: 'needs a human', usage: { promptTokens: 7, completionTokens: 3, calls: 1 } }) + '\\n');
}`,
    );
    const record = await episode(command);
    expect(record.key.agent).toBe('whole-protocol');
    expect(record.outcome).toBe('escalated');
    expect(record.usage).toMatchObject({ promptTokens: 7, completionTokens: 3, calls: 1 });
    const got = JSON.parse(readFileSync(seen, 'utf8')) as { env: Record<string, string>; context: Record<string, unknown>; mcp: { mcpServers: { shakedown: { command: string; args: string[] } } }; message: string; toolStatus: number; clock: { epochMs: number } };
    expect(got.env.SHAKEDOWN_EPISODE).toBe(record.episodeId);
    expect(got.env.SHAKEDOWN_WORLD).toBe('retail');
    expect(got.env.SHAKEDOWN_POLICY).toBe(retail.policy);
    // The endpoints carry an unguessable capability, not the episode's id.
    expect(got.env.SHAKEDOWN_MCP_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[a-f0-9]{32}\/mcp$/);
    expect(got.env.SHAKEDOWN_MCP_URL).not.toContain(record.episodeId);
    expect(got.context).toMatchObject({ episodeId: record.episodeId, world: 'retail', mcpUrl: got.env.SHAKEDOWN_MCP_URL, clockUrl: got.env.SHAKEDOWN_CLOCK_URL, toolBaseUrl: got.env.SHAKEDOWN_TOOL_BASE_URL });
    expect((got.context.tools as unknown[]).length).toBe(retail.tools.length);
    // The MCP config names one stdio server: the bridge to this episode's endpoint.
    expect(got.mcp.mcpServers.shakedown.args.at(-1)).toBe(got.env.SHAKEDOWN_MCP_URL);
    expect(got.message).toBe(record.messages[0]?.text);
    expect(got.toolStatus === 404 || got.toolStatus >= 429).toBe(true);
    expect(record.trace.length).toBeGreaterThanOrEqual(1);
  });

  it('record a process that dies as an error that quotes its stderr', async () => {
    const command = script('crash.mjs', `for await (const line of createInterface({ input: process.stdin })) { process.stderr.write('boom: the model key is missing\\n'); process.exit(3); }`);
    const record = await episode(command);
    expect(record.outcome).toBe('error');
    expect(record.error?.message).toMatch(/exited \(code 3\) before it replied; its stderr ended with: boom: the model key is missing/);
  });

  it('say what a reply must look like when the process writes something else', async () => {
    const command = script('chatty.mjs', `for await (const line of createInterface({ input: process.stdin })) process.stdout.write('Hello! How can I help?\\n');`);
    const record = await episode(command);
    expect(record.outcome).toBe('error');
    expect(record.error?.message).toMatch(/one JSON line per reply on stdout; write logs to stderr\) must answer \{"reply": "\.\.\."\} as JSON; it sent: Hello! How can I help\?/);
  });

  it('end a process that never replies at the deadline, with everything it started', async () => {
    // Found by its command line: in namespaces of its own, a pid the agent sees is not this process's.
    const marker = `shakedown-hang-grandchild-${process.pid}`;
    const started = join(dir, 'started.txt');
    const command = script(
      'hang.mjs',
      `import { spawn } from 'node:child_process';
if (process.env.SHAKEDOWN_PROBE) process.exit(0);
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ${JSON.stringify(marker)}], { stdio: 'ignore' });
writeFileSync(${JSON.stringify(started)}, 'yes');
for await (const line of createInterface({ input: process.stdin })) { /* thinks forever */ }`,
    );
    const record = await episode(command, 2_000);
    expect(record.outcome).toBe('error');
    expect(record.ended).toBe('deadline');
    expect(readFileSync(started, 'utf8')).toBe('yes');
    const alive = () => {
      try {
        return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim() !== '';
      } catch {
        return false;
      }
    };
    await vi.waitFor(() => expect(alive()).toBe(false), { timeout: 10_000 });
  });

  it('refuse a command the shell cannot run before any episode, and name a silent one after its script', async () => {
    await expect(loadAgent('cmd:shakedown-no-such-command --flag')).rejects.toThrow(/Failed to start the agent command `shakedown-no-such-command --flag`: the shell could not run it \(exit 127\).*not found/s);
    await expect(loadAgent('cmd:  ')).rejects.toThrow(/names no command/);
    const silent = await loadAgent(`cmd:${script('quiet-bot.mjs', 'process.exit(0);')}`);
    expect(silent.id).toBe('cmd:quiet-bot');
    expect(commandId('python3 -u agents/my_agent.py --model small')).toBe('cmd:my_agent');
    expect(commandId('./run-agent')).toBe('cmd:run-agent');
  });

  it('keep a command whole on the command line, commas and all', () => {
    const config = configFromFlags(parseArgs({ args: ['--agent', 'cmd:node agent.mjs --tools a,b', '--agent', 'oracle,noop'], options: OPTIONS, strict: true }).values);
    expect(config.agents).toEqual(['cmd:node agent.mjs --tools a,b', 'oracle', 'noop']);
  });
});
