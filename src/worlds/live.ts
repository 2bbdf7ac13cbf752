/**
 * What the worlds over a team's own servers share (mcp.ts, http-api.ts): a call by tool name, a scenario's
 * setup as such calls made on a fresh server, and the state as the answers of declared reads.
 */
import { z } from 'zod';

/** One call by tool name: a scenario's setup, a gold action, a snapshot read. */
export interface LiveCall {
  readonly tool: string;
  readonly args?: Readonly<Record<string, unknown>>;
}

/** A scenario's setup: the calls made on its fresh server before the episode. */
export const liveSetupSchema = z.object({ calls: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) })).default([]) });
export type LiveSetup = z.output<typeof liveSetupSchema>;

/** The database parts of a live world: a handle holds the setup calls; a fresh one per episode. */
export function liveSetup<H extends { readonly setup: LiveCall[] }>(known: ReadonlySet<string>, fresh: (setup: LiveCall[]) => H) {
  return {
    generate: (): H => fresh([]),
    clone: (db: H): H => fresh(db.setup.map((c) => ({ ...c }))),
    setupSchema: liveSetupSchema,
    applySetup: (db: H, setup: LiveSetup) => {
      for (const c of setup.calls) {
        if (!known.has(c.tool)) throw new Error(`no tool \`${c.tool}\` on the server (tools: ${[...known].join(', ')})`);
        db.setup.push(c);
      }
    },
  };
}

/** The state as the answers of declared reads, each under its call. */
export async function answersOf(calls: readonly LiveCall[], call: (c: LiveCall) => Promise<unknown>): Promise<Record<string, unknown>> {
  return Object.fromEntries(await Promise.all(calls.map(async (c) => [`${c.tool}${c.args ? ` ${JSON.stringify(c.args)}` : ''}`, await call(c)] as const)));
}

/** Every declared name is one the server has: a world that names another is refused when it is defined. */
export function checkNames(world: string, known: ReadonlySet<string>, names: readonly string[], what = 'tool'): void {
  for (const name of names) if (!known.has(name)) throw new Error(`world ${world}: no ${what} \`${name}\` on the server (${what}s: ${[...known].join(', ')})`);
}
