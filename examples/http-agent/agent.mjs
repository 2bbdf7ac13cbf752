#!/usr/bin/env node
/**
 * A Shakedown HTTP agent in Node's standard library: the order desk of desk.mjs (identity first, order
 * status, cancellation with confirmation) behind a careful tool client that honours Retry-After, backs
 * off, and keys every change so that a retry never changes twice.
 *
 *   node examples/http-agent/agent.mjs --port 8766
 *   npx shakedown sweep --agent http://127.0.0.1:8766 --scenario read-order-status \
 *     --scenario cancel-pending --eps 0 --lambda 0,0.3 --profile rate-limit
 *
 * The protocol is in docs/agents.md. How it waits:
 *   --wait real   (default) it sleeps in real time, as it would in production; the sweep counts the
 *                 service's own time on the episode clock (`--agent-time auto` is `real` for services).
 *   --wait clock  it asks the episode's clock to wait (POST <clockUrl>/sleep), which costs no real time:
 *                 sweeps run as fast as with a module agent, and outcomes are deterministic.
 * How it reads a Retry-After date:
 *   --dates header (default) against the answer's Date header
 *   --dates own    against its own clock, as urllib3, got and p-retry do
 */
import { createServer } from 'node:http';
import { deskReply, httpCall } from './desk.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const port = Number(flag('port', '8766'));
const waitMode = flag('wait', 'real');
if (waitMode !== 'real' && waitMode !== 'clock') {
  console.error(`--wait takes real or clock, not ${waitMode}`);
  process.exit(2);
}
const datesMode = flag('dates', 'header');
if (datesMode !== 'header' && datesMode !== 'own') {
  console.error(`--dates takes header or own, not ${datesMode}`);
  process.exit(2);
}

/** Open episodes: their context from POST /episodes and the desk's history. */
const episodes = new Map();

const sleepReal = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(episode, ms) {
  if (ms <= 0) return;
  if (waitMode === 'real') return sleepReal(ms);
  const r = await fetch(`${episode.clockUrl}/sleep`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms }) });
  if (!r.ok) throw new Error(`the episode clock refused the wait: ${r.status}`);
}

async function readJson(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const text = Buffer.concat(chunks).toString();
  return text ? JSON.parse(text) : {};
}

function send(res, status, body) {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }).end(data);
}

const server = createServer(async (req, res) => {
  try {
    const parts = (req.url ?? '').split('/').filter(Boolean);
    if (req.method === 'GET' && parts.length === 1 && parts[0] === 'agent') {
      return send(res, 200, { id: 'desk-node', description: `order desk in Node (retries honouring Retry-After, idempotency keys; waits: ${waitMode}; dates against: ${datesMode})` });
    }
    if (req.method === 'POST' && parts.length === 1 && parts[0] === 'episodes') {
      const ctx = await readJson(req);
      episodes.set(ctx.episodeId, { ...ctx, history: [] });
      return send(res, 200, { ok: true });
    }
    if (req.method === 'POST' && parts.length === 3 && parts[0] === 'episodes' && parts[2] === 'messages') {
      const episode = episodes.get(parts[1]);
      if (!episode) return send(res, 404, { error: 'no such episode' });
      const { message } = await readJson(req);
      const reply = await deskReply(episode.history, String(message ?? ''), {
        call: async (action) => {
          const result = await httpCall(fetch, episode.toolBaseUrl, episode.tools, action);
          return datesMode === 'own' ? { ...result, receivedAt: Date.now() } : result;
        },
        wait: (ms) => waitFor(episode, ms),
      });
      return send(res, 200, { reply });
    }
    if (req.method === 'DELETE' && parts.length === 2 && parts[0] === 'episodes') {
      episodes.delete(parts[1]);
      return send(res, 200, { ok: true });
    }
    return send(res, 404, { error: 'no such route' });
  } catch (error) {
    return send(res, 500, { error: String(error?.message ?? error) });
  }
});

server.listen(port, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
