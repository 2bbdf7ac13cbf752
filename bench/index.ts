/**
 * Shakedown's benchmarks: tinybench micro-benchmarks of the hot paths, end-to-end sweeps, and the
 * performance targets of docs/performance.md, each measured here and printed with its verdict.
 *
 *   npm run bench                    startup, micro, episode, e2e, release, timeouts, io, pacing, aggregate, scaling (about 20 minutes)
 *   npm run bench -- micro io        only the named sections
 *   npm run bench -- memory          peak RSS after 20,000 and 200,000 episodes (about 15 minutes)
 *
 * Comparisons are ratios of figures measured in the same run, back to back; the machines are noisy.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { getResponse, HttpHandler } from 'msw';
import { Bench } from 'tinybench';
import { faultKinds, getFaultProfile } from '../faults/index.js';
import { perturbationFamilies } from '../perturbations/index.js';
import { getWorld, loadScenarios } from '../scenarios/index.js';
import { loadRun } from '../src/report/run.js';
import { readLastLineBytes } from '../src/store/log-lines.js';
import { LineSigner } from '../src/store/mac.js';
import { aggregationFieldsOfBytes } from '../src/store/record-walk.js';
import { ResampleBank } from '../src/stats/bootstrap.js';
import { canonicalize, cloneJson, collectionsOf, diffCanonical, diffSparse } from '../src/ground/canonical.js';
import { createClock } from '../src/ground/clock.js';
import { callTool } from '../src/ground/tools.js';
import { runEpisode, WorldHarness } from '../src/run/episode.js';
import { rejudgeEpisode } from '../src/run/rejudge.js';
import { judgeEpisode } from '../src/judge/index.js';
import { resolveAgent } from '../src/agents/registry.js';
import { FaultInjector } from '../src/ground/faults.js';
import { overlayDb } from '../src/ground/overlay.js';
import { perturb, resolveFamilies } from '../src/ground/perturb.js';
import { deriveSeed, makeRng } from '../src/ground/seeds.js';
import { Tally } from '../src/stats/stats.js';
import { DEFAULT_THETA } from '../src/stats/surface.js';
import { ScriptedUser } from '../src/user/index.js';
import { readAgentMessage } from '../src/user/reading.js';
import { parseLabels } from '../src/judge/calibrate.js';
import { wordingReader } from '../src/judge/claims.js';
import { mcpClientFor } from '../src/agents/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startToolServer } from '../src/agents/tool-server.js';
import { commandAgent, MCP_STDIO_BRIDGE, probeCommand } from '../src/agents/command-agent.js';
import type { AgentFactory } from '../src/agents/contract.js';
import { deskModule, sweep as paritySweep } from '../test/parity-kit.js';
import deskMcp from '../examples/desk-mcp.js';
import { startupFigures } from './startup.js';
import { isolationFigures } from './isolation.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/shakedown.js');
const work = mkdtempSync(join(tmpdir(), 'shakedown-bench-'));
const SECTIONS = ['startup', 'micro', 'episode', 'e2e', 'release', 'timeouts', 'io', 'pacing', 'aggregate', 'scaling', 'memory'] as const;
type Section = (typeof SECTIONS)[number];
const asked = process.argv.slice(2);
const unknown = asked.filter((a) => a !== 'all' && !SECTIONS.includes(a as Section));
if (unknown.length > 0) {
  console.error(`bench: unknown section ${unknown.join(', ')}. Sections: ${SECTIONS.join(', ')}, all.`);
  process.exit(2);
}
const chosen = new Set<Section>(asked.length === 0 ? SECTIONS.filter((s) => s !== 'memory') : asked.includes('all') ? SECTIONS : (asked as Section[]));

const verdicts: string[] = [];
const target = (name: string, figure: string, met: boolean) => {
  const line = `${met ? 'MET ' : 'MISSED'}  ${name}: ${figure}`;
  verdicts.push(line);
  console.log(`  -> ${line}`);
};
const fmt = (x: number, digits = 2) => x.toFixed(digits);

let cliRuns = 0;

/** Runs the CLI; returns its output, the episode phase's seconds and rate, and the peak RSS in MB when GNU time is there. */
async function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string; episodes: number; seconds: number; rate: number; peakMb?: number }> {
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  const rssFile = join(work, `rss-${++cliRuns}`);
  const [cmd, argv] = timeBin ? [timeBin, ['-f', '%M', '-o', rssFile, process.execPath, bin, ...args]] : [process.execPath, [bin, ...args]];
  const child = spawn(cmd, argv, { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`shakedown ${args.join(' ')} exited ${code}:\n${stderr}`);
  const m = /(\d+) episodes(?: \([^)]*\))? in [\d.]+ s \(episodes ([\d.]+) s, (\d+)\/s\)/.exec(stdout);
  if (!m) throw new Error(`no timing line in the output of shakedown ${args.join(' ')}:\n${stdout.slice(-500)}`);
  const peakMb = timeBin && existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) / 1024 : undefined;
  return { stdout, stderr, episodes: Number(m[1]), seconds: Number(m[2]), rate: Number(m[3]), ...(peakMb !== undefined ? { peakMb } : {}) };
}

