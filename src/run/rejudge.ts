/**
 * Re-judging a finished episode without its agent: the recorded tool calls are made again, in order and
 * at their recorded simulated times, against a fresh copy of the world on the episode's own fault
 * schedule, and the current judge reads the database they leave, the new trace and the recorded
 * conversation. A judge or scenario fix then costs no agent run (and no model call).
 *
 * The replay is faithful only while the world and the fault code behave as when the episode ran: every
 * call must get the status, fault, replay and effect it got then. When one does not, the episode is
 * reported as diverged and keeps its recorded verdict.
 */
import { stabilityFields } from '../ground/stability.js';
import { callObserver } from '../judge/observe.js';
import { classifyFailure, judgeEpisode, outcomeOf } from '../judge/index.js';
import { type ClaimReader } from '../ground/judging.js';
import { createClock } from '../ground/clock.js';
import { episodeIdOf, type EpisodeRecord, type PreparedScenario } from '../ground/record.js';
import { type EpisodeOptions, type WorldHarness } from './episode.js';
import { FaultInjector } from '../ground/faults.js';
import type { TraceEntry } from '../ground/runtime.js';

/** What re-judging one episode gives: its record under the current judge, or why it kept the old verdict. */
export type Rejudged = { readonly record: EpisodeRecord; readonly diverged?: undefined } | { readonly record: EpisodeRecord; readonly diverged: string };

/** What must come out of a call the same as when it was recorded. */
const callView = (e: TraceEntry) => `${e.tool ?? '-'} ${e.method} ${e.status} ${e.fault ?? ''} ${e.replayed ? 'replayed' : ''} ${e.effect ? 'effect' : ''}`;

/** A call's answer in words, for the message that says where a replay diverged. */
const answerOf = (e: TraceEntry) => `${e.status}${e.fault ? ` (${e.fault})` : ''}${e.replayed ? ', replayed' : ''}${e.effect ? ', with effect' : ''}`;

/** The path parameters of a tool's path template, e.g. `orderId` of `/orders/{orderId}`. */
const pathParams = (path: string): Set<string> => new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string));

/** Re-judges one recorded episode; `reader` reads claims as the run's judge does (the world's wording by default). */
export async function rejudgeEpisode(harness: WorldHarness, prepared: PreparedScenario, record: EpisodeRecord, options: Pick<EpisodeOptions, 'runSeed' | 'profile' | 'faultKinds' | 'faultParams'>, reader?: ClaimReader): Promise<Rejudged> {
  const world = harness.world;
  const key = record.key;
  const clock = createClock();
  const faults = new FaultInjector({ seed: record.seeds.faults, lambda: key.lambda, profile: options.profile, kinds: options.faultKinds, params: options.faultParams ?? {} });
  const episodeDb = harness.episodeDb(prepared);
  let turn = 0;
  const episodeId = episodeIdOf(options.runSeed, key);
  const session = harness.runtime.open({ episodeId, db: episodeDb.db, copies: harness.copiesOf(episodeDb), clock, faults, observer: callObserver(world, prepared.scenario.outputs, () => turn), maxCalls: Number.MAX_SAFE_INTEGER });
  const origin = new URL(session.baseUrl).origin;
  const specs = new Map(world.tools.map((t) => [t.name, t]));
  let diverged: string | undefined;
  try {
    for (const [i, entry] of record.trace.entries()) {
      // A call to a URL outside the world never reached it: nothing to make again.
      if (entry.refused) continue;
      turn = entry.turn ?? 0;
      const wait = entry.atMs - clock.elapsed();
      if (wait > 0) await clock.sleep(wait);
      const spec = entry.tool ? specs.get(entry.tool) : undefined;
      const params = spec ? pathParams(spec.path) : new Set<string>();
      const body = entry.method === 'GET' || entry.method === 'HEAD' ? undefined : JSON.stringify(Object.fromEntries(Object.entries(entry.args ?? {}).filter(([k]) => !params.has(k))));
      const headers: Record<string, string> = { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(entry.idempotencyKey ? { 'idempotency-key': entry.idempotencyKey } : {}) };
      try {
        await (await session.fetch(`${origin}${entry.path}`, { method: entry.method, headers, ...(body !== undefined ? { body } : {}) })).arrayBuffer();
      } catch {
        // A reset, as the agent met it.
      }
      const again = session.trace.at(-1);
      if (!again || callView(again) !== callView(entry)) {
        diverged = `call ${i + 1} (${entry.method} ${entry.tool ?? entry.path}) answered ${again ? answerOf(again) : 'nothing'} on replay, ${answerOf(entry)} when recorded`;
        break;
      }
    }
    if (diverged) {
      await harness.release(session.instance.db);
      return { record, diverged };
    }
    // The new trace, with the calls that never reached the world where they were.
    const replayed = [...session.trace];
    const trace = record.trace.map((e) => (e.refused ? e : (replayed.shift() as TraceEntry)));
    // A live world's state is read from the server the calls were made again on, then stopped.
    const finalDb = await harness.finalState(session.instance.db);
    const judged = await judgeEpisode({ world, prepared, finalDb, ...(episodeDb.overlay ? { overlay: episodeDb.overlay } : {}), trace, messages: record.messages, ...(reader ? { reader } : {}) });
    const error = record.error;
    const outcome = outcomeOf(judged, !!error, !!record.escalation);
    const failure = classifyFailure({ outcome, ended: record.ended, errorName: error?.name, diff: judged.diff, missingOutputs: judged.missingOutputs, wrongActions: judged.wrongActions, goldChangesState: prepared.goldChangesState, findings: judged.findings, lied: trace.some((e) => e.lied === true) });
    const { failure: _f, findings: _g, ...rest } = record;
    return {
      record: {
        ...rest,
        outcome,
        diff: judged.diff,
        missingOutputs: judged.missingOutputs,
        ...(failure ? { failure } : {}),
        ...(judged.findings.length > 0 ? { findings: judged.findings } : {}),
        trace,
        ...stabilityFields(judged.diff, trace, record.messages, world.tools),
      },
    };
  } finally {
    session.close();
  }
}
