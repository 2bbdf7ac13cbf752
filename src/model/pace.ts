/**
 * Pacing of model API requests per provider (docs/agents.md, "Pacing"): at most `concurrency` requests in
 * flight, `rpm` requests and `tpm` tokens a minute, each configured (`llm.pace`, `anthropic.pace`) or
 * learned from the provider's rate-limit headers (OpenAI's `x-ratelimit-*`, Anthropic's
 * `anthropic-ratelimit-*`); a 429 pauses every request to that provider for its Retry-After. Requests
 * wait their turn here, before they are sent, so that a large sweep runs at the provider's quota rather
 * than below it or into it. Real time throughout: a provider's quota is wall time.
 */
import { providerWaits } from '../ground/provider-waits.js';

export interface PaceSettings {
  readonly concurrency?: number | undefined;
  readonly rpm?: number | undefined;
  readonly tpm?: number | undefined;
}

// clock: a provider's quota is counted in wall time; no outcome of a simulated episode reads it.
const realNow = (): number => performance.now();

/** `1s`, `6m0s`, `20ms`, `0.5s` (OpenAI's reset durations) in ms; undefined when it is none. */
export function durationMs(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const t = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t) * 1000;
  let ms = 0;
  let any = false;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    any = true;
    const v = Number(m[1]);
    ms += m[2] === 'ms' ? v : m[2] === 's' ? v * 1000 : m[2] === 'm' ? v * 60_000 : v * 3_600_000;
  }
  return any ? ms : undefined;
}

/** A Retry-After (seconds or an HTTP date) or an RFC 3339 reset time, in ms from `now` (wall ms). */
export function untilMs(text: string | undefined, wallNow: number): number | undefined {
  if (!text) return undefined;
  const t = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t) * 1000;
  const d = durationMs(t);
  if (d !== undefined && /[a-z]$/i.test(t) && !/GMT|Z$/.test(t)) return d;
  const at = Date.parse(t);
  return Number.isFinite(at) ? Math.max(0, at - wallNow) : undefined;
}

/** What the pace of one provider came to, for the sweep's progress and its summary. */
export interface PaceStats {
  readonly requests: number;
  readonly tokens: number;
  readonly throttled: number;
  readonly waitedMs: number;
  readonly rpm?: number;
  readonly tpm?: number;
  readonly concurrency?: number;
  /** Whether the limits were learned from the provider's headers (else configured, or none). */
  readonly learned: boolean;
  /** Requests a minute since the first. */
  readonly perMinute: number;
}

/** One provider's pace: a concurrency gate and two token buckets refilled continuously. */
export class ProviderPace {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private requestsLeft: number;
  private tokensLeft: number;
  private at = realNow();
  private pausedUntil = 0;
  private rpm: number | undefined;
  private tpm: number | undefined;
  private concurrency: number | undefined;
  private learned = false;
  private readonly configured: PaceSettings;
  private stats = { requests: 0, tokens: 0, throttled: 0, waitedMs: 0 };
  private first: number | undefined;
  /** The mean completion of the requests so far, for estimating a request's tokens before it is sent. */
  private completionMean = 256;

  constructor(settings: PaceSettings = {}) {
    this.configured = settings;
    this.rpm = settings.rpm;
    this.tpm = settings.tpm;
    this.concurrency = settings.concurrency;
    this.requestsLeft = this.capacity(this.rpm);
    this.tokensLeft = this.capacity(this.tpm);
  }

  /** A bucket holds ten seconds of its rate (at least one request's worth): bursts stay small, the average is the rate. */
  private capacity(perMinute: number | undefined): number {
    return perMinute === undefined ? Number.POSITIVE_INFINITY : Math.max(1, perMinute / 6);
  }

  private refill(): void {
    const now = realNow();
    const dt = now - this.at;
    this.at = now;
    if (this.rpm !== undefined) this.requestsLeft = Math.min(this.capacity(this.rpm), this.requestsLeft + (dt * this.rpm) / 60_000);
    if (this.tpm !== undefined) this.tokensLeft = Math.min(this.capacity(this.tpm), this.tokensLeft + (dt * this.tpm) / 60_000);
  }

  /** How long until a request of `tokens` may go, 0 when it may go now. */
  private waitFor(tokens: number): number {
    this.refill();
    const now = realNow();
    let wait = Math.max(0, this.pausedUntil - now);
    if (this.rpm !== undefined && this.requestsLeft < 1) wait = Math.max(wait, ((1 - this.requestsLeft) * 60_000) / this.rpm);
    const need = Math.min(tokens, this.capacity(this.tpm));
    if (this.tpm !== undefined && this.tokensLeft < need) wait = Math.max(wait, ((need - this.tokensLeft) * 60_000) / this.tpm);
    return wait;
  }

  /** The estimate of a request's tokens: its prompt (a token per 4 characters) and a completion of the mean size. */
  estimate(bodyChars: number): number {
    return Math.ceil(bodyChars / 4) + this.completionMean;
  }

