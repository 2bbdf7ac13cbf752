/**
 * A world over an in-memory store whose tools have the meaning an HTTP API's paths and methods imply
 * (create, read, list, update, delete on collections of records): what `shakedown world init
 * --from-openapi` writes a world on (docs/your-tools.md). The operations are data (`CrudSpec`, written by
 * the scaffold to `operations.json`); these functions turn them into a world's tool specs, msw handlers,
 * database schema, seeded generator and scenario setup. A world replaces any of them with its own.
 */
import { http, type RequestHandler } from 'msw';
import { z } from 'zod';
import { apiError, json, readInput } from './handlers.js';
import { makeRng } from './seeds.js';
import type { ToolSpec, WorldInstance } from './world.js';

/** A JSON Schema, as an OpenAPI document holds one. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** What a call means on the store: from the method and the path (docs/your-tools.md says how). */
export type CrudMeaning = 'create' | 'read' | 'list' | 'update' | 'delete' | 'unknown';

export interface CrudOperation {
  /** The tool's name (snake_case of the operationId, or of method and path). */
  readonly name: string;
  readonly description: string;
  /** The tool's method: GET for a read, POST for a write (whatever the API's own method). */
  readonly method: 'GET' | 'POST';
  /** The tool's path with `{param}` placeholders: the API's path; a write the API makes with another method gets `/<method>` after it. */
  readonly path: string;
  /** The API's own method and path, for the docs and the file headers. */
  readonly api: { readonly method: string; readonly path: string };
  readonly meaning: CrudMeaning;
  /** The collection of records it works on. */
  readonly collection?: string;
  /** The input naming the record (a path parameter, or the body's id field for `PUT /pet`). */
  readonly idInput?: string;
  /** Path parameters, then query parameters, then body fields: the tool's input. */
  readonly input: JsonSchema;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** How the body reaches the input: its fields, the whole body as `body` (an array, a scalar), or none. */
  readonly body: 'fields' | 'whole' | 'none';
  /** The schema of a 2xx answer, when the API declares one. */
  readonly output?: JsonSchema;
  /** The API declares a 409 for it: a create of a record that exists is refused. */
  readonly conflict: boolean;
  /** Why it is `unknown`, or what was guessed, for the file headers. */
  readonly note?: string;
}

export interface CrudCollection {
  /** The field of a record that holds its id. */
  readonly idField: string;
  readonly idType: 'integer' | 'string';
  /** The schema of a record, from the answer of its read or the body of its create. */
  readonly schema: JsonSchema;
  /** Records drawn from the schema when the world was written (json-schema-faker, seeded), ids left out: what the generator picks from. */
  readonly samples: readonly Readonly<Record<string, unknown>>[];
}

export interface CrudSpec {
  readonly title: string;
  readonly source: string;
  readonly collections: Readonly<Record<string, CrudCollection>>;
  readonly operations: readonly CrudOperation[];
}

/** A JSON Schema as zod, or a permissive schema where zod cannot read it (a recursive reference left in place). */
function zodOf(schema: JsonSchema | undefined): z.ZodType {
  if (!schema) return z.unknown();
  try {
    return z.fromJSONSchema(schema as never);
  } catch {
    return z.unknown();
  }
}

/** The tools: one per operation, its input from the path, query and body schemas. */
export function crudTools(spec: CrudSpec): ToolSpec[] {
  return spec.operations.map((op) => {
    const input = zodOf(op.input);
    const object = input instanceof z.ZodObject ? input : z.object({}).catchall(z.unknown());
    const output = op.output ? zodOf(op.output) : undefined;
    return { name: op.name, description: op.description, method: op.method, path: op.path, input: object, write: op.method === 'POST', ...(output ? { output } : {}) };
  });
}

/** The database: a record per collection, its entries loose (the API's own schemas guide the generator, not the comparator). */
export function crudDbSchema(spec: CrudSpec): z.ZodObject {
  return z.object(Object.fromEntries(Object.keys(spec.collections).map((c) => [c, z.record(z.string(), z.record(z.string(), z.unknown()))])));
}

/** The id a collection's n-th generated record gets: numbers from 1000, or a prefix and a number. */
export function crudId(spec: CrudSpec, collection: string, n: number): string | number {
  const c = spec.collections[collection];
  return c?.idType === 'integer' ? n : `${collection.slice(0, 1).toUpperCase()}${n}`;
}

/**
 * A seeded base database: a few records per collection, picked by the seed from the samples drawn from
 * its schema when the world was written, with ids from 1000 (scenarios keep 9000 and up).
 */
export function crudGenerate(spec: CrudSpec, seed: string, perCollection = 5): Record<string, Record<string, unknown>> {
  const db: Record<string, Record<string, unknown>> = {};
  for (const [name, c] of Object.entries(spec.collections)) {
    const rng = makeRng(`${seed}|${name}`);
    const records: Record<string, unknown> = {};
    for (let i = 0; i < perCollection; i++) {
      const sample = c.samples.length > 0 ? c.samples[Math.floor(rng() * c.samples.length)] : {};
      const id = crudId(spec, name, 1000 + i);
      records[String(id)] = { ...structuredClone(sample), [c.idField]: id };
    }
    db[name] = records;
  }
  return db;
}

/** A scenario's own records, per collection. */
export const crudSetupSchema = z.record(z.string(), z.array(z.record(z.string(), z.unknown())));

