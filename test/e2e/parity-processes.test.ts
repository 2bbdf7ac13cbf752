/**
 * Delivery-path parity for the paths that start processes (docs/faults.md, "Time"): the order desk as a
 * command launched per episode (an MCP client over stdio and over Streamable HTTP, and through the CLI),
 * as an agent built on the OpenAI Agents SDK, and as an HTTP service that sleeps in real time, each against
 * the module twin of parity.test.ts on the same seeds. Apart from that file so that the two run side by side.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgent } from '../../src/agents/loader.js';
import type { EpisodeRecord } from '../../src/ground/record.js';
import { deskModule, ONE_TRIAL, passRate, PROFILES, SCENARIOS, startService, sweep, view } from '../parity-kit.js';
import { startLlmStub, type LlmStub } from '../llm-stub.js';
import { commandAgent, probeCommand } from '../../src/agents/command-agent.js';
import { faultKinds } from '../../faults/index.js';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shakedown } from '../cli-run.js';

let module: Map<string, EpisodeRecord>;
let stub: LlmStub;
const children: ChildProcess[] = [];

beforeAll(async () => {
  module = await sweep(deskModule(false), { mode: 'simulated' });
  stub = await startLlmStub({ script: 'desk' });
});
afterAll(async () => {
  for (const c of children) c.kill();
  await stub?.close();
});

describe('one client logic, delivered as processes', () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(`as a command launched per episode, an MCP client over ${transport === 'stdio' ? 'stdio (the MCP config it is given)' : 'Streamable HTTP'}: the same records`, async () => {
      const command = `"${process.execPath}" "${fileURLToPath(new URL('../../examples/mcp-agent/agent.mjs', import.meta.url))}" --transport ${transport}`;
      const info = await probeCommand(command);
      expect(info.id).toBe(`desk-mcp-${transport}`);
      const agent = commandAgent(command, process.cwd(), info);
      try {
        // A process (and over stdio, an MCP server it launches) per episode: a few at a time, one trial of
        // every scenario and profile, which fires every fault kind.
        const got = await sweep(agent, { mode: 'simulated' }, PROFILES, 6, ONE_TRIAL);
        expect(got.size).toBe(SCENARIOS.length * PROFILES.length);
        expect(new Set([...got.values()].flatMap((r) => r.faults.map((f) => f.kind)))).toEqual(new Set(faultKinds.map((k) => k.id)));
        for (const [k, r] of got) expect(view(r), k).toEqual(view(module.get(k) as EpisodeRecord));
      } finally {
        await agent.dispose?.();
      }
    });
  }

  it('through the CLI: a sweep of the command over stdio and over Streamable HTTP beside the module finds the same table, faults and all', async () => {
    const out = mkdtempSync(join(tmpdir(), 'shakedown-parity-cli-'));
    try {
      const script = fileURLToPath(new URL('../../examples/mcp-agent/agent.mjs', import.meta.url));
      const desk = fileURLToPath(new URL('../../examples/desk.ts', import.meta.url));
      const scenarios = SCENARIOS.flatMap((id) => ['--scenario', id]);
      const r = await shakedown('sweep', '--agent', `cmd:"${process.execPath}" "${script}" --transport stdio`, '--agent', `cmd:"${process.execPath}" "${script}" --transport http`, '--agent', desk, ...scenarios, '--eps', '0', '--lambda', '0,0.6', '--profile', 'mixed', '--trials', '1', '--agent-time', 'simulated', '--out', join(out, 'run'));
      expect(r.code, r.stderr).toBe(0);
      const grid = JSON.parse(readFileSync(join(out, 'run', 'grid.json'), 'utf8')) as { agents: { agent: string; cells: Record<string, unknown>[] }[] };
      const cells = (id: string) => grid.agents.find((a) => a.agent === id)?.cells;
      expect(grid.agents.map((a) => a.agent)).toEqual(['desk-mcp-stdio', 'desk-mcp-http', 'desk']);
      expect(cells('desk')?.find((c) => c.lambda === 0.6)?.faultsFired).toMatchObject({ transient: expect.any(Number) });
      expect((cells('desk')?.find((c) => c.lambda === 0.6)?.faultsFired as { transient: number }).transient).toBeGreaterThan(0);
      expect(cells('desk-mcp-stdio')).toEqual(cells('desk'));
      expect(cells('desk-mcp-http')).toEqual(cells('desk'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('as an agent built on the OpenAI Agents SDK, launched per episode, its tools over MCP and its model the stub: the same records', async () => {
    const command = `"${process.execPath}" "${fileURLToPath(new URL('../../examples/openai-agents/agent.mjs', import.meta.url))}"`;
    const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
    // The process inherits these: the SDK's OpenAI client talks to the stub over the real wire format.
    process.env.OPENAI_BASE_URL = stub.baseUrl;
    process.env.OPENAI_API_KEY = 'sk-agents-sdk';
    const before = stub.requests.length;
    // The process gets the model's address and key because they are named (`env`), as a config would name them.
    const agent = commandAgent(command, process.cwd(), await probeCommand(command, process.cwd(), ['OPENAI_BASE_URL', 'OPENAI_API_KEY']), { env: ['OPENAI_BASE_URL', 'OPENAI_API_KEY'] });
    try {
      expect(agent.id).toBe('openai-agents-http');
      // A process that loads the SDK per episode is slow to start: four profiles that fire rate limits, timeouts
      // (before and after a commit), resets, slow calls and bodies cut short.
      const profiles = ['rate-limit', 'network', 'timeout-after-commit', 'truncated'];
      const got = await sweep(agent, { mode: 'simulated' }, profiles, 4, ONE_TRIAL);
      expect(got.size).toBe(SCENARIOS.length * profiles.length);
      for (const [k, r] of got) expect(view(r), k).toEqual(view(module.get(k) as EpisodeRecord));
      // The faults reached the model as the SDK delivers them: an error result's text, and {"error"} for no answer.
      const toolMessages = stub.requests.slice(before).flatMap((q) => (q.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'tool').map((m) => String(m.content)));
      expect(toolMessages.some((c) => /^\{"status":429,"retryAfter":/.test(c))).toBe(true);
      expect(toolMessages.some((c) => /^\{"error":"the call failed without a response/.test(c))).toBe(true);
      expect(stub.requests.slice(before).every((q) => q.authorization === 'Bearer sk-agents-sdk')).toBe(true);
    } finally {
      await agent.dispose?.();
      for (const [k, v] of [['OPENAI_BASE_URL', saved.base], ['OPENAI_API_KEY', saved.key]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('as an HTTP service that sleeps in real time, under real agent time: the same outcomes and calls', async () => {
    const { child, url } = await startService('real');
    children.push(child);
    const service = await loadAgent(url);
    try {
      // `auto` is `real` for a service: its real sleeps before a retry pass the rate-limit window.
      const real = await sweep(service, { mode: 'auto' }, ['rate-limit']);
      let waited = 0;
      for (const [k, r] of real) {
        const twin = module.get(k) as EpisodeRecord;
        // A Retry-After date is written on the wall clock, which this agent lives on.
        const undated = (x: EpisodeRecord) => ({ ...view(x), faults: x.faults.map((f) => ({ ...f, detail: { ...f.detail, retryAfter: f.detail?.retryAfter ? 'a date' : '' } })) });
        const { simulatedMs: realMs, calls: realCalls, ...rest } = undated(r);
        const { simulatedMs: twinMs, calls: twinCalls, ...twinRest } = undated(twin);
        expect(rest, k).toEqual(twinRest);
        // Call for call the same, except when each was made: real time is never less than the waits it covers.
        expect(realCalls.map((c) => c.filter((_, i) => i !== 3)), k).toEqual(twinCalls.map((c) => c.filter((_, i) => i !== 3)));
        expect(realMs, k).toBeGreaterThanOrEqual(twinMs);
        waited += twinMs;
      }
      expect(waited).toBeGreaterThan(0);
      expect(passRate(real, 'rate-limit')).toBe(passRate(module, 'rate-limit'));
    } finally {
      await service.dispose?.();
    }
  });

  /** Rate limits met by a client that reads a Retry-After date against its own clock: outcomes and calls as its in-process twin's. */
  const ownClock = (got: Map<string, EpisodeRecord>) => {
    let dated = 0;
    for (const [k, r] of got) {
      const twin = module.get(k) as EpisodeRecord;
      expect(r.outcome, k).toBe(twin.outcome);
      // No call lands inside a window: as many 429s as the twin met, never a retry 3 ms after one.
      const refused = (x: EpisodeRecord) => x.trace.filter((t) => t.status === 429).length;
      expect(refused(r), k).toBe(refused(twin));
      dated += r.faults.filter((f) => typeof f.detail?.retryAfter === 'string').length;
    }
    expect(dated).toBeGreaterThan(0);
    expect(passRate(got, 'rate-limit')).toBe(passRate(module, 'rate-limit'));
  };

  it('as an HTTP service that reads Retry-After dates against its own clock, under real agent time: the same outcomes', async () => {
    const { child, url } = await startService('real', 'own');
    children.push(child);
    const service = await loadAgent(url);
    try {
      ownClock(await sweep(service, { mode: 'auto' }, ['rate-limit']));
    } finally {
      await service.dispose?.();
    }
  });

  it('as a command that reads Retry-After dates against its own clock and sleeps in real time: the same outcomes', async () => {
    const command = `"${process.execPath}" "${fileURLToPath(new URL('../../examples/mcp-agent/agent.mjs', import.meta.url))}" --transport http --wait real --dates own`;
    const agent = commandAgent(command, process.cwd(), await probeCommand(command));
    try {
      ownClock(await sweep(agent, { mode: 'auto' }, ['rate-limit'], 6, ONE_TRIAL));
    } finally {
      await agent.dispose?.();
    }
  });
});
