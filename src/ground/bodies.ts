/**
 * Requests and responses whose body is made only when something reads it.
 *
 * A `Request` or `Response` with a body makes a body stream at once, and in Node 20 makes that stream
 * transferable: together most of a tool call's cost and most of its garbage. On the engine's own path the
 * body is text it already holds: a tool call's JSON body, a handler's JSON answer, the answer it hands an
 * agent that runs in its own process (a built-in agent). A response here is a real `Response` (status,
 * headers are the base's own) whose body members read a real one of the same text, made on first use,
 * with its behaviour: one read, `bodyUsed`, the error of a second read, clones; what reaches past
 * JavaScript to undici's own state (`Response.prototype.text.call(r)`) sees no body, and nothing on the
 * engine's paths does that. A request here is not made by `Request` at all (`PlainRequest`): its URL,
 * method and headers are its own, and everything else, undici's own state included, is a real one's,
 * made on first use. The engine takes the text without a stream (`takeText`, `jsonTextOf`).
 * `test/ground/json-response.test.ts` and `test/ground/lazy-request.test.ts` hold them to real ones,
 * reader by reader.
 */

/** Statuses whose responses carry no body (the Fetch standard's null body statuses, and 101 and 103 before them). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

const DEFAULT_CONTENT_TYPE = Symbol.for('kDefaultContentType');
const noop = (): void => undefined;

const decoder = new TextDecoder();
/** A plain copy of the bytes in a buffer of their own (a `Buffer`'s own `slice` would share its pool's). */
const copyOf = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);
const encoder = new TextEncoder();

/**
 * A header list's entries, for a copy that lists as it does: `new Headers(h)` or an init of `h` reads its
 * combined values and trims each, so `a, ` (an entry `a`, then an empty one) would come out `a,`. The
 * entries of a combined value are rebuilt where that matters: its values carry no space at either end, so
 * a trailing `, ` is always an empty entry joined on.
 */
function entriesOf(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of headers) {
    let v = value;
    let empty = 0;
    while (v.endsWith(', ')) {
      v = v.slice(0, -2);
      empty++;
    }
    out.push([name, v]);
    for (let i = 0; i < empty; i++) out.push([name, '']);
  }
  return out;
}

/**
 * A string body as a `Response` holds it: kept as text where its UTF-8 bytes read back to the same text
 * (well formed, no leading byte order mark), else those bytes, which read as `Response` reads them (a lone
 * surrogate as U+FFFD, the byte order mark dropped).
 */
const sourceOf = (body: string | Uint8Array<ArrayBuffer>): string | Uint8Array<ArrayBuffer> =>
  typeof body !== 'string' || (body.isWellFormed() && body.charCodeAt(0) !== 0xfeff) ? body : encoder.encode(body);

class LazyResponse extends Response {
  readonly #source: string | Uint8Array<ArrayBuffer>;
  #real: Response | undefined;
  /** Read as text, JSON or bytes without a stream: the body is used. */
  #taken = false;

  constructor(source: string | Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    // As a Response of a string: its type, unless one was given.
    if (typeof source === 'string' && !this.headers.has('content-type')) this.headers.set('content-type', 'text/plain;charset=UTF-8');
    this.#source = sourceOf(source);
  }

  #body(): Response {
    if (this.#real) return this.#real;
    this.#real = new Response(this.#source, { status: this.status, statusText: this.statusText, headers: entriesOf(this.headers) });
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
    return new LazyResponse(this.#source, { status: this.status, statusText: this.statusText, headers: entriesOf(this.headers) });
  }
}

/**
 * Gives a plain object's prototype undici's own slots (the symbols a real `probe` keeps its state under)
 * and `util.inspect`'s hook, each read from the real object `realOf` makes of it: what reaches past
 * JavaScript (`new Request(it)`, `fetch(it)`, `Response.prototype.text.call(it)`) then works on it.
 */
function delegateToReal(prototype: object, probe: object, realOf: (plain: object) => object): void {
  const base = Object.getPrototypeOf(probe) as object;
  for (const symbol of [...Object.getOwnPropertySymbols(probe), Symbol.for('nodejs.util.inspect.custom')]) {
    const own = Object.getOwnPropertyDescriptor(base, symbol);
    Object.defineProperty(
      prototype,
      symbol,
      own && typeof own.value === 'function'
        ? { value(this: object, ...args: unknown[]) { return (own.value as (...a: unknown[]) => unknown).apply(realOf(this), args); }, configurable: true }
        : { get(this: object) { return (realOf(this) as Record<symbol, unknown>)[symbol]; }, configurable: true },
    );
  }
}

/**
 * A response as a plain object that is a `Response` to whoever asks (`instanceof`, its members), made
 * without one: undici's `Response` validates its init and builds its state on every answer, twice a
 * tool call (the handler's answer and the agent's). Status, status text and headers are its own; its
 * body is read without a stream as `LazyResponse`'s is; the stream, a blob, form data and undici's own
 * slots come from a real `Response` of the same answer, made on first use. Only an init `Response`
 * takes as given is made this way (`plainResponseOf`).
 */
class PlainResponse {
  readonly #source: string | Uint8Array<ArrayBuffer>;
  readonly #status: number;
  readonly #statusText: string;
  readonly #headers: Headers;
  #real: Response | undefined;
  #taken = false;