const sweep = (name: string, args: readonly string[], env?: NodeJS.ProcessEnv) => cli(['sweep', '--quiet', '--out', join(work, name), ...args], env);

async function startup(): Promise<void> {
  console.log('\n## startup: median wall time of 7 alternating runs, compiled (dist/) against tsx over the sources');
  console.log('  | what | compiled | through tsx (before) | ratio |\n  | --- | --- | --- | --- |');
  for (const r of await startupFigures(root)) console.log(`  | ${r.name} | ${fmt(r.compiledMs, 0)} ms | ${fmt(r.sourcesMs, 0)} ms | ${fmt(r.sourcesMs / r.compiledMs)}x faster |`);
}

async function micro(): Promise<void> {
  console.log('\n## micro (tinybench: mean time per operation)');
  const world = getWorld('retail');
  const scenarios = loadScenarios(world);
  const scenario = scenarios.find((s) => s.id === 'return-one-of-two') ?? (scenarios[0] as (typeof scenarios)[number]);
  const harness = new WorldHarness(world, '42');
  const prepared = await harness.prepare(scenario);
  const initial = prepared.initial as Record<string, unknown>;
  const families = resolveFamilies(perturbationFamilies, undefined, {});
  const opening = new ScriptedUser(scenario, world.userLanguage, makeRng('bench-user'), 12).opening();
  const injector = new FaultInjector({ seed: 'bench', lambda: 0.3, profile: getFaultProfile('mixed'), kinds: faultKinds, params: {} });
  const getOrder = world.tools.find((t) => t.name === 'get_order');
  if (!getOrder) throw new Error('retail has no get_order tool');

  // One tool call three ways on the same handler and database: through the engine's fetch (matching,
  // trace, fault decision at λ = 0), through msw's getResponse directly, and as a plain function.
  const db = cloneJson(initial) as { orders: Record<string, unknown> };
  const session = harness.runtime.open({ episodeId: 'bench', db, clock: createClock(), faults: new FaultInjector({ seed: 'bench', lambda: 0, profile: getFaultProfile('mixed'), kinds: faultKinds, params: {} }) });
  const orderId = Object.keys(db.orders)[0] as string;
  const engineUrl = `${session.baseUrl}/orders/${orderId}`;
  // The same engine with the tool's handlers called through msw's getResponse instead of directly.
  const viaMsw = new WorldHarness(world, '42', { direct: false }).runtime.open({ episodeId: 'bench-msw', db, clock: createClock(), faults: new FaultInjector({ seed: 'bench', lambda: 0, profile: getFaultProfile('mixed'), kinds: faultKinds, params: {} }) });
  const viaMswUrl = `${viaMsw.baseUrl}/orders/${orderId}`;
  const instance = { episodeId: 'direct', db, clock: createClock(), nextId: (p: string) => `${p}_1` };
  // The handler that answers get_order, alone, as the engine calls it.
  const handlers = world.handlers(() => instance).filter((h) => h instanceof HttpHandler && h.info.method === 'GET' && h.info.path === '*/api/orders/:orderId');
  if (handlers.length !== 1) throw new Error('retail has no single GET */api/orders/:orderId handler');
  const plain = (id: string) => JSON.stringify(db.orders[id]);

  const collections = new Set(collectionsOf(world.dbSchema).keys());
  const goldChanged = prepared.goldChanged;
  const touchedOverlay = () => {
    const o = overlayDb(initial, collections, cloneJson);
    void (o.db.orders as Record<string, unknown>)[orderId];
    return o;
  };
  const full = cloneJson(initial);
  const sparse = touchedOverlay();
  const candidates = (field: string) => {
    const t = sparse.touched(field);
    return t && new Set([...t, ...(goldChanged.get(field) ?? [])]);
  };
  // 7,056 outcomes in the default sweep's shape, for the aggregation.
  const rng = makeRng('bench-aggregate');
  const agents = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'];
  const outcomes: { key: { agent: string; eps: number; lambda: number; scenario: string }; pass: boolean }[] = [];
  for (const agent of agents) for (const eps of [0, 0.5, 1]) for (const lambda of [0, 0.1, 0.3]) for (const s of scenarios) for (let t = 0; t < 4; t++) outcomes.push({ key: { agent, eps, lambda, scenario: s.id }, pass: rng() < 0.7 });

  // A recorded episode to judge: the robust reference agent on a cancellation at λ = 0.3.
  const rejudgeOptions = { runSeed: '42', profile: getFaultProfile('mixed'), faultKinds };
  const recorded = await (async () => {
    const p = await harness.prepare(scenarios.find((s) => s.id === 'cancel-pending-mistake') ?? scenario);
    const record = await runEpisode(harness, p, resolveAgent('reference:robust'), { scenario: p.scenario.id, agent: 'reference:robust', eps: 0.5, lambda: 0.3, trial: 0 }, { ...rejudgeOptions, families });
    return { prepared: p, record };
  })();
  let ordinal = 0;
  // The same call over MCP: a client connected in-process to the episode's MCP server (what ctx.mcp() gives).
  const mcp = await mcpClientFor({ tools: harness.toolsJson, toolSpecs: world.tools, baseUrl: session.baseUrl, fetch: session.fetch });
  // Out of process: the loopback tool server, over plain HTTP, over MCP's Streamable HTTP, and over stdio
  // through the bridge a command agent's MCP config launches.
  const toolServer = await startToolServer();
  const granted = toolServer.grant(harness.runtime.access('bench'));
  const loopbackUrl = `${granted.toolBaseUrl}/orders/${encodeURIComponent(orderId)}`;
  const mcpHttp = new Client({ name: 'bench', version: '1.0.0' });
  await mcpHttp.connect(new StreamableHTTPClientTransport(new URL(granted.mcpUrl)));
  const mcpStdio = new Client({ name: 'bench', version: '1.0.0' });
  await mcpStdio.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_STDIO_BRIDGE, granted.mcpUrl] }));
  // Lying kinds: one call struck by each, in a fresh episode on the overlay (as a sweep runs it), beside
  // the same call unstruck. A write's episode is opened per call, so that each call finds the order as it was.
  const lyingEpisode = (kind: string | null) => {
    const episode = harness.episodeDb(prepared);
    const profile = { id: `bench-${kind ?? 'none'}`, description: 'bench', weights: kind ? { [kind]: 1 } : {} };
    const faults = new FaultInjector({ seed: 'bench', lambda: kind ? 1 : 0, profile, kinds: faultKinds, params: {} });
    return harness.runtime.open({ episodeId: `bench-lie-${++lies}`, db: episode.db, copies: harness.copiesOf(episode), clock: createClock(), faults });
  };
  let lies = 0;
  const returnTool = world.tools.find((t) => t.name === 'return_items');
  if (!returnTool) throw new Error('retail has no return_items tool');
  const writeOnce = async (kind: string | null, units: number) => {
    const s = lyingEpisode(kind);
    await callTool(s.fetch, s.baseUrl, returnTool, { orderId: '#W9000403', itemIds: Array.from({ length: units }, () => 'bottle-steel-500ml'), paymentMethodId: 'credit_card_4003' });
    s.close();
  };
  // A stale read needs a write before it: one committed, then the read struck (and the plain read beside it).
  const readAfterWrite = async (kind: string | null) => {
    const s = lyingEpisode(kind);
    await callTool(s.fetch, s.baseUrl, returnTool, { orderId: '#W9000403', itemIds: ['bottle-steel-500ml'], paymentMethodId: 'credit_card_4003' });
    await callTool(s.fetch, s.baseUrl, getOrder, { orderId: 'W9000403' });
    s.close();
  };
  const bench = new Bench({ time: 400, warmup: true });
  bench
    .add('lying: a write, no fault (fresh episode)', () => writeOnce(null, 2))
    .add('lying: a write struck by silent-write (fresh episode)', () => writeOnce('silent-write', 2))
    .add('lying: a write struck by partial-commit (fresh episode)', () => writeOnce('partial-commit', 2))
    .add('lying: a write, then a read, no fault (fresh episode)', () => readAfterWrite(null))
    .add('lying: a write, then a read struck by stale-read', () => readAfterWrite('stale-read'))
    .add('lying: a write, then a read struck by wrong-value', () => readAfterWrite('wrong-value'))
    .add('seed derivation (deriveSeed, 5 parts)', () => {
      deriveSeed('42', 'return-one-of-two', 'eps', 0.5, 3, 'perturbation');
    })
    .add('one perturbation (a first message, all families, ε = 0.5)', () => {
      perturb(opening.segments, 0.5, families, 'bench-seed', 0, opening.about, world.userLanguage);
    })
    .add('one fault decision (λ = 0.3, mixed)', () => {
      injector.decide(getOrder, ordinal++);
    })
    .add('tool call: engine fetch', async () => {
      await (await session.fetch(engineUrl)).text();
      // An episode's trace holds a few dozen calls, not the bench's thousands.
      session.trace.length = 0;
    })
    .add('tool call: engine fetch, handlers through getResponse', async () => {
      await (await viaMsw.fetch(viaMswUrl)).text();
      viaMsw.trace.length = 0;
    })
    .add('tool call: over MCP (in-process client and server)', async () => {
      await mcp.callTool({ name: 'get_order', arguments: { orderId } });
      session.trace.length = 0;
    })
    .add('tool call: loopback HTTP to the tool server', async () => {
      await (await fetch(loopbackUrl)).text();
      session.trace.length = 0;
    })
    .add('tool call: over MCP, Streamable HTTP (tool server)', async () => {
      await mcpHttp.callTool({ name: 'get_order', arguments: { orderId } });
      session.trace.length = 0;
    })
    .add('tool call: over MCP, stdio (bridge to the tool server)', async () => {
      await mcpStdio.callTool({ name: 'get_order', arguments: { orderId } });
      session.trace.length = 0;
    })
    .add('tool call: msw getResponse on the same handler', async () => {
      await ((await getResponse(handlers, new Request(`http://direct.retail.shakedown.test/api/orders/${orderId}`))) as Response).text();
    })
    .add('tool call: plain function', () => {
      plain(orderId);
    })
    .add('database copy: whole (cloneJson)', () => {
      cloneJson(initial);
    })
    .add('database copy: overlay, one entry read', () => {
      touchedOverlay();
    })
    .add('comparison: whole database (canonicalize + diff)', () => {
      diffCanonical(prepared.goldCanonical, canonicalize(world.dbSchema, full));
    })
    .add('comparison: touched entries (diffSparse)', () => {
      diffSparse(world.dbSchema, prepared.goldCanonical, sparse.db, candidates);
    })
    .add('aggregation: pass^k + bootstrap of 7,056 outcomes', () => {
      const tally = new Tally();
      for (const o of outcomes) tally.add(o.key, o.pass ? 'pass' : 'fail');
      const bank = new ResampleBank('42');
      for (const a of tally.agents()) tally.cells(a, bank);
    });
  // The two readers of an agent's free text, on the real replies they are measured on (docs/judging.md,
  // docs/user.md): one message per iteration, in turn through the corpus.
  const realClaims = parseLabels(readFileSync(join(root, 'corpora/claims.real.jsonl'), 'utf8'), 'corpora/claims.real.jsonl').map(({ text, action, names }) => ({ text, ...(action ? { action } : {}), ...(names ? { names } : {}) }));
  const claimReader = wordingReader();
  let nextClaim = 0;
  const realTurns = readFileSync(join(root, 'corpora/turns.real.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { text: string }).text);
  let nextTurn = 0;
  bench
    .add('claim reader: one real reply after a write', () => {
      claimReader.readSync(realClaims[nextClaim++ % realClaims.length] as (typeof realClaims)[number]);
    })
    .add("user's reading: one real agent turn", () => {
      readAgentMessage(realTurns[nextTurn++ % realTurns.length] as string, world.userLanguage);
    })
    .add('judge: one recorded episode (state, conduct, claims, outputs)', async () => {
      const db = harness.episodeDb(recorded.prepared);
      await judgeEpisode({ world, prepared: recorded.prepared, finalDb: db.db, ...(db.overlay ? { overlay: db.overlay } : {}), trace: recorded.record.trace, messages: recorded.record.messages });
    })
    .add('rejudge: one recorded episode (its calls made again, then judged)', async () => {
      await rejudgeEpisode(harness, recorded.prepared, recorded.record, rejudgeOptions);
    });
  await bench.run();
  const mean = new Map<string, number>();
  for (const task of bench.tasks) {
    const r = task.result as { latency?: { mean: number }; state: string };
    if (!r.latency) throw new Error(`${task.name}: ${r.state}`);
    mean.set(task.name, r.latency.mean);
    const ms = r.latency.mean;
    console.log(`  ${task.name.padEnd(58)} ${ms >= 1 ? `${fmt(ms)} ms` : `${fmt(ms * 1000, 1)} µs`}`);
  }
  await mcp.close();
  await mcpHttp.close();
  await mcpStdio.close();
  await toolServer.close();
  session.close();
  viaMsw.close();
  const engine = mean.get('tool call: engine fetch') as number;
  const bare = mean.get('tool call: msw getResponse on the same handler') as number;
  const per = (name: string) => fmt((mean.get(name) as number) / engine);
  console.log(`  per call, against the engine fetch: MCP in-process ${per('tool call: over MCP (in-process client and server)')}x; loopback HTTP ${per('tool call: loopback HTTP to the tool server')}x; MCP Streamable HTTP ${per('tool call: over MCP, Streamable HTTP (tool server)')}x; MCP stdio ${per('tool call: over MCP, stdio (bridge to the tool server)')}x`);
  console.log(`  engine / getResponse ${fmt(engine / bare)}x; getResponse / plain function ${fmt(bare / (mean.get('tool call: plain function') as number), 0)}x; the engine with handlers through getResponse / directly ${fmt((mean.get('tool call: engine fetch, handlers through getResponse') as number) / engine)}x`);
  console.log(`  whole copy / overlay ${fmt((mean.get('database copy: whole (cloneJson)') as number) / (mean.get('database copy: overlay, one entry read') as number), 0)}x; whole comparison / sparse ${fmt((mean.get('comparison: whole database (canonicalize + diff)') as number) / (mean.get('comparison: touched entries (diffSparse)') as number), 0)}x`);
  target('a tool call through the engine costs at most 1.5x a bare getResponse call', `${fmt(engine / bare)}x`, engine / bare <= 1.5);
  const lying = (name: string, base: string) => `${fmt(((mean.get(name) as number) - (mean.get(base) as number)) * 1000, 0)} µs`;
  console.log(`  lying kinds, extra per struck call: silent-write ${lying('lying: a write struck by silent-write (fresh episode)', 'lying: a write, no fault (fresh episode)')}, partial-commit ${lying('lying: a write struck by partial-commit (fresh episode)', 'lying: a write, no fault (fresh episode)')}; stale-read ${lying('lying: a write, then a read struck by stale-read', 'lying: a write, then a read, no fault (fresh episode)')} (with the copy it keeps of the state before the write), wrong-value ${lying('lying: a write, then a read struck by wrong-value', 'lying: a write, then a read, no fault (fresh episode)')}`);

  // What an episode costs each way in: the parity kit's 12 rate-limit episodes, one at a time.
  const perEpisode = async (factory: AgentFactory) => {
    const start = performance.now();
    const runs = await paritySweep(factory, { mode: 'simulated' }, ['rate-limit'], 1);
    return (performance.now() - start) / runs.size;
  };
  const commandOf = (args: string) => {
    const c = `"${process.execPath}" "${join(root, 'examples/mcp-agent/agent.mjs')}" ${args}`;
    return probeCommand(c).then((info) => commandAgent(c, root, info));
  };
  await perEpisode(deskModule(false)); // warm-up: the scenarios' preparation and the first episodes' JIT
  const moduleMs = await perEpisode(deskModule(false));
  const inProcessMcpMs = await perEpisode(deskMcp);
  const stdioAgent = await commandOf('--transport stdio');
  const stdioMs = await perEpisode(stdioAgent);
  await stdioAgent.dispose?.();
  const httpAgent = await commandOf('--transport http');
  const httpMs = await perEpisode(httpAgent);
  await httpAgent.dispose?.();
  console.log(`  one episode of the order desk (rate limits, λ = 0.6): module ${fmt(moduleMs, 1)} ms; over MCP in-process ${fmt(inProcessMcpMs, 1)} ms; command over MCP stdio ${fmt(stdioMs, 1)} ms (${fmt(stdioMs / moduleMs, 0)}x); command over MCP Streamable HTTP ${fmt(httpMs, 1)} ms (${fmt(httpMs / moduleMs, 0)}x): a command pays its process start per episode`);
}

/**
 * The task measured beside other harnesses (docs/performance.md, "The fifth round: one episode"): a scripted
 * agent that identifies the user, reads the order and cancels it (bench/cancel-agent.mjs: 3 tool calls,
 * 2 turns, no model), 1,000 episodes a round, in this process and in its own sandboxed host, alternating.
 */
async function episode(): Promise<void> {
  console.log('\n## episode: identify, read, cancel (3 tool calls, 2 turns, no model); CPU of this process and the agent\'s host per episode, median of 5 alternating rounds of 1,000 after 1,000 to warm each path');
  const [r] = await isolationFigures([{ path: join(root, 'bench/cancel-agent.mjs'), trials: 1000, concurrency: 8, scenarios: ['cancel-pending-mistake'], eps: [0], lambda: [0], warmTrials: 1000 }], 5);
  if (!r) throw new Error('the episode bench measured nothing');
  const ratio = r.hosted.cpuMs / r.here.cpuMs;
  console.log(`  in this process ${fmt(r.here.cpuMs)} ms of CPU an episode (${fmt(r.here.perSecond, 0)}/s); contained in its own process ${fmt(r.hosted.cpuMs)} ms (${fmt(r.hosted.perSecond, 0)}/s)`);
  // The same agent with replies that never repeat: what an episode costs when nothing read before recurs.
  const [v] = await isolationFigures([{ path: join(root, 'bench/cancel-agent-varied.mjs'), trials: 1000, concurrency: 8, scenarios: ['cancel-pending-mistake'], eps: [0], lambda: [0], warmTrials: 1000 }], 5);
  if (v) console.log(`  with replies that never repeat (bench/cancel-agent-varied.mjs): in this process ${fmt(v.here.cpuMs)} ms; contained ${fmt(v.hosted.cpuMs)} ms (${fmt(v.hosted.cpuMs / v.here.cpuMs)}x)`);
  target('an episode of this task costs at most 1.0 ms of CPU, the agent contained', `${fmt(r.hosted.cpuMs)} ms`, r.hosted.cpuMs <= 1.0);
  target('a contained module agent costs at most 1.1x the CPU per episode of the same agent in process', `${fmt(ratio)}x (${fmt(r.hosted.cpuMs)} against ${fmt(r.here.cpuMs)} ms)`, ratio <= 1.1);
}

/**
 * The release set: every task of the retail world (`--tasks all`: 520 in 40 families) on the default
 * grid, 131,040 episodes at 4 trials. One trial of it is run (32,760 episodes, every task and cell) and
 * its time taken four times: trials cost alike.
 */
async function release(): Promise<void> {
  console.log(`\n## release: the release set (--tasks all, the default grid), one trial of it run, projected to four (${availableParallelism()} cores)`);
  const one = await sweep('release-1', ['--tasks', 'all', '--trials', '1']);
  const projected = one.seconds * 4;
  console.log(`  one trial: ${one.episodes} episodes in ${fmt(one.seconds, 1)} s (${one.rate}/s); four trials, ${one.episodes * 4} episodes, projected ${fmt(projected / 60, 1)} min`);
  target('the release set (131,040 episodes) in at most 3 minutes on 2 cores', `${fmt(projected / 60, 1)} min projected`, projected <= 180);
}

async function e2e(): Promise<void> {
  console.log(`\n## e2e: the default sweep (${availableParallelism()} cores)`);
  const one = await sweep('e2e-1', ['--workers', '1']);
  console.log(`  --workers 1:    ${one.episodes} episodes in ${fmt(one.seconds, 1)} s, ${one.rate}/s`);
  const all = await sweep('e2e-auto', []);
  console.log(`  --workers auto: ${all.episodes} episodes in ${fmt(all.seconds, 1)} s, ${all.rate}/s (${fmt(all.rate / one.rate)}x one process)`);
  const same = readFileSync(join(work, 'e2e-1', 'grid.json'), 'utf8') === readFileSync(join(work, 'e2e-auto', 'grid.json'), 'utf8');
  console.log(`  grid.json identical: ${same}`);
  if (!same) throw new Error('the worker pool changed the grid');
  target('at least 1,000 episodes/s on the default sweep, all cores in use', `${all.rate}/s`, all.rate >= 1000);

  // Re-judging the default sweep: every episode's calls made again and judged, no agent run.
  const start = performance.now();
  const rejudged = await new Promise<{ stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'rejudge', join(work, 'e2e-auto'), '--out', join(work, 'e2e-rejudged')], { env: { ...process.env, CI: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve({ stderr }) : reject(new Error(`shakedown rejudge exited with ${code}: ${stderr}`))));
  });
  const rejudgeS = (performance.now() - start) / 1000;
  const identical = readFileSync(join(work, 'e2e-auto', 'grid.json'), 'utf8') === readFileSync(join(work, 'e2e-rejudged', 'grid.json'), 'utf8');
  console.log(`  rejudge: ${all.episodes} episodes in ${fmt(rejudgeS, 1)} s (${fmt((rejudgeS * 1000) / all.episodes)} ms an episode, the CLI's start included; the sweep took ${fmt((all.seconds * 1000) / all.episodes)} ms an episode); grid.json identical: ${identical}${rejudged.stderr ? `; ${rejudged.stderr.trim()}` : ''}`);
  if (!identical) throw new Error('rejudging under the same judge changed the grid');

  // A module agent in a process of its own (the only way Shakedown runs one) against the same agent loaded here.
  for (const r of await isolationFigures([{ path: join(root, 'examples/status-bot.ts'), trials: 20, concurrency: 8 }])) {
    console.log(`  a module agent (${r.agent}, ${r.episodes} episodes): in this process ${fmt(r.here.perSecond, 0)}/s, ${fmt(r.here.cpuMs)} ms of CPU an episode; in its own sandboxed process ${fmt(r.hosted.perSecond, 0)}/s, ${fmt(r.hosted.cpuMs)} ms (${fmt(r.hosted.cpuMs / r.here.cpuMs)}x the CPU)`);
  }
}

