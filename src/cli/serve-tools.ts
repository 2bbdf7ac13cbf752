/** `shakedown serve-tools`: one episode's tools over loopback HTTP, for an agent in another process. */
import { startToolServer } from '../agents/tool-server.js';
import { agentTimeName, createClock, parseAgentTime } from '../ground/clock.js';
import { ShakedownError } from '../ground/errors.js';
import { episodeSeeds } from '../ground/record.js';
import { WorldHarness } from '../run/episode.js';
import { compareState } from '../judge/index.js';
import { FaultInjector } from '../ground/faults.js';
import { untilSignal } from './stop-signals.js';
import { parseInteger, type Flags, type Io } from './options.js';
import { episodeOptions, worldScenario } from '../run/parts.js';
import { loadConfig } from './config-file.js';

/** Real ms per simulated ms that a served episode's faults wait unless `--real-wait-scale` says otherwise. */
export const SERVED_REAL_WAIT_SCALE = 0.001;

/**
 * Opens the episode of `--scenario` at `--lambda` and `--trial` (its database, with faults from the
 * seed) and serves its tools until SIGINT or SIGTERM; then prints the faults that fired and the verdict
 * on the database against the gold state. `stop` resolves when the server should close (tests pass one).
 */
export async function serveToolsCommand(flags: Flags, io: Io, stop: Promise<void> = untilSignal()): Promise<number> {
  if (flags.scenario?.length !== 1) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to serve tools: give one `--scenario ID` (the episode whose database the tools serve), e.g. `shakedown serve-tools --scenario return-two-items --lambda 0.3`.');
  }
  const { trials: _unused, ...rest } = flags;
  const config = await loadConfig(rest, io, flags.lambda === undefined ? { lambda: [0] } : {});
  if (config.lambda.length !== 1) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to serve tools: \`--lambda\` takes one value here, got ${config.lambda.join(',')}.`);
  const port = flags.port === undefined ? 0 : parseInteger('port', flags.port);
  if (port < 0 || port > 65_535) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to serve tools: \`--port ${port}\` is out of range. Give 0 to 65535 (0: any free port).`);
  const { world, scenario } = await worldScenario(config, flags.scenario?.[0], 'serve tools');
  const lambda = config.lambda[0] ?? 0;
  const trial = flags.trial === undefined ? 0 : parseInteger('trial', flags.trial);
  const options = episodeOptions(config, world);
  const harness = new WorldHarness(world, config.seed);
  const prepared = await harness.prepare(scenario);
  const seeds = episodeSeeds(config.seed, { scenario: scenario.id, agent: 'external', eps: 0, lambda, trial }, config.fixedTrials);
  const faults = new FaultInjector({ seed: seeds.faults, lambda, profile: options.profile, kinds: options.faultKinds, params: options.faultParams ?? {} });
  const episodeId = `served-${seeds.faults}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
  // An agent in another process keeps its own timers: by default a simulated wait also takes 1/1000 of its length in real time.
  const realWaitScale = flags['real-wait-scale'] === undefined ? SERVED_REAL_WAIT_SCALE : config.realWaitScale;
  // The agent is in another process: its own time counts (`real`) unless `--agent-time` says otherwise; it holds the turn throughout.
  const setting = parseAgentTime(config.agentTime);
  const clock = createClock(undefined, setting.mode === 'auto' ? { mode: 'real' } : setting);
  clock.holding(true);
  const episode = harness.episodeDb(prepared);
  const session = harness.runtime.open({ episodeId, db: episode.db, copies: harness.copiesOf(episode), clock, faults, realWaitScale, meter: clock });
  /** The verdict on the state (a live world's is read from its server, which is then stopped). */
  const stateDiff = async () => compareState(world, await harness.finalState(session.instance.db), prepared, episode.overlay).diff;
  if (flags.mcp) {
    // MCP over stdio: stdout is the protocol's channel, so every word for people goes to stderr.
    const [{ StdioServerTransport }, { mcpServerFor }] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js'), import('../agents/mcp.js')]);
    const mcp = mcpServerFor({ tools: harness.toolsJson, toolSpecs: world.tools, baseUrl: session.baseUrl, fetch: session.fetch });
    const ended = new Promise<void>((resolve) => {
      mcp.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    await mcp.connect(new StdioServerTransport());
    io.err(`serving ${world.id} tools for ${scenario.id} over MCP on stdio (λ = ${lambda}, trial ${trial}, seed ${config.seed}, profile ${config.profile}); the faults and the verdict follow when the client closes\n`);
    await Promise.race([stop, ended]);
    await mcp.close();
    session.close();
    io.err(`${session.trace.length} tool call(s); faults fired: ${session.faults.length === 0 ? 'none' : session.faults.map((f) => `${f.kind} on ${f.tool}#${f.ordinal}${f.phase ? ` (${f.phase} commit)` : ''}`).join(', ')}\n`);
    const diff = await stateDiff();
    io.err(diff.length === 0 ? 'database: equals the gold state\n' : `database differs from the gold state:\n${diff.map((d) => `  ${d.message}`).join('\n')}\n`);
    return 0;
  }
  let server;
  try {
    server = await startToolServer({ port, maxRequestBytes: config.limits.requestBytes });
  } catch (error) {
    session.close();
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to serve tools on port ${port}: ${(error as Error).message}. Pick another \`--port\`, or 0 for any free one.`, { cause: error });
  }
  // The episode's capability is in its URLs: print them to the one who runs the agent, nowhere else.
  const grant = server.grant(harness.runtime.access(episodeId));
  const base = grant.toolBaseUrl;
  io.out(`serving ${world.id} tools for ${scenario.id} (λ = ${lambda}, trial ${trial}, seed ${config.seed}, profile ${config.profile}; simulated waits take ${realWaitScale} of their length in real time; agent time ${agentTimeName(clock.time)})\n`);
  io.out(`base URL: ${base}\n`);
  io.out(`clock:    ${grant.clockUrl}  (GET: the episode's time; POST /sleep {"ms": N}: wait N simulated ms)\n`);
  io.out(`MCP:      ${grant.mcpUrl}  (Streamable HTTP; --mcp serves MCP on stdio instead)\n`);
  for (const t of harness.toolsJson) io.out(`  ${t.method.padEnd(4)} ${base}${t.path}  (${t.name})\n`);
  io.out('Stop with Ctrl-C: the faults that fired and the verdict on the database follow.\n');
  await stop;
  await server.close();
  session.close();
  io.out(`\n${session.trace.length} tool call(s); faults fired: ${session.faults.length === 0 ? 'none' : session.faults.map((f) => `${f.kind} on ${f.tool}#${f.ordinal}${f.phase ? ` (${f.phase} commit)` : ''}`).join(', ')}\n`);
  const diff = await stateDiff();
  io.out(diff.length === 0 ? 'database: equals the gold state\n' : `database differs from the gold state:\n${diff.map((d) => `  ${d.message}`).join('\n')}\n`);
  return 0;
}
