#!/usr/bin/env node
// Loads the TypeScript sources through tsx, so that the CLI (and agent modules written in TypeScript)
// need no build step.
import { register } from 'tsx/esm/api';

register();
// A closed pipe (`shakedown list scenarios | head`) is a normal end, not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
