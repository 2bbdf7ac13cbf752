// `shakedown user`: feeds agent messages to a scenario's simulated user and prints what it answers and
// why (the asks it found, the details it gave, whether it closed the request). For authors of agents.
import { episodeSeeds } from '../ground/record.js';
import { joinSegments } from '../ground/perturb.js';
import { makeRng } from '../ground/seeds.js';
import { ShakedownError } from '../ground/errors.js';
import { ScriptedUser } from '../user/scripted.js';
import type { Ask } from '../user/reading.js';
import { type Flags, type Io } from './options.js';
import { worldScenario } from '../run/parts.js';
import { loadConfig } from './config-file.js';

/** What the user did with one agent message. */
export interface UserTurnReport {
  readonly agent: string;
  /** What the user found asked: `identity`, `slot:order`, `confirm`, `help`, `unplaced: <text>`. */
  readonly asks: readonly string[];
  readonly progress: boolean;
  /** The user's answer, or null when the conversation ended. */
  readonly reply: string | null;
  /** `accept` or `decline` when the answer answers a proposal. */
  readonly act?: 'accept' | 'decline';
  /** Whether the message closed the request the user was on (a statement with no ask). */
  readonly closed: boolean;
  /** Whether the user could not place the message (a simulator confusion, recorded in the episode). */
  readonly confused: boolean;
  readonly ended?: 'done' | 'turn-limit';
}

const askText = (a: Ask): string => (a.kind === 'slot' ? `slot:${a.slot}` : a.kind === 'unplaced' ? `unplaced: ${a.text}` : a.kind);

/** Reads the messages: arguments, or JSON lines on stdin (a JSON string or `{ "text": ... }` each). */
async function messagesOf(positionals: readonly string[], stdin: AsyncIterable<string | Buffer> | undefined): Promise<string[]> {
  if (positionals.length > 0) return [...positionals];
  if (!stdin) return [];
  let raw = '';
  for await (const chunk of stdin) raw += chunk.toString();
  return raw
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l, i) => {
      let v: unknown;
      try {
        v = JSON.parse(l);
      } catch {
        throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read agent message ${i + 1} on stdin: not JSON. Write one JSON string, or {"text": "..."}, per line.`);
      }
      const text = typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string' ? (v as { text: string }).text : undefined;
      if (text === undefined) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read agent message ${i + 1} on stdin: give a JSON string or {"text": "..."}.`);
      return text;
    });
}

/**
 * `shakedown user --scenario ID [--world W] [--fresh] [--json] [MESSAGE ...]`: the scripted user of the
 * scenario (as trial 0 of a sweep with the seed meets it) answers each message in turn; `--fresh` answers
 * each as the first reply of a new episode.
 */
export async function userCommand(positionals: readonly string[], flags: Flags, io: Io, stdin?: AsyncIterable<string | Buffer>): Promise<number> {
  const config = await loadConfig(flags, io);
  const { world, scenario } = await worldScenario(config, flags.scenario?.[0], 'feed the simulated user');
  const messages = await messagesOf(positionals, stdin);
  if (messages.length === 0) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to feed the simulated user: no agent messages. Give them as arguments, or as JSON lines on stdin.');
  const seeds = episodeSeeds(config.seed, { scenario: scenario.id, agent: 'user', eps: 0, lambda: 0, trial: 0 });
  const fresh = () => new ScriptedUser(scenario, world.userLanguage, makeRng(seeds.user), config.maxTurns);
  let user = fresh();
  let opening = joinSegments(user.opening().segments);
  const reports: (UserTurnReport & { opening?: string })[] = [];
  if (!flags.json) io.out(`user (${scenario.id}): ${opening}\n`);
  for (const [i, text] of messages.entries()) {
    if (flags.fresh && i > 0) {
      user = fresh();
      opening = joinSegments(user.opening().segments);
      if (!flags.json) io.out(`\nuser (${scenario.id}, a new episode): ${opening}\n`);
    }
    const before = user.currentRequest;
    const confusions = user.confusions.length;
    const step = user.respond(text);
    const reading = user.lastReading;
    const report: UserTurnReport = {
      agent: text,
      asks: reading?.asks.map(askText) ?? [],
      progress: reading?.progress ?? false,
      reply: step.kind === 'message' ? joinSegments(step.segments) : null,
      ...(step.kind === 'message' && step.act ? { act: step.act } : {}),
      closed: user.currentRequest > before || (step.kind === 'end' && step.reason === 'done'),
      confused: user.confusions.length > confusions,
      ...(step.kind === 'end' ? { ended: step.reason } : {}),
    };
    reports.push(flags.fresh ? { ...report, opening } : report);
    if (!flags.json) {
      io.out(`agent: ${text.replace(/\n/g, '\n       ')}\n`);
      io.out(`  asks found: ${report.asks.length > 0 ? report.asks.join(', ') : report.progress ? 'none (a progress note)' : 'none'}\n`);
      io.out(`  ${report.closed ? 'closed the request' : 'kept the request open'}${report.confused ? '; could not place it (a confusion)' : ''}${report.act ? `; ${report.act}s the proposal` : ''}\n`);
      io.out(report.reply === null ? `  the user ends the conversation (${report.ended})\n` : `user: ${report.reply}\n`);
    }
    if (step.kind === 'end' && !flags.fresh) break;
  }
  if (flags.json) io.out(`${JSON.stringify({ scenario: scenario.id, world: world.id, ...(flags.fresh ? {} : { opening }), turns: reports }, null, 2)}\n`);
  return 0;
}
