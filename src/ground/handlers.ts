/** Helpers for a world's msw handlers: answering with JSON or an API error, and reading a tool's input. */
import { HttpResponse } from 'msw';
import { z } from 'zod';
import { jsonResponse, NULL_BODY_STATUSES, takeText } from './bodies.js';

/** What msw's `HttpResponse` names each status (its `statusText` where the caller gives none), learnt from msw once per status. */
const statusTexts = new Map<number, string>();
const statusTextOf = (status: number): string => {
  let text = statusTexts.get(status);
  if (text === undefined) statusTexts.set(status, (text = HttpResponse.json(null, { status }).statusText));
  return text;
};

/**
 * A JSON response, as msw's `HttpResponse.json(body, init)` makes it: the same status, status text,
 * headers (`content-type: application/json` and `content-length` unless given) and body bytes, at a
 * fraction of its cost: msw measures the body with a `Blob` and makes it a stream at once, this makes the
 * stream only when something reads the body (the engine reads the text it was made of: `jsonTextOf`).
 * What msw treats specially (a status without a body or outside 200 to 599, a `type`, a `url`, cookies to
 * set, a body JSON cannot hold) is made by `HttpResponse.json` itself. `test/ground/json-response.test.ts`
 * holds the two to each other, reader by reader.
 */
export function json(body: unknown, init?: ResponseInit & { type?: ResponseType; url?: string }): Response {
  const status = init?.status || 200;
  const text = JSON.stringify(body) as string | undefined;
  if (text === undefined || status < 200 || status > 599 || NULL_BODY_STATUSES.has(status) || init?.type !== undefined || init?.url !== undefined) return HttpResponse.json(body as never, init);
  const headers = new Headers(init?.headers);
  if (headers.has('set-cookie')) return HttpResponse.json(body as never, init);
  const defaultType = !headers.has('content-type');
  if (defaultType) headers.set('content-type', 'application/json');
  if (!headers.has('content-length')) headers.set('content-length', String(Buffer.byteLength(text, 'utf8')));
  return jsonResponse(text, { status, statusText: init?.statusText || statusTextOf(status), headers }, defaultType);
}

/** An API error as every built-in world answers it: `{ error, message }` with the status. */
export const apiError = (status: number, error: string, message: string): Response => json({ error, message }, { status });

/**
 * Reads a tool's input from a request, the way `callTool` sends it: the query of a GET, the JSON body of
 * a POST (as `body` when it is not an object), and the path parameters on top; validated by the tool's input schema. Returns the input, or
 * the 400 response to send (its message is zod's, with the path of each problem).
 */
export async function readInput<T extends z.ZodType>(request: Request, schema: T, params: Readonly<Record<string, unknown>>): Promise<{ ok: true; value: z.output<T> } | { ok: false; response: Response }> {
  let body: unknown = {};
  if (request.method !== 'GET') {
    const text = takeText(request) ?? (await request.text());
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      return { ok: false, response: apiError(400, 'invalid_json', 'The request body is not valid JSON.') };
    }
  } else {
    body = Object.fromEntries(new URL(request.url).searchParams);
  }
  // A body that is not an object (a list, a scalar) is the input's `body`.
  const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : { body };
  const parsed = schema.safeParse({ ...fields, ...params });
  if (!parsed.success) return { ok: false, response: apiError(400, 'invalid_request', z.prettifyError(parsed.error)) };
  return { ok: true, value: parsed.data };
}
