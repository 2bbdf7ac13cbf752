// The worker threads' entry: a worker starts without the main thread's TypeScript loader, so it
// registers tsx itself before loading the worker module.
import { register } from 'tsx/esm/api';

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

register();
const worker = await import('./pool-worker.ts');

export default worker.runTask;
