/**
 * The stub model of test/llm-stub.ts in a process of its own, for the bench's I/O section: the figure
 * then measures the engine's process, not the stub sharing its event loop. Prints `{"baseUrl": ...}` as
 * its first line and serves until its stdin closes.
 *
 *   node --import tsx bench/llm-stub-process.ts --delay 50 [--quota RPM]
 */
import { startLlmStub } from '../test/llm-stub.js';

const at = process.argv.indexOf('--delay');
const delayMs = at >= 0 ? Number(process.argv[at + 1]) : 0;
if (!Number.isFinite(delayMs) || delayMs < 0) {
  console.error(`llm-stub-process: --delay takes milliseconds, got ${process.argv[at + 1]}`);
  process.exit(2);
}
const q = process.argv.indexOf('--quota');
const rpm = q >= 0 ? Number(process.argv[q + 1]) : undefined;
if (rpm !== undefined && !(rpm > 0)) {
  console.error(`llm-stub-process: --quota takes requests per minute, got ${process.argv[q + 1]}`);
  process.exit(2);
}
const stub = await startLlmStub({ delayMs, ...(rpm !== undefined ? { quota: { rpm } } : {}) });
process.stdout.write(`${JSON.stringify({ baseUrl: stub.baseUrl })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void stub.close().then(() => process.exit(0)));
