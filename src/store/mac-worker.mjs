// The thread that checks a log's MACs beside its reader (mac-check.ts). Compiled (dist/), it loads the
// compiled check; run from the sources (the tests), it registers tsx first, since a worker starts without
// the main thread's TypeScript loader.
import { existsSync } from 'node:fs';

const compiled = new URL('./mac-check.js', import.meta.url);
let check;
if (existsSync(compiled)) {
  check = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  check = await import(new URL('./mac-check.ts', import.meta.url).href);
}
await check.runMacWorker();
