/** Helpers for a world's msw handlers: reading a tool's input and answering with an API error. */
import { HttpResponse } from 'msw';
import { z } from 'zod';

/** An API error as every built-in world answers it: `{ error, message }` with the status. */
export const apiError = (status: number, error: string, message: string): Response => HttpResponse.json({ error, message }, { status });

/**
 * Reads a tool's input from a request, the way `callTool` sends it: the query of a GET, the JSON body of
 * a POST (as `body` when it is not an object), and the path parameters on top; validated by the tool's input schema. Returns the input, or
 * the 400 response to send (its message is zod's, with the path of each problem).
 */
export async function readInput<T extends z.ZodType>(request: Request, schema: T, params: Readonly<Record<string, unknown>>): Promise<{ ok: true; value: z.output<T> } | { ok: false; response: Response }> {
  let body: unknown = {};
  if (request.method !== 'GET') {
    const text = await request.text();
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
