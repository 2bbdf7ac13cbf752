// What the judge's tests build episodes from: trace entries as the runtime records them, and messages.
import type { EpisodeMessage } from '../../src/ground/record.js';
import type { TraceEntry } from '../../src/ground/runtime.js';
import type { WorldDefinition } from '../../src/ground/world.js';

/** A trace entry of a call of `tool` in `world`, as the runtime records it. */
export const callIn = (world: WorldDefinition, tool: string, turn: number, args: Record<string, unknown>, status = 200, extra: Partial<TraceEntry> = {}): TraceEntry => ({
  tool,
  method: world.tools.find((t) => t.name === tool)?.method ?? 'GET',
  path: `/api/${tool}`,
  ordinal: 0,
  status,
  atMs: 0,
  turn,
  args,
  ...extra,
});

export const user = (text: string, act?: 'accept' | 'decline'): EpisodeMessage => ({ role: 'user', text, ...(act ? { act } : {}) });
export const agent = (text: string): EpisodeMessage => ({ role: 'agent', text });
