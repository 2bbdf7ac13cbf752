import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end sweeps spawn the CLI; give them room on a loaded 2-core machine without timing anything.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
