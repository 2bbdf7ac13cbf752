#!/usr/bin/env node
// The `shakedown` command, on the compiled package (dist/). In a checkout of the repository, a source newer
// than the last build rebuilds it first (incrementally); an installed package is already built.
import { existsSync } from 'node:fs';

const checkout = new URL('../tsconfig.build.json', import.meta.url);
if (existsSync(checkout)) {
  const { build } = await import('../scripts/build.mjs');
  if (!build({ quiet: true })) process.exit(1);
} else if (!existsSync(new URL('../dist/src/cli/main.js', import.meta.url))) {
  process.stderr.write('shakedown: this installation has no dist/ (the compiled package). Reinstall it, or run `npm run build` in a checkout.\n');
  process.exit(1);
}
// A closed pipe (`shakedown list scenarios | head`) is a normal end, not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
const { main } = await import('../dist/src/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
