/**
 * An agent that runs as a service, in any language. For each episode Shakedown posts the episode's
 * context, then each user message, and reads the replies; the service calls the tools over loopback
 * HTTP, through a tool server Shakedown runs for the whole run. The protocol is in docs/agents.md.
 */
import { startToolServer, type ToolServer } from './tool-server.js';
import type { AgentContext, AgentFactory } from './contract.js';
import { ShakedownError } from '../core/errors.js';

/** How long one request to the agent service may take, in real ms, before the episode gives up on it. */
const REQUEST_TIMEOUT_MS = 60_000;

async function post(url: string, body: unknown, signal: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) });
}

/** What a service may say about itself at `GET URL/agent`. */
export interface ServiceInfo {
  readonly id?: string;
  readonly description?: string;
}

/**
 * Asks the service at `url` for its name (`GET URL/agent` answering `{"id", "description"}`), so that
 * tables and reports show a name rather than a URL; a service that does not answer it keeps its URL as id.
 * A service that cannot be reached at all is refused before any episode starts.
 */
export async function probeService(url: string): Promise<ServiceInfo> {
  const service = url.replace(/\/+$/, '');
  let r: Response;
  try {
    r = await fetch(`${service}/agent`, { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to reach the agent service at ${service} (${cause}). Start the service first, or check the URL.`);
  }
  if (!r.ok) return {};
  const body = (await r.json().catch(() => undefined)) as { id?: unknown; description?: unknown } | undefined;
  const id = typeof body?.id === 'string' ? body.id.trim() : undefined;
  if (id !== undefined && !/^[A-Za-z0-9][A-Za-z0-9:+._-]{0,79}$/.test(id)) {
    throw new ShakedownError('SHAKEDOWN_AGENT', `The agent service at ${service} names itself \`${id.slice(0, 100)}\` at GET /agent. Use 1 to 80 letters, digits, \`:\`, \`+\`, \`.\`, \`_\` or \`-\`, starting with a letter or digit.`);
  }
  return { ...(id ? { id } : {}), ...(typeof body?.description === 'string' ? { description: body.description.slice(0, 300) } : {}) };
}

/** Usage a reply reports: the episode's token usage so far. */
const usageOf = (u: unknown): { promptTokens: number; completionTokens: number; calls: number } | undefined => {
  if (u === null || typeof u !== 'object') return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  const o = u as Record<string, unknown>;
  return { promptTokens: n(o.promptTokens), completionTokens: n(o.completionTokens), calls: n(o.calls) };
};

/** The factory for the agent service at `url`; `info` is what it said about itself (`probeService`). */
export function httpAgent(url: string, info: ServiceInfo = {}): AgentFactory {
  const service = url.replace(/\/+$/, '');
  /** Open episodes' contexts by id; everything the tool server needs of an episode is in its context. */
  const episodes = new Map<string, AgentContext>();
  /** The same contexts by tool host, for routing each call without a search. */
  const byHost = new Map<string, AgentContext>();
  let server: Promise<ToolServer> | undefined;
  const source = {
    baseUrl: (episodeId: string) => episodes.get(episodeId)?.baseUrl ?? `http://${episodeId}.unknown.invalid/api`,
    clockOf: (episodeId: string) => episodes.get(episodeId)?.clock,
    mcpOf: (episodeId: string) => episodes.get(episodeId),
    route: async (request: Request) => {
      const host = new URL(request.url).host;
      const episode = byHost.get(host);
      if (!episode) throw new TypeError(`fetch failed: no open episode serves ${host}`);
      return episode.fetch(request);
    },
  };
  return {
    id: info.id ?? service,
    description: info.description ?? `agent service at ${service}`,
    // A service waits and thinks in real time the engine cannot see: under `--agent-time auto` that time counts.
    time: { mode: 'real' },
    async create(ctx: AgentContext) {
      server ??= startToolServer(source, { unref: true });
      const tools = await server;
      episodes.set(ctx.episodeId, ctx);
      byHost.set(new URL(ctx.baseUrl).host, ctx);
      const start = await post(
        `${service}/episodes`,
        {
          episodeId: ctx.episodeId,
          world: ctx.world,
          policy: ctx.policy,
          tools: ctx.tools,
          toolBaseUrl: tools.baseUrlFor(ctx.episodeId),
          clockUrl: tools.clockUrlFor(ctx.episodeId),
          mcpUrl: tools.mcpUrlFor(ctx.episodeId),
          now: new Date(ctx.clock.now()).toISOString(),
          seed: ctx.seed,
        },
        ctx.signal,
      );
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
          const answer = body as { reply?: unknown; escalate?: unknown; usage?: unknown } | null;
          const reply = answer?.reply;
          if (typeof reply !== 'string') throw new TypeError(`the agent service must answer {"reply": "..."}; it sent: ${text.slice(0, 200)}`);
          // `escalate`: the service handed the conversation to a human, with its reason (see ctx.escalate).
          if (answer?.escalate !== undefined && answer.escalate !== null && answer.escalate !== false) ctx.escalate(typeof answer.escalate === 'string' ? answer.escalate : 'escalated');
          const usage = usageOf(answer?.usage);
          if (usage) ctx.reportUsage?.(usage);
          return reply;
        },
        async close() {
          episodes.delete(ctx.episodeId);
          byHost.delete(new URL(ctx.baseUrl).host);
          await fetch(`${service}/episodes/${ctx.episodeId}`, { method: 'DELETE', signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
        },
      };
    },
    async dispose() {
      if (server) await (await server).close();
    },
  };
}
