/**
 * An agent that runs as a service, in any language. For each episode Shakedown posts the episode's
 * context, then each user message, and reads the replies; the service calls the tools over loopback
 * HTTP, through a tool server Shakedown runs for the whole run. The protocol is in docs/agents.md.
 */
import { startToolServer, type ToolServer } from './tool-server.js';
import type { AgentContext, AgentFactory } from './contract.js';

/** How long one request to the agent service may take, in real ms, before the episode gives up on it. */
const REQUEST_TIMEOUT_MS = 60_000;

async function post(url: string, body: unknown, signal: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) });
}

/** The factory for the agent service at `url`. */
export function httpAgent(url: string): AgentFactory {
  const service = url.replace(/\/+$/, '');
  const episodes = new Map<string, { host: string; baseUrl: string; fetch: typeof fetch }>();
  let server: Promise<ToolServer> | undefined;
  const source = {
    baseUrl: (episodeId: string) => episodes.get(episodeId)?.baseUrl ?? `http://${episodeId}.unknown.invalid/api`,
    route: async (request: Request) => {
      const host = new URL(request.url).host;
      const episode = [...episodes.values()].find((e) => e.host === host);
      if (!episode) throw new TypeError(`fetch failed: no open episode serves ${host}`);
      return episode.fetch(request);
    },
  };
  return {
    id: service,
    description: `agent service at ${service}`,
    async create(ctx: AgentContext) {
      server ??= startToolServer(source, { unref: true });
      const tools = await server;
      episodes.set(ctx.episodeId, { host: new URL(ctx.baseUrl).host, baseUrl: ctx.baseUrl, fetch: ctx.fetch });
      const start = await post(`${service}/episodes`, { episodeId: ctx.episodeId, world: ctx.world, policy: ctx.policy, tools: ctx.tools, toolBaseUrl: tools.baseUrlFor(ctx.episodeId), seed: ctx.seed }, ctx.signal);
      if (!start.ok) throw new Error(`the agent service at ${service} refused the episode: ${start.status} ${(await start.text()).slice(0, 200)}`);
      return {
        async reply(message: string) {
          const r = await post(`${service}/episodes/${ctx.episodeId}/messages`, { message }, ctx.signal);
          const text = await r.text();
          if (!r.ok) throw new Error(`the agent service answered ${r.status}: ${text.slice(0, 200)}`);
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            throw new TypeError(`the agent service must answer {"reply": "..."} as JSON; it sent: ${text.slice(0, 200)}`);
          }
          const reply = (body as { reply?: unknown } | null)?.reply;
          if (typeof reply !== 'string') throw new TypeError(`the agent service must answer {"reply": "..."}; it sent: ${text.slice(0, 200)}`);
          return reply;
        },
        async close() {
          episodes.delete(ctx.episodeId);
          await fetch(`${service}/episodes/${ctx.episodeId}`, { method: 'DELETE', signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
        },
      };
    },
    async dispose() {
      if (server) await (await server).close();
    },
  };
}
