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

/** Time left as `1h02m`, `3m05s` or `42s`. */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/**
 * The time left from the rate so far, once it means something: after 10 episodes since this sweep started and 2 s
 * (the first episodes include start-up, which made a first guess of hours).
 */
export function eta(total: number, count: number, done: number, elapsedS: number): string {
  const ran = count - done;
  if (ran < 10 || elapsedS < 2) return '…';
  return formatEta(((total - count) * elapsedS) / ran);
}

/** Progress for `total` episodes, `done` of them finished before (a resumed run). */
export function startProgress(io: Io, total: number, done: number, quiet: boolean, stream: NodeJS.WritableStream = process.stderr, extra: () => string = () => ''): Progress {
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
      .map(([a, t]) => `${a} ${(t.c / t.n).toFixed(2)}`)
      .join(' · ');
  if (quiet) return { episode: () => undefined, stop: () => undefined };
  if (io.tty) {
    const bar = new SingleBar({ format: '  {bar} {value}/{total} episodes · {speed}/s · ETA {left} · pass {passes}{pace}', hideCursor: true, clearOnComplete: false, stream, fps: 5 });
    bar.start(total, done, { speed: '0', passes: '', left: '…', pace: '' });
    return {
      episode(agent, passed) {
        tally(agent, passed);
        const pace = extra();
        bar.update(count, { speed: speed(), passes: rates(), left: eta(total, count, done, (performance.now() - started) / 1000), pace: pace ? ` · ${pace}` : '' });
      },
      stop: () => bar.stop(),
    };
  }
  let lastPrint = performance.now();
  const line = () => {
    const pace = extra();
    return `  ${count}/${total} episodes, ${speed()}/s, ETA ${eta(total, count, done, (performance.now() - started) / 1000)}; pass so far: ${rates() || '-'}${pace ? `; ${pace}` : ''}\n`;
  };
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
