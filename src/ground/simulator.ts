// The simulated user's contract: what the episode runner asks of any user simulator (scripted or LLM), and
// the templates a user's messages are built from (protected segments the perturbation families keep).
import type { Scenario } from './scenario.js';
import type { MessageAbout, Segment } from './perturb.js';
import type { Rng } from './seeds.js';
import type { UserLanguage } from './world.js';

/** A moment the simulator could not tell what the agent asked: recorded, never blamed on the agent silently. */
export interface Confusion {
  readonly turn: number;
  readonly agentText: string;
}

/** A user message before perturbation, with what it is about. */
export interface UserMessage {
  readonly segments: Segment[];
  readonly about: MessageAbout;
  /** What the message does with the agent's proposal, when it answers one: the judge reads it as meant. */
  readonly act?: 'accept' | 'decline';
}

export type UserStep = ({ readonly kind: 'message' } & UserMessage) | { readonly kind: 'end'; readonly reason: 'done' | 'turn-limit' };

/** A simulated user: the scripted default, or another (an LLM) for free-form conversations. */
export interface UserSimulator {
  /** Recorded in each episode: `scripted`, or e.g. `llm:gpt-4o-mini`. */
  readonly id: string;
  /** Whether its messages are built from protected parts that the ε families may perturb. */
  readonly perturbable: boolean;
  readonly confusions: Confusion[];
  /**
   * Messages on which the user closed a request although they held a question mark outside a closing
   * pleasantry: a cheap second opinion that the reading may have missed an ask. @default none kept
   */
  readonly closedWhileAsked?: Confusion[];
  opening(): UserMessage | Promise<UserMessage>;
  respond(agentText: string): UserStep | Promise<UserStep>;
  /** Tokens an LLM user spent on its model so far (absent for a scripted user). */
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number; readonly calls: number };
}

/** Makes an episode's simulated user; `cacheScope` (the episode's) scopes the model answers an LLM user keeps in the LLM cache. */
export type UserSimulatorFactory = (scenario: Scenario, language: UserLanguage, rng: Rng, maxTurns: number, signal: AbortSignal, cacheScope?: string) => UserSimulator;

/**
 * Fills a template's `{slot}` placeholders, keeping each filled value as a protected segment that names
 * its slot; every segment is tagged with `part` when one is given.
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>, part?: string): Segment[] {
  const out: Segment[] = [];
  const tag = part === undefined ? {} : { part };
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    const idx = m.index ?? 0;
    if (idx > last) out.push({ text: template.slice(last, idx), ...tag });
    const slot = m[1] as string;
    const value = values[slot];
    if (value === undefined) throw new Error(`template "${template}" needs slot \`${slot}\``);
    out.push({ text: value, protected: true, slot, ...tag });
    last = idx + m[0].length;
  }
  if (last < template.length) out.push({ text: template.slice(last), ...tag });
  return out;
}
