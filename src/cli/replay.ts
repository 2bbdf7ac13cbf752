// `shakedown replay`: reruns one episode from its key and prints its conversation, faults, trace and verdict.
import { ShakedownError } from '../ground/errors.js';
import { runEpisode, WorldHarness } from '../run/episode.js';
import { type EpisodeKey } from '../ground/record.js';
import { parseInteger, type Flags, type Io } from './options.js';
import { disposeAll, episodeOptions, resolveAgentsFor, worldScenario } from '../run/parts.js';
import { loadConfig } from './config-file.js';

/** Reruns the episode the flags name; `--json` prints its record instead of the readable account. */
export async function replayEpisode(flags: Flags, io: Io): Promise<number> {
  const missing = ['scenario', 'agent', 'eps', 'lambda', 'trial'].filter((f) => flags[f as keyof Flags] === undefined);
  if (missing.length > 0) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to replay: missing ${missing.map((m) => `\`--${m}\``).join(', ')}. Copy the replay command a sweep prints.`);
  }
  const { trials: _unused, ...replayFlags } = flags;
  const config = await loadConfig(replayFlags, io);
  const { world, scenario } = await worldScenario(config, flags.scenario?.[0], 'replay');
  const [agent] = await resolveAgentsFor({ ...config, agents: [flags.agent?.[0] ?? ''] }, world.id);
  const key: EpisodeKey = { scenario: scenario.id, agent: agent?.id ?? '', eps: config.eps[0] ?? 0, lambda: config.lambda[0] ?? 0, trial: parseInteger('trial', flags.trial ?? '0') };
  const harness = new WorldHarness(world, config.seed);
  const record = await runEpisode(harness, await harness.prepare(scenario), agent as NonNullable<typeof agent>, key, episodeOptions(config, world)).finally(() => disposeAll(agent ? [agent] : [], io.err));
  if (flags.json) {
    io.out(`${JSON.stringify(record, null, 2)}\n`);
    return 0;
  }
  io.out(`${scenario.id} (${scenario.title})\nagent ${key.agent}, ε ${key.eps}, λ ${key.lambda}, trial ${key.trial}, seed ${config.seed}\n\n`);
  for (const m of record.messages) {
    io.out(`${m.role === 'user' ? 'user ' : 'agent'}> ${m.text}\n`);
    if (m.original !== undefined) io.out(`        (unperturbed: ${m.original})  [${m.perturbations?.join(', ') ?? ''}]\n`);
  }
  io.out('\ntool calls:\n');
  for (const t of record.trace) io.out(`  +${(t.atMs / 1000).toFixed(1)}s ${t.method} ${t.path} -> ${t.status || 'rejected'}${t.fault ? `  [fault: ${t.fault}${t.lied ? ', the answer was untrue' : ''}]` : ''}${t.replayed ? '  [idempotent replay]' : ''}\n`);
  io.out(`\nfaults fired: ${record.faults.length === 0 ? 'none' : record.faults.map((f) => `${f.kind} on ${f.tool}#${f.ordinal}${f.phase ? ` (${f.phase} commit)` : ''}${f.variant ? ` (${f.variant})` : ''}`).join(', ')}\n`);
  if (record.confusions.length > 0) io.out(`user simulator could not place ${record.confusions.length} agent question(s)\n`);
  io.out(`\noutcome: ${record.outcome.toUpperCase()}${record.failure ? ` [${record.failure}]` : ''} (conversation ended: ${record.ended})\n`);
  if (record.failure === 'believed-lie') io.out('  a tool answered with something untrue (marked above) and the agent took it as true\n');
  for (const f of record.findings ?? []) io.out(`  ${f.class}: ${f.message}\n`);
  for (const d of record.diff) io.out(`  ${d.message}\n`);
  for (const o of record.missingOutputs) io.out(`  required output not stated: ${o}\n`);
  if (record.error) io.out(`  ${record.error.name}: ${record.error.message}\n`);
  return 0;
}
