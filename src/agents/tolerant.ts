/**
 * Schema-tolerant reading: a response that drifted (renamed keys, a nested envelope, a flattened
 * object, amounts as strings, enum values in another case) is read back into the shape the tool's
 * response schema declares. What cannot be recovered (a dropped field) stays missing.
 */
import type { z } from 'zod';
import { defOf, isPlainObject, unwrap } from '../ground/shape.js';

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const aliases = (k: string): string[] => [...new Set([k, snake(k), k.charAt(0).toUpperCase() + k.slice(1), k.toLowerCase(), snake(k).toUpperCase()])];
const ENVELOPES = ['data', 'result', 'payload', 'item'];

/** Reads `value` into the shape of `schema`, as far as it can. */
export function tolerantParse(schema: z.ZodType, value: unknown): unknown {
  const s = unwrap(schema);
  if (!s) return value;
  const d = defOf(s);
  switch (d.type) {
    case 'object':
      return fitObject(d.shape ?? {}, value);
    case 'array':
      return Array.isArray(value) && d.element ? value.map((v) => tolerantParse(d.element as z.ZodType, v)) : value;
    case 'record':
      return isPlainObject(value) && d.valueType ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tolerantParse(d.valueType as z.ZodType, v)])) : value;
    case 'number':
      if (typeof value === 'string') {
        const n = Number(value.replace(/[$,\s]|USD/g, ''));
        return Number.isFinite(n) && value.trim() !== '' ? n : value;
      }
      return value;
    case 'enum': {
      const entries = Object.values(d.entries ?? {});
      return typeof value === 'string' ? (entries.find((e) => String(e).toLowerCase() === value.toLowerCase()) ?? value) : value;
    }
    case 'literal': {
      const literal = d.values?.[0];
      return typeof value === 'string' && typeof literal === 'string' && value.toLowerCase() === literal.toLowerCase() ? literal : value;
    }
    case 'union': {
      for (const option of d.options ?? []) {
        const fitted = tolerantParse(option, value);
        if ((option as unknown as { safeParse(v: unknown): { success: boolean } }).safeParse(fitted).success) return fitted;
      }
      return value;
    }
    default:
      return value;
  }
}

function fitObject(shape: Readonly<Record<string, z.ZodType>>, value: unknown): unknown {
  let v = value;
  // A payload moved into an envelope ({ data: {...}, apiVersion: "2" }) comes back out when none of the expected keys is on top.
  for (let i = 0; i < 3 && isPlainObject(v); i++) {
    const top = v;
    if (Object.keys(shape).some((k) => aliases(k).some((a) => a in top))) break;
    const envelope = ENVELOPES.find((e) => isPlainObject(top[e]) || Array.isArray(top[e]));
    if (!envelope) break;
    v = top[envelope];
  }
  if (!isPlainObject(v)) return v;
  const source = v;
  const out: Record<string, unknown> = {};
  for (const [key, fieldSchema] of Object.entries(shape)) {
    const names = aliases(key);
    const direct = names.find((a) => a in source);
    if (direct !== undefined) {
      out[key] = tolerantParse(fieldSchema, source[direct]);
      continue;
    }
    // A flattened object: `address_city`, `addressCity` or `Address_city` for `address.city`.
    const prefixes = names.flatMap((a) => [`${a}_`, `${a}.`]);
    const flat = Object.entries(source).filter(([k]) => prefixes.some((p) => k.startsWith(p)));
    if (flat.length > 0) {
      const nested = Object.fromEntries(flat.map(([k, val]) => [k.slice((prefixes.find((p) => k.startsWith(p)) ?? '').length), val]));
      out[key] = tolerantParse(fieldSchema, nested);
    }
  }
  return out;
}
