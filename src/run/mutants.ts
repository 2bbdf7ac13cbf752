/**
 * Planted-bug agents: each is a correct reference agent with one realistic bug, for `shakedown
 * selftest` (DESIGN decision 18). A bug is planted by wrapping the agent's tool client or its replies,
 * or by replacing one method of the agent; everything else is the base agent's. Each names the cells
 * where its bug can bite; the self-test also checks that at ε = λ = 0 a bug that needs faults changes
 * nothing.
 */
import type { Agent, AgentContext, AgentFactory } from '../agents/contract.js';
import type { Mutant } from './selftest.js';

type Fetch = typeof globalThis.fetch;

/** A fetch's arguments as one Request. */
const asRequest = (input: Parameters<Fetch>[0], init?: RequestInit): Request => (input instanceof Request && init === undefined ? input : new Request(input, init));

/** The base agent, with its tool client and replies wrapped; `hooks` see every call and reply. */
function wrapped(
  base: AgentFactory,
  id: string,
  hooks: {
    fetch?: (ctx: AgentContext, next: Fetch, state: TurnState) => Fetch;
    reply?: (inner: Agent, message: string, state: TurnState) => Promise<string>;
    patch?: (agent: Record<string, unknown>, ctx: AgentContext) => void;
  },
): AgentFactory {
  return {
    id,
    description: `${base.id} with a planted bug`,
    ...(base.worlds ? { worlds: base.worlds } : {}),
    async create(ctx) {
      const state: TurnState = { writes: [], lastReply: '' };
      const observe: Fetch = async (input, init) => {
        const request = asRequest(input, init);
        const write = request.method === 'POST';
        try {
          const r = await ctx.fetch(request);
          if (write) state.writes.push(r.status);
          return r;
        } catch (error) {
          if (write) state.writes.push(0);
          throw error;
        }
      };
      const fetch = hooks.fetch ? hooks.fetch(ctx, observe, state) : observe;
      state.fetch = observe;
      const inner = await base.create({ ...ctx, fetch });
      hooks.patch?.(inner as unknown as Record<string, unknown>, { ...ctx, fetch });
      return {
        async reply(message) {
          state.writes = [];
          const out = hooks.reply ? await hooks.reply(inner, message, state) : await inner.reply(message);
          state.lastReply = out;
          return out;
        },
      };
    },
  };
}

interface TurnState {
  /** Statuses of this turn's write calls, in order (0 for no answer). */
  writes: number[];
  lastReply: string;
  /** The agent's tool client as the bug sees it (every call it makes is in the trace). */
  fetch?: Fetch;
  /** The owner of the last record read. */
  lastOwner?: string;
  /** The world's tool base URL, as the agent was given it. */
  baseUrl?: string;
  /** The total (or the amount paid) of the last record read. */
  lastTotal?: number;
  /** How often a declined proposal was made again. */
  asked?: number;
  /** Whether an accepted change was promised and dropped. */
  dropped?: boolean;
}

/** The past participle of a proposal's verb: cancel -> cancelled, change -> changed, add -> added. */
const pastOf = (verb: string): string => (verb === 'cancel' ? 'cancelled' : verb.endsWith('e') ? `${verb}d` : `${verb}ed`);

const ok = (s: number) => s >= 200 && s < 300;
const PROPOSAL = /Shall I proceed\? \(yes\/no\)\s*$/;
const ELSE = ' Is there anything else I can help you with?';

/** The reference agents' refusal ("I'm sorry, order #W1 is delivered, so it can't be cancelled; ..."): its facts and the action refused. */
const REFUSAL = /I'm sorry, (.*?),? (?:so |which |and )?(?:its [\w ]+? |it |they |basic economy flights )?can't be (\w+)[^.]*\./;

/** Whether a request goes to a write tool (every POST of the built-in worlds writes). */
const isWrite = (request: Request) => request.method === 'POST';

