import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One folder for everything a run of the tests writes: the tests' own temporary folders (os.tmpdir() in
// every test file and every CLI a test starts reads TMPDIR) and the config folder below. test/global-setup.ts
// removes it when the run ends, so a run leaves nothing behind in the machine's /tmp (sweeps, merges and
// browser profiles came to gigabytes a run).
const root = mkdtempSync(join(tmpdir(), 'shakedown-tests-'));
process.env.SHAKEDOWN_TEST_ROOT = root;
// Every CLI the tests start looks for shakedown.config.* in this empty folder, never in the checkout,
// where `shakedown init` may have written one (tests that mean a config name it, or run in a folder of their own).
const configDir = mkdtempSync(join(root, 'shakedown-no-config-'));

export default defineConfig({
  // Fixtures and examples import the package by its name; in the tests that is the sources, as the rest is.
  resolve: { alias: { shakedown: fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end sweeps spawn the CLI; give them room on a loaded 2-core machine without timing anything.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default leaves a core free (one worker on two cores); the tests wait on child processes more
    // than they compute, so every core runs a file.
    maxWorkers: Math.max(2, availableParallelism()),
    env: { SHAKEDOWN_CONFIG_DIR: configDir, TMPDIR: root },
    globalSetup: ['test/global-setup.ts'],
  },
});
