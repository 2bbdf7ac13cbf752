/** The Anthropic Messages API: one request with its own retries, on the same post as the OpenAI-compatible API. */
import { ShakedownError } from '../ground/errors.js';
import type { LlmSettings } from '../ground/config.js';
import { postWithRetries } from './openai.js';

/** The Messages API version this agent speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';

export type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown } | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };
export interface Message {
  role: 'user' | 'assistant';
  content: string | Block[];
}
export interface MessagesResponse {
  content?: Block[];
  stop_reason?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** Most tokens one answer may have. */
const MAX_TOKENS = 1024;

/** One Messages request with its own retries (429, 529 and other 5xx); throws a message that never contains the key. */
export function createMessage(settings: LlmSettings, apiKey: string, body: Record<string, unknown>, signal?: AbortSignal, scope?: string): Promise<MessagesResponse> {
  return postWithRetries<MessagesResponse>('Anthropic API', `${settings.baseUrl.replace(/\/+$/, '')}/messages`, settings, apiKey, { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }, { model: settings.model, max_tokens: MAX_TOKENS, temperature: settings.temperature, ...body }, signal, scope);
}

/** Reads the key from its environment variable, or explains what to set. */
export function anthropicKeyFrom(settings: LlmSettings, env: NodeJS.ProcessEnv = process.env): string {
  const key = env[settings.apiKeyEnv];
  if (!key) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to start the Anthropic agent: the environment variable \`${settings.apiKeyEnv}\` is empty. Set it to your API key (or name another variable with \`anthropic.apiKeyEnv\`).`);
  return key;
}
