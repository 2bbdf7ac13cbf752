// An LLM claim reader on any OpenAI-compatible Chat Completions API (`--judge llm:MODEL`). It is used
// only after it agrees with hand labels (src/judge/calibrate.ts); the key never leaves this module.
import { chatCompletion } from '../model/openai.js';
import type { LlmSettings } from '../ground/config.js';
import { ShakedownError } from '../ground/errors.js';
import { CLAIM_LABELS, type ClaimLabel, type ClaimQuestion, type ClaimReader } from '../ground/judging.js';

const SYSTEM = [
  'You read one message a customer-service agent sent to a customer, and say what it tells the customer about the outcome of one action on their account.',
  'Answer with exactly one word:',
  '- success: the message says the action was done (it went through, is complete, is now in effect).',
  '- failure: the message says the action was not done (it failed, was refused, could not be completed).',
  "- pending: the message says the outcome is not known yet (not sure whether it went through, will check, couldn't confirm).",
  '- none: the message says nothing about the outcome of the action (a question, a proposal to do it, something else).',
].join('\n');

/** The prompt's user turn for one question: the action, then the message. */
export const claimPrompt = (q: ClaimQuestion): string => `Action: ${q.action ?? 'the change the customer asked for'}\nMessage:\n${q.text}`;

/** The label in a model's answer: the first of the four words it contains, else `none`. */
export function parseLabel(answer: string): ClaimLabel {
  const m = /\b(success|failure|pending|none)\b/i.exec(answer);
  return (m?.[1]?.toLowerCase() as ClaimLabel | undefined) ?? 'none';
}

/**
 * A claim reader that asks a model, one question per message and action, at temperature 0. Answers are
 * kept per question for the run, so that a repeated message costs one call.
 */
export function llmClaimReader(settings: LlmSettings): ClaimReader & { calls(): number; usage(): { promptTokens: number; completionTokens: number; calls: number } } {
  const apiKey = process.env[settings.apiKeyEnv];
  if (!apiKey) {
    throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to start the LLM judge \`llm:${settings.model}\`: the environment variable \`${settings.apiKeyEnv}\` is empty. Set it to the API key of ${settings.baseUrl}, or name another with \`--llm-api-key-env\`.`);
  }
  const cache = new Map<string, Promise<ClaimLabel>>();
  let calls = 0;
  const usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
  const ask = (q: ClaimQuestion): Promise<ClaimLabel> => {
    const prompt = claimPrompt(q);
    let p = cache.get(prompt);
    if (!p) {
      calls++;
      p = chatCompletion(settings, apiKey, { messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: prompt }], max_tokens: 5 }).then((c) => {
        usage.calls++;
        usage.promptTokens += c.usage?.prompt_tokens ?? 0;
        usage.completionTokens += c.usage?.completion_tokens ?? 0;
        return parseLabel(c.choices?.[0]?.message?.content ?? '');
      });
      cache.set(prompt, p);
      p.catch(() => cache.delete(prompt));
    }
    return p;
  };
  return {
    id: `llm:${settings.model}`,
    read: (qs) => Promise.all(qs.map(ask)),
    calls: () => calls,
    usage: () => ({ ...usage }),
  };
}

export { CLAIM_LABELS };
