/**
 * A user simulator backed by an OpenAI-compatible Chat Completions API, for free-form conversations with
 * LLM agents. Its instructions come from the scenario: what the user wants, request by request, and who
 * they are. It ends the conversation by writing DONE. Its messages are perturbed after they are written,
 * as the scripted user's are, with the profile's and the requests' values protected: ε means the same
 * with either simulator.
 */
import type { LlmSettings } from '../ground/config.js';
import { slotsOf, type Scenario } from '../ground/scenario.js';
import type { UserMessage, UserSimulator, UserSimulatorFactory, UserStep } from '../ground/simulator.js';
import type { Segment } from '../ground/perturb.js';
import type { UserLanguage } from '../ground/world.js';
import { apiKeyFrom, chatCompletion } from '../model/openai.js';

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
  return (scenario, language, _rng, maxTurns, signal, cacheScope) => new LlmUser(scenario, language, settings, apiKey, maxTurns, signal, cacheScope);
}

/**
 * A free-form message as segments for the ε families: every value of the profile and of the requests
 * found in it is a protected segment that names its slot (longest first, case-insensitive), the rest is
 * wording the families may change.
 */
export function protectValues(text: string, values: Readonly<Record<string, string>>): Segment[] {
  const found: { start: number; end: number; slot: string }[] = [];
  const entries = Object.entries(values).filter(([, v]) => v.trim().length >= 2).sort((a, b) => b[1].length - a[1].length);
  const lower = text.toLowerCase();
  for (const [slot, value] of entries) {
    const needle = value.toLowerCase();
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      if (found.some((f) => at < f.end && at + needle.length > f.start)) continue;
      found.push({ start: at, end: at + needle.length, slot });
    }
  }
  found.sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  let last = 0;
  for (const f of found) {
    if (f.start > last) out.push({ text: text.slice(last, f.start) });
    out.push({ text: text.slice(f.start, f.end), protected: true, slot: f.slot });
    last = f.end;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

class LlmUser implements UserSimulator {
  readonly id: string;
  /** Its messages are perturbed after they are written, the profile's and requests' values protected. */
  readonly perturbable = true;
  readonly confusions = [];
  private readonly history: { role: 'system' | 'user' | 'assistant'; content: string }[];
  private turn = 0;
  readonly usage = { promptTokens: 0, completionTokens: 0, calls: 0 };

  constructor(
    private readonly scenario: Scenario,
    language: UserLanguage,
    private readonly settings: LlmSettings,
    private readonly apiKey: string,
    private readonly maxTurns: number,
    private readonly signal: AbortSignal,
    private readonly cacheScope?: string,
  ) {
    this.id = `llm:${settings.model}`;
    this.history = [{ role: 'system', content: userInstructions(scenario, language) }];
  }

  private about(): UserMessage['about'] {
    const request = this.scenario.user.requests[0];
    return { ...(request ? { intent: request.intent } : {}), slots: this.values(), states: false, deferrable: [] };
  }

  /** Every value the user may say: the profile's and each request's, by slot. */
  private values(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const r of [...this.scenario.user.requests].reverse()) Object.assign(out, r.slots);
    return { ...out, ...this.scenario.user.profile };
  }

  private async say(): Promise<string> {
    // Roles flip: to the model playing the user, the agent's words are what it is told.
    const completion = await chatCompletion(this.settings, this.apiKey, { messages: this.history }, this.signal, this.cacheScope);
    this.usage.calls++;
    this.usage.promptTokens += completion.usage?.prompt_tokens ?? 0;
    this.usage.completionTokens += completion.usage?.completion_tokens ?? 0;
    const text = completion.choices?.[0]?.message?.content?.trim() ?? '';
    if (!text) throw new Error('the LLM user simulator answered nothing');
    this.history.push({ role: 'assistant', content: text });
    return text;
  }

  async opening(): Promise<UserMessage> {
    this.history.push({ role: 'user', content: '(The support chat opens. Write your first message.)' });
    return { segments: protectValues(await this.say(), this.values()), about: this.about() };
  }

  async respond(agentText: string): Promise<UserStep> {
    this.turn++;
    if (this.turn >= this.maxTurns) return { kind: 'end', reason: 'turn-limit' };
    this.history.push({ role: 'user', content: agentText });
    const text = await this.say();
    if (/^\W*DONE\W*$/.test(text) || /\bDONE\s*$/.test(text)) return { kind: 'end', reason: 'done' };
    return { kind: 'message', segments: protectValues(text, this.values()), about: this.about() };
  }
}
