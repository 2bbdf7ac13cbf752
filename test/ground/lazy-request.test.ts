/**
 * A tool call's request as the engine makes it (`requestOf`, src/ground/bodies.ts): its body made only
 * when something reads it. Held to `new Request` of the same call, reader by reader: what each gives or
 * throws, `bodyUsed` before and after, clones, a request made from it; the engine's read without a
 * stream (`takeText`) uses the body as a read does, its look without one (`peekText`, as `bodyText` takes it)
 * gives what a clone's read gives and leaves the body unused; and calls it does not take are `Request`'s own.
 */
import { describe, expect, it } from 'vitest';
import { peekText, requestOf, takeText } from '../../src/ground/bodies.js';
import { bodyText } from '../../src/ground/resolve.js';
import { bodyReaders, outcome, type Reader } from './body-readers.js';

const url = 'http://e1.retail.shakedown.test/api/orders/W1/cancel';
const calls: [string, RequestInit][] = [
  ['json body', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{"reason":"no longer needed","n":"é😀"}' }],
  ['no type given', { method: 'post', body: 'plain words' }],
  ['empty body', { method: 'PUT', body: '' }],
  ['form body', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=two' }],
  ['a signal and a mode', { method: 'PATCH', body: '[1,2]', signal: new AbortController().signal, mode: 'cors', keepalive: false }],
  // Made without a Request (`PlainRequest`): a GET, a signal, headers as a Headers, a body with a byte order mark, an aborted signal.
  ['a GET', { headers: { accept: 'application/json', 'x-trace': 'a, b' } }],
  ['a lower-case get', { method: 'get' }],
  ['a POST with a signal', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}', signal: new AbortController().signal }],
  ['headers as Headers', { method: 'DELETE', headers: new Headers({ 'idempotency-key': 'k1' }), body: 'x' }],
  ['a byte order mark', { method: 'POST', body: '\ufeff{"a":1}' }],
  ['an aborted signal', { method: 'POST', body: '1', signal: AbortSignal.abort(new Error('gone')) }],
  ['no init', undefined as unknown as RequestInit],
  ['headers as a list of pairs', { method: 'POST', headers: [['content-type', 'application/json'], ['x-a', '1'], ['x-a', '2']], body: '{}' }],
  // A string that is not well formed: a Request's bytes of it hold U+FFFD where the lone surrogate was.
  // A value joined with an empty one (`1, `), which a copy through `new Headers(h)` would trim.
  ['a header given twice, the second empty', { method: 'POST', headers: [['content-type', 'application/json'], ['x-a', '1'], ['x-a', '']], body: '{}' }],
  ['a lone surrogate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"\ud800"}' }],
];

const readers: Record<string, Reader<Request>> = {
  ...bodyReaders<Request>(),
  'clone, then both': async (r) => {
    const c = r.clone();
    return [await c.text(), await r.text(), c.method, c.url, [...c.headers], c.bodyUsed];
  },
  'a Request of it': async (r) => {
    const again = new Request(r.url, r);
    return [again.method, [...again.headers], await again.text(), r.bodyUsed];
  },
  'its attributes': async (r) => [r.method, r.url, [...r.headers], r.mode, r.credentials, r.cache, r.redirect, r.keepalive, r.signal.aborted, r.bodyUsed, r.body === null],
  'every member': async (r) => [r instanceof Request, Object.prototype.toString.call(r), r.destination, r.referrer, r.referrerPolicy, r.integrity, (r as unknown as Record<string, unknown>).duplex, (r as unknown as Record<string, unknown>).isReloadNavigation, (r as unknown as Record<string, unknown>).isHistoryNavigation, r.signal.reason === undefined ? 'no reason' : String(r.signal.reason)],
  'a Request with it as input': async (r) => {
    const again = new Request(r);
    return [again.method, again.url, [...again.headers], await again.text(), r.bodyUsed];
  },
  'headers changed, then a clone': async (r) => {
    r.headers.set('x-added', '1');
    const c = r.clone();
    return [[...c.headers], [...r.headers], await c.text()];
  },
};

describe('requestOf', () => {
  it('reads as new Request reads, by every reader', async () => {
    for (const [call, init] of calls) {
      for (const [name, read] of Object.entries(readers)) {
        expect([call, name, await outcome(requestOf(url, init), read)]).toEqual([call, name, await outcome(new Request(url, init), read)]);
      }
    }
  });

  it('gives the engine its text once, after which the body reads as used', async () => {
    for (const [name, read] of Object.entries(readers)) {
      const lazy = requestOf(url, calls[0]?.[1] as RequestInit);
      expect(takeText(lazy)).toBe(calls[0]?.[1].body);
      expect(takeText(lazy)).toBeUndefined();
      const real = new Request(url, calls[0]?.[1]);
      await real.text();
      expect([name, await outcome(lazy, read)]).toEqual([name, await outcome(real, read)]);
    }
  });

  it('gives no text where something read the body first', async () => {
    const lazy = requestOf(url, calls[0]?.[1] as RequestInit);
    const copy = lazy.clone();
    expect(takeText(lazy)).toBeUndefined();
    expect(await lazy.text()).toBe(await copy.text());
    expect(takeText(new Request(url, calls[0]?.[1]))).toBeUndefined();
  });

  it('lets the engine look at its text as a clone reads it, the body left unused, until something reads or takes it', async () => {
    const bodies = ['{"a":1}', '', '\uFEFF{"marked":true}', '\uFEFF\uFEFFtwice', 'é😀'];
    for (const body of bodies) {
      const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
      const real = new Request(url, init);
      const lazy = requestOf(url, init);
      const seen = await real.clone().text();
      // A byte order mark is left to a read: text() drops it (undici's drops two of them).
      expect([body, peekText(lazy)]).toEqual([body, body.startsWith('\uFEFF') ? undefined : seen]);
      expect([body, await bodyText(lazy, undefined)]).toEqual([body, seen]);
      expect(lazy.bodyUsed).toBe(false);
      // The body still reads whole afterwards, as the real one's does after its clone was read.
      expect(await lazy.text()).toBe(await real.text());
      expect(peekText(lazy)).toBeUndefined();
    }
    const taken = requestOf(url, calls[0]?.[1] as RequestInit);
    takeText(taken);
    expect(peekText(taken)).toBeUndefined();
    // A used body cannot be copied: bodyText fails as it does for a real request whose body was read.
    const used = new Request(url, calls[0]?.[1]);
    await used.text();
    await expect(bodyText(taken, undefined)).rejects.toThrow(TypeError);
    await expect(bodyText(used, undefined)).rejects.toThrow(TypeError);
    expect(peekText(new Request(url, calls[0]?.[1]))).toBeUndefined();
  });

  it('makes a call of a URL, method, headers, string body and signal without Request, and any other with it', () => {
    const made = (init: RequestInit | undefined) => Object.getPrototypeOf(requestOf(url, init)) !== Request.prototype;
    for (const init of [undefined, { method: 'get' }, { method: 'POST', body: 'x', headers: { a: 'b' } }, { method: 'PUT', body: '', signal: new AbortController().signal }, { method: 'PATCH', body: 'x' }, { method: 'PURGE' }]) expect([init, made(init)]).toEqual([init, true]);
    // Members it does not hold, a method Request warns of or refuses, a body it does not hold, a URL with credentials, headers as a list.
    expect(made({ method: 'POST', headers: [['a', 'b']], body: 'x' })).toBe(true);
    for (const init of [{ mode: 'cors' }, { method: 'patch' }, { method: 'POST', body: new Uint8Array([1]) }, { keepalive: true }] as RequestInit[]) expect([init, made(init)]).toEqual([init, false]);
    expect(() => requestOf('http://u:p@e1.retail.shakedown.test/api', undefined)).toThrow(/credentials/);
    expect(() => requestOf(url, { method: 'POST', headers: [['a', 'b', 'c']] as unknown as [string, string][] })).toThrow(TypeError);
  });

  it('leaves other calls to Request, errors included', async () => {
    for (const init of [undefined, { method: 'GET' }, { method: 'POST', body: new Uint8Array([1, 2]) }, { method: 'POST', body: new URLSearchParams('a=1') }, { body: 'x' }, { method: 'GET', body: 'x' }, { method: 'HEAD', body: 'x' }] as RequestInit[]) {
      const made = (() => {
        try {
          return requestOf(url, init);
        } catch (error) {
          return (error as Error).constructor.name;
        }
      })();
      const real = (() => {
        try {
          return new Request(url, init);
        } catch (error) {
          return (error as Error).constructor.name;
        }
      })();
      if (typeof real === 'string') expect(made).toBe(real);
      else {
        expect(made).toBeInstanceOf(Request);
        expect(takeText(made as Request)).toBeUndefined();
        expect(await (made as Request).text()).toBe(await real.text());
      }
    }
    expect(() => requestOf('not a url', { method: 'POST', body: 'x' })).toThrow(TypeError);
    expect(() => requestOf(url, { method: 'BAD METHOD', body: 'x' })).toThrow(TypeError);
  });
});
