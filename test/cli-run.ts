/**
 * Runs the `shakedown` command for the end-to-end tests: in this process (`shakedown`, the commands' own
 * entry point with the output captured, as the CLI's bin calls it), or in a child process on the compiled
 * package (`shakedownProcess`, `shakedownIn`, `shakedownWithInput`), where the process itself is what a
 * test looks at: its exit code, its signals, its working directory, its standard input.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** The CLI's entry point. */
export const bin = fileURLToPath(new URL('../bin/shakedown.js', import.meta.url));

/**
 * Runs `shakedown ...args` to its end in this process, as the bin would (CI=1, so no progress bar), and
 * returns its exit code and output. A crash is exit code 1 with the stack on stderr, as Node prints it.
 */
export async function shakedown(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import('../src/cli/main.js');
  const out: string[] = [];
  const err: string[] = [];
  const ci = process.env.CI;
  process.env.CI = '1';
  try {
    const code = await main(args, { out: (t) => void out.push(t), err: (t) => void err.push(t), tty: false });
    return { code, stdout: out.join(''), stderr: err.join('') };
  } catch (error) {
    return { code: 1, stdout: out.join(''), stderr: `${err.join('')}${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n` };
  } finally {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
  }
}

/** The same in a child process on the compiled package, as a user's shell runs it. */
export const shakedownProcess = (...args: string[]) => shakedownIn(undefined, ...args);

/** The same, in the working directory `cwd` (where config files are looked for). */
export const shakedownIn = (cwd: string | undefined, ...args: string[]) => shakedownWith({ ...(cwd ? { cwd } : {}) }, ...args);

/** The same, with variables added to the process's environment (as a shell's `NAME=value shakedown ...`). */
export async function shakedownWith(options: { readonly cwd?: string; readonly env?: Readonly<Record<string, string>> }, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { cwd } = options;
  try {
    // In a folder of its own, the CLI reads that folder's config, as a user's would.
    const env = { ...process.env, ...options.env, CI: '1', ...(cwd ? { SHAKEDOWN_CONFIG_DIR: cwd } : {}) };
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { ...(cwd ? { cwd } : {}), env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A run's logged records without their wall time and MAC (each run signs with a key of its own), sorted: what must not depend on where or how episodes ran. */
export const recordsOf = (dir: string): string[] =>
  readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const { wallMs: _w, mac: _m, ...rest } = JSON.parse(line) as Record<string, unknown>;
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
