/**
 * `json` (src/ground/handlers.ts), the built-in worlds' JSON answer, against msw's `HttpResponse.json`
 * that it stands for: status, status text, headers and body bytes for any JSON value and init; the
 * engine's read of it without its body stream (`Answer.of`) against reading the body; and what it leaves
 * to msw. Also `deriveSeed`, now hashed part by part, against the string it hashed before.
 */
import fc from 'fast-check';
import { getResponse, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { json } from '../../src/ground/handlers.js';
import { jsonTextOf, lazyResponse } from '../../src/ground/bodies.js';
import { Answer } from '../../src/ground/resolve.js';
import { bodyReaders, outcome, type Reader } from './body-readers.js';
import { deriveSeed, hash53, type SeedPart } from '../../src/ground/seeds.js';

async function seen(response: Response) {
  return {
    status: response.status,
    statusText: response.statusText,
    type: response.type,
    headers: [...response.headers],
    body: [...new Uint8Array(await response.arrayBuffer())],
    defaultType: Symbol.for('kDefaultContentType') in response,
  };
}

// Strings with what UTF-8 and `Content-Length` must agree on: multi-byte characters, astral ones, lone surrogates.
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('\ud800', 'a\udfffb', 'é€😀', ''));
const value = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(text, tie('value'), { maxKeys: 4 })),
})).value;
const init = fc.record(
  {
    status: fc.oneof(fc.constantFrom(200, 201, 202, 400, 404, 409, 422, 429, 500, 503, 299, 599, 0), fc.integer({ min: 200, max: 599 })),
    statusText: fc.constantFrom('', 'Fine', 'Too Many'),
    headers: fc.constantFrom<HeadersInit>({}, { 'Content-Type': 'application/problem+json' }, { 'x-request-id': 'r1' }, [['retry-after', '2']], { 'content-length': '7' }),
  },
  { requiredKeys: [] },
);

