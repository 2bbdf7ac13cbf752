#!/usr/bin/env node
// Compiles Shakedown to dist/ (JavaScript, declarations, source maps) with the pinned TypeScript, and copies
// what the compiled code reads beside itself (scenario files, policies, labels, plain .mjs scripts).
// Incremental: when no source is newer than the last build, it does nothing; `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['src', 'scenarios', 'perturbations', 'faults'];
/** Plain scripts the compiled code imports from outside the roots: the desks the stub model plays (src/run/stub-model.ts). */
const SCRIPT_ROOTS = ['examples/http-agent'];
/** Touched after every good build: what `stale` compares the sources with. */
const STAMP = join(root, 'dist', '.built');
/** Files the compiled code reads at run time from beside itself. */
const ASSET = /\.(?:json|jsonl|md|mjs)$/;

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

const inputs = () => [...[...ROOTS, ...SCRIPT_ROOTS].flatMap((r) => [...walk(join(root, r))]), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json'), join(root, 'package.json')];

/** Whether a source is newer than the last build (or there is none). */
export function stale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return inputs().some((f) => statSync(f).mtimeMs > built);
}

/** Builds dist/ when it is stale (or always, with `force`); returns false when the compiler failed. */
export function build({ force = false, quiet = false } = {}) {
  if (!force && !stale()) return true;
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) {
    if (quiet) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    process.stderr.write('shakedown: the TypeScript build failed (above); dist/ is not up to date.\n');
    return false;
  }
  for (const r of [...ROOTS, ...SCRIPT_ROOTS]) {
    for (const file of walk(join(root, r))) {
      if (!(SCRIPT_ROOTS.includes(r) ? /\.mjs$/ : ASSET).test(file)) continue;
      const to = join(root, 'dist', relative(root, file));
      if (existsSync(to) && statSync(to).mtimeMs >= statSync(file).mtimeMs) continue;
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(file, to);
    }
  }
  writeFileSync(STAMP, '');
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = build({ force: process.argv.includes('--force'), quiet: process.argv.includes('--quiet') }) ? 0 : 1;
}
