/**
 * Walking a JSON value beside the zod schema that describes it, for faults that derive their changes
 * from a tool's response schema and for agents that read a drifted response back into it. Without a schema the walk still visits every value, with `undefined`
 * for the schema.
 */
import type { z } from 'zod';

export interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly valueType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The zod definition of a schema node (zod 4 keeps it at `_zod.def`). */
export const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional/nullable/default wrappers (and the input side of a pipe). */
export function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let s = schema;
  for (let i = 0; s && i < 20; i++) {
    const d = defOf(s);
    if (WRAPPERS.has(d.type)) s = d.innerType;
    else if (d.type === 'pipe') s = d.in;
    else break;
  }
  return s;
}

/** The kind of schema: `object`, `array`, `enum`, `number`, `string`, `union`, `record`, ... */
export const kindOf = (schema: z.ZodType | undefined): string | undefined => {
  const s = unwrap(schema);
  return s ? defOf(s).type : undefined;
};

/** Whether a field may be absent: its schema is optional. */
export const isOptional = (schema: z.ZodType | undefined): boolean => schema !== undefined && defOf(schema).type === 'optional';

export const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The field schemas of an object value: from an object schema, the matching option of a union, or a record's value type. */
function fieldsOf(schema: z.ZodType | undefined, value: Record<string, unknown>): (key: string) => z.ZodType | undefined {
  const s = unwrap(schema);
  if (!s) return () => undefined;
  const d = defOf(s);
  if (d.type === 'object') return (k) => d.shape?.[k];
  if (d.type === 'record') return () => d.valueType;
  if (d.type === 'union') {
    const option = (d.options ?? []).find((o) => (o as unknown as { safeParse(v: unknown): { success: boolean } }).safeParse(value).success);
    return fieldsOf(option, value);
  }
  return () => undefined;
}

/** The element schema of an array schema. */
const elementOf = (schema: z.ZodType | undefined): z.ZodType | undefined => {
  const s = unwrap(schema);
  return s && defOf(s).type === 'array' ? defOf(s).element : undefined;
};

export interface Visitor {
  /** Rewrites an object's entries (after its values were walked): rename, drop, flatten. */
  entries?(entries: [string, unknown, z.ZodType | undefined][]): [string, unknown][];
  /** Rewrites a leaf value (string, number, boolean, null). */
  leaf?(value: unknown, schema: z.ZodType | undefined): unknown;
}

/** Rebuilds a JSON value, visiting each object and leaf beside its schema. */
export function walk(value: unknown, schema: z.ZodType | undefined, visitor: Visitor): unknown {
  if (Array.isArray(value)) {
    const element = elementOf(schema);
    return value.map((v) => walk(v, element, visitor));
  }
  if (isPlainObject(value)) {
    const field = fieldsOf(schema, value);
    const entries = Object.entries(value).map(([k, v]): [string, unknown, z.ZodType | undefined] => [k, walk(v, field(k), visitor), field(k)]);
    return Object.fromEntries(visitor.entries ? visitor.entries(entries) : entries.map(([k, v]) => [k, v]));
  }
  return visitor.leaf ? visitor.leaf(value, schema) : value;
}

/** Whether any node of the schema satisfies `test` (objects, arrays, unions, records followed). */
export function someNode(schema: z.ZodType | undefined, test: (schema: z.ZodType, parent: string) => boolean, parent = '', depth = 0): boolean {
  if (!schema || depth > 12) return false;
  if (test(schema, parent)) return true;
  const s = unwrap(schema);
  if (!s) return false;
  const d = defOf(s);
  const children: z.ZodType[] = [...Object.values(d.shape ?? {}), ...(d.element ? [d.element] : []), ...(d.options ?? []), ...(d.valueType ? [d.valueType] : [])];
  return children.some((c) => someNode(c, test, d.type, depth + 1));
}
