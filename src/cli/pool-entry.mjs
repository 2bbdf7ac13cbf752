// The worker threads' entry: a worker starts without the main thread's TypeScript loader, so it
// registers tsx itself before loading the worker module.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./pool-worker.ts');

export default worker.runTask;