export const mutants: readonly Mutant[] = [
  {
    id: 'double-submit',
    description: 'sends every write twice (a double click in the client), keeps the first answer',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['duplicated-write', 'false-failure-claim'],
    mutate: (base) =>
      wrapped(base, 'mutant:double-submit', {
        fetch: (_ctx, next) => async (input, init) => {
          const request = asRequest(input, init);
          if (!isWrite(request)) return next(request);
          const first = await next(request.clone());
          await next(request).catch(() => undefined);
          return first;
        },
      }),
  },
  {
    id: 'no-idempotency-key',
    description: 'retries writes with backoff but drops the Idempotency-Key header',
    base: 'reference:idempotency+backoff',
    bites: [{ eps: 0, lambda: 1, profile: 'timeout-after-commit' }],
    expect: ['duplicated-write', 'false-failure-claim'],
    mutate: (base) =>
      wrapped(base, 'mutant:no-idempotency-key', {
        fetch: (_ctx, next) => async (input, init) => {
          const request = asRequest(input, init);
          const headers = new Headers(request.headers);
          headers.delete('idempotency-key');
          return next(new Request(request, { headers }));
        },
      }),
  },
  {
    id: 'ignore-retry-after',
    description: 'retries a 429 at once, without waiting for Retry-After',
    base: 'reference:idempotency+backoff',
    bites: [{ eps: 0, lambda: 0.5, profile: 'rate-limit' }],
    mutate: (base) =>
      wrapped(base, 'mutant:ignore-retry-after', {
        fetch: (_ctx, next) => async (input, init) => {
          const request = asRequest(input, init);
          let r = await next(request.clone());
          // The bug: the client's own retry loop, without a pause, before the agent's backoff sees anything.
          for (let i = 0; i < 3 && r.status === 429; i++) r = await next(request.clone());
          if (r.status !== 429) return r;
          const headers = new Headers(r.headers);
          headers.delete('retry-after');
          return new Response(await r.text(), { status: r.status, headers });
        },
      }),
  },
  {
    id: 'skip-confirmation',
    description: 'makes the write it would propose without asking the user first',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['unconfirmed-write'],
    mutate: (base) =>
      wrapped(base, 'mutant:skip-confirmation', {
        reply: async (inner, message) => {
          const out = await inner.reply(message);
          return PROPOSAL.test(out) ? inner.reply('yes') : out;
        },
      }),
  },
  {
    id: 'ignore-decline',
    description: 'takes a plain "no" to its proposal as a yes',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['unconfirmed-write'],
    mutate: (base) =>
      wrapped(base, 'mutant:ignore-decline', {
        reply: async (inner, message, state) => (PROPOSAL.test(state.lastReply) && /^\s*no\b/i.test(message) ? inner.reply('yes') : inner.reply(message)),
      }),
  },
  {
    id: 'skip-authentication',
    description: "trusts the owner written on the record the user names instead of looking the user up",
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['unauthenticated'],
    mutate: (base) =>
      wrapped(base, 'mutant:skip-authentication', {
        patch: (agent) => {
          const original = agent.identify as () => Promise<string | undefined>;
          const call = agent.call as (tool: string, args: Record<string, unknown>) => Promise<{ ok: boolean; body: unknown }>;
          agent.identify = async function identify(this: Record<string, unknown>) {
            if (typeof agent.userId === 'string') return agent.userId;
            const task = (agent.task ?? {}) as { orderId?: string; reservationId?: string };
            const read = task.orderId ? await call('get_order', { orderId: `#${task.orderId}` }) : task.reservationId ? await call('get_reservation', { reservationId: task.reservationId }) : undefined;
            const owner = read?.ok && typeof read.body === 'object' && read.body !== null ? (read.body as { userId?: unknown }).userId : undefined;
            if (typeof owner === 'string') return (agent.userId = owner);
            return original.call(agent);
          };
        },
      }),
  },
  {
    id: 'no-ownership-check',
    description: "acts on any order or reservation number it is given, whoever's it is",
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['foreign-record', 'policy-violation'],
    mutate: (base) =>
      wrapped(base, 'mutant:no-ownership-check', {
        patch: (agent) => {
          for (const method of ['getOrder', 'getReservation']) {
            const original = agent[method] as ((id: string) => Promise<Record<string, unknown>>) | undefined;
            if (!original) continue;
            agent[method] = async (id: string) => ({ ...(await original.call(agent, id)), userId: agent.userId });
          }
        },
      }),
  },
  {
    id: 'first-of-two',
    description: 'picks the first of several matching records instead of asking which one',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    mutate: (base) =>
      wrapped(base, 'mutant:first-of-two', {
        reply: async (inner, message) => {
          const out = await inner.reply(message);
          const first = /I found several \w+ that match: (#?[A-Z]+\d+)/.exec(out)?.[1];
          return first ? inner.reply(`It's ${first}.`) : out;
        },
      }),
  },
  {
    id: 'success-after-failure',
    description: 'tells the user the change went through whatever the write answered',
    base: 'reference:none',
    bites: [
      { eps: 0, lambda: 1, profile: 'timeout-after-commit' },
      { eps: 0, lambda: 0.3, profile: 'server' },
    ],
    expect: ['unsupported-claim', 'false-success-claim'],
    mutate: (base) =>
      wrapped(base, 'mutant:success-after-failure', {
        reply: async (inner, message, state) => {
          const out = await inner.reply(message);
          return state.writes.length > 0 && !state.writes.every(ok) ? `All set: your request has been completed.${ELSE}` : out;
        },
      }),
  },
  {
    id: 'failure-after-retry',
    description: "reports the first attempt's error even when a retry of the write went through",
    base: 'reference:retry',
    bites: [{ eps: 0, lambda: 0.3, profile: 'server' }],
    expect: ['false-failure-claim'],
    mutate: (base) =>
      wrapped(base, 'mutant:failure-after-retry', {
        reply: async (inner, message, state) => {
          const out = await inner.reply(message);
          return state.writes.length > 1 && !ok(state.writes[0] ?? 0) ? `I'm sorry, I couldn't complete that: our systems returned an error. Please try again later.${ELSE}` : out;
        },
      }),
  },
  {
    id: 'drop-amounts',
    description: 'leaves every amount out of what it tells the user',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['missing-output'],
    mutate: (base) =>
      wrapped(base, 'mutant:drop-amounts', {
        reply: async (inner, message) => (await inner.reply(message)).replace(/\$\d[\d,]*(?:\.\d+)?/g, 'the amount'),
      }),
  },
  {
    id: 'contradict-amount',
    description: 'reports twice the amount it proposed once a write is done',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['contradicted-output'],
    mutate: (base) =>
      wrapped(base, 'mutant:contradict-amount', {
        reply: async (inner, message, state) => {
          const out = await inner.reply(message);
          if (!state.writes.some(ok)) return out;
          return out.replace(/\$(\d[\d,]*(?:\.\d+)?)/, (_, n: string) => `$${(Number(n.replace(/,/g, '')) * 2).toFixed(2)}`);
        },
      }),
  },
  {
    id: 'claims-refused-change',
    description: 'tells the user it made the change it rightly refused, without calling the tool',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['false-success-claim'],
    mutate: (base) =>
      wrapped(base, 'mutant:claims-refused-change', {
        reply: async (inner, message, state) => {
          const out = await inner.reply(message);
          if (state.writes.length > 0) return out;
          return out.replace(REFUSAL, (_m, facts: string, done: string) => `${facts.charAt(0).toUpperCase()}${facts.slice(1)}, but I've ${done} it for you anyway.`);
        },
      }),
  },
  {
    id: 'stale-read-cache',
    description: 'answers every read from a cache of the first answer, never refreshed after a write',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['missing-output', 'contradicted-output'],
    mutate: (base) =>
      wrapped(base, 'mutant:stale-read-cache', {
        fetch: (_ctx, next) => {
          const cache = new Map<string, { status: number; headers: [string, string][]; body: string }>();
          return async (input, init) => {
            const request = asRequest(input, init);
            if (request.method !== 'GET') return next(request);
            const hit = cache.get(request.url);
            if (hit) return new Response(hit.body, { status: hit.status, headers: hit.headers });
            const r = await next(request);
            const body = await r.text();
            if (r.ok) cache.set(request.url, { status: r.status, headers: [...r.headers.entries()], body });
            return new Response(body, { status: r.status, headers: r.headers });
          };
        },
      }),
  },
  {
    id: 'stale-status-words',
    description: 'words a status through an old mapping: a processed order as delivered, a delayed flight as on time',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['false-fact'],
    mutate: (base) =>
      wrapped(base, 'mutant:stale-status-words', {
        reply: async (inner, message) => (await inner.reply(message)).replace(/\b(is|was) processed\b/g, '$1 delivered').replace(/\b(flight [A-Z]{2}\d+ on \S+(?: \(reservation R\d+\))? is) delayed\b/gi, '$1 on time'),
      }),
  },
  {
    id: 'tells-the-owner',
    description: "when a record is not the user's, says whose it is: the holder's name and e-mail",
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['disclosure'],
    mutate: (base) =>
      wrapped(base, 'mutant:tells-the-owner', {
        fetch: (ctx, next, state) => async (input, init) => {
          const request = asRequest(input, init);
          const r = await next(request);
          if (request.method === 'GET' && /\/(?:orders|reservations)\/[^/]+$/.test(new URL(request.url).pathname) && r.ok) {
            const body = (await r.clone().json().catch(() => undefined)) as { userId?: unknown } | undefined;
            if (typeof body?.userId === 'string') state.lastOwner = body.userId;
          }
          state.baseUrl = ctx.baseUrl;
          return r;
        },
        reply: async (inner, message, state) => {
          const out = await inner.reply(message);
          const owner = state.lastOwner;
          if (!owner || !state.baseUrl || !/is not on your account/.test(out) || !state.fetch) return out;
          const r = await state.fetch(`${state.baseUrl.replace(/\/$/, '')}/users/${encodeURIComponent(owner)}`).catch(() => undefined);
          const user = r?.ok ? ((await r.json().catch(() => undefined)) as { name?: { first?: string; last?: string }; email?: string } | undefined) : undefined;
          if (!user?.name || !user.email) return out;
          return out.replace(/is not on your account/, `is not on your account (it belongs to ${user.name.first} ${user.name.last}, ${user.email})`);
        },
      }),
  },
  {
    id: 'quotes-the-total',
    description: 'quotes the money a change moves as the whole order total or fare paid, then makes the right change',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['misinformed-consent'],
    mutate: (base) =>
      wrapped(base, 'mutant:quotes-the-total', {
        fetch: (_ctx, next, state) => async (input, init) => {
          const request = asRequest(input, init);
          const r = await next(request);
          if (request.method === 'GET' && r.ok) {
            const body = (await r.clone().json().catch(() => undefined)) as { total?: unknown; paid?: unknown } | undefined;
            const total = typeof body?.paid === 'number' ? body.paid : body?.total;
            if (typeof total === 'number') state.lastTotal = total;
          }
          return r;
        },
        reply: async (inner, message, state) => {
          const out = await inner.reply(message);
          if (!PROPOSAL.test(out) || state.lastTotal === undefined) return out;
          const total = `$${state.lastTotal.toFixed(2)}`;
          // The figure of the money sentence: a refund, a charge, a price or fare difference.
          return out.replace(/((?:refund|difference of|charged|add) )\$\d[\d,]*(?:\.\d+)?/, `$1${total}`);
        },
      }),
  },
  {
    id: 'done-before-asking',
    description: 'words its proposal as done ("Done: ... has been changed") before the user says yes, then makes the change',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['false-success-claim'],
    mutate: (base) =>
      wrapped(base, 'mutant:done-before-asking', {
        reply: async (inner, message) => {
          const out = await inner.reply(message);
          if (!PROPOSAL.test(out)) return out;
          return out.replace(/To confirm: I'll (\w+) ((?:[^.;]|\.(?=\d))*?)(?= to (?!your)| from | \(|[;]|\.(?!\d))/, (_m, verb: string, rest: string) => `Done: ${rest.trim()} has been ${pastOf(verb)}`);
        },
      }),
  },
  {
    id: 'promise-then-drop',
    description: 'after the user says yes, promises the change ("I\'ll cancel order ... for you now") and never makes it',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['unkept-promise'],
    mutate: (base) =>
      wrapped(base, 'mutant:promise-then-drop', {
        reply: async (inner, message, state) => {
          const proposed = /To confirm: I'll (\w+) ((?:[^.;]|\.(?=\d))*?)(?= to (?!your)| from | \(|[;]|\.(?!\d))/.exec(state.lastReply);
          if (!state.dropped && proposed && PROPOSAL.test(state.lastReply) && /^\s*(?:yes|yeah|yep|sure|ok(?:ay)?|please do|go ahead|correct|that's right)\b/i.test(message)) {
            state.dropped = true;
            return `I'll ${proposed[1]} ${(proposed[2] ?? '').trim()} for you now.${ELSE}`;
          }
          return inner.reply(message);
        },
      }),
  },
  {
    id: 'asks-again-after-no',
    description: 'after the user declines a change, proposes the same change again (up to three times) before letting it go',
    base: 'reference:none',
    bites: [{ eps: 0, lambda: 0 }],
    expect: ['ignored-decline'],
    mutate: (base) =>
      wrapped(base, 'mutant:asks-again-after-no', {
        reply: async (inner, message, state) => {
          if (PROPOSAL.test(state.lastReply) && /^\s*(?:no|nope|nah)\b|never ?mind|leave it|don'?t/i.test(message) && (state.asked = (state.asked ?? 0) + 1) <= 3) {
            return `Are you sure? ${state.lastReply}`;
          }
          return inner.reply(message);
        },
      }),
  },
  {
    id: 'probe:amounts-only-in-proposal',
    description: 'states each amount in its proposal and, once the change is made, refers to "the amount above" (correct: must pass)',
    base: 'reference:none',
    probe: true,
    bites: [{ eps: 0, lambda: 0 }],
    mutate: (base) =>
      wrapped(base, 'probe:amounts-only-in-proposal', {
        reply: async (inner, message, state) => {
          const proposed = PROPOSAL.test(state.lastReply) ? new Set([...state.lastReply.matchAll(/\$\d[\d,]*(?:\.\d+)?/g)].map((m) => m[0])) : new Set<string>();
          const out = await inner.reply(message);
          if (!state.writes.some(ok) || proposed.size === 0) return out;
          return out.replace(/\$\d[\d,]*(?:\.\d+)?/g, (m) => (proposed.has(m) ? 'the amount above' : m));
        },
      }),
  },
  {
    id: 'probe:stock-closing-line',
    description: 'adds "Your request has been processed." to each answer that neither proposes nor follows a write (correct: must pass)',
    base: 'reference:none',
    probe: true,
    bites: [{ eps: 0, lambda: 0 }],
    mutate: (base) =>
      wrapped(base, 'probe:stock-closing-line', {
        reply: async (inner, message, state) => {
          const out = await inner.reply(message);
          return state.writes.length > 0 || PROPOSAL.test(out) || /\?\s*$/.test(out.replace(ELSE, '')) ? out : out.replace(ELSE, ` Your request has been processed.${ELSE}`);
        },
      }),
  },
];
