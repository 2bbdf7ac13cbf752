// The worker threads' entry. Compiled (dist/), it loads the compiled worker; run from the sources (the
// tests), it registers tsx first, since a worker starts without the main thread's TypeScript loader.
import { existsSync } from 'node:fs';

// In a worker thread, process.exit() ends the thread quietly, taking every episode in it along. An agent
// that calls it gets an exception instead: its episode ends as an error (`agent-crash`), the thread lives.
// Node ends a worker on an uncaught exception through process.exit too: that exit goes through.
const exit = process.exit.bind(process);
let dying = false;
process.on('uncaughtExceptionMonitor', () => {
  dying = true;
});
process.exit = (code) => {
  if (dying) return exit(code);
  const error = new Error(`the agent called process.exit(${code ?? ''})`);
  error.name = 'AgentExit';
  throw error;
};

const compiled = new URL('./worker.js', import.meta.url);
let worker;
if (existsSync(compiled)) {
  worker = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  worker = await import(new URL('./worker.ts', import.meta.url).href);
}

export default worker.runTask;
