/** Runs the `shakedown` command in a child process, as a user would, for the end-to-end tests. */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** The CLI's entry point. */
export const bin = fileURLToPath(new URL('../bin/shakedown.js', import.meta.url));

/** Runs `shakedown ...args` to its end (CI=1, so no progress bar) and returns its exit code and output. */
export const shakedown = (...args: string[]) => shakedownIn(undefined, ...args);

/** The same, in the working directory `cwd` (where config files are looked for). */
export async function shakedownIn(cwd: string | undefined, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // In a folder of its own, the CLI reads that folder's config, as a user's would.
    const env = cwd ? { ...process.env, CI: '1', SHAKEDOWN_CONFIG_DIR: cwd } : { ...process.env, CI: '1' };
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { ...(cwd ? { cwd } : {}), env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A run's logged records without their wall time, sorted: what must not depend on where or how episodes ran. */
export const recordsOf = (dir: string): string[] =>
  readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const { wallMs: _w, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    })
    .sort();

/** Runs `shakedown ...args` with `input` on its standard input, closed after it. */
export function shakedownWithInput(input: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, CI: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input);
  });
}
