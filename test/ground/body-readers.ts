/**
 * Every way to read a `Request`'s or a `Response`'s body, and orders of reads, for tests that hold a body
 * made on first use (src/ground/bodies.ts) to a real one: each reader runs on a fresh pair, and
 * `outcome` says what it gave or threw and what `bodyUsed` said before and after.
 */
type Body = Request | Response;
export type Reader<T extends Body> = (r: T) => Promise<unknown>;

export function bodyReaders<T extends Body>(): Record<string, Reader<T>> {
  return {
    text: (r) => r.text(),
    json: (r) => r.json(),
    arrayBuffer: async (r) => [...new Uint8Array(await r.arrayBuffer())],
    bytes: async (r) => [...(await r.bytes())],
    blob: async (r) => {
      const b = await r.blob();
      return [b.type, b.size, await b.text()];
    },
    formData: (r) => r.formData().then((f) => [...f]),
    'body stream': async (r) => {
      const chunks: number[] = [];
      for await (const c of r.body as ReadableStream<Uint8Array>) chunks.push(...c);
      return [chunks, r.body === r.body, r.body?.locked];
    },
    'text twice': async (r) => [await r.text(), await r.text()],
    'body, then text': async (r) => {
      const reader = r.body?.getReader();
      await reader?.read();
      return r.text();
    },
    'json, then the body': async (r) => [await r.json(), r.bodyUsed, r.body?.locked],
    'text, then arrayBuffer': async (r) => [await r.text(), await r.arrayBuffer()],
    // The clone's own state, not the object: two clones of real ones are not deeply equal (their signals' listeners).
    'bytes, then clone': async (r) => {
      const bytes = [...(await r.bytes())];
      const c = r.clone();
      return [bytes, c.bodyUsed, c.body === null, await c.text()];
    },
    'arrayBuffer, then blob': async (r) => [[...new Uint8Array(await r.arrayBuffer())], await r.blob()],
    'clone, read, clone again': async (r) => {
      const c = r.clone();
      await c.text();
      return [await r.clone().text(), await r.text(), c.bodyUsed];
    },
  };
}

export async function outcome<T extends Body>(r: T, read: Reader<T>) {
  const before = r.bodyUsed;
  try {
    return { before, value: await read(r), after: r.bodyUsed };
  } catch (error) {
    return { before, error: (error as Error).constructor.name, after: r.bodyUsed };
  }
}