  constructor(source: string | Uint8Array<ArrayBuffer>, status: number, statusText: string, headers: Headers) {
    this.#source = source;
    this.#status = status;
    this.#statusText = statusText;
    this.#headers = headers;
  }

  /** The real response of this answer, made once, with the headers as they are now. */
  static realOf(p: PlainResponse): Response {
    if (p.#real) return p.#real;
    p.#real = new Response(p.#source, { status: p.#status, statusText: p.#statusText, headers: entriesOf(p.#headers) });
    // Read already: the real body is used as well, so that reading it fails as a second read does.
    if (p.#taken) void p.#real.arrayBuffer().catch(noop);
    return p.#real;
  }

  /** The body without a stream, the body then used; `undefined` where a read must go through the real body. */
  static take(p: PlainResponse): string | Uint8Array<ArrayBuffer> | undefined {
    if (p.#real || p.#taken) return undefined;
    p.#taken = true;
    return p.#source;
  }

  /** The text it was made of, while nothing has read the body; `undefined` for bytes. */
  static unread(p: PlainResponse): string | undefined {
    return p.#real || p.#taken || typeof p.#source !== 'string' ? undefined : p.#source;
  }

  get type(): ResponseType {
    return 'default';
  }
  get url(): string {
    return '';
  }
  get redirected(): boolean {
    return false;
  }
  get status(): number {
    return this.#status;
  }
  get ok(): boolean {
    return this.#status >= 200 && this.#status <= 299;
  }
  get statusText(): string {
    return this.#statusText;
  }
  get headers(): Headers {
    return this.#real ? this.#real.headers : this.#headers;
  }
  get body(): Response['body'] {
    return PlainResponse.realOf(this).body;
  }
  get bodyUsed(): boolean {
    return this.#taken || (this.#real?.bodyUsed ?? false);
  }
  // Text, JSON and bytes as a Response reads them (UTF-8 without a byte order mark; JSON.parse's errors).
  text(): Promise<string> {
    const source = PlainResponse.take(this);
    if (source === undefined) return PlainResponse.realOf(this).text();
    return Promise.resolve(typeof source === 'string' ? source : decoder.decode(source));
  }
  json(): Promise<unknown> {
    const source = PlainResponse.take(this);
    if (source === undefined) return PlainResponse.realOf(this).json();
    try {
      return Promise.resolve(JSON.parse(typeof source === 'string' ? source : decoder.decode(source)) as unknown);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    const source = PlainResponse.take(this);
    if (source === undefined) return PlainResponse.realOf(this).arrayBuffer();
    return Promise.resolve(typeof source === 'string' ? encoder.encode(source).buffer : copyOf(source).buffer);
  }
  bytes(): ReturnType<Response['bytes']> {
    const source = PlainResponse.take(this);
    if (source === undefined) return PlainResponse.realOf(this).bytes();
    return Promise.resolve(typeof source === 'string' ? encoder.encode(source) : copyOf(source));
  }
  blob(): Promise<Blob> {
    return PlainResponse.realOf(this).blob();
  }
  formData(): Promise<FormData> {
    return PlainResponse.realOf(this).formData();
  }
  /** A copy that makes its own body when read, as this one does, until this one's body is read. */
  clone(): Response {
    if (this.#real || this.#taken) return PlainResponse.realOf(this).clone();
    return new PlainResponse(this.#source, this.#status, this.#statusText, new Headers(entriesOf(this.#headers))) as unknown as Response;
  }
}
// A `Response` to `instanceof` and to its prototype's members; undici's own slots and util.inspect read the real one.
Object.setPrototypeOf(PlainResponse.prototype, Response.prototype);
delegateToReal(PlainResponse.prototype, new Response(''), (p) => PlainResponse.realOf(p as PlainResponse));

/** A status text `Response` takes: the reason-phrase token of HTTP. */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The answer as a `PlainResponse`, or `undefined` where `Response` must make it (an init it would not take as given). */
function plainResponseOf(body: string | Uint8Array<ArrayBuffer>, init: ResponseInit): Response | undefined {
  const status = init.status ?? 200;
  const statusText = init.statusText ?? '';
  if (!Number.isInteger(status) || status < 200 || status > 599 || NULL_BODY_STATUSES.has(status) || typeof statusText !== 'string' || !REASON_PHRASE.test(statusText)) return undefined;
  const given = init.headers;
  if (given !== undefined && !(given instanceof Headers) && !Array.isArray(given) && !isPlainObject(given)) return undefined;
  let headers: Headers;
  try {
    headers = new Headers(given);
  } catch {
    return undefined;
  }
  // As a Response of a string: its type, unless one was given.
  if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  return new PlainResponse(sourceOf(body), status, statusText, headers) as unknown as Response;
}

/**
 * `new Response(body, init)` for a body of text or bytes, its stream made on first read. For the
 * answers the engine hands its own agents (src/ground/resolve.ts).
 */
export const lazyResponse = (body: string | Uint8Array<ArrayBuffer>, init: ResponseInit): Response =>
  // A status that cannot carry a body: `Response` itself, which refuses the body as it always did.
  NULL_BODY_STATUSES.has(init.status ?? 200) ? new Response(body, init) : (plainResponseOf(body, init) ?? new LazyResponse(body, init));

/** A JSON response of `text` (see `json` in handlers.ts, which sets its headers as msw does). */
export function jsonResponse(text: string, init: ResponseInit, defaultType: boolean): Response {
  const response = plainResponseOf(text, init) ?? new LazyResponse(text, init);
  if (defaultType) Object.defineProperty(response, DEFAULT_CONTENT_TYPE, { value: true, enumerable: false });
  return response;
}

/** The text a response made by `json` holds, while its body is unread; `undefined` for any other. */
export const jsonTextOf = (response: Response): string | undefined => (response instanceof PlainResponse ? PlainResponse.unread(response) : response instanceof LazyResponse ? response.unread() : undefined);

const WITHOUT_BODY = new Set(['GET', 'HEAD']);

/** The methods `Request` writes in capitals whatever case they come in. */
const STANDARD_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * A method as `Request` writes it: a standard one in capitals, any other token as given. `undefined` for
 * one `Request` refuses (not a token, CONNECT, TRACE, TRACK) or warns of ("patch"): made by `Request` itself.
 */
function methodOf(given: unknown): string | undefined {
  if (given === undefined) return 'GET';
  if (typeof given !== 'string' || !TOKEN.test(given)) return undefined;
  const upper = given.toUpperCase();
  if (STANDARD_METHODS.has(upper)) return upper;
  return upper === 'CONNECT' || upper === 'TRACE' || upper === 'TRACK' || (upper === 'PATCH' && given !== 'PATCH') ? undefined : given;
}
/** What an init may hold for a request made without `Request`: anything else is made by `Request` itself. */
const PLAIN_INIT = new Set(['method', 'headers', 'body', 'signal']);

/**
 * A tool call's request as a plain object that is a `Request` to whoever asks (`instanceof`, its members),
 * made without one: undici's `Request` makes an `AbortSignal`, parses and validates its input and copies
 * its headers on every call, about a tenth of an in-process episode. URL, method and headers are its
 * own; its text is read without a stream (`takeText`, `peekText`); everything else (the body stream, the
 * signal, a clone, a blob, undici's own slots, which `new Request(it)` and `fetch(it)` read) comes from a
 * real `Request` of the same call, made on first use. Only a call that `Request` would make as it is
 * given is made this way (`plainRequestOf`); `test/ground/lazy-request.test.ts` holds the two to each
 * other, reader by reader.
 */
class PlainRequest {
  readonly #url: string;
  readonly #method: string;
  readonly #headers: Headers;
  readonly #text: string | null;
  readonly #signal: AbortSignal | undefined;
  #real: Request | undefined;
  #taken = false;

  constructor(url: string, method: string, headers: Headers, text: string | null, signal: AbortSignal | undefined) {
    this.#url = url;
    this.#method = method;
    this.#headers = headers;
    this.#text = text;
    this.#signal = signal;
  }

  /** The real request of this call, made once, with the headers as they are now. */
  static realOf(p: PlainRequest): Request {
    if (p.#real) return p.#real;
    p.#real = new Request(p.#url, { method: p.#method, headers: entriesOf(p.#headers), ...(p.#text !== null ? { body: p.#text } : {}), ...(p.#signal ? { signal: p.#signal } : {}) });
    // Taken already: the real body is used as well, so that reading it fails as a second read does.
    if (p.#taken) void p.#real.arrayBuffer().catch(noop);
    return p.#real;
  }

  static take(p: PlainRequest): string | undefined {
    if (p.#real || p.#taken || p.#text === null) return undefined;
    p.#taken = true;
    return p.#text;
  }

  static peek(p: PlainRequest): string | undefined {
    return p.#real || p.#taken || p.#text === null || p.#text.charCodeAt(0) === 0xfeff ? undefined : p.#text;
  }

  get url(): string {
    return this.#url;
  }
  get method(): string {
    return this.#method;
  }
  get headers(): Headers {
    return this.#real ? this.#real.headers : this.#headers;
  }
  get bodyUsed(): boolean {
    return this.#taken || (this.#real?.bodyUsed ?? false);
  }
  get body(): Request['body'] {
    return PlainRequest.realOf(this).body;
  }
  get signal(): AbortSignal {
    return PlainRequest.realOf(this).signal;
  }
  // Text and JSON without a stream while the body is unread (a text with a byte order mark goes through
  // the real body, which drops it).
  text(): Promise<string> {
    const text = PlainRequest.peek(this);
    if (text === undefined) return PlainRequest.realOf(this).text();
    PlainRequest.take(this);
    return Promise.resolve(text);
  }
  json(): Promise<unknown> {
    const text = PlainRequest.peek(this);
    if (text === undefined) return PlainRequest.realOf(this).json();
    PlainRequest.take(this);
    try {
      return Promise.resolve(JSON.parse(text) as unknown);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return PlainRequest.realOf(this).arrayBuffer();
  }
  bytes(): ReturnType<Request['bytes']> {
    return PlainRequest.realOf(this).bytes();
  }
  blob(): Promise<Blob> {
    return PlainRequest.realOf(this).blob();
  }
  formData(): Promise<FormData> {
    return PlainRequest.realOf(this).formData();
  }
  clone(): Request {
    return PlainRequest.realOf(this).clone();
  }
}
// A `Request` to `instanceof` and to its prototype's members; undici's own slots and util.inspect read the real one.
Object.setPrototypeOf(PlainRequest.prototype, Request.prototype);
delegateToReal(PlainRequest.prototype, new Request('http://localhost/'), (p) => PlainRequest.realOf(p as PlainRequest));
// What a request made from a URL and an init without these members says of them.
for (const [name, value] of Object.entries({ destination: '', referrer: 'about:client', referrerPolicy: '', mode: 'cors', credentials: 'same-origin', cache: 'default', redirect: 'follow', integrity: '', keepalive: false, isReloadNavigation: false, isHistoryNavigation: false, duplex: 'half' })) {
  Object.defineProperty(PlainRequest.prototype, name, { get: () => value, configurable: true });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** The call as a `PlainRequest`, or `undefined` where `Request` must make it (anything it would not take as given, or would change). */
function plainRequestOf(input: string | URL | Request, init: RequestInit | undefined): Request | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  if (init !== undefined && !isPlainObject(init)) return undefined;
  if (init) for (const key of Object.keys(init)) if (!PLAIN_INIT.has(key)) return undefined;
  const method = methodOf(init?.method);
  if (method === undefined) return undefined;
  const body = init?.body ?? null;
  // A string that is not well formed is made by `Request`, whose bytes of it read back otherwise (U+FFFD).
  if (body !== null && (typeof body !== 'string' || WITHOUT_BODY.has(method) || !body.isWellFormed())) return undefined;
  const signal = init?.signal ?? undefined;
  if (signal !== undefined && !(signal instanceof AbortSignal)) return undefined;
  const given = init?.headers;
  if (given !== undefined && !isPlainObject(given) && !(given instanceof Headers) && !Array.isArray(given)) return undefined;
  let url: URL;
  let headers: Headers;
  try {
    url = new URL(input);
    headers = new Headers(given as HeadersInit | undefined);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  // As a Request of a string body: its type, unless one was given.
  if (body !== null && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  return new PlainRequest(url.href, method, headers, body, signal) as unknown as Request;
}

/**
 * `new Request(input, init)`: a `PlainRequest` where the call is a URL and an init of method, headers (a
 * record, a list of pairs or `Headers`), a string body and a signal that `Request` would take as given; anything else (another body, a `Request`
 * as input, other members, a call `Request` refuses) is made by `Request` itself.
 */
export function requestOf(input: string | URL | Request, init: RequestInit | undefined): Request {
  return plainRequestOf(input, init) ?? new Request(input, init);
}

/** A request's body text without its stream, marking the body used, where `requestOf` kept it; `undefined` otherwise. */
export const takeText = (request: Request): string | undefined => (request instanceof PlainRequest ? PlainRequest.take(request) : undefined);

/**
 * A request's body text without its stream, the body left unused (what reading a clone of it gives),
 * where `requestOf` kept it and nothing has read or taken it; `undefined` otherwise.
 */
export const peekText = (request: Request): string | undefined => (request instanceof PlainRequest ? PlainRequest.peek(request) : undefined);