/** Adds a scenario's records to the database; throws, naming the record, on an unknown collection or an id taken. */
export function crudApplySetup(spec: CrudSpec, db: Record<string, Record<string, unknown>>, setup: z.output<typeof crudSetupSchema>): void {
  for (const [collection, records] of Object.entries(setup)) {
    const c = spec.collections[collection];
    if (!c) throw new Error(`no collection \`${collection}\` (collections: ${Object.keys(spec.collections).join(', ')})`);
    const store = (db[collection] ??= {});
    for (const r of records) {
      const id = r[c.idField];
      if (id === undefined) throw new Error(`a record of \`${collection}\` has no \`${c.idField}\``);
      if (store[String(id)] !== undefined) throw new Error(`${collection} \`${String(id)}\` already exists`);
      store[String(id)] = r;
    }
  }
}

/** An msw path from a tool path: `{petId}` as `:petId`. */
const mswPath = (path: string) => `*/api${path.replace(/\{([^}]+)\}/g, ':$1')}`;

/** The store key an input's id value names (ids of either type are keyed as text). */
const idValue = (raw: unknown): string => String(raw ?? '').trim();

/** A call's own path parameters only (msw also names the wildcard before `/api`, "0": the episode's origin). */
export function ownParams(op: Pick<CrudOperation, 'pathParams'>, params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => op.pathParams.includes(k)));
}

/**
 * The fields of an input that go into a record: the body's, and for a create or an update the query's too
 * (`POST /pet/{petId}?name=&status=` changes the name and the status); never the path's.
 */
function recordFields(op: CrudOperation, input: Record<string, unknown>): Record<string, unknown> {
  if (op.body === 'whole') return input.body !== null && typeof input.body === 'object' && !Array.isArray(input.body) ? (input.body as Record<string, unknown>) : {};
  const queryIsData = op.meaning === 'create' || op.meaning === 'update';
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (!op.pathParams.includes(k) && (queryIsData || !op.queryParams.includes(k)) && v !== undefined) out[k] = v;
  return out;
}

/** Whether a record matches a list's query: every given parameter equal to its field, or one of its values. */
function matches(record: Record<string, unknown>, query: Record<string, unknown>): boolean {
  return Object.entries(query).every(([k, v]) => {
    if (v === undefined || v === '') return true;
    const field = record[k];
    const wanted = Array.isArray(v) ? v.map(String) : String(v).split(',');
    if (Array.isArray(field)) return field.some((f) => wanted.includes(String(typeof f === 'object' && f !== null && 'name' in f ? (f as { name: unknown }).name : f)));
    return field === undefined ? true : wanted.includes(String(field));
  });
}

/**
 * The handlers: create, read, list, update and delete over the episode's store, 404 for a record that is
 * not there, 409 for a create of one that is (where the API declares a 409), 501 for an operation whose
 * meaning could not be inferred. Literal paths are tried before paths with parameters.
 */
export function crudHandlers(spec: CrudSpec, instance: (request: Request) => WorldInstance<Record<string, Record<string, unknown>>>): RequestHandler[] {
  const tools = new Map(crudTools(spec).map((t) => [t.name, t]));
  const ordered = [...spec.operations].sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  return ordered.map((op) => {
    const route = op.method === 'GET' ? http.get : http.post;
    return route(mswPath(op.path), async ({ request, params }) => {
      const tool = tools.get(op.name) as ToolSpec;
      const parsed = await readInput(request, tool.input, ownParams(op, params));
      if (!parsed.ok) return parsed.response;
      const input = parsed.value as Record<string, unknown>;
      const w = instance(request);
      const c = op.collection ? spec.collections[op.collection] : undefined;
      if (op.meaning === 'unknown' || !c || !op.collection) {
        return apiError(501, 'not_inferred', `${op.api.method} ${op.api.path}: what this call does could not be inferred from the specification; write its handler (see the top of handlers.ts).`);
      }
      const store = (w.db[op.collection] ??= {});
      const fields = recordFields(op, input);
      const id = idValue(op.idInput ? (input[op.idInput] ?? fields[c.idField]) : fields[c.idField]);
      const noSuch = () => apiError(404, 'not_found', `No ${op.collection} ${id}.`);
      switch (op.meaning) {
        case 'read': {
          const r = store[id];
          return r === undefined ? noSuch() : json(r);
        }
        case 'list': {
          const query: Record<string, unknown> = {};
          for (const k of op.queryParams) query[k] = input[k];
          const records = Object.values(store).filter((r) => matches(r as Record<string, unknown>, query));
          return json(records);
        }
        case 'create': {
          // A new integer id is one past the largest (never one a deleted record leaves behind), from 9000.
          const next = () => Math.max(8999, ...Object.values(store).map((r) => Number((r as Record<string, unknown>)[c.idField])).filter(Number.isFinite)) + 1;
          const newId = fields[c.idField] !== undefined ? fields[c.idField] : c.idType === 'integer' ? next() : w.nextId(op.collection);
          if (store[String(newId)] !== undefined) {
            if (op.conflict) return apiError(409, 'conflict', `${op.collection} ${String(newId)} already exists.`);
          }
          const record = { ...fields, [c.idField]: newId };
          store[String(newId)] = record;
          return json(record);
        }
        case 'update': {
          const r = store[id] as Record<string, unknown> | undefined;
          if (r === undefined) return noSuch();
          const updated = { ...r, ...fields, [c.idField]: r[c.idField] };
          store[id] = updated;
          return json(updated);
        }
        case 'delete': {
          if (store[id] === undefined) return noSuch();
          delete store[id];
          return json({ deleted: id });
        }
      }
    });
  });
}
