/**
 * Sweep progress: a live bar on a terminal (done/total, rate, ETA, the running pass rate per agent),
 * plain lines every few seconds elsewhere (CI logs, pipes). The bar is cli-progress's.
 */
import { SingleBar } from 'cli-progress';
import type { Io } from './options.js';

export interface Progress {
  episode(agent: string, passed: boolean): void;
  stop(): void;
}

const short = (agent: string) => (agent.length > 22 ? `${agent.slice(0, 21)}…` : agent);

/** Progress for `total` episodes, `done` of them finished before (a resumed run). */
export function startProgress(io: Io, total: number, done: number, quiet: boolean, stream: NodeJS.WritableStream = process.stderr): Progress {
  const passes = new Map<string, { n: number; c: number }>();
  // clock: progress rate and ETA only; no outcome depends on it.
  const started = performance.now();
  let count = done;
  const tally = (agent: string, passed: boolean) => {
    const t = passes.get(agent) ?? { n: 0, c: 0 };
    t.n++;
    if (passed) t.c++;
    passes.set(agent, t);
    count++;
  };
  const speed = () => ((count - done) / Math.max(0.001, (performance.now() - started) / 1000)).toFixed(0);
  const rates = () =>
    [...passes]
      .map(([a, t]) => `${short(a)} ${(t.c / t.n).toFixed(2)}`)
      .join(' · ');
  if (quiet) return { episode: () => undefined, stop: () => undefined };
  if (io.tty) {
    const bar = new SingleBar({ format: '  {bar} {value}/{total} episodes · {speed}/s · ETA {eta_formatted} · pass {passes}', hideCursor: true, clearOnComplete: false, stream, etaBuffer: 200, fps: 5 });
    bar.start(total, done, { speed: '0', passes: '' });
    return {
      episode(agent, passed) {
        tally(agent, passed);
        bar.update(count, { speed: speed(), passes: rates() });
      },
      stop: () => bar.stop(),
    };
  }
  let lastPrint = performance.now();
  const line = () => `  ${count}/${total} episodes, ${speed()}/s; pass so far: ${rates() || '-'}\n`;
  return {
    episode(agent, passed) {
      tally(agent, passed);
      const now = performance.now();
      if (count === total || now - lastPrint > 5000) {
        lastPrint = now;
        io.err(line());
      }
    },
    stop: () => undefined,
  };
}
