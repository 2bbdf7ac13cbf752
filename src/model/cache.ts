/**
 * A cache of model API answers on disk, so that a resumed, repeated or re-judged run never pays twice for
 * the same model call (`--llm-cache run|DIR`, config `llmCache`; off by default, docs/agents.md "LLM
 * response cache").
 *
 * An answer is kept under a hash of the request: the API's URL and the whole body (model, messages,
 * tools, temperature and every other setting), plus a scope. The agent's and the simulated user's calls
 * are scoped by their episode, so that two trials of a task stay two samples even when their requests
 * are identical and the same episode run again (same seed and key) is answered from the cache; a claim
 * judge's calls are not scoped, since reading a sentence is the same question wherever it is asked. A
 * model's errors are never cached.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CacheSavings } from '../ground/record.js';

interface ActiveCache {
  readonly dir: string;
  /** Savings per scope (an episode id), taken by the episode when it ends; unscoped calls under ''. */
  readonly savings: Map<string, CacheSavings>;
  /** Every hit in this process, whatever episode took it. */
  readonly totals: CacheSavings;
  misses: number;
}

let active: ActiveCache | undefined;

/** Turns the cache on for this process (a directory that is made when needed), or off with `undefined`. */
export function useLlmCache(dir: string | undefined): void {
  active = dir === undefined ? undefined : { dir, savings: new Map(), totals: { hits: 0, promptTokens: 0, completionTokens: 0 }, misses: 0 };
}

/** The key of a request: a hash of its URL, its body and its scope. */
export function cacheKey(url: string, body: unknown, scope?: string): string {
  return createHash('sha256').update(JSON.stringify([url, body, scope ?? null])).digest('hex');
}

const pathOf = (dir: string, key: string) => join(dir, key.slice(0, 2), `${key}.json`);

/** Tokens an answer reports, in either API's words. */
function tokensOf(answer: unknown): { promptTokens: number; completionTokens: number } {
  const u = (answer as { usage?: Record<string, unknown> } | null)?.usage ?? {};
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return { promptTokens: n(u.prompt_tokens ?? u.input_tokens), completionTokens: n(u.completion_tokens ?? u.output_tokens) };
}

/**
 * The model's answer to this request from the cache, or `ask()`'s (then kept). Without an active cache it
 * only asks. A cache file that cannot be read is asked again and rewritten.
 */
export async function cached<T>(url: string, body: unknown, scope: string | undefined, ask: () => Promise<T>): Promise<T> {
  const cache = active;
  if (!cache) return ask();
  const key = cacheKey(url, body, scope);
  const path = pathOf(cache.dir, key);
  if (existsSync(path)) {
    try {
      const answer = (JSON.parse(readFileSync(path, 'utf8')) as { answer: T }).answer;
      const s = cache.savings.get(scope ?? '') ?? { hits: 0, promptTokens: 0, completionTokens: 0 };
      const t = tokensOf(answer);
      for (const c of [s, cache.totals]) {
        c.hits++;
        c.promptTokens += t.promptTokens;
        c.completionTokens += t.completionTokens;
      }
      cache.savings.set(scope ?? '', s);
      return answer;
    } catch {
      // A torn file (a killed writer): ask again.
    }
  }
  const answer = await ask();
  cache.misses++;
  mkdirSync(join(cache.dir, key.slice(0, 2)), { recursive: true });
  // Written whole, then renamed: a reader never sees half an answer.
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ url, answer }));
  renameSync(tmp, path);
  return answer;
}

/** Takes what the cache saved one episode (its scope), or undefined when nothing was answered from it. */
export function takeSavings(scope: string): CacheSavings | undefined {
  const s = active?.savings.get(scope);
  active?.savings.delete(scope);
  return s;
}

/** What the cache did in this process so far: hits and their tokens over every scope, and misses. */
export function cacheTotals(): (CacheSavings & { misses: number }) | undefined {
  return active ? { ...active.totals, misses: active.misses } : undefined;
}
