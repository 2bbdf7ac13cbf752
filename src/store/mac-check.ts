/**
 * A log's MACs checked on a worker thread beside its reader. One HMAC per record costs about 6 µs
 * (most of it the crypto binding's fixed cost per call, not the hashing), a fifth of aggregating a large
 * log in one thread; on another core it costs the reader nothing. The reader counts every record as if
 * it verified and marks the lines it counted; the thread answers with the lines that do not verify, and
 * only when one of those was counted does the reader read the log again, checking each line itself
 * (store/read.ts, report/run.ts). Small logs are checked inline: a thread's start costs more than they do.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { forEachLine } from './log-lines.js';
import { LineSigner } from './mac.js';

/** Logs at least this large have their MACs checked on a worker thread. @default 32 MB */
export const OFF_THREAD_BYTES = 32 * 1024 * 1024;

/** The numbers of the lines of the log at `path` that do not verify under `key` (blank and torn lines among them). */
export async function failingLines(path: string, key: string): Promise<number[]> {
  const signer = new LineSigner(key);
  const failing: number[] = [];
  await forEachLine(path, (buf, start, end, lineNo) => {
    if (!signer.verify(buf, start, end)) failing.push(lineNo);
  });
  return failing;
}

/** Starts checking the log's MACs on a worker thread; resolves with `failingLines`, rejects if the thread fails. */
export function checkMacsOffThread(path: string, key: string, signal?: AbortSignal): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./mac-worker.mjs', import.meta.url), { workerData: { path, key } });
    const stop = () => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    worker.once('message', (failing: number[]) => resolve(failing));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      signal?.removeEventListener('abort', stop);
      reject(new Error(`the MAC check's thread ended (${code}) before it answered`));
    });
  });
}

/** The worker thread's task (mac-worker.mjs): check the log it was given and answer. */
export async function runMacWorker(): Promise<void> {
  const { path, key } = workerData as { path: string; key: string };
  parentPort?.postMessage(await failingLines(path, key));
}
