/**
 * Calls and answers drawn at random for the tests that hold the engine's requests, responses and wire forms
 * to real ones: header names and values that `Headers` keeps, trims, refuses or combines, headers in every
 * form an init takes, and body texts with what UTF-8 and `Response` treat specially.
 */
import fc from 'fast-check';

export const headerName = fc.constantFrom('accept', 'Accept', 'ACCEPT', 'content-type', 'Content-Type', 'x-a', 'X-A', 'idempotency-key', 'set-cookie', '1', 'bad name', 'é', '', 'a\u0100');
export const headerValue = fc.oneof(
  fc.constantFrom('application/json', 'text/plain', 'k-1', '', '  ', ' lead', 'trail ', '\ttab', 'in\tside', 'a\nb', 'a\rb', 'a\u0000b', 'a\u0001b', 'caf\u00e9', '\u0100', 'x, y'),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
/** Headers as a plain object: odd ones, and the common shapes of a tool call. */
export const headerRecord = fc.oneof(
  fc.dictionary(fc.oneof(headerName, fc.string({ maxLength: 6 })), headerValue, { maxKeys: 5 }),
  fc.dictionary(fc.constantFrom('accept', 'content-type', 'x-request-id', 'Idempotency-Key'), fc.constantFrom('application/json', 'k-1', 'a b'), { maxKeys: 4 }),
);
/** Headers in every form an init takes, or none. */
export const headersInit = fc.oneof(
  fc.constant(undefined),
  headerRecord,
  fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }),
  fc.dictionary(fc.constantFrom('accept', 'content-type', 'x-b'), fc.constantFrom('application/json', 'v'), { maxKeys: 3 }).map((d) => new Headers(d)),
);
/** Body texts: a byte order mark, lone surrogates, multi-byte characters, any string. */
export const bodyText = fc.oneof(fc.constantFrom('', '{"a":1}', '\ufeff{"a":1}', '\ufeff', '{"a":"\ud800"}', 'a\udfffb', 'é😀', 'a=1&b=2'), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }));

/** What `make` gives, or `'throws'`. */
export async function orThrows<T>(make: () => T | Promise<T>): Promise<T | 'throws'> {
  try {
    return await make();
  } catch {
    return 'throws';
  }
}
