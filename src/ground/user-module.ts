// A module the user wrote (an agent, a world, a config, planted bugs): JavaScript is imported as Node
// imports it; TypeScript goes through tsx, which is loaded only then, so that a run without a `.ts`
// module of the user's never starts a TypeScript loader.
import { pathToFileURL } from 'node:url';

/** Whether a path names a TypeScript module. */
export const isTypeScript = (path: string): boolean => /\.(?:ts|mts|cts|tsx)$/i.test(path);

/** Imports the module at an absolute path; its namespace object. */
export async function importModule(path: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  if (!isTypeScript(path)) return (await import(url)) as Record<string, unknown>;
  // tsImport transforms TypeScript wherever the file lives, even outside an ESM package.
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
}
