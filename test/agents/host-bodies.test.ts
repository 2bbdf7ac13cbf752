/**
 * What crosses the pipe between a module agent's host and the episode runner: a tool call's body and its
 * answer's, as bytes (base64). Whatever the answer (JSON, a byte order mark, bytes that are not UTF-8, no
 * type, no body), the contained agent reads it, every way a Response is read, as the same agent in this
 * process reads the answer it was given; and the tool sees the same request from either.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { agentLimitsSchema } from '../../src/ground/config.js';
import { hostedAgent } from '../../src/agents/hosted.js';
import { loadModuleAgent } from '../../src/agents/module.js';
import type { AgentContext, AgentFactory } from '../../src/agents/contract.js';

const fixture = fileURLToPath(new URL('../fixtures/agents/reads-answers.mjs', import.meta.url));
const encode = (s: string) => new TextEncoder().encode(s);
const big = JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ id: `#W${1000000 + i}`, note: 'é😀 "quoted" \\ back' })) });

/** The tool API the agent is given: an answer per path; `/echo` answers with the request it was sent. */
async function tool(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  const path = new URL(request.url).pathname.replace(/^\/api/, '');
  const json = { 'content-type': 'application/json' };
  switch (path) {
    case '/json':
      return new Response('{"order":"#W1","note":"é😀 \\"q\\""}', { status: 200, headers: { ...json, 'x-request-id': 'r1' } });
    case '/bom':
      return new Response(new Uint8Array([0xef, 0xbb, 0xbf, ...encode('{"a":1}')]), { headers: json });
    case '/not-utf8':
      return new Response(new Uint8Array([0x7b, 0xff, 0xc3, 0x28]), { status: 201, statusText: 'Made', headers: { 'content-type': 'application/octet-stream' } });
    case '/untyped':
      return new Response(encode('plain words, no type'));
    case '/controls':
      return new Response(Array.from({ length: 400 }, (_, i) => String.fromCharCode(i % 32)).join(''), { headers: { 'content-type': 'text/plain' } });
    case '/big':
      return new Response(big, { headers: json });
    case '/error':
      return new Response('{"error":"not_found"}', { status: 404, headers: json });
    case '/nothing':
      return new Response(null, { status: 204 });
    case '/echo':
      return Response.json({ method: request.method, type: request.headers.get('content-type'), text: await request.text() });
    default:
      return new Response('no such path', { status: 500 });
  }
}

function context(): AgentContext {
  return {
    episodeId: 'e1',
    world: 'test',
    policy: 'a policy',
    tools: [],
    toolSpecs: [],
    baseUrl: 'http://e1.test.shakedown.test/api',
    fetch: tool as typeof fetch,
    clock: { now: () => 0, sleep: async () => undefined },
    signal: new AbortController().signal,
    seed: 's',
    escalate: () => undefined,
  };
}

const answers = ['/json', '/bom', '/not-utf8', '/untyped', '/controls', '/big', '/error', '/nothing'];
const reads = ['text', 'bytes', 'json', 'clone', 'stream'];
const sent: RequestInit[] = [
  { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"reason":"é😀"}' },
  { method: 'POST', body: 'no type given' },
  { method: 'POST', headers: { 'content-type': 'application/json' }, body: '\ufeff{"a":1}' },
  { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"\ud800"}' },
  { method: 'PUT', body: '' },
  { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '\u0001\u0002'.repeat(100) },
];
const messages = [...answers.flatMap((path) => reads.map((read) => JSON.stringify({ path, read }))), ...sent.map((init) => JSON.stringify({ path: '/echo', init, read: 'json' }))];

async function repliesOf(factory: AgentFactory): Promise<string[]> {
  const agent = await factory.create(context());
  const out: string[] = [];
  for (const m of messages) out.push(await agent.reply(m));
  await agent.close?.();
  return out;
}

describe('bodies between a contained agent and the runner', () => {
  const hosts: AgentFactory[] = [];
  afterAll(async () => {
    for (const h of hosts) await h.dispose?.();
  });

  // The default limits, and the smallest (a line of about 70 KB, requests and replies of 1 KB).
  for (const [name, limits] of [['the default limits', {}], ['the smallest limits', { lineBytes: 1_024, requestBytes: 1_024, replyBytes: 1_024 }]] as const) {
    it(`reads every answer as the same agent in process does, under ${name}`, async () => {
      const parsed = agentLimitsSchema.parse(limits);
      const here = await repliesOf(await loadModuleAgent(fixture));
      const hosted = await hostedAgent(fixture, { limits: parsed });
      hosts.push(hosted);
      const there = await repliesOf(hosted);
      expect(there.length).toBe(messages.length);
      for (const [i, m] of messages.entries()) expect([m, there[i]]).toEqual([m, here[i]]);
      // The answers were read at all: not every reply an error.
      expect(here.filter((r) => (JSON.parse(r) as { error?: string }).error === undefined).length).toBeGreaterThan(messages.length / 2);
    });
  }
});
