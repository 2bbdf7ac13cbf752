/**
 * Where a run may be written. An `--out` that names no directory of its own (empty, the working directory
 * or a folder above it, the root, a file) would spread a run's files among other files, so it is refused
 * before anything is written; and a run directory, run.json or episodes.jsonl that is a symbolic link is
 * refused for writing, so that a write never lands in a file the link points to elsewhere.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { ShakedownError } from '../ground/errors.js';

/** `--out` as the user wrote it, quoted for the shell where it needs it. */
const quoted = (out: string): string => (/^[\w./:@%+=,-]+$/.test(out) ? out : `'${out.replace(/'/g, "'\\''")}'`);

/** Why `out` cannot hold a run of its own, or undefined when it can. */
function unfit(out: string): string | undefined {
  if (out.trim() === '') return 'is empty, which would write the run into the working directory';
  const at = resolve(out);
  if (dirname(at) === at) return 'names the root of the file system';
  const cwd = resolve(process.cwd());
  if (at === cwd) return 'names the working directory itself';
  if (cwd.startsWith(at.endsWith(sep) ? at : `${at}${sep}`)) return 'names a folder that holds the working directory';
  const stat = lstatSync(at, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) return `is a symbolic link (to ${readlinkSync(at)}), and a run is written only into a directory of its own`;
  if (stat && !stat.isDirectory()) return 'names a file that is not a directory';
  return undefined;
}

/**
 * Refuses an `--out` that cannot hold a run of its own; `doing` completes "Failed to ...". Every command
 * that writes a run directory (sweep, merge, rejudge) calls it before it writes anything.
 */
export function checkOutDir(out: string, doing: string): void {
  const why = unfit(out);
  if (why) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to ${doing}: \`--out ${quoted(out)}\` ${why}. Give the run a directory of its own, e.g. \`--out runs/my-run\`.`);
}

/** Refuses to write into a run whose directory, run.json or episodes.jsonl is a symbolic link. */
export function refuseLinks(dir: string, doing: string): void {
  for (const path of [dir, join(dir, 'run.json'), join(dir, 'episodes.jsonl')]) {
    if (!lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) continue;
    throw new ShakedownError(
      'SHAKEDOWN_RUN_DIR',
      `Failed to ${doing}: ${path} is a symbolic link (to ${readlinkSync(path)}); a run's files are written only in place, never through a link. Replace the link with a copy of what it points to (\`cp -RL\`), or choose another \`--out\`.`,
    );
  }
}
