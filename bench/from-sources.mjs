// The start-up paths the bench compares (bench/startup.ts):
//   cli ARGS...            the CLI as it started before the package was compiled: tsx over src/cli/main.ts
//   import                 the public API through tsx over src/index.ts
//   worker compiled|sources  a worker thread of the episode pool, until it has loaded its module and its run
import { Worker } from 'node:worker_threads';

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'cli') {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/cli/main.ts');
  process.exitCode = await main(rest);
} else if (mode === 'import') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/index.ts');
} else if (mode === 'worker') {
  // What a pool worker loads before its first episode: its module, then the run its config selects.
  const at = (path) => JSON.stringify(new URL(path, import.meta.url).href);
  const [dir, ext, loader] = rest[0] === 'compiled' ? ['../dist/src/', 'js', 'Promise.resolve()'] : ['../src/', 'ts', "import('tsx/esm/api').then(({ register }) => register())"];
  const source = `${loader}
    .then(() => Promise.all([import(${at(`${dir}pool/worker.${ext}`)}), import(${at(`${dir}run/parts.${ext}`)}), import(${at(`${dir}ground/config.${ext}`)})]))
    .then(([, parts, config]) => parts.resolveSweepParts(config.resolveConfig({})))
    .then(() => process.exit(0))`;
  const worker = new Worker(source, { eval: true });
  await new Promise((resolve, reject) => {
    worker.on('exit', resolve);
    worker.on('error', reject);
  });
} else {
  process.stderr.write('usage: from-sources.mjs cli ARGS... | import | worker compiled|sources\n');
  process.exitCode = 2;
}
