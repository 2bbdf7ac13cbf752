/**
 * Start-up, measured as a user meets it: `shakedown list scenarios`, `shakedown --help`, a worker
 * thread's start and `import('shakedown')`, each on the compiled package (dist/) and through the
 * TypeScript loader over the sources (how every command and worker started before the package was
 * compiled), alternating, in one run. Figures are the median wall time of each.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

interface Case {
  readonly name: string;
  readonly compiled: readonly string[];
  readonly sources: readonly string[];
}

/** Runs node with the arguments to its end; its wall time in ms. */
function timed(root: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now(); // clock: the figure measured
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.slice(-400)}`))));
  });
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** The start-up table: compiled against the sources through tsx, `runs` alternating runs of each. */
export async function startupFigures(root: string, runs = 7): Promise<{ name: string; compiledMs: number; sourcesMs: number }[]> {
  const fromSources = join(root, 'bench', 'from-sources.mjs');
  const bin = join(root, 'bin', 'shakedown.js');
  const cases: Case[] = [
    { name: 'shakedown list scenarios', compiled: [bin, 'list', 'scenarios'], sources: [fromSources, 'cli', 'list', 'scenarios'] },
    { name: 'shakedown --help', compiled: [bin, '--help'], sources: [fromSources, 'cli', '--help'] },
    { name: "import('shakedown')", compiled: ['--input-type=module', '-e', "await import('shakedown')"], sources: [fromSources, 'import'] },
    { name: 'a worker thread ready to run episodes', compiled: [fromSources, 'worker', 'compiled'], sources: [fromSources, 'worker', 'sources'] },
  ];
  const out: { name: string; compiledMs: number; sourcesMs: number }[] = [];
  for (const c of cases) {
    const a: number[] = [];
    const b: number[] = [];
    await timed(root, c.compiled); // warm the file cache for both
    for (let i = 0; i < runs; i++) {
      a.push(await timed(root, c.compiled));
      b.push(await timed(root, c.sources));
    }
    out.push({ name: c.name, compiledMs: median(a), sourcesMs: median(b) });
  }
  return out;
}
