/**
 * What every agent process Shakedown starts shares (a module agent's host, a command agent's episode
 * process): a minimal environment, a process group of its own that ends with it, a watch on its memory
 * that sees what its heap limit does not (Buffers, native memory), and the tail of what it writes.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Variables every agent process gets, when this process has them: what programs need to run at all. */
const BASE_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'NODE_EXTRA_CA_CERTS'] as const;

/**
 * The environment of an agent process: the base variables, the ones the config names (`env`), and the
 * process's own; no other variable of this process (no API key, no token) reaches it.
 */
export function agentEnv(named: readonly string[], own: Readonly<Record<string, string>> = {}, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...named]) {
    const v = from[name];
    if (v !== undefined) env[name] = v;
  }
  return { ...env, ...own };
}

/** Ends a process and everything it started (its process group, when it leads one). */
export function killGroup(child: Pick<ChildProcess, 'pid'>): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** A process's resident memory in MB, from /proc (Linux); undefined where it cannot be read. */
export function residentMb(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The children of a process, from /proc (Linux); none where they cannot be read. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (c.trim()) out.push(Number(c));
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return out;
}

/**
 * The resident memory of a process and every process it started, in MB (Linux): an agent that spreads its
 * memory over children, or runs behind a shell or a namespace's first process, is held to its limit all
 * the same. Undefined where not even the process itself can be read.
 */
export function treeResidentMb(pid: number): number | undefined {
  const own = residentMb(pid);
  if (own === undefined) return undefined;
  let total = own;
  const seen = new Set([pid]);
  const queue = childrenOf(pid);
  while (queue.length > 0 && seen.size < 4_096) {
    const next = queue.shift() as number;
    if (seen.has(next)) continue;
    seen.add(next);
    total += residentMb(next) ?? 0;
    queue.push(...childrenOf(next));
  }
  return total;
}

/** Polls the resident memory of a process and its descendants; calls `over` once when it passes `limitMb`. Returns the stop. */
export function watchMemory(pid: number, limitMb: number, over: (mb: number) => void, everyMs = 200): () => void {
  // clock: a real poll of another process's memory; no outcome of an agent within its limit depends on it.
  const timer = setInterval(() => {
    const mb = treeResidentMb(pid);
    if (mb !== undefined && mb > limitMb) {
      clearInterval(timer);
      over(mb);
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Keeps the last `max` characters of a stream, for error messages. */
export function tailOf(stream: NodeJS.ReadableStream | null | undefined, max = 2_000): () => string {
  let tail = '';
  stream?.on('data', (c: Buffer) => {
    tail = (tail + c.toString()).slice(-max);
  });
  return () => tail.trim();
}

/** An error that ends an agent's episode, named so that the record says how (see run/episode.ts). */
export function agentFailure(name: 'AgentCrash' | 'AgentOutOfMemory' | 'AgentHung' | 'AgentLimitExceeded' | 'AgentHostLost', message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}
