/**
 * The sandbox of a module agent's host process: Node's permission model (`--experimental-permission`),
 * so that the agent's code reads only its own project, the Shakedown modules it runs on and a private
 * temporary folder, writes only there, and starts no process and no thread unless the config says so. It
 * cannot read this process's environment or command line (/proc), the run directory's log or key, nor the
 * built-in worlds' task files and their gold actions. A TypeScript module is compiled here first
 * (esbuild), since a loader for it would need a thread of its own, which the sandbox refuses.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packagePath } from '../../ground/package-root.js';
import { isTypeScript } from '../../ground/user-module.js';
import { useNamespaces, type NamespaceSetting } from './namespace.js';

/** What a module agent's process may do besides the defaults (config `sandbox`). */
export interface SandboxSettings {
  /** Run the agent under Node's permission model. @default true */
  readonly enabled: boolean;
  /** More paths it may read. @default [] */
  readonly read: readonly string[];
  /** Paths it may write besides its temporary folder. @default [] */
  readonly write: readonly string[];
  /** Whether it may start processes. @default false */
  readonly childProcess: boolean;
  /** Whether it runs in namespaces of its own (host/namespace.ts). @default "auto" */
  readonly namespaces?: NamespaceSetting;
}

/** How to start one host: the node flags, the environment it adds, the module it loads, and the cleanup. */
export interface SandboxedStart {
  readonly execArgv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly module: string;
  /** Folders to cover when the host runs in namespaces of its own (the run directory, the worlds' tasks). */
  readonly hidden: readonly string[];
  /** Whether the host runs in namespaces of its own. */
  readonly namespaces: boolean;
  cleanup(): void;
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/** The folder of the nearest package.json above a file, or the file's folder. */
function projectOf(file: string): string {
  for (let dir = dirname(file); ; ) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return dirname(file);
    dir = up;
  }
}

/** Whether `path` is `dir` or inside it. */
const within = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * The paths that grant reading `root` and everything in it but the `hidden` folders: `root` itself when
 * it holds none of them, otherwise each of its entries the same way.
 */
function readable(root: string, hidden: readonly string[]): string[] {
  if (hidden.some((h) => within(root, h))) return [];
  if (!hidden.some((h) => within(h, root))) return [root];
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return [];
  }
  return entries.flatMap((name) => readable(join(root, name), hidden));
}

/** The built-in worlds' task folders (their gold actions), compiled and as sources. */
export function builtInTasks(): string[] {
  const out: string[] = [];
  for (const base of [packagePath('scenarios'), packagePath('dist', 'scenarios')]) {
    try {
      for (const world of readdirSync(base, { withFileTypes: true })) if (world.isDirectory()) out.push(join(base, world.name, 'tasks'));
    } catch {
      // A tree this installation does not have.
    }
  }
  return out.map(real);
}

/** The node_modules folders Shakedown's own dependencies load from. */
function dependencyDirs(): string[] {
  const require = createRequire(packagePath('package.json'));
  const dirs = new Set<string>();
  for (const dep of ['zod', 'msw', '@modelcontextprotocol/sdk', '@faker-js/faker', 'seedrandom']) {
    try {
      let p = real(require.resolve(`${dep}/package.json`));
      while (basename(p) !== 'node_modules' && dirname(p) !== p) p = dirname(p);
      if (basename(p) === 'node_modules') dirs.add(p);
    } catch {
      // Not installed: nothing to allow.
    }
  }
  return [...dirs];
}

/**
 * Compiles a TypeScript agent module and its own local imports into one ES module in `dir`; the packages
 * it imports stay outside, each resolved from the module's own place, and `import.meta.url` keeps naming
 * the original file.
 */
async function compileTypeScript(module: string, dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const out = join(dir, 'agent.mjs');
  const requireFrom = createRequire(module);
  await build({
    entryPoints: [module],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'silent',
    plugins: [
      {
        name: 'shakedown-agent',
        setup(b) {
          // A package import stays an import, of the file the module itself would load.
          b.onResolve({ filter: /^[^./]|^\.\.?$/ }, (args) => {
            if (args.path.startsWith('node:') || args.kind === 'entry-point') return undefined;
            try {
              const from = args.importer ? createRequire(args.importer) : requireFrom;
              return { path: pathToFileURL(from.resolve(args.path)).href, external: true };
            } catch {
              return { path: args.path, external: true };
            }
          });
          b.onLoad({ filter: /\.[cm]?tsx?$/ }, async (args) => {
            const { readFile } = await import('node:fs/promises');
            const url = pathToFileURL(args.path).href;
            const source = (await readFile(args.path, 'utf8'))
              .replace(/\bimport\.meta\.url\b/g, JSON.stringify(url))
              .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path))
              .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(args.path)));
            return { contents: source, loader: /x$/.test(args.path) ? 'tsx' : 'ts', resolveDir: dirname(args.path) };
          });
        },
      },
    ],
  });
  return out;
}

/**
 * The start of a host for `spec` (a module path, relative to `cwd`), sandboxed unless the settings say
 * not; `hidden` are folders it must not read even where it may read around them (the run directory, a
 * world's scenario folder), besides the built-in worlds' tasks.
 */
export async function sandboxFor(spec: string, cwd: string, settings: SandboxSettings, hidden: readonly string[] = []): Promise<SandboxedStart> {
  const module = real(resolve(cwd, spec));
  const dir = mkdtempSync(join(tmpdir(), 'shakedown-agent-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  // A package scope of its own, so that resolving a module here never walks up into folders it may not read.
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const secret = [...builtInTasks(), ...hidden.map((h) => real(resolve(cwd, h)))];
  const namespaces = useNamespaces(settings.namespaces ?? 'auto');
  if (!settings.enabled) return { execArgv: [], env: { TMPDIR: dir }, module, hidden: secret, namespaces, cleanup };
  try {
    const loaded = existsSync(module) && statSync(module).isFile() && isTypeScript(module) ? await compileTypeScript(module, dir) : module;
    const roots = [projectOf(module), packagePath(), ...dependencyDirs()].map(real);
    const reads = [...new Set([real(dir), ...roots.flatMap((r) => readable(r, secret)), ...settings.read.map((p) => real(resolve(cwd, p)))])];
    const writes = [real(dir), ...settings.write.map((p) => real(resolve(cwd, p)))];
    const execArgv = [
      '--experimental-permission',
      '--disable-warning=ExperimentalWarning',
      ...reads.map((p) => `--allow-fs-read=${p}`),
      ...writes.map((p) => `--allow-fs-write=${p}`),
      ...(settings.childProcess ? ['--allow-child-process'] : []),
    ];
    return { execArgv, env: { TMPDIR: dir }, module: loaded, hidden: secret, namespaces, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
