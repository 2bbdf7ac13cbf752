import { z } from 'zod';
import type { PersistentFaultKind } from '../src/ground/faults.js';
import type { ToolSpec } from '../src/ground/world.js';
import { isPlainObject, kindOf } from '../src/ground/shape.js';

const VARIANTS = ['empty', 'null-field'] as const;

const params = z
  .object({
    /** Which ways of returning nothing may be drawn. @default both */
    variants: z.array(z.enum(VARIANTS)).min(1).default([...VARIANTS]),
  })
  .strict();

/** Fields a lagging replica may not have filled yet: declared in the response schema, not ids. */
function nullable(tool: ToolSpec): string[] {
  const out = tool.output as unknown as { _zod?: { def?: { shape?: Record<string, z.ZodType> } } } | undefined;
  const shape = kindOf(tool.output) === 'object' ? (out?._zod?.def?.shape ?? {}) : {};
  return Object.keys(shape).filter((k) => !/id$/i.test(k));
}

/**
 * A read returns nothing for the whole episode, as from a lagging replica or an empty search index:
 * lists come back empty and records that exist answer 404, or a record comes back with a field still
 * null.
 */
export const emptyResult: PersistentFaultKind<typeof params> = {
  id: 'empty-result',
  description: 'a read tool returns nothing for the episode: empty lists and 404 for records that exist, or a field still null',
  scope: 'persistent',
  touches: ['body', 'status'],
  appliesTo: 'read',
  params,
  variant(rng, p, tool) {
    const fields = nullable(tool);
    const pool = p.variants.filter((v) => v !== 'null-field' || fields.length > 0);
    const v = pool[Math.floor(rng() * pool.length)] ?? 'empty';
    return v === 'null-field' ? `null-field:${fields[Math.floor(rng() * fields.length)] ?? ''}` : v;
  },
  transform(response, variant) {
    if (response.status < 200 || response.status >= 300) return response;
    const body = response.body;
    if (variant.startsWith('null-field:')) {
      const field = variant.slice('null-field:'.length);
      return isPlainObject(body) && field in body ? { status: response.status, body: { ...body, [field]: null } } : response;
    }
    if (Array.isArray(body)) return { status: response.status, body: [] };
    // A list response ({ orders: [...] }) comes back empty; a record is not found.
    const entries = isPlainObject(body) ? Object.entries(body) : [];
    if (entries.length === 1 && Array.isArray(entries[0]?.[1])) {
      return { status: response.status, body: { [entries[0]?.[0] ?? 'items']: [] } };
    }
    return { status: 404, body: { error: 'not_found', message: 'No matching record.' } };
  },
};