describe('json against HttpResponse.json', () => {
  it('gives the same status, status text, headers and body bytes for any value and init', async () => {
    await fc.assert(
      fc.asyncProperty(value, fc.option(init, { nil: undefined }), async (body, i) => {
        expect(await seen(json(body, i))).toEqual(await seen(HttpResponse.json(body, i)));
      }),
      { numRuns: 400 },
    );
  });

  it('is read by the engine without its body, to the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(value, fc.option(init, { nil: undefined }), async (body, i) => {
        const response = json(body, i);
        // Left to msw (a status without a body): read from its body as any other response.
        expect(jsonTextOf(response)).toBe(response instanceof HttpResponse ? undefined : JSON.stringify(body));
        const fast = await Answer.of(response);
        const read = await Answer.of(HttpResponse.json(body, i));
        expect([fast.status, fast.statusText, [...fast.headers], fast.text()]).toEqual([read.status, read.statusText, [...read.headers], read.text()]);
        expect(await seen(fast.response())).toEqual({ ...(await seen(read.response())), defaultType: false });
      }),
      { numRuns: 200 },
    );
  });

  const readers: Record<string, Reader<Response>> = {
    ...bodyReaders<Response>(),
    'clone, then both': async (r) => {
      const c = r.clone();
      return [await c.text(), await r.text(), c.status, [...c.headers], c.bodyUsed];
    },
    'a Response of it': async (r) => {
      const again = new Response(r.body, r);
      return [again.status, again.statusText, [...again.headers], await again.text(), r.bodyUsed];
    },
    'every member': async (r) => [r instanceof Response, Object.prototype.toString.call(r), r.type, r.url, r.redirected, r.ok, r.status, r.statusText, r.bodyUsed],
    // undici's own methods called on it read its own state.
    "Response's own text, called on it": async (r) => [await Response.prototype.text.call(r), r.bodyUsed],
    'headers changed, then a clone': async (r) => {
      r.headers.set('x-added', '1');
      const c = r.clone();
      return [[...c.headers], await c.text(), [...r.headers]];
    },
  };

  it('reads as HttpResponse.json reads, by every reader', async () => {
    for (const [name, read] of Object.entries(readers)) {
      for (const [body, i] of [[{ a: 1, b: 'é😀' }, undefined], [[1, 2], { status: 404 }], ['x', { headers: { 'content-type': 'text/plain' } }], [null, { status: 500, statusText: 'Broken' }]] as const) {
        expect([name, await outcome(json(body, i), read)]).toEqual([name, await outcome(HttpResponse.json(body, i), read)]);
      }
    }
  });

  it('hands an agent an answer that reads as a Response of its bytes, by every reader', async () => {
    // JSON; JSON after a byte order mark; bytes that are not UTF-8 nor JSON.
    for (const bytes of [new TextEncoder().encode('{"order":"#W1","note":"é😀"}'), new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x31, 0x5d]), new Uint8Array([0x7b, 0xff, 0xc3, 0x28])])
    for (const [name, read] of Object.entries(readers)) {
      const init = () => ({ status: 201, statusText: 'Created', headers: new Headers({ 'content-type': 'application/json', date: 'Sat, 01 Jan 2000 00:00:00 GMT' }) });
      const lazy = lazyResponse(bytes, init());
      lazy.headers.set('x-after', '1');
      const real = new Response(bytes, init());
      real.headers.set('x-after', '1');
      expect([name, await outcome(lazy, read)]).toEqual([name, await outcome(real, read)]);
      // A clone of a clone, each read on its own.
      expect([name, await outcome(lazyResponse(bytes, init()).clone().clone(), read)]).toEqual([name, await outcome(new Response(bytes, init()).clone().clone(), read)]);
    }
    // Headers as a list of pairs, as an agent's host is given them.
    for (const [name, read] of Object.entries(readers)) {
      const pairs = (): ResponseInit => ({ status: 200, statusText: 'OK', headers: [['content-type', 'application/json'], ['x-a', '1'], ['x-a', '2']] });
      const bytes = new TextEncoder().encode('{"a":1}');
      expect([name, await outcome(lazyResponse(bytes, pairs()), read)]).toEqual([name, await outcome(new Response(bytes, pairs()), read)]);
    }
    expect(jsonTextOf(lazyResponse(new Uint8Array([1]), {}))).toBeUndefined();
    // A status without a body refuses one at once, as Response does.
    for (const status of [204, 205, 304]) expect(() => lazyResponse(new Uint8Array(0), { status })).toThrow(TypeError);
    // A Buffer from Node's pool (as the agent's host decodes an answer): its own bytes, not the pool's.
    for (const read of [(r: Response) => r.arrayBuffer(), (r: Response) => r.bytes().then((b) => b.buffer)]) {
      const pooled = Buffer.from('eyJhIjoxfQ==', 'base64');
      expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
      expect(new Uint8Array(await read(lazyResponse(pooled, {})))).toEqual(new Uint8Array(await read(new Response(pooled))));
    }
    const bytes = await lazyResponse(Buffer.from('eyJhIjoxfQ==', 'base64'), {}).bytes();
    expect([bytes.constructor, Buffer.isBuffer(bytes)]).toEqual([Uint8Array, false]);
  });

  it('reads as a Response of the same string, by every reader, whatever the string and its type', async () => {
    // A byte order mark and a lone surrogate, which a Response's bytes of the string read back without;
    // no type given, which a Response of a string gives as text/plain.
    const inits = (): ResponseInit[] => [{}, { status: 201, headers: { 'content-type': 'application/json' } }, { headers: [['x-a', '1']] }, { headers: [['content-type', 'application/json'], ['x-a', '1'], ['x-a', '']] }, { statusText: 'Fine', headers: new Headers({ 'Content-Type': 'text/csv' }) }];
    for (const body of ['{"a":"é😀"}', '\ufeff{"a":1}', '\ufeff', '{"a":"\ud800"}', 'a\udfffb', ''])
      for (const [i, given] of inits().entries())
        for (const [name, read] of Object.entries(readers)) {
          const at = `${name} of ${JSON.stringify(body)} with init ${i}`;
          expect([at, await outcome(lazyResponse(body, given), read)]).toEqual([at, await outcome(new Response(body, inits()[i] as ResponseInit), read)]);
          expect([at, await outcome(lazyResponse(body, inits()[i] as ResponseInit).clone(), read)]).toEqual([at, await outcome(new Response(body, inits()[i] as ResponseInit).clone(), read)]);
        }
  });

  it('answers through msw: getResponse and a server intercepting fetch', async () => {
    const handlers = [http.get('*/a', () => json({ a: [1, 'two'] }, { headers: { 'x-id': '7' } })), http.get('*/b', () => HttpResponse.json({ a: [1, 'two'] }, { headers: { 'x-id': '7' } }))];
    const a = await getResponse(handlers, new Request('http://x.test/a'));
    const b = await getResponse(handlers, new Request('http://x.test/b'));
    expect(await seen(a as Response)).toEqual({ ...(await seen(b as Response)) });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const [fa, fb] = [await fetch('http://x.test/a'), await fetch('http://x.test/b')];
      expect([fa.status, [...fa.headers], await fa.json()]).toEqual([fb.status, [...fb.headers], await fb.json()]);
    } finally {
      server.close();
    }
  });

  it('is read from its body once something has read it', async () => {
    const response = json({ a: 1 });
    await response.text();
    expect(jsonTextOf(response)).toBeUndefined();
    await expect(Answer.of(response)).rejects.toThrow(TypeError);
  });

  it('leaves to msw what msw treats specially', async () => {
    for (const [body, i] of [
      [undefined, undefined],
      [() => 1, undefined],
      [{ a: 1 }, { status: 204 }],
      [{ a: 1 }, { status: 101 }],
      [{ a: 1 }, { status: 304 }],
      [{ a: 1 }, { status: 600 }],
      [{ a: 1 }, { headers: { 'set-cookie': 'a=1' } }],
      [{ a: 1 }, { type: 'cors' as ResponseType }],
    ] as const) {
      const response = json(body, i);
      expect(response).toBeInstanceOf(HttpResponse);
      expect(jsonTextOf(response)).toBeUndefined();
      expect(await seen(response)).toEqual(await seen(HttpResponse.json(body as never, i)));
    }
  });

  it('throws where HttpResponse.json throws', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => HttpResponse.json(cyclic)).toThrow(TypeError);
    expect(() => json(cyclic)).toThrow(TypeError);
    expect(() => HttpResponse.json(1n as never)).toThrow(TypeError);
    expect(() => json(1n)).toThrow(TypeError);
    expect(() => HttpResponse.json({}, { statusText: 'bad\ntext' })).toThrow(TypeError);
    expect(() => json({}, { statusText: 'bad\ntext' })).toThrow(TypeError);
  });
});

describe('deriveSeed', () => {
  const joined = (parts: readonly SeedPart[]) =>
    hash53(parts.map((p) => (typeof p === 'string' ? `s${p.length}:${p}` : typeof p === 'number' ? `n${String(p)}` : `b${p ? 1 : 0}`)).join('|'))
      .toString(36)
      .padStart(11, '0');

  it('hashes its parts as the string they write, joined', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constantFrom(0, -0, 0.1, 1e21, NaN, Infinity)), { maxLength: 8 }), (parts) => {
        expect(deriveSeed(...parts)).toBe(joined(parts));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the seeds of known paths', () => {
    // Written down from the hash of the joined string: records and reports name episodes by these.
    expect(deriveSeed('42', 'cancel-pending-mistake', 'eps', 0.5, 3, 'perturbation')).toBe('1gyogb7a2p6');
    expect(deriveSeed()).toBe('0wvjl67o803');
    expect(deriveSeed('run', true, false, -0, 1e21)).toBe('1vftickq14n');
  });
});
