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
 *
 * Every entry carries a MAC under a key of the cache's own (`.key`, made with the cache): an entry that
 * does not verify (edited, or written by another program) is refused loudly, never answered from, so
 * that a poisoned cache cannot change a result unseen. It is tamper-evidence against edits: a process that
 * can read the cache's key can forge entries too.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CacheSavings } from '../ground/record.js';

interface ActiveCache {
  readonly dir: string;
  /** The cache's MAC key, read or made on first use. */
  key?: Buffer;
  /** Savings per scope (an episode id), taken by the episode when it ends; unscoped calls under ''. */
  readonly savings: Map<string, CacheSavings>;
  /** Every hit in this process, whatever episode took it. */
  readonly totals: CacheSavings;
  misses: number;
  /** Entries that did not verify and were refused. */
  refused: number;
}

let active: ActiveCache | undefined;

/** Turns the cache on for this process (a directory that is made when needed), or off with `undefined`. */
export function useLlmCache(dir: string | undefined): void {
  active = dir === undefined ? undefined : { dir, savings: new Map(), totals: { hits: 0, promptTokens: 0, completionTokens: 0 }, misses: 0, refused: 0 };
}

/** The key of a request: a hash of its URL, its body and its scope. */
export function cacheKey(url: string, body: unknown, scope?: string): string {
  return createHash('sha256').update(JSON.stringify([url, body, scope ?? null])).digest('hex');
}

const pathOf = (dir: string, key: string) => join(dir, key.slice(0, 2), `${key}.json`);

/** The cache's key: made once, by whichever process or thread comes first (an exclusive create). */
function macKey(cache: ActiveCache): Buffer {
  if (cache.key) return cache.key;
  const file = join(cache.dir, '.key');
  mkdirSync(cache.dir, { recursive: true });
  if (!existsSync(file)) {
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const hex = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw cacheRefused(`its key ${file} is not one Shakedown wrote`, cache.dir);
  cache.key = Buffer.from(hex, 'hex');
  return cache.key;
}

const macOf = (key: Buffer, requestKey: string, answer: string): string => createHmac('sha256', key).update(requestKey).update('\n').update(answer).digest('hex');

/** The error a refused entry gives the call that asked for it: it names the file and what to do. */
function cacheRefused(why: string, where: string): Error {
  const e = new Error(`the LLM cache at ${where} was refused: ${why}. Delete the entry (or the cache) and run again; an entry Shakedown did not write is never answered from`);
  e.name = 'LlmCacheRefused';
  return e;
}

/** Reads an entry whole and checks its MAC; its answer, or a refusal. */
function readEntry<T>(cache: ActiveCache, path: string, requestKey: string): T {
  let entry: { key?: unknown; answer?: unknown; mac?: unknown };
  try {
    entry = JSON.parse(readFileSync(path, 'utf8')) as typeof entry;
  } catch {
    throw cacheRefused(`${path} is not a whole entry`, cache.dir);
  }
  const answer = JSON.stringify(entry.answer ?? null);
  const expected = Buffer.from(macOf(macKey(cache), requestKey, answer), 'hex');
  const given = typeof entry.mac === 'string' && /^[0-9a-f]{64}$/.test(entry.mac) ? Buffer.from(entry.mac, 'hex') : undefined;
  if (entry.key !== requestKey || !given || !timingSafeEqual(given, expected)) {
    cache.refused++;
    throw cacheRefused(`${path} does not verify (edited, or written by another program or an older Shakedown)`, cache.dir);
  }
  return entry.answer as T;
}

/** Tokens an answer reports, in either API's words. */
function tokensOf(answer: unknown): { promptTokens: number; completionTokens: number } {
  const u = (answer as { usage?: Record<string, unknown> } | null)?.usage ?? {};
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return { promptTokens: n(u.prompt_tokens ?? u.input_tokens), completionTokens: n(u.completion_tokens ?? u.output_tokens) };
}

/**
 * The model's answer to this request from the cache, or `ask()`'s (then kept). Without an active cache it
 * only asks. An entry that does not verify is refused: the call rejects with `LlmCacheRefused`.
 */
export async function cached<T>(url: string, body: unknown, scope: string | undefined, ask: () => Promise<T>): Promise<T> {
  const cache = active;
  if (!cache) return ask();
  const key = cacheKey(url, body, scope);
  const path = pathOf(cache.dir, key);
  if (existsSync(path)) {
    const answer = readEntry<T>(cache, path, key);
    const s = cache.savings.get(scope ?? '') ?? { hits: 0, promptTokens: 0, completionTokens: 0 };
    const t = tokensOf(answer);
    for (const c of [s, cache.totals]) {
      c.hits++;
      c.promptTokens += t.promptTokens;
      c.completionTokens += t.completionTokens;
    }
    cache.savings.set(scope ?? '', s);
    return answer;
  }
  const answer = await ask();
  cache.misses++;
  mkdirSync(join(cache.dir, key.slice(0, 2)), { recursive: true });
  // Written whole, then renamed: a reader never sees half an answer.
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ url, key, answer, mac: macOf(macKey(cache), key, JSON.stringify(answer ?? null)) }));
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
export function cacheTotals(): (CacheSavings & { misses: number; refused: number }) | undefined {
  return active ? { ...active.totals, misses: active.misses, refused: active.refused } : undefined;
}
