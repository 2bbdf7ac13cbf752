/**
 * An agent that runs as a service, in any language. For each episode Shakedown posts the episode's
 * context, then each user message, and reads the replies; the service calls the tools over loopback
 * HTTP, through a tool server Shakedown runs for the whole run. The protocol is in docs/agents.md.
 */
import { episodeContext, episodeToolHost } from './tool-server.js';
import { readReply } from './command-agent.js';
import type { AgentContext, AgentFactory } from './contract.js';
import { agentLimitsSchema, type AgentLimits } from '../ground/config.js';
import { ShakedownError } from '../ground/errors.js';
import { agentFailure } from './host/process.js';

/** How long one request to the agent service may take, in real ms, before the episode gives up on it. */
const REQUEST_TIMEOUT_MS = 60_000;

async function post(url: string, body: unknown, signal: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) });
}

/** A service's answer as text, refused past `max` bytes without holding more of it (an endless body ends the episode, not the run). */
async function boundedText(r: Response, max: number): Promise<string> {
  const declared = Number(r.headers.get('content-length'));
  const tooLarge = (n: number) => agentFailure('AgentLimitExceeded', `the agent service answered more than ${n} bytes, past the limit of ${max} (\`limits.lineBytes\`)`);
  if (Number.isFinite(declared) && declared > max) {
    await r.body?.cancel().catch(() => undefined);
    throw tooLarge(declared);
  }
  if (!r.body) return '';
  const reader = r.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(n);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
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

/** The factory for the agent service at `url`; `info` is what it said about itself (`probeService`). */
export function httpAgent(url: string, info: ServiceInfo = {}, options: { readonly limits?: AgentLimits } = {}): AgentFactory {
  const service = url.replace(/\/+$/, '');
  const limits = options.limits ?? agentLimitsSchema.parse({});
  const host = episodeToolHost(limits);
  return {
    id: info.id ?? service,
    description: info.description ?? `agent service at ${service}`,
    // A service waits and thinks in real time the engine cannot see: under `--agent-time auto` that time counts.
    time: { mode: 'real' },
    // Its episodes run in the main process, where the tool server that grants them lives.
    isolation: 'process',
    async create(ctx: AgentContext) {
      const endpoints = await host.open(ctx);
      const start = await post(`${service}/episodes`, episodeContext(ctx, endpoints), ctx.signal);
      if (!start.ok) throw new Error(`the agent service at ${service} refused the episode: ${start.status} ${(await boundedText(start, limits.lineBytes)).slice(0, 200)}`);
      await start.body?.cancel().catch(() => undefined);
      return {
        async reply(message: string) {
          const r = await post(`${service}/episodes/${ctx.episodeId}/messages`, { message }, ctx.signal);
          const text = await boundedText(r, limits.lineBytes);
          if (!r.ok) throw new Error(`the agent service answered ${r.status}: ${text.slice(0, 200)}`);
          return readReply(ctx, text, 'the agent service');
        },
        async close() {
          host.close(ctx);
          await fetch(`${service}/episodes/${ctx.episodeId}`, { method: 'DELETE', signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
        },
      };
    },
    dispose: () => host.dispose(),
  };
}
