/**
 * Namespaces of its own for an agent's process (Linux, util-linux `unshare` and `setpriv`): a user, a
 * mount and a PID namespace. In them the folders the agent must not read (the run directory with its
 * key and log, the worlds' task files, the other episodes' files) are covered by empty file systems;
 * /proc shows only the agent's own processes, so no other process's environment, memory or command line
 * can be read; every process it starts, even one that leaves its process group, ends with it; and it holds
 * no capability, so it cannot uncover what was covered. Where the machine does not allow unprivileged
 * namespaces, `namespacesAvailable()` says so and the caller decides (docs/agents.md, "What an agent can
 * reach").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { ShakedownError } from '../../ground/errors.js';

/** Whether agents' processes run in namespaces of their own: `auto` where the machine allows it, `on` (refuse otherwise), `off`. */
export type NamespaceSetting = 'auto' | 'on' | 'off';

const UNSHARE = ['--user', '--map-root-user', '--mount', '--pid', '--fork', '--kill-child', '--mount-proc'];

/**
 * The setup run as the namespace's first process, before the agent: covers each hidden folder with an
 * empty tmpfs, writes the files given (from variables, so that nothing of them is on the disk outside),
 * then drops every capability and becomes the agent. `$1` is the count of hidden folders, then the
 * folders, then the count of files, then their paths (file i's content is in SHAKEDOWN_NS_FILE_i), then
 * the command.
 */
const SETUP = [
  'set -e',
  'n=$1; shift',
  'while [ "$n" -gt 0 ]; do',
  '  mount -t tmpfs -o size=1m,mode=0755 shakedown-hidden "$1" 2>/dev/null || { echo "shakedown: could not cover $1 in the agent\'s namespace" >&2; exit 125; }',
  '  shift; n=$((n - 1))',
  'done',
  'm=$1; shift; i=0',
  'while [ "$i" -lt "$m" ]; do',
  '  mkdir -p "$(dirname "$1")"',
  '  eval "printf \'%s\' \\"\\$SHAKEDOWN_NS_FILE_$i\\"" > "$1"',
  '  unset "SHAKEDOWN_NS_FILE_$i"',
  '  shift; i=$((i + 1))',
  'done',
  // The working folder again by its path: one under a cover is the covered (empty) one from now on.
  'cd "$PWD" 2>/dev/null || cd /',
  'exec setpriv --bounding-set=-all --inh-caps=-all --no-new-privs -- "$@"',
].join('\n');

let available: boolean | undefined;

/**
 * Whether this machine lets this process make the namespaces (tried once: a folder covered, a file
 * written, capabilities dropped, and the covered folder's mount then refused to be undone).
 */
export function namespacesAvailable(): boolean {
  if (available !== undefined) return available;
  if (process.platform !== 'linux') return (available = false);
  const dir = mkdtempSync(join(tmpdir(), 'shakedown-ns-probe-'));
  try {
    const cover = join(dir, 'cover');
    mkdirSync(cover);
    writeFileSync(join(cover, 'secret'), 'x');
    // The agent's side: what was covered is gone, the file written is there, and the cover cannot be lifted.
    const check = `! test -e '${cover}/secret' && test "$(cat '${cover}/written')" = ok && ! umount '${cover}' 2>/dev/null`;
    const r = spawnSync('unshare', [...UNSHARE, 'sh', '-c', SETUP, 'shakedown-ns', '1', cover, '1', join(cover, 'written'), 'sh', '-c', check], {
      env: { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin', SHAKEDOWN_NS_FILE_0: 'ok' },
      stdio: 'ignore',
      timeout: 10_000,
    });
    available = r.status === 0;
  } catch {
    available = false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return available;
}

/** What to spawn to run `file args` in namespaces of its own. */
export interface Enclosed {
  readonly file: string;
  readonly args: string[];
  /** Variables to add to its environment (the files' contents; the setup removes them). */
  readonly env: Record<string, string>;
}

/**
 * The command line that runs `file args` in namespaces of its own, with `hidden` folders covered (those
 * that exist) and `files` written fresh inside (a path under a hidden folder is visible to this agent
 * only).
 */
export function enclose(file: string, args: readonly string[], options: { readonly hidden?: readonly string[]; readonly files?: Readonly<Record<string, string>> } = {}): Enclosed {
  const existing = [...new Set((options.hidden ?? []).map((h) => resolve(h)))].filter((h) => {
    try {
      return existsSync(h) && statSync(h).isDirectory();
    } catch {
      return false;
    }
  });
  // A folder inside another that is covered is covered with it (and could not be mounted on, once the outer one is).
  const hidden = existing.filter((h) => !existing.some((o) => o !== h && h.startsWith(o.endsWith(sep) ? o : o + sep)));
  const files = Object.entries(options.files ?? {});
  const env: Record<string, string> = {};
  files.forEach(([, content], i) => (env[`SHAKEDOWN_NS_FILE_${i}`] = content));
  return {
    file: 'unshare',
    args: [...UNSHARE, 'sh', '-c', SETUP, 'shakedown-ns', String(hidden.length), ...hidden, String(files.length), ...files.map(([path]) => path), file, ...args],
    env,
  };
}

/** Whether agents' processes should run in namespaces under `setting`; `on` where none can be made throws. */
export function useNamespaces(setting: NamespaceSetting): boolean {
  if (setting === 'off') return false;
  const ok = namespacesAvailable();
  if (setting === 'on' && !ok) {
    throw new ShakedownError(
      'SHAKEDOWN_AGENT',
      'Failed to enclose the agents in namespaces of their own: this machine does not let an unprivileged process make user, mount and PID namespaces (util-linux `unshare` and `setpriv`, and a kernel that allows them). Set `sandbox.namespaces` to `auto` to run agents without them here, or run the sweep where they are allowed.',
    );
  }
  return ok;
}
