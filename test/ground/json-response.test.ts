/**
 * `json` (src/ground/handlers.ts), the built-in worlds' JSON answer, against msw's `HttpResponse.json`
 * that it stands for: status, status text, headers and body bytes for any JSON value and init; the
 * engine's read of it without its body stream (`Answer.of`) against reading the body; and what it leaves
 * to msw. Also `deriveSeed`, now hashed part by part, against the string it hashed before.
 */
import fc from 'fast-check';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { json, jsonTextOf } from '../../src/ground/handlers.js';
import { Answer } from '../../src/ground/resolve.js';
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
