// What the runtime notes on each tool call for the judge (src/ground/runtime.ts records, never decides).
import type { CallObserver } from '../ground/runtime.js';
import type { WorldDefinition } from '../ground/world.js';
import { revealedIn } from './outputs.js';

/**
 * The observer of an episode's calls: the user turn they fall in, who an identifying lookup of the
 * world's conduct rules returned, and which required outputs an answer shows.
 */
export function callObserver(world: WorldDefinition, outputs: readonly string[], turn: () => number): CallObserver {
  const identify = world.judging?.conduct?.identify;
  return {
    turn,
    ...(identify
      ? {
          subject: (tool: string, body: unknown) => {
            const field = identify[tool]?.subject;
            const v = field && body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
            return typeof v === 'string' ? v : undefined;
          },
        }
      : {}),
    ...(outputs.length > 0 ? { reveals: (text: string) => revealedIn(outputs, text) } : {}),
  };
}
