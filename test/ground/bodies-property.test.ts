/**
 * The engine's request and response façades (src/ground/bodies.ts) against `new Request` and `new Response`
 * over calls drawn at random: methods in any case, headers as a record, a list of pairs or `Headers` with
 * names and values `Headers` trims, refuses or combines, bodies with a byte order mark, lone surrogates or
 * none, URLs with odd parts; and answers of any status, status text, headers and body. Whatever each is
 * given, it reads as the real one does, or throws where the real one throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lazyResponse, requestOf } from '../../src/ground/bodies.js';
import { outcome, type Reader } from './body-readers.js';
import { bodyText, headersInit } from './http-draws.js';

const requestReaders: Record<string, Reader<Request>> = {
  'its members and text': async (r) => [r.method, r.url, [...r.headers], r.bodyUsed, r.body === null, await r.text(), r.bodyUsed],
  json: async (r) => [await r.json(), r.bodyUsed],
  bytes: async (r) => [...(await r.bytes())],
  'clone, then both': async (r) => {
    const c = r.clone();
    return [await c.text(), await r.text(), [...c.headers]];
  },
  'a Request of it': async (r) => {
    const again = new Request(r);
    return [again.method, [...again.headers], await again.text()];
  },
};

const responseReaders: Record<string, Reader<Response>> = {
  'its members and text': async (r) => [r.status, r.statusText, r.ok, r.type, [...r.headers], r.bodyUsed, r.body === null, await r.text(), r.bodyUsed],
  json: async (r) => [await r.json(), r.bodyUsed],
  bytes: async (r) => [...(await r.bytes())],
  'clone, then both': async (r) => {
    const c = r.clone();
    return [await c.text(), await r.text(), [...c.headers]];
  },
  blob: async (r) => {
    const b = await r.blob();
    return [b.type, await b.text()];
  },
};

/** What making it gave: the error's class, or each reader's outcome on a fresh one. */
async function made<T extends Request | Response>(make: () => T, readers: Record<string, Reader<T>>): Promise<unknown> {
  try {
    make();
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
  const out: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(readers)) out[name] = await outcome(make(), read);
  return out;
}

describe('the engine\'s requests and responses, drawn at random', () => {
  it('a request reads as new Request of the same call reads, or throws as it throws', async () => {
    const url = fc.constantFrom('http://e1.retail.shakedown.test/api/orders/W1', 'HTTP://E1.Retail.Shakedown.Test:80/api/./x/../orders/%23W1?q=1#f', 'http://e1.retail.shakedown.test/api/users/by-name?first=Zoë', 'http://u:p@e1.retail.shakedown.test/api', '/relative', 'not a url');
    const method = fc.constantFrom(undefined, 'GET', 'get', 'POST', 'post', 'PUT', 'patch', 'PATCH', 'DELETE', 'delete', 'HEAD', 'OPTIONS', 'PURGE', 'purge', 'CONNECT', 'trace', 'bad method', '');
    const init = fc.record({ method, headers: headersInit, body: fc.option(bodyText, { nil: undefined }) }, { requiredKeys: [] });
    let made2 = 0;
    await fc.assert(
      fc.asyncProperty(url, fc.option(init, { nil: undefined }), async (u, i) => {
        const real = await made(() => new Request(u, i as RequestInit | undefined), requestReaders);
        const ours = await made(() => requestOf(u, i as RequestInit | undefined), requestReaders);
        expect(ours).toEqual(real);
        if (!('threw' in (real as object))) made2++;
      }),
      { numRuns: 600 },
    );
    expect(made2).toBeGreaterThan(100);
  });

  it('a response reads as new Response of the same answer reads, or throws as it throws', async () => {
    const status = fc.oneof(fc.constantFrom(200, 201, 204, 205, 299, 304, 400, 404, 422, 429, 500, 599, 100, 600, 0, 200.5), fc.integer({ min: 200, max: 599 }));
    const statusText = fc.constantFrom(undefined, '', 'OK', 'Not Found', 'bad\ntext', 'caf\u00e9', '\u0100');
    const init = fc.record({ status, statusText, headers: headersInit }, { requiredKeys: [] });
    const body = fc.oneof(bodyText, bodyText.map((t) => new TextEncoder().encode(t)), fc.uint8Array({ maxLength: 6 }));
    let made2 = 0;
    await fc.assert(
      fc.asyncProperty(body, init, async (b, i) => {
        const copy = () => (typeof b === 'string' ? b : new Uint8Array(b));
        const real = await made(() => new Response(copy(), i as ResponseInit), responseReaders);
        const ours = await made(() => lazyResponse(copy() as string | Uint8Array<ArrayBuffer>, i as ResponseInit), responseReaders);
        expect(ours).toEqual(real);
        if (!('threw' in (real as object))) made2++;
      }),
      { numRuns: 600 },
    );
    expect(made2).toBeGreaterThan(100);
  });
});
