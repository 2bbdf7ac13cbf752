/**
 * Global interception, for agents that call the global `fetch` or `node:http` instead of the fetch in
 * their context (DESIGN decision 11). It is slower than the injected fetch and retains memory per
 * request, so a sweep uses it only when asked.
 *
 * It is built on msw's own interception layer (@mswjs/interceptors) rather than msw's `setupServer`:
 * `setupServer` turns an exception thrown by a handler into a 500 response and can make a fetch reject
 * only with its generic "Failed to fetch", whereas a reset must reject exactly as Node's fetch does.
 * Requests to `*.<world>.shakedown.test` go through the runtime (the same handlers, faults and
 * idempotency as the injected fetch); every other request passes through untouched.
 */
import { syncBuiltinESMExports } from 'node:module';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import type { ToolRuntime } from '../ground/runtime.js';

/** A global interception in force; `close()` restores the real `fetch` and `node:http`. */
export interface GlobalInterception {
  close(): void;
}

/** The error `node:http` emits where fetch rejects with a TypeError: the system error inside it. */
const forNodeHttp = (error: unknown): unknown => (error instanceof TypeError && error.cause instanceof Error && 'code' in error.cause ? error.cause : error);

/** Intercepts the global `fetch` and `node:http` for the tool hosts of the given runtimes. */
export function interceptGlobally(runtimes: readonly ToolRuntime[]): GlobalInterception {
  const runtimeFor = (url: string) => {
    const host = new URL(url).hostname;
    return runtimes.find((r) => r.servesHost(host));
  };
  const fetchInterceptor = new FetchInterceptor();
  const httpInterceptor = new ClientRequestInterceptor();
  const listen = (interceptor: FetchInterceptor | ClientRequestInterceptor, shape: (error: unknown) => unknown) => {
    interceptor.on('request', async ({ request, controller }) => {
      const runtime = runtimeFor(request.url);
      if (!runtime) return;
      try {
        controller.respondWith(await runtime.route(request));
      } catch (error) {
        controller.errorWith(shape(error) as Error);
      }
    });
  };
  listen(fetchInterceptor, (e) => e);
  listen(httpInterceptor, forNodeHttp);
  fetchInterceptor.apply();
  httpInterceptor.apply();
  // The interceptors patch node:http's CommonJS exports; this carries the patch to its named ESM exports
  // (`import { request } from 'node:http'`), and back when the interception ends.
  syncBuiltinESMExports();
  return {
    close() {
      fetchInterceptor.dispose();
      httpInterceptor.dispose();
      syncBuiltinESMExports();
    },
  };
}