  /** Waits until a request of `tokens` may go, then takes its share; a wait counts as the provider's, not the agent's. */
  async acquire(tokens: number, signal?: AbortSignal): Promise<void> {
    let hooks: ReturnType<typeof providerWaits.getStore>;
    let started = 0;
    try {
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        const gated = this.concurrency !== undefined && this.active >= this.concurrency;
        const wait = gated ? -1 : this.waitFor(tokens);
        if (wait === 0) break;
        if (started === 0) {
          started = realNow();
          hooks = providerWaits.getStore();
          hooks?.begin();
        }
        await new Promise<void>((resolve, reject) => {
          const done = () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          };
          const onAbort = () => {
            if (timer) clearTimeout(timer);
            const at = this.waiting.indexOf(done);
            if (at >= 0) this.waiting.splice(at, 1);
            reject(signal?.reason);
          };
          // clock: waiting out a provider's quota in real time.
          const timer = wait < 0 ? undefined : setTimeout(done, Math.ceil(wait));
          if (wait < 0) this.waiting.push(done);
          signal?.addEventListener('abort', onAbort, { once: true });
        });
      }
    } finally {
      if (started > 0) {
        this.stats.waitedMs += realNow() - started;
        hooks?.end();
      }
    }
    this.first ??= realNow();
    this.active++;
    this.requestsLeft -= 1;
    this.tokensLeft -= Math.min(tokens, this.capacity(this.tpm));
    this.stats.requests++;
  }

  /** A request is done: its slot is free, and its tokens are counted as used rather than estimated. */
  release(estimated: number, used?: { prompt: number; completion: number }): void {
    this.active = Math.max(0, this.active - 1);
    if (used) {
      const total = used.prompt + used.completion;
      this.tokensLeft += Math.min(estimated, this.capacity(this.tpm)) - total;
      this.stats.tokens += total;
      this.completionMean = this.completionMean * 0.9 + used.completion * 0.1;
    }
    this.waiting.shift()?.();
  }

  /** Learns the provider's limits from its headers, and pauses for a 429's Retry-After (or its reset). */
  learn(status: number, headers: Readonly<Record<string, string | undefined>>): void {
    const wallNow = Date.now(); // clock: a provider's reset times are wall-clock dates
    const h = (name: string) => headers[name];
    const limitRequests = Number(h('x-ratelimit-limit-requests') ?? h('anthropic-ratelimit-requests-limit'));
    const limitTokens = Number(h('x-ratelimit-limit-tokens') ?? h('anthropic-ratelimit-tokens-limit'));
    if (this.configured.rpm === undefined && Number.isFinite(limitRequests) && limitRequests > 0 && limitRequests !== this.rpm) {
      this.refill();
      this.rpm = limitRequests;
      this.requestsLeft = Math.min(this.requestsLeft, this.capacity(this.rpm));
      this.learned = true;
    }
    if (this.configured.tpm === undefined && Number.isFinite(limitTokens) && limitTokens > 0 && limitTokens !== this.tpm) {
      this.refill();
      this.tpm = limitTokens;
      this.tokensLeft = Math.min(this.tokensLeft, this.capacity(this.tpm));
      this.learned = true;
    }
    // Nothing left of a limit: no request until it resets.
    const remainingRequests = Number(h('x-ratelimit-remaining-requests') ?? h('anthropic-ratelimit-requests-remaining'));
    if (remainingRequests === 0) {
      const reset = untilMs(h('x-ratelimit-reset-requests') ?? h('anthropic-ratelimit-requests-reset'), wallNow);
      if (reset !== undefined) this.pausedUntil = Math.max(this.pausedUntil, realNow() + reset);
    }
    if (status === 429) {
      this.stats.throttled++;
      const after = untilMs(h('retry-after'), wallNow) ?? untilMs(h('x-ratelimit-reset-requests') ?? h('anthropic-ratelimit-requests-reset'), wallNow) ?? 1000;
      this.pausedUntil = Math.max(this.pausedUntil, realNow() + after);
      // Sent faster than the provider takes: the bucket starts empty.
      this.requestsLeft = Math.min(this.requestsLeft, 0);
    }
  }

  report(): PaceStats {
    const span = this.first === undefined ? 0 : realNow() - this.first;
    return { ...this.stats, perMinute: span < 1000 ? 0 : Math.round((this.stats.requests * 60_000) / span), ...(this.rpm !== undefined ? { rpm: this.rpm } : {}), ...(this.tpm !== undefined ? { tpm: this.tpm } : {}), ...(this.concurrency !== undefined ? { concurrency: this.concurrency } : {}), learned: this.learned };
  }
}

const paces = new Map<string, ProviderPace>();

/** The pace of one provider (an API base URL and model), made on first use with the settings given then. */
export function paceFor(key: string, settings?: PaceSettings): ProviderPace {
  let pace = paces.get(key);
  if (!pace) paces.set(key, (pace = new ProviderPace(settings)));
  return pace;
}

/** Every provider's pace so far, by key. */
export function paceReport(): Record<string, PaceStats> {
  return Object.fromEntries([...paces.entries()].map(([k, p]) => [k, p.report()]));
}

/** Forgets every pace (a new sweep in the same process starts afresh). */
export function resetPaces(): void {
  paces.clear();
}

/** The pace in a line, for the sweep's progress: each provider's requests a minute against its limit, its 429s and waits. */
export function paceLine(): string {
  const all = Object.entries(paceReport()).filter(([, p]) => p.requests > 0);
  return all
    .map(([key, p]) => `model ${key.split('|')[1] || new URL(key.split('|')[0] ?? '').host}: ${p.perMinute}${p.rpm !== undefined ? `/${p.rpm}` : ''} req/min${p.throttled > 0 ? `, ${p.throttled} x 429` : ''}${p.waitedMs >= 1000 ? `, waited ${(p.waitedMs / 1000).toFixed(0)} s` : ''}`)
    .join(' · ');
}
