import { z } from 'zod';
import type { PersistentFaultKind } from '../src/core/faults.js';

const VARIANTS = ['rename', 'nest', 'currency-string', 'enum-case'] as const;
type Variant = (typeof VARIANTS)[number];

const params = z.object({
  /** Which drifts may be drawn. @default all four */
  variants: z.array(z.enum(VARIANTS)).min(1).default([...VARIANTS]),
});

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const renameKey = (k: string) => (/[A-Z]/.test(k) ? snake(k) : k.charAt(0).toUpperCase() + k.slice(1));

function mapDeep(value: unknown, f: { key?: (k: string) => string; leaf?: (v: unknown) => unknown }): unknown {
  if (Array.isArray(value)) return value.map((v) => mapDeep(v, f));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[f.key ? f.key(k) : k] = mapDeep(v, f);
    return out;
  }
  return f.leaf ? f.leaf(value) : value;
}

/**
 * The tool's responses change shape for the whole episode, as after an unannounced API upgrade. The
 * information stays present: keys are renamed, the payload is nested, numbers become currency strings,
 * or enum values change case.
 */
export const schemaDrift: PersistentFaultKind<typeof params> = {
  id: 'schema-drift',
  description: "the tool's responses change shape for the episode: renamed keys, nested payload, numbers as currency strings, or enum case",
  scope: 'persistent',
  touches: ['body'],
  appliesTo: 'any',
  params,
  variant(rng, p) {
    return p.variants[Math.floor(rng() * p.variants.length)] ?? 'rename';
  },
  transform(response, variant) {
    if (response.status < 200 || response.status >= 300) return response;
    const body = response.body;
    switch (variant as Variant) {
      case 'rename':
        return { status: response.status, body: mapDeep(body, { key: renameKey }) };
      case 'nest':
        return { status: response.status, body: { data: body, apiVersion: '2' } };
      case 'currency-string':
        return { status: response.status, body: mapDeep(body, { leaf: (v) => (typeof v === 'number' && !Number.isInteger(v) ? `$${v.toFixed(2)}` : v) }) };
      case 'enum-case':
        return { status: response.status, body: mapDeep(body, { leaf: (v) => (typeof v === 'string' && /^[a-z]+(?:_[a-z]+)*$/.test(v) ? v.toUpperCase() : v) }) };
      default:
        return response;
    }
  },
};
