/**
 * A module agent's tool calls cross from its host process as plain values (src/agents/host/protocol.ts):
 * made the common way (a URL and a plain init), without a `Request`. Held here to what a `Request` of the
 * same call gives, field for field and byte for byte, and to leave every other call to a `Request`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainHeaderList, plainWireRequest } from '../../src/agents/host/protocol.js';
import { bodyText, headerRecord, headersInit, orThrows } from '../ground/http-draws.js';

/** What the host sent before: the call read through a Request. */
async function viaRequest(input: string | URL, init?: RequestInit): Promise<unknown> {
  const request = new Request(input, init);
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
  // A body of no bytes does not cross.
  return { url: request.url, method: request.method, headers: [...request.headers], ...(body && body.length > 0 ? { body: body.toString('base64') } : {}) };
}
const plain = (input: unknown, init?: RequestInit) => {
  const w = plainWireRequest(input, init);
  return w && { url: w.url, method: w.method, headers: w.headers, ...(w.body && w.body.length > 0 ? { body: w.body.toString('base64') } : {}) };
};

const base = 'http://e1-abc.retail.shakedown.test/api';
const urls: (string | URL)[] = [
  `${base}/orders/%23W9000201`,
  `${base}/users/by-email?email=${encodeURIComponent('Ann.Lee+x@example.com')}`,
  `${base}/users/by-name?first=Zoë&last=O'Brien&zip=10 001`,
  `${base}/orders/W1/#frag`,
  `HTTP://E1-ABC.Retail.Shakedown.Test:80/api/./orders/../orders/W1?`,
  new URL(`${base}/products/tee?colour=red&colour=blue`),
  'https://example.org/πάθος',
];
const inits: (RequestInit | undefined)[] = [
  undefined,
  {},
  { headers: { accept: 'application/json' } },
  { method: 'get', headers: [['Accept', 'application/json'], ['X-Trace', '  a  '], ['x-trace', 'b']] },
  { method: 'post', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' }, body: JSON.stringify({ reason: 'no longer needed' }) },
  { method: 'POST', body: '' },
  { method: 'POST', body: 'caf\u00e9 \ud83d\ude00 lone \ud800 surrogate' },
  { method: 'Patch', headers: new Headers({ 'content-type': 'application/merge-patch+json' }), body: '{}' },
  { method: 'delete' },
  { method: 'PURGE', body: 'x' },
  { method: 'HEAD' },
  { method: 'options', headers: {} },
  { method: 'POST', body: null },
  { method: 'POST', body: 'x', signal: new AbortController().signal },
  { method: 'POST', body: 'x', signal: null },
  Object.assign(Object.create(null) as RequestInit, { method: 'PUT', body: '[1,2]' }),
];

describe('a tool call crossing from the agent host', () => {
  it('crosses as a Request of it would: URL, method, headers and body bytes', async () => {
    let crossed = 0;
    for (const url of urls) {
      for (const init of inits) {
        const w = plain(url, init);
        expect(w, `${String(url)} ${JSON.stringify(init)}`).toBeDefined();
        expect(w).toEqual(await viaRequest(url, init));
        crossed++;
      }
    }
    expect(crossed).toBe(urls.length * inits.length);
  });

  it('leaves to a Request what it does not hold, or what a Request refuses', async () => {
    const left: [unknown, RequestInit | undefined][] = [
      [new Request(`${base}/orders/W1`), undefined],
      ['/api/orders/W1', undefined],
      ['not a url', undefined],
      ['http://user:secret@e1.retail.shakedown.test/api', undefined],
      [`${base}/orders/W1`, { method: 'GET', body: 'x' }],
      [`${base}/orders/W1`, { method: 'head', body: '' }],
      [`${base}/orders/W1`, { method: 'bad method' }],
      [`${base}/orders/W1`, { method: 'connect' }],
      [`${base}/orders/W1`, { method: 'TRACE' }],
      [`${base}/orders/W1`, { headers: { 'bad header': 'x' } }],
      [`${base}/orders/W1`, { headers: { accept: 'a\nb' } }],
      [`${base}/orders/W1`, { method: 'POST', body: new URLSearchParams({ a: '1' }) }],
      [`${base}/orders/W1`, { method: 'POST', body: new Blob(['x'], { type: 'text/x' }) }],
      [`${base}/orders/W1`, { method: 'POST', body: new Uint8Array([1, 2]) }],
      [`${base}/orders/W1`, { method: 'POST', body: 'x', mode: 'cors' }],
      [`${base}/orders/W1`, { method: 'POST', body: 'x', duplex: 'half' } as RequestInit],
      [`${base}/orders/W1`, new (class Init { method = 'GET'; })() as RequestInit],
      [`${base}/orders/W1`, { method: 7 as unknown as string }],
    ];
    for (const [input, init] of left) expect(plainWireRequest(input, init), `${String(input)} ${JSON.stringify(init)}`).toBeUndefined();
    // Those a Request takes still cross the same way through it (the host makes one): the plain form only
    // stands aside. Those it refuses throw there, as they did.
    await expect(viaRequest(`${base}/orders/W1`, { method: 'GET', body: 'x' })).rejects.toThrow(TypeError);
    await expect(viaRequest('/api/orders/W1')).rejects.toThrow(TypeError);
  });
});

describe('headers given as a plain object, listed without Headers', () => {
  it('gives what [...new Headers(it)] gives, or leaves it to Headers', async () => {
    let listed = 0;
    await fc.assert(
      fc.asyncProperty(headerRecord, async (given) => {
        const fast = plainHeaderList(given);
        if (fast === undefined) return;
        listed++;
        expect(fast).toEqual(await orThrows(() => [...new Headers(given)]));
      }),
      { numRuns: 2_000 },
    );
    // The common shapes are listed, not left.
    expect(listed).toBeGreaterThan(500);
  });

  it('reads names as Headers does: those not enumerable, in either case; leaves symbols, getters that are not strings, other objects', () => {
    const hidden = { accept: 'application/json' };
    Object.defineProperty(hidden, 'x-hidden', { value: '1', enumerable: false });
    expect(plainHeaderList(hidden)).toEqual([...new Headers(hidden)]);
    expect(plainHeaderList(Object.assign(Object.create(null) as object, { B: '2', a: '1' }))).toEqual([['a', '1'], ['b', '2']]);
    expect(plainHeaderList({ Accept: 'a', accept: 'b' })).toBeUndefined();
    expect(plainHeaderList({ [Symbol('s')]: 'x' })).toBeUndefined();
    expect(plainHeaderList({ n: 1 })).toBeUndefined();
    expect(plainHeaderList(new Headers({ a: '1' }))).toBeUndefined();
    expect(plainHeaderList([['a', '1']])).toBeUndefined();
    expect(plainHeaderList(undefined)).toEqual([]);
    expect(plainHeaderList(null)).toBeUndefined();
  });
});

describe('calls drawn at random', () => {
  it('cross as a Request of them would, or are left to one', async () => {
    const body = fc.oneof(fc.constant(undefined), fc.constant(null), bodyText);
    const method = fc.constantFrom(undefined, 'GET', 'get', 'POST', 'post', 'put', 'PATCH', 'patch', 'DELETE', 'HEAD', 'PURGE', 'connect', 'bad method');
    const url = fc.constantFrom(...urls.map(String), '/relative', 'http://u:p@e1.retail.shakedown.test/api', 'not a url');
    let crossed = 0;
    await fc.assert(
      fc.asyncProperty(url, fc.record({ method, headers: headersInit, body }, { requiredKeys: [] }), async (u, init) => {
        const w = plain(u, init as RequestInit);
        if (w === undefined) return;
        crossed++;
        expect(w).toEqual(await orThrows(() => viaRequest(u, init as RequestInit)));
      }),
      { numRuns: 1_000 },
    );
    expect(crossed).toBeGreaterThan(200);
  });
});
