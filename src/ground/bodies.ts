/**
 * Requests and responses whose body is made only when something reads it.
 *
 * A `Request` or `Response` with a body makes a body stream at once, and in Node 20 makes that stream
 * transferable: together most of a tool call's cost and most of its garbage. On the engine's own path the
 * body is text it already holds: a tool call's JSON body, a handler's JSON answer, the answer it hands an
 * agent that runs in its own process (a built-in agent). These classes are a
 * real `Request` or `Response` (status, headers, URL, method, signal are the base's own) whose body
 * members read a real one of the same text, made on first use, with its behaviour: one read, `bodyUsed`,
 * the error of a second read, clones. The engine takes the text without a stream (`takeText`,
 * `jsonTextOf`). What reaches past JavaScript to undici's own state (`Response.prototype.text.call(r)`)
 * sees no body; nothing on the engine's paths does that. `test/ground/json-response.test.ts` and
 * `test/ground/lazy-request.test.ts` hold them to real ones, reader by reader.
 */

/** Statuses whose responses carry no body (the Fetch standard's null body statuses, and 101 and 103 before them). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

const DEFAULT_CONTENT_TYPE = Symbol.for('kDefaultContentType');
const noop = (): void => undefined;

const decoder = new TextDecoder();
/** A plain copy of the bytes in a buffer of their own (a `Buffer`'s own `slice` would share its pool's). */
const copyOf = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);
const encoder = new TextEncoder();

class LazyResponse extends Response {
  readonly #source: string | Uint8Array<ArrayBuffer>;
  #real: Response | undefined;
  /** Read as text, JSON or bytes without a stream: the body is used. */
  #taken = false;

  constructor(source: string | Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#source = source;
  }

