/**
 * A user simulator backed by an OpenAI-compatible Chat Completions API, for free-form conversations with
 * LLM agents. Its instructions come from the scenario: what the user wants, request by request, and who
 * they are. It ends the conversation by writing DONE. Its messages are not perturbed (they have no
 * protected parts); the scripted user remains the default and the only one the ε ladder applies to.
 */
import type { LlmSettings } from '../core/config.js';
import { slotsOf, type Scenario } from '../core/scenario.js';
import type { UserMessage, UserSimulator, UserSimulatorFactory, UserStep } from './scripted.js';
import type { UserLanguage } from '../core/world.js';
import { apiKeyFrom, chatCompletion } from '../agents/llm.js';

/**
 * The simulated user's instructions, from the scenario's goal and profile; the world's user language
 * says which details identify the user (its identity phrasings' slots, e.g. name and date of birth).
 */
export function userInstructions(scenario: Scenario, language?: UserLanguage): string {
  const profile = Object.entries(scenario.user.profile)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  const requests = scenario.user.requests
    .map((r, i) => {
      const details = Object.entries(r.slots)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ');
      const held = r.tell ? ` Mention only ${r.tell.length > 0 ? r.tell.join(', ') : 'what you want'} at first; give the rest when asked.` : '';
      return `${i + 1}. ${r.intent.replaceAll('_', ' ')}${details ? ` (${details})` : ''}.${held}`;
    })
    .join('\n');
  const identity = [...new Set((language?.identity[scenario.user.identity] ?? []).flatMap(slotsOf))];
  const by = identity.length > 0 ? identity.map((slot) => slot.replaceAll('_', ' ')).join(' and ') : scenario.user.identity.replaceAll('-', ' and ');
  return [
    `You are a customer contacting the support chat of a business (the Shakedown \`${scenario.world}\` world). You are not an assistant.`,
    `What you want, in this order:\n${requests}`,
    `About you: ${profile}. Identify yourself by ${by} when asked${scenario.user.tellIdentity ? ' (or right away)' : ''}.`,
    'Write short, natural messages. Answer what the agent asks; confirm an action only if it is exactly what you want. Never invent details you were not given.',
    'When everything you want is done or the agent has clearly refused, reply with exactly: DONE',
  ].join('\n\n');
}

/** Makes LLM users with these settings; the API key is read once, here. */
export function llmUserSimulator(settings: LlmSettings): UserSimulatorFactory {
  const apiKey = apiKeyFrom(settings);
  return (scenario, language, _rng, maxTurns, signal) => new LlmUser(scenario, language, settings, apiKey, maxTurns, signal);
}

class LlmUser implements UserSimulator {
  readonly id: string;
  readonly perturbable = false;
  readonly confusions = [];
  private readonly history: { role: 'system' | 'user' | 'assistant'; content: string }[];
  private turn = 0;

  constructor(
    private readonly scenario: Scenario,
    language: UserLanguage,
    private readonly settings: LlmSettings,
    private readonly apiKey: string,
    private readonly maxTurns: number,
    private readonly signal: AbortSignal,
  ) {
    this.id = `llm:${settings.model}`;
    this.history = [{ role: 'system', content: userInstructions(scenario, language) }];
  }

  private about(): UserMessage['about'] {
    const request = this.scenario.user.requests[0];
    return { ...(request ? { intent: request.intent } : {}), slots: request?.slots ?? {}, states: false, deferrable: [] };
  }

  private async say(): Promise<string> {
    // Roles flip: to the model playing the user, the agent's words are what it is told.
    const completion = await chatCompletion(this.settings, this.apiKey, { messages: this.history }, this.signal);
    const text = completion.choices?.[0]?.message?.content?.trim() ?? '';
    if (!text) throw new Error('the LLM user simulator answered nothing');
    this.history.push({ role: 'assistant', content: text });
    return text;
  }

  async opening(): Promise<UserMessage> {
    this.history.push({ role: 'user', content: '(The support chat opens. Write your first message.)' });
    return { segments: [{ text: await this.say() }], about: this.about() };
  }

  async respond(agentText: string): Promise<UserStep> {
    this.turn++;
    if (this.turn >= this.maxTurns) return { kind: 'end', reason: 'turn-limit' };
    this.history.push({ role: 'user', content: agentText });
    const text = await this.say();
    if (/^\W*DONE\W*$/.test(text) || /\bDONE\s*$/.test(text)) return { kind: 'end', reason: 'done' };
    return { kind: 'message', segments: [{ text }], about: this.about() };
  }
}
