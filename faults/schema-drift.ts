import { z } from 'zod';
import type { PersistentFaultKind } from '../src/ground/faults.js';
import type { ToolSpec } from '../src/ground/world.js';
import { isOptional, isPlainObject, kindOf, someNode, walk } from '../src/ground/shape.js';

const VARIANTS = ['rename', 'nest', 'flatten', 'currency-string', 'enum-case', 'extra-fields', 'drop-optional'] as const;
type Variant = (typeof VARIANTS)[number];

const params = z
  .object({
    /** Which drifts may be drawn. @default all seven */
    variants: z.array(z.enum(VARIANTS)).min(1).default([...VARIANTS]),
  })
  .strict();

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const renameKey = (k: string) => (/[A-Z]/.test(k) ? snake(k) : k.charAt(0).toUpperCase() + k.slice(1));
const money = (v: number) => `$${v.toFixed(2)}`;

/**
 * Which drifts can change this tool's responses, from its response schema: enum values need an enum,
 * amounts a number, flattening a nested object, dropping an optional field. Without a schema every
 * drift is possible and works on what the response holds.
 */
function applicable(tool: ToolSpec, variant: Variant): boolean {
  const out = tool.output;
  if (!out) return true;
  switch (variant) {
    case 'enum-case':
      return someNode(out, (s) => kindOf(s) === 'enum');
    case 'currency-string':
      return someNode(out, (s) => kindOf(s) === 'number');
    case 'flatten':
      return someNode(out, (s, parent) => parent === 'object' && kindOf(s) === 'object');
    case 'drop-optional':
      return someNode(out, (s) => isOptional(s));
    default:
      return true;
  }
}

function drift(body: unknown, variant: Variant, schema: z.ZodType | undefined): unknown {
  switch (variant) {
    case 'rename':
      return walk(body, schema, { entries: (es) => es.map(([k, v]) => [renameKey(k), v]) });
    case 'nest':
      return { data: body, apiVersion: '2' };
    case 'flatten':
      // One level of nesting folded into its parent: `address: { city }` becomes `address_city`.
      return walk(body, schema, {
        entries: (es) => es.flatMap(([k, v, s]): [string, unknown][] => (isPlainObject(v) && (!schema || kindOf(s) === 'object') ? Object.entries(v).map(([k2, v2]) => [`${k}_${k2}`, v2]) : [[k, v]])),
      });
    case 'currency-string':
      // Amounts become strings such as "$45.50": numbers the schema declares, or any non-integer without one.
      return walk(body, schema, { leaf: (v, s) => (typeof v === 'number' && (schema ? kindOf(s) === 'number' && !Number.isInteger(v) : !Number.isInteger(v)) ? money(v) : v) });
    case 'enum-case':
      return walk(body, schema, { leaf: (v, s) => (typeof v === 'string' && (schema ? kindOf(s) === 'enum' : /^[a-z]+(?:_[a-z]+)*$/.test(v)) ? v.toUpperCase() : v) });
    case 'extra-fields':
      return isPlainObject(body) ? { ...body, _links: { self: { href: '/api/v2' } }, _meta: { apiVersion: '2', deprecated: ['v1 fields'] } } : { data: body, _meta: { apiVersion: '2' } };
    case 'drop-optional':
      return walk(body, schema, { entries: (es) => es.filter(([, , s]) => !isOptional(s)).map(([k, v]) => [k, v]) });
  }
}

/**
 * The tool's responses change shape for the whole episode, as after an unannounced API upgrade, derived
 * from the tool's response schema: renamed keys, the payload nested or an object flattened, amounts as
 * currency strings, enum values in another case, extra fields, optional fields dropped. Everything the
 * schema requires stays present somewhere.
 */
export const schemaDrift: PersistentFaultKind<typeof params> = {
  id: 'schema-drift',
  description: "the tool's responses change shape for the episode: renamed keys, nested or flattened objects, amounts as strings, enum case, extra fields, optional fields dropped",
  scope: 'persistent',
  touches: ['body'],
  appliesTo: 'any',
  params,
  variant(rng, p, tool) {
    const possible = p.variants.filter((v) => applicable(tool, v));
    const pool = possible.length > 0 ? possible : p.variants;
    return pool[Math.floor(rng() * pool.length)] ?? 'rename';
  },
  transform(response, variant, _params, tool) {
    if (response.status < 200 || response.status >= 300) return response;
    return { status: response.status, body: drift(response.body, variant as Variant, tool.output) };
  },
};
