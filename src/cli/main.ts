// The `shakedown` command: parses the arguments, then loads only the command it runs, so that a command
// that runs no episode (stats, report, gate, help, ...) never loads the worlds, msw or the MCP SDK.
import { parseArgs } from 'node:util';
import { ShakedownError, suggest } from '../ground/errors.js';
import { commandHelp, USAGE } from './help.js';
import { OPTIONS, processIo, type Flags, type Io } from './options.js';

export type { Io } from './options.js';

interface Parsed {
  readonly flags: Flags;
  readonly positionals: readonly string[];
}

/** Every command: its module, loaded when it runs. */
const COMMANDS: Readonly<Record<string, (p: Parsed, io: Io) => Promise<number>>> = {
  sweep: async ({ flags }, io) => (await import('./sweep.js')).sweep(flags, io),
  validate: async ({ flags }, io) => (await import('./validate.js')).validateCommand(flags, io),
  selftest: async ({ flags }, io) => (await import('./selftest.js')).selftestCommand(flags, io),
  calibrate: async ({ flags }, io) => (await import('./calibrate.js')).calibrateCommand(flags, io),
  // A terminal on stdin would wait for input nobody announced: messages come as arguments there.
  user: async ({ flags, positionals }, io) => (await import('./user.js')).userCommand(positionals, flags, io, positionals.length === 0 && !process.stdin.isTTY ? process.stdin : undefined),
  list: async ({ flags, positionals }, io) => (await import('./list.js')).list(positionals[0], flags, io),
  replay: async ({ flags }, io) => (await import('./replay.js')).replayEpisode(flags, io),
  perturb: async ({ flags }, io) => (await import('./inspect.js')).perturbCommand(flags, io),
  ladder: async ({ flags }, io) => (await import('./inspect.js')).ladderCommand(flags, io),
  faults: async ({ flags }, io) => (await import('./inspect.js')).faultsCommand(flags, io),
  'serve-tools': async ({ flags }, io) => (await import('./serve-tools.js')).serveToolsCommand(flags, io),
  'stub-llm': async ({ flags }, io) => (await import('./stub-llm.js')).stubLlmCommand(flags, io),
  stats: async ({ flags, positionals }, io) => (await import('./analyze.js')).statsCommand(positionals, flags, io),
  compare: async ({ flags, positionals }, io) => (await import('./analyze.js')).compareCommand(positionals, flags, io),
  plan: async ({ flags, positionals }, io) => (await import('./plan.js')).planCommand(positionals, flags, io),
  report: async ({ flags, positionals }, io) => (await import('./report.js')).reportCommand(positionals, flags, io),
  merge: async ({ flags, positionals }, io) => (await import('./merge.js')).mergeCommand(positionals, flags, io),
  rejudge: async ({ flags, positionals }, io) => (await import('./rejudge.js')).rejudgeCommand(positionals, flags, io),
  gate: async ({ flags, positionals }, io) => (await import('./gate.js')).gateCommand(positionals, flags, io),
  init: async ({ positionals }, io) => (await import('./init.js')).initCommand(io, positionals[0]),
  world: async ({ flags, positionals }, io) => (await import('./world-init.js')).worldCommand(positionals, flags, io),
};

/** Runs the CLI; returns the exit code. Library code below never exits. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') {
      io.out(USAGE);
      return command ? 0 : 2;
    }
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    let parsed;
    try {
      parsed = parseArgs({ args: [...rest], options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      // An option that is not one: the nearest ones, by name.
      const unknown = /Unknown option '(-{1,2}[^']+)'/.exec((error as Error).message)?.[1];
      const near = unknown ? suggest(unknown.replace(/^-+/, ''), Object.keys(OPTIONS)) : [];
      const hint = near.length > 0 ? `\`${unknown}\` is not an option; did you mean ${near.map((n) => `\`--${n}\``).join(' or ')}?` : (error as Error).message.replace(/\.+\s*$/, '');
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read the options of \`shakedown ${command}\`: ${hint}${hint.endsWith('?') ? '' : '.'} Run \`shakedown --help\` for the options.`);
    }
    const flags = parsed.values as Flags;
    if (flags.help) {
      io.out(commandHelp(command) ?? USAGE);
      return 0;
    }
    if (!run) {
      const near = suggest(command, Object.keys(COMMANDS));
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to run \`shakedown ${command}\`: no such command.${near.length > 0 ? ` Did you mean ${near.map((n) => `\`shakedown ${n}\``).join(' or ')}?` : ''} Commands: ${Object.keys(COMMANDS).join(', ')}.`);
    }
    return await run({ flags, positionals: parsed.positionals }, io);
  } catch (error) {
    if (error instanceof ShakedownError) {
      io.err(`shakedown: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
