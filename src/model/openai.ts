/**
 * The OpenAI-compatible Chat Completions API: one request with its own retries (429 and 5xx, no answer;
 * backoff in real time), answered from the LLM cache when one is on. Used by the LLM agent, the LLM user
 * and the LLM claim reader alike.
 */
import { ShakedownError } from '../ground/errors.js';
import type { LlmSettings } from '../ground/config.js';
import { cached } from './cache.js';
import { postJson, type ApiAnswer } from './post.js';
import { paceFor } from './pace.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface Completion {
  choices?: { message?: ChatMessage; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** Token usage of one episode, summed over its API calls. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  calls: number;
}

const sleepReal = (ms: number) =>
  // clock: a real pause between retries of a real API; the episode's simulated clock is not involved.
  new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One JSON POST to a model API with its own retries (429 and 5xx, no answer; backoff in real time), kept
 * apart from tool faults; the error it throws names the API and never contains the key.
 */
export async function postWithRetries<T>(api: string, url: string, settings: LlmSettings, apiKey: string, headers: Record<string, string>, body: Record<string, unknown>, signal?: AbortSignal, scope?: string): Promise<T> {
  // A resumed, repeated or re-judged run is answered from the cache when one is on (src/model/cache.ts); the key never holds the API key.
  return cached(url, body, scope, () => postOnce<T>(api, url, settings, apiKey, headers, body, signal));
}

/** Most 429s one request waits out (each for its Retry-After, paced): past them the provider is not coming back. */
const MAX_THROTTLES = 100;

/** The tokens an answer says it used, on either API. */
function usedTokens(answer: unknown): { prompt: number; completion: number } | undefined {
  const u = (answer as { usage?: { prompt_tokens?: number; completion_tokens?: number; input_tokens?: number; output_tokens?: number } } | null)?.usage;
  if (!u) return undefined;
  return { prompt: Number(u.prompt_tokens ?? u.input_tokens) || 0, completion: Number(u.completion_tokens ?? u.output_tokens) || 0 };
}

async function postOnce<T>(api: string, url: string, settings: LlmSettings, apiKey: string, headers: Record<string, string>, body: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
  let lastError = '';
  const text = JSON.stringify(body);
  // Every request to one provider and model waits its turn in one pace (src/model/pace.ts).
  const pace = paceFor(`${url}|${String(body.model ?? '')}`, settings.pace);
  let throttles = 0;
  for (let attempt = 0; attempt <= settings.retries; attempt++) {
    if (attempt > 0) await sleepReal(Math.min(8_000, 250 * 2 ** attempt));
    const estimated = pace.estimate(text.length);
    await pace.acquire(estimated, signal);
    let response: ApiAnswer;
    try {
      response = await postJson(url, { 'content-type': 'application/json', ...headers }, text, settings.timeoutMs, signal);
    } catch (error) {
      pace.release(estimated);
      if (signal?.aborted) throw signal.reason;
      lastError = `no response (${(error as Error).message})`;
      continue;
    }
    pace.learn(response.status, response.headers);
    if (response.status >= 200 && response.status < 300) {
      let parsed: T;
      try {
        parsed = JSON.parse(response.text) as T;
      } catch {
        pace.release(estimated);
        lastError = `${response.status} with a body that is not JSON: ${response.text.slice(0, 300).replaceAll(apiKey, '[key]')}`;
        break;
      }
      pace.release(estimated, usedTokens(parsed));
      return parsed;
    }
    pace.release(estimated);
    lastError = `${response.status} ${response.text.slice(0, 300).replaceAll(apiKey, '[key]')}`;
    // A 429 is the provider's pace, not a failure: waited out in the pace (its Retry-After) and sent again,
    // without spending one of the request's retries.
    if (response.status === 429 && ++throttles <= MAX_THROTTLES) {
      attempt--;
      continue;
    }
    if (response.status !== 429 && response.status < 500) break;
  }
  throw new Error(`the ${api} at ${settings.baseUrl} failed: ${lastError}${throttles > MAX_THROTTLES ? ` (after ${MAX_THROTTLES} rate limits in a row)` : ''}`);
}

/** One Chat Completions request with its own retries; throws a message that never contains the key. */
export function chatCompletion(settings: LlmSettings, apiKey: string, body: Record<string, unknown>, signal?: AbortSignal, scope?: string): Promise<Completion> {
  return postWithRetries<Completion>('LLM API', `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, settings, apiKey, { authorization: `Bearer ${apiKey}` }, { model: settings.model, temperature: settings.temperature, ...body }, signal, scope);
}

/** Reads the API key from its environment variable, or explains what to set. */
export function apiKeyFrom(settings: LlmSettings, env: NodeJS.ProcessEnv = process.env): string {
  const key = env[settings.apiKeyEnv];
  if (!key) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to start the LLM agent: the environment variable \`${settings.apiKeyEnv}\` is empty. Set it to your API key (or name another variable with \`llm.apiKeyEnv\`).`);
  return key;
}
