// Where Shakedown is installed: the folder of its package.json, found from this module whether it runs
// from the sources (src/ground/) or compiled (dist/src/ground/).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'shakedown') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`Shakedown's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

let root: string | undefined;

/** A path inside the installed package, e.g. `packagePath('assets', 'fonts')`. */
export const packagePath = (...parts: string[]): string => join((root ??= findRoot()), ...parts);
