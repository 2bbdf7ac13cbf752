/**
 * What a sweep's model calls cost at the config's `prices` (dollars per million tokens, by model name):
 * the agent's, the LLM user's and an LLM judge's, each counting only the tokens actually paid for (not
 * those the LLM cache answered). A model without a price has no cost here, which reports call unknown.
 */
import type { EpisodeRecord } from '../ground/record.js';
import type { CacheSavings } from '../ground/record.js';

export type Prices = Readonly<Record<string, { readonly input: number; readonly output: number }>>;
type Price = Prices[string];
type Tokens = { readonly promptTokens: number; readonly completionTokens: number };

/** The price of an agent's model: `llm:MODEL` and `anthropic:MODEL` (strategies after `+` aside), or the agent's id. */
export function agentPrice(agent: string, prices: Prices): Price | undefined {
  const m = /^(?:llm|anthropic):([^+]+)/.exec(agent);
  return prices[m ? (m[1] as string) : agent];
}

/** Dollars for these tokens at this price, to the millionth. */
export const usd = (t: Tokens, price: Price): number => Math.round(((t.promptTokens * price.input + t.completionTokens * price.output) / 1e6) * 1e6) / 1e6;

/** Dollars for the tokens of `used` that the cache did not answer (`hit`). */
const paid = (used: Tokens, hit: CacheSavings | undefined, price: Price): number =>
  usd({ promptTokens: Math.max(0, used.promptTokens - (hit?.promptTokens ?? 0)), completionTokens: Math.max(0, used.completionTokens - (hit?.completionTokens ?? 0)) }, price);

/**
 * What one episode cost: its agent's model (`agent`), its LLM user's (`user`, at `simulatorModel`'s price)
 * and what the cache saved both (`saved`); each absent when there was nothing to pay or no price.
 */
export function episodeCosts(record: EpisodeRecord, prices: Prices, simulatorModel: string | undefined): { agent?: number; user?: number; saved?: number } {
  const ap = agentPrice(record.key.agent, prices);
  const up = simulatorModel === undefined ? undefined : prices[simulatorModel];
  const hits = record.cached ?? {};
  const saved = (hits.agent && ap ? usd(hits.agent, ap) : 0) + (hits.user && up ? usd(hits.user, up) : 0);
  return {
    ...(record.usage && ap ? { agent: paid(record.usage, hits.agent, ap) } : {}),
    ...(record.userUsage && up ? { user: paid(record.userUsage, hits.user, up) } : {}),
    ...(saved > 0 ? { saved } : {}),
  };
}