async function timeouts(): Promise<void> {
  console.log('\n## timeouts: simulated time (profile timeouts, ε = 0, default agents, one process)');
  const base = ['--profile', 'timeouts', '--eps', '0', '--workers', '1'];
  const quiet = await sweep('to-0', [...base, '--lambda', '0']);
  const heavy = await sweep('to-05', [...base, '--lambda', '0.5']);
  const fired = readFileSync(join(work, 'to-05', 'episodes.jsonl'), 'utf8').split('\n').filter(Boolean).reduce((n, l) => n + (JSON.parse(l) as { faults: unknown[] }).faults.length, 0);
  console.log(`  λ = 0: ${quiet.episodes} episodes in ${fmt(quiet.seconds)} s; λ = 0.5: ${fmt(heavy.seconds)} s with ${fired} faults`);
  const ratio = heavy.seconds / quiet.seconds;
  target('a timeout-heavy sweep at λ = 0.5 takes at most 1.5x the wall time of λ = 0', `${fmt(ratio)}x`, ratio <= 1.5);
}

/** The stub model in a process of its own (bench/llm-stub-process.ts), so that its work is not the engine's. */
async function stubProcess(delayMs: number, quotaRpm?: number): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/llm-stub-process.ts'), '--delay', String(delayMs), ...(quotaRpm !== undefined ? ['--quota', String(quotaRpm)] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the stub model's process exited with ${code} before it served`)));
  });
  const { baseUrl } = JSON.parse(first) as { baseUrl: string };
  // Warm the stub's code (a new process compiles it on its first requests), so that neither sweep pays it.
  const warm = { model: 'stub-model', messages: [{ role: 'system', content: 'You are an agent.' }, { role: 'user', content: "What's the status of order #W9000101? My email is a@example.org." }] };
  for (let i = 0; i < 50; i++) await (await fetch(`${baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(warm) })).text();
  return {
    baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

async function io(): Promise<void> {
  console.log('\n## io: an LLM agent against a stub model answering in 50 ms, in a process of its own');
  const stub = await stubProcess(50);
  const env = { SHAKEDOWN_BENCH_KEY: 'bench' };
  const args = ['--agent', 'llm:stub-model', '--llm-base-url', stub.baseUrl, '--llm-api-key-env', 'SHAKEDOWN_BENCH_KEY', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0'];
  try {
    const serial = await sweep('io-1', [...args, '--trials', '16', '--concurrency', '1'], env);
    const wide = await sweep('io-64', [...args, '--trials', '640', '--concurrency', '64'], env);
    console.log(`  concurrency 1: ${serial.episodes} episodes, ${fmt(serial.episodes / serial.seconds, 1)}/s; concurrency 64: ${wide.episodes} episodes, ${fmt(wide.episodes / wide.seconds, 1)}/s`);
    const ratio = wide.episodes / wide.seconds / (serial.episodes / serial.seconds);
    target('64 episodes in flight give at least 40x the throughput of 1 against a 50 ms model', `${fmt(ratio, 1)}x`, ratio >= 40);
  } finally {
    await stub.close();
  }
  // A module agent that waits like a model, in its own process and loaded here: its host must keep the
  // sweep's concurrency in flight, whatever its slowest episode.
  for (const r of await isolationFigures([{ path: join(root, 'bench/thinking-agent.mjs'), trials: 40, concurrency: 64 }], 1)) {
    console.log(`  a module agent thinking 20 ms a turn (400 ms one turn in eight), ${r.episodes} episodes at concurrency 64: in this process ${fmt(r.here.perSecond, 1)}/s, in its own process ${fmt(r.hosted.perSecond, 1)}/s (${fmt(r.hosted.perSecond / r.here.perSecond)}x)`);
  }
}

/**
 * An LLM sweep against a provider's quota: a stub model in its own process refuses past RPM requests in
 * any minute (429 with Retry-After, and OpenAI's rate-limit headers), and the sweep learns the limit
 * from the headers. The pace reached is the stub's accepted requests over the time between its first and
 * last, against the quota.
 */
async function pacing(): Promise<void> {
  const rpm = 3_000;
  console.log(`\n## pacing: 2,000 LLM episodes against a provider quota of ${rpm} requests a minute (learned from its headers)`);
  const stub = await stubProcess(20, rpm);
  const env = { SHAKEDOWN_BENCH_KEY: 'bench' };
  try {
    // The stub's 50 warm-up requests count against its first minute, as any other client's would.
    const before = (await (await fetch(`${stub.baseUrl}/stats`)).json()) as { accepted: number; refused: number };
    const out = join(work, 'pacing');
    const r = await cli(['sweep', '--quiet', '--out', out, '--agent', 'llm:stub-model', '--llm-base-url', stub.baseUrl, '--llm-api-key-env', 'SHAKEDOWN_BENCH_KEY', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0,0.1', '--trials', '1000', '--concurrency', '64'], env);
    const after = (await (await fetch(`${stub.baseUrl}/stats`)).json()) as { accepted: number; refused: number; spanMs: number };
    const accepted = after.accepted - before.accepted;
    const refused = after.refused - before.refused;
    const reached = (accepted / (r.seconds * 1000)) * 60_000;
    // An episode the provider's limit failed ends in an error (the model API gave up) or at its deadline.
    const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8')) as { agents: { cells: { lambda: number; failures: Record<string, number> }[] }[] };
    const cells = grid.agents[0]?.cells ?? [];
    const byLimit = cells.reduce((n, c) => n + (c.failures['agent-error'] ?? 0) + (c.failures.deadline ?? 0), 0);
    const failedClean = Object.values(cells.find((c) => c.lambda === 0)?.failures ?? {}).reduce((a, b) => a + b, 0);
    console.log(`  ${r.episodes} episodes in ${fmt(r.seconds, 1)} s: ${accepted} model requests accepted, ${refused} refused (429); ${fmt(reached, 0)} requests a minute, ${fmt(reached / rpm)} of the quota; ${byLimit} episode(s) ended in an error or at the deadline; at λ = 0, ${failedClean} did not pass`);
    target('a 2,000-episode LLM sweep runs at 90% of the provider quota or more', `${fmt((100 * reached) / rpm, 1)}%`, reached >= 0.9 * rpm);
    target('no episode of it fails by the provider limit', `${byLimit} errors, ${failedClean} failures at λ = 0`, byLimit === 0 && failedClean === 0 && r.episodes === 2000);
  } finally {
    await stub.close();
  }
}

async function aggregate(): Promise<void> {
  console.log('\n## aggregate: 1,000,000 episode records, streamed');
  const source = join(work, 'e2e-1');
  if (!existsSync(join(source, 'episodes.jsonl'))) await sweep('e2e-1', ['--workers', '1']);
  const lines = readFileSync(join(source, 'episodes.jsonl'), 'utf8').trim().split('\n');
  const manifest = JSON.parse(readFileSync(join(source, 'run.json'), 'utf8')) as Record<string, unknown> & { key: string; grid: { scenarios: string[] } };
  const dir = join(work, 'million');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Copies of the default sweep's records under renamed scenarios: real records, 1,000,000 keys, each
  // signed again with the run's key and its task in the plan, so that every one verifies and counts.
  const signer = new LineSigner(manifest.key);
  const out = createWriteStream(join(dir, 'episodes.jsonl'));
  const scenarios: string[] = [];
  let written = 0;
  for (let copy = 0; written < 1_000_000; copy++) {
    scenarios.push(...manifest.grid.scenarios.map((s) => `c${copy}-${s}`));
    let chunk = '';
    for (const line of lines) {
      if (written >= 1_000_000) break;
      const bytes = Buffer.from(line.replace('"scenario":"', `"scenario":"c${copy}-`));
      chunk += `${signer.resign(bytes, 0, bytes.length)}\n`;
      written++;
    }
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(resolve));
  const signed = { ...manifest, grid: { ...manifest.grid, scenarios }, episodes: written };
  const { key: _key, ...keyless } = signed;
  writeFileSync(join(dir, 'run.json'), JSON.stringify(signed));
  // A readline and a JSON.parse of every line alone, for scale: what aggregation once did before its statistics.
  let bytes = 0;
  let parsed = 0;
  const p0 = performance.now();
  for await (const line of createInterface({ input: createReadStream(join(dir, 'episodes.jsonl'), 'utf8'), crlfDelay: Infinity })) {
    bytes += line.length + 1;
    if (JSON.parse(line)) parsed++;
  }
  const parseSeconds = (performance.now() - p0) / 1000;
  console.log(`  readline and JSON.parse of ${parsed} lines alone, for scale: ${fmt(parseSeconds, 1)} s`);
  // The two reads and the walk of every record, without the tally and the statistics.
  const w0 = performance.now();
  await readLastLineBytes(join(dir, 'episodes.jsonl'), (buf, start, end) => void aggregationFieldsOfBytes(buf, start, end, true));
  const readSeconds = (performance.now() - w0) / 1000;
  const t0 = performance.now();
  const run = await loadRun(dir, DEFAULT_THETA);
  const seconds = (performance.now() - t0) / 1000;
  console.log(`  ${written} records (${fmt(bytes / 1e9)} GB) aggregated in ${fmt(seconds, 1)} s (${run.grid.agents.length} agents; of which reading and walking the records ${fmt(readSeconds, 1)} s when timed alone), heap after ${fmt(process.memoryUsage().heapUsed / 1e6, 0)} MB`);
  if (run.problems.unverified + run.problems.outside + run.problems.torn > 0) throw new Error(`the bench's log did not read whole: ${JSON.stringify(run.problems)}`);
  // What checking the records' MACs costs: the same log read with them checked inline, and without a key (no check).
  const i0 = performance.now();
  await loadRun(dir, DEFAULT_THETA, { offThreadBytes: Number.POSITIVE_INFINITY });
  const inlineSeconds = (performance.now() - i0) / 1000;
  writeFileSync(join(dir, 'run.json'), JSON.stringify(keyless));
  const u0 = performance.now();
  await loadRun(dir, DEFAULT_THETA);
  const uncheckedSeconds = (performance.now() - u0) / 1000;
  console.log(`  the records' MACs: checked on a worker thread ${fmt(seconds, 1)} s, inline ${fmt(inlineSeconds, 1)} s, not checked (no key) ${fmt(uncheckedSeconds, 1)} s`);
  target('aggregating 1,000,000 episode records takes under 10 s, streaming the log', `${fmt(seconds, 1)} s`, seconds < 10);
  rmSync(dir, { recursive: true, force: true });
}

async function scaling(): Promise<void> {
  console.log('\n## scaling: 1x, 4x and 16x the scenarios x trials (default agents and grid)');
  const ids = loadScenarios(getWorld('retail')).map((s) => s.id);
  const sizes = [
    { label: '1x', scenarios: ids.slice(0, 7), trials: 1 },
    { label: '4x', scenarios: ids.slice(0, 14), trials: 2 },
    { label: '16x', scenarios: ids.slice(0, 28), trials: 4 },
  ];
  const rows: { label: string; episodes: number; rate: number; seconds: number; peakMb?: number }[] = [];
  for (const s of sizes) {
    const r = await sweep(`scale-${s.label}`, ['--trials', String(s.trials), ...s.scenarios.flatMap((id) => ['--scenario', id])]);
    rows.push({ label: s.label, ...r });
    console.log(`  ${s.label.padEnd(4)} ${String(r.episodes).padStart(6)} episodes: ${fmt(r.seconds, 1)} s, ${r.rate}/s, peak RSS ${r.peakMb === undefined ? '?' : `${fmt(r.peakMb, 0)} MB`}`);
  }
  const [a, , c] = rows as [(typeof rows)[number], (typeof rows)[number], (typeof rows)[number]];
  console.log(`  16x / 1x: episodes ${fmt(c.episodes / a.episodes, 1)}x, time ${fmt(c.seconds / a.seconds, 1)}x, rate ${fmt(c.rate / a.rate)}x`);
}

async function memory(): Promise<void> {
  console.log('\n## memory: peak RSS after 20,000 and 200,000 episodes (default sweep, more trials)');
  // The default sweep runs 2,520 episodes per trial (7 agents x 9 cells x 40 scenarios).
  const small = await sweep('mem-20k', ['--trials', '8']);
  console.log(`  ${small.episodes} episodes: peak RSS ${fmt(small.peakMb ?? Number.NaN, 0)} MB, ${small.rate}/s`);
  const large = await sweep('mem-200k', ['--trials', '80']);
  console.log(`  ${large.episodes} episodes: peak RSS ${fmt(large.peakMb ?? Number.NaN, 0)} MB, ${large.rate}/s`);
  if (small.peakMb === undefined || large.peakMb === undefined) {
    console.log('  (no /usr/bin/time here: peak RSS not measured)');
    return;
  }
  const ratio = large.peakMb / small.peakMb;
  target('peak RSS after 200,000 episodes within 1.2x of peak RSS after 20,000', `${fmt(ratio)}x`, ratio <= 1.2);
}

const run: Record<Section, () => Promise<void>> = { startup, micro, episode, e2e, release, timeouts, io, pacing, aggregate, scaling, memory };
try {
  for (const s of SECTIONS) if (chosen.has(s)) await run[s]();
  console.log(`\n## targets\n${verdicts.map((v) => `  ${v}`).join('\n')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