  #body(): Response {
    if (this.#real) return this.#real;
    this.#real = new Response(this.#source, { status: this.status, statusText: this.statusText, headers: this.headers });
    // Read already: the real body is used as well, so that reading it fails as a second read does.
    if (this.#taken) void this.#real.arrayBuffer().catch(noop);
    return this.#real;
  }

  /** The body's text without a stream, the body then used; `undefined` where a read must go through the real body. */
  #take(): string | Uint8Array<ArrayBuffer> | undefined {
    if (this.#real || this.#taken) return undefined;
    this.#taken = true;
    return this.#source;
  }

  /** The text it was made of, while nothing has read the body; `undefined` for bytes. */
  unread(): string | undefined {
    return this.#real || this.#taken || typeof this.#source !== 'string' ? undefined : this.#source;
  }

  override get body(): Response['body'] {
    return this.#body().body;
  }
  override get bodyUsed(): boolean {
    return this.#taken || (this.#real?.bodyUsed ?? false);
  }
  // Text, JSON and bytes as a Response reads them (UTF-8 without a byte order mark; JSON.parse's errors).
  override text(): Promise<string> {
    const source = this.#take();
    if (source === undefined) return this.#body().text();
    return Promise.resolve(typeof source === 'string' ? source : decoder.decode(source));
  }
  override json(): Promise<unknown> {
    const source = this.#take();
    if (source === undefined) return this.#body().json();
    try {
      return Promise.resolve(JSON.parse(typeof source === 'string' ? source : decoder.decode(source)) as unknown);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    const source = this.#take();
    if (source === undefined) return this.#body().arrayBuffer();
    return Promise.resolve(typeof source === 'string' ? encoder.encode(source).buffer : copyOf(source).buffer);
  }
  override bytes(): ReturnType<Response['bytes']> {
    const source = this.#take();
    if (source === undefined) return this.#body().bytes();
    return Promise.resolve(typeof source === 'string' ? encoder.encode(source) : copyOf(source));
  }
  override blob(): Promise<Blob> {
    return this.#body().blob();
  }
  override formData(): Promise<FormData> {
    return this.#body().formData();
  }
  /** A copy that makes its own body when read, as this one does, until this one's body is read. */
  override clone(): Response {
    if (this.#real || this.#taken) return this.#body().clone();
    return new LazyResponse(this.#source, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}

/**
 * `new Response(body, init)` for a body of text or bytes, its stream made on first read. For the
 * answers the engine hands its own agents (src/ground/resolve.ts).
 */
export const lazyResponse = (body: string | Uint8Array<ArrayBuffer>, init: ResponseInit): Response =>
  // A status that cannot carry a body: `Response` itself, which refuses the body as it always did.
  NULL_BODY_STATUSES.has(init.status ?? 200) ? new Response(body, init) : new LazyResponse(body, init);

/** A JSON response of `text` (see `json` in handlers.ts, which sets its headers as msw does). */
export function jsonResponse(text: string, init: ResponseInit, defaultType: boolean): Response {
  const response = new LazyResponse(text, init);
  if (defaultType) Object.defineProperty(response, DEFAULT_CONTENT_TYPE, { value: true, enumerable: false });
  return response;
}

/** The text a response made by `json` holds, while its body is unread; `undefined` for any other. */
export const jsonTextOf = (response: Response): string | undefined => (response instanceof LazyResponse ? response.unread() : undefined);

class TextRequest extends Request {
  readonly #text: string;
  #real: Request | undefined;
  /** The text was taken without a stream (`takeText`): the body is used. */
  #taken = false;

  constructor(input: string | URL, init: RequestInit, text: string) {
    super(input, init);
    this.#text = text;
    // As a Request of a string body: its type, unless one was given.
    if (!this.headers.has('content-type')) this.headers.set('content-type', 'text/plain;charset=UTF-8');
  }

  #body(): Request {
    if (this.#real) return this.#real;
    this.#real = new Request(this, { body: this.#text });
    // Taken already: the real body is used as well, so that reading it fails as a second read does.
    if (this.#taken) void this.#real.arrayBuffer().catch(noop);
    return this.#real;
  }

  take(): string | undefined {
    if (this.#real || this.#taken) return undefined;
    this.#taken = true;
    return this.#text;
  }

  /**
   * The text, the body left unused, while no stream was made and nothing took it; not for a text that
   * begins with a byte order mark, which `text()` drops (undici's drops two), and only a read tells how.
   */
  peek(): string | undefined {
    return this.#real || this.#taken || this.#text.charCodeAt(0) === 0xfeff ? undefined : this.#text;
  }

  override get body(): Request['body'] {
    return this.#body().body;
  }
  override get bodyUsed(): boolean {
    return this.#taken || (this.#real?.bodyUsed ?? false);
  }
  override text(): Promise<string> {
    return this.#body().text();
  }
  override json(): Promise<unknown> {
    return this.#body().json();
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#body().arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return this.#body().blob();
  }
  override formData(): Promise<FormData> {
    return this.#body().formData();
  }
  override bytes(): ReturnType<Request['bytes']> {
    return this.#body().bytes();
  }
  override clone(): Request {
    return this.#body().clone();
  }
}

const WITHOUT_BODY = new Set(['GET', 'HEAD']);

/**
 * `new Request(input, init)`, its body made on first use where it is a string sent with a URL and a
 * plain init; anything else (another body, a `Request` as input, a GET with a body, which throws) is made
 * by `Request` itself.
 */
export function requestOf(input: string | URL | Request, init: RequestInit | undefined): Request {
  const body = init?.body;
  if (typeof body !== 'string' || input instanceof Request || typeof init?.method !== 'string' || WITHOUT_BODY.has(init.method.toUpperCase())) return new Request(input, init);
  const { body: _, ...rest } = init;
  return new TextRequest(input, rest, body);
}

/** A request's body text without its stream, marking the body used, where `requestOf` kept it; `undefined` otherwise. */
export const takeText = (request: Request): string | undefined => (request instanceof TextRequest ? request.take() : undefined);

/**
 * A request's body text without its stream, the body left unused (what reading a clone of it gives),
 * where `requestOf` kept it and nothing has read or taken it; `undefined` otherwise.
 */
export const peekText = (request: Request): string | undefined => (request instanceof TextRequest ? request.peek() : undefined);
