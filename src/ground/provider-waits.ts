/**
 * Time an episode spends waiting for a model provider's quota (src/model/pace.ts) is the provider's, not
 * the agent's: the model client says when such a wait begins and ends, and the episode it runs in (found
 * through this async context) stops counting the agent's real time and moves its wall-clock deadline on
 * by as long. A model 429 then never turns into an agent that ran out of time.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ProviderWaitHooks {
  /** A wait for the provider begins. */
  begin(): void;
  /** It ended: the episode takes how long it lasted from its own clock, so that overlapping waits count once. */
  end(): void;
}

export const providerWaits = new AsyncLocalStorage<ProviderWaitHooks>();
