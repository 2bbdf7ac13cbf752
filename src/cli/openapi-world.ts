/**
 * An OpenAPI document read as the operations of a world over an in-memory store, and the files of that
 * world (or of one over the running service): what `shakedown world init --from-openapi` writes
 * (docs/your-tools.md). What could not be inferred is listed at the top of each file.
 */
import { basename } from 'node:path';
import { dereference } from '@readme/openapi-parser';
import { generateSync } from 'json-schema-faker';
import { ShakedownError } from '../ground/errors.js';
import { hash53 } from '../ground/seeds.js';
import type { CrudCollection, CrudMeaning, CrudOperation, CrudSpec, JsonSchema } from '../ground/crud.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** snake_case of an operationId or of method and path: `getPetById` is `get_pet_by_id`. */
export function snake(text: string): string {
  return text
    .replace(/\{([^}]+)\}/g, 'by_$1')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/** A copy of a schema that zod and the generator can read: a reference left in place (a cycle) becomes "anything". */
function plain(schema: unknown, depth = 0, seen = new Set<unknown>()): JsonSchema {
  if (!isObj(schema) || depth > 8 || seen.has(schema)) return {};
  if (typeof schema.$ref === 'string') return {};
  seen.add(schema);
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'example' || k === 'examples' || k === 'xml' || k === 'externalDocs' || k.startsWith('x-')) continue;
    // Descriptions of nested fields are left to the document: a tool's own fields keep theirs.
    if ((k === 'description' || k === 'title') && depth > 1) continue;
    if (k === 'properties' && isObj(v)) out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, plain(s, depth + 1, seen)]));
    else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && isObj(v)) out[k] = plain(v, depth + 1, seen);
    else if ((k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) out[k] = v.map((s) => plain(s, depth + 1, seen));
    else if (!isObj(v) || k === 'discriminator') out[k] = v;
  }
  seen.delete(schema);
  // OpenAPI 3.0's `nullable: true` in JSON Schema's words.
  if (out.nullable === true && typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    delete out.nullable;
  }
  return out;
}

/** A JSON body's schema, from the first JSON content of a request body or a 2xx answer. */
function jsonSchemaOf(content: unknown): JsonSchema | undefined {
  if (!isObj(content)) return undefined;
  const key = Object.keys(content).find((k) => /json/i.test(k)) ?? Object.keys(content).find((k) => /form/i.test(k));
  const media = key ? content[key] : undefined;
  return isObj(media) && isObj(media.schema) ? plain(media.schema) : undefined;
}

/** Literal segments that say how to find, not what: `/pet/findByStatus`, `/identities/by/external/{id}`. */
const ACTION = /^(?:find|search|get|list|query|by|login|logout|create|upload|import|export|batch|bulk|count|status|health|\.well-known|me|whoami)/i;
/** Literal segments that only group: `/api`, `/v1`, `/admin`. */
const PREFIX = /^(?:api|v\d+|admin|public|internal|rest)$/i;

interface Raw {
  readonly method: (typeof METHODS)[number];
  readonly path: string;
  readonly op: Obj;
  readonly params: Obj[];
}

/** The collection and meaning a method and path imply (docs/your-tools.md). */
function meaningOf(r: Raw, body: JsonSchema | undefined, output: JsonSchema | undefined): { meaning: CrudMeaning; collection?: string; idInput?: string; note?: string } {
  const segments = r.path.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const param = /^\{(.+)\}$/.exec(last)?.[1];
  const literals = segments.filter((s) => !s.startsWith('{') && !PREFIX.test(s));
  if (param) {
    // `/pet/{petId}`: the record named by the parameter, in the collection before it.
    const before = segments.slice(0, -1).filter((s) => !s.startsWith('{') && !PREFIX.test(s) && !/^by$/i.test(s));
    const collection = before.at(-1);
    if (!collection) return { meaning: 'unknown', note: 'no collection before the parameter' };
    const m: CrudMeaning = r.method === 'get' ? 'read' : r.method === 'delete' ? 'delete' : r.method === 'put' || r.method === 'patch' ? 'update' : 'update';
    if ((m === 'update' && body !== undefined && body.type === 'array') || (r.method === 'post' && body === undefined && (r.params.filter((p) => p.in === 'query').length === 0))) {
      return { meaning: 'unknown', collection, note: `${r.method.toUpperCase()} on one record with ${body?.type === 'array' ? 'a list (a patch document?)' : 'no body'}: its effect is not implied` };
    }
    return { meaning: m, collection, idInput: param, ...(r.method === 'post' ? { note: 'POST on one record read as an update' } : {}) };
  }
  const tail = literals.at(-1);
  if (!tail) return { meaning: 'unknown', note: 'no collection in the path' };
  if (ACTION.test(tail)) {
    const collection = literals.at(-2);
    if (r.method === 'get' && collection && output?.type === 'array') return { meaning: 'list', collection, note: `\`${tail}\` read as a list of ${collection} filtered by its query` };
    return { meaning: 'unknown', ...(collection ? { collection } : {}), note: `\`${tail}\` is an action whose effect is not implied` };
  }
  if (r.method === 'get') return output?.type === 'array' ? { meaning: 'list', collection: tail } : { meaning: 'unknown', collection: tail, note: 'a read of no single record that answers no list' };
  if (r.method === 'post') return body?.type === 'array' ? { meaning: 'unknown', collection: tail, note: 'a POST of a list' } : { meaning: 'create', collection: tail };
  if (r.method === 'put' || r.method === 'patch') return body?.type === 'object' ? { meaning: 'update', collection: tail, idInput: 'id', note: 'the record named by the body\'s id' } : { meaning: 'unknown', collection: tail, note: `${r.method.toUpperCase()} of the whole collection` };
  return { meaning: 'unknown', collection: tail, note: 'a DELETE of the whole collection' };
}

/** Reads an OpenAPI document (a file, JSON or YAML; references resolved) into the operations of a CRUD world. */
export async function crudSpecOf(file: string): Promise<CrudSpec> {
  let doc: Obj;
  try {
    doc = (await dereference(file, { dereference: { circular: 'ignore' } } as never)) as unknown as Obj;
  } catch (error) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read the OpenAPI document \`${file}\`: ${(error as Error).message}. Give the path of an OpenAPI 3 document (JSON or YAML).`);
  }
  if (typeof doc.openapi !== 'string' || !isObj(doc.paths)) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read the OpenAPI document \`${file}\`: it has no \`openapi\` version or no \`paths\`${typeof doc.swagger === 'string' ? ' (a Swagger 2.0 document: convert it to OpenAPI 3 first, e.g. with swagger2openapi)' : ''}.`);
  }
  const raws: Raw[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObj(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters.filter(isObj) : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const own = Array.isArray(op.parameters) ? op.parameters.filter(isObj) : [];
      const params = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      raws.push({ method, path, op, params });
    }
  }
  const names = new Set<string>();
  const paths = new Set<string>();
  const operations: CrudOperation[] = [];
  const schemas = new Map<string, { read?: JsonSchema; create?: JsonSchema; param?: string }>();
  for (const r of raws) {
    let name = snake(typeof r.op.operationId === 'string' ? r.op.operationId : `${r.method}_${r.path}`);
    while (names.has(name)) name = `${name}_${r.method}`;
    names.add(name);
    const body = isObj(r.op.requestBody) ? jsonSchemaOf(r.op.requestBody.content) : undefined;
    const responses = isObj(r.op.responses) ? r.op.responses : {};
    const ok = Object.keys(responses).filter((k) => /^2\d\d$/.test(k)).sort()[0];
    const output = ok && isObj(responses[ok]) ? jsonSchemaOf((responses[ok] as Obj).content) : undefined;
    const m = meaningOf(r, body, output);
    // The tool's input: path parameters and query parameters as text (they arrive as text), then the body.
    const properties: Obj = {};
    const required: string[] = [];
    const pathParams: string[] = [];
    const queryParams: string[] = [];
    for (const p of r.params) {
      if (typeof p.name !== 'string' || (p.in !== 'path' && p.in !== 'query')) continue;
      const schema = plain(p.schema);
      const e = Array.isArray(schema.enum) ? { enum: schema.enum.map(String) } : schema.type === 'array' && isObj(schema.items) && Array.isArray(schema.items.enum) ? { enum: (schema.items.enum as unknown[]).map(String) } : {};
      properties[p.name] = { type: 'string', ...e, ...(typeof p.description === 'string' ? { description: p.description } : {}) };
      if (p.in === 'path') pathParams.push(p.name);
      else queryParams.push(p.name);
      if (p.required === true || p.in === 'path') required.push(p.name);
    }
    let bodyMode: CrudOperation['body'] = 'none';
    if (body) {
      if (body.type === 'object' || isObj(body.properties)) {
        bodyMode = 'fields';
        for (const [k, s] of Object.entries((body.properties as Obj | undefined) ?? {})) if (!(k in properties)) properties[k] = s;
        for (const k of Array.isArray(body.required) ? (body.required as string[]) : []) if (!required.includes(k)) required.push(k);
      } else {
        bodyMode = 'whole';
        properties.body = body;
        if (isObj(r.op.requestBody) && r.op.requestBody.required === true) required.push('body');
      }
    }
    const write = r.method !== 'get';
    let path = write && r.method !== 'post' ? `${r.path}/${r.method}` : r.path;
    while (paths.has(`${write ? 'POST' : 'GET'} ${path}`)) path = `${path}/${name}`;
    paths.add(`${write ? 'POST' : 'GET'} ${path}`);
    const responseCodes = Object.keys(responses);
    const description = [r.op.summary, r.op.description].filter((x): x is string => typeof x === 'string').join(' ').replace(/\s+/g, ' ').trim().slice(0, 400) || `${r.method.toUpperCase()} ${r.path}`;
    operations.push({
      name,
      description,
      method: write ? 'POST' : 'GET',
      path,
      api: { method: r.method.toUpperCase(), path: r.path },
      meaning: m.meaning,
      ...(m.collection ? { collection: m.collection } : {}),
      ...(m.idInput ? { idInput: m.idInput } : {}),
      input: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
      pathParams,
      queryParams,
      body: bodyMode,
      ...(output ? { output } : {}),
      conflict: responseCodes.includes('409'),
      ...(m.note ? { note: m.note } : {}),
    });
    if (m.collection && m.meaning !== 'unknown') {
      const s = schemas.get(m.collection) ?? {};
      if (m.meaning === 'read' && output?.type === 'object') s.read = output;
      if (m.meaning === 'read' && m.idInput) s.param = m.idInput;
      if (m.meaning === 'list' && output?.type === 'array' && isObj(output.items) && !s.read) s.read = output.items;
      if (m.meaning === 'create' && body?.type === 'object') s.create = body;
      schemas.set(m.collection, s);
    }
  }
  const collections: Record<string, CrudCollection> = {};
  for (const [name, s] of schemas) {
    const schema = s.read ?? s.create ?? { type: 'object' };
    const props = isObj(schema.properties) ? schema.properties : {};
    // The field a record is found by: the one its read names in the path (`/user/{username}`), else `id`.
    const idField = s.param && s.param in props ? s.param : 'id' in props ? 'id' : (Object.keys(props).find((k) => /id$/i.test(k)) ?? 'id');
    const idSchema = props[idField];
    const idType = isObj(idSchema) && (idSchema.type === 'integer' || idSchema.type === 'number') ? 'integer' : 'string';
    // Samples for the seeded generator, drawn here once: a world loads without the sampler.
    const samples: Obj[] = [];
    for (let i = 0; i < 20; i++) {
      let value: unknown;
      try {
        value = generateSync(schema as never, { seed: hash53(`${name}|sample|${i}`) % 2 ** 31, optionalsProbability: 0.5, maxItems: 2, maxDepth: 3 });
      } catch {
        value = {};
      }
      if (isObj(value)) {
        const { [idField]: _id, ...rest } = value;
        samples.push(rest);
      }
    }
    collections[name] = { idField, idType, schema, samples };
  }
  // An update of a whole collection names its record by the collection's id field.
  const fixed = operations.map((op) => (op.meaning === 'update' && op.idInput === 'id' && op.collection && collections[op.collection] ? { ...op, idInput: collections[op.collection]?.idField ?? 'id' } : op));
  // An operation on a collection nothing else describes is not understood either.
  const final = fixed.map((op) => (op.meaning !== 'unknown' && op.collection && !collections[op.collection] ? { ...op, meaning: 'unknown' as const, note: `no schema describes a record of \`${op.collection}\`` } : op));
  const info = isObj(doc.info) ? doc.info : {};
  return { title: typeof info.title === 'string' ? info.title : basename(file), source: basename(file), collections, operations: final };
}

/** The files of a world over `spec`, by name: what `world init` writes. */
export function worldFiles(spec: CrudSpec, id: string, service?: { baseUrl: string; reset: { method: string; path: string } }): Record<string, string> {
  const unknown = spec.operations.filter((o) => o.meaning === 'unknown');
  const guessed = spec.operations.filter((o) => o.meaning !== 'unknown' && o.note);
  const notInferred = [
    ...unknown.map((o) => `${o.name} (${o.api.method} ${o.api.path}): ${o.note ?? 'not understood'}; answers 501 until you write its handler in handlers.ts.`),
    ...guessed.map((o) => `${o.name} (${o.api.method} ${o.api.path}): ${o.note} (check it).`),
    'Which calls move money (`money: true` on a tool), the policy an agent must follow (policy.md), who the user is and which records are theirs (`judging` in index.ts), how users word their requests (language.ts).',
    'Headers, cookies and authentication of the API are left out of the tools; responses are the stored records, not the API\'s own envelopes.',
  ];
  const header = (lines: readonly string[]) => `// Written by \`shakedown world init --from-openapi ${spec.source}\` (${spec.title}).\n// NOT INFERRED: fill these in (docs/your-tools.md):\n${lines.map((l) => `//  - ${l}`).join('\n')}\n`;
  // The two scenarios: a read of one record and a delete (or update) of another, on the first
  // collection that has both.
  const byCollection = (meaning: CrudMeaning) => (c: string) => spec.operations.find((o) => o.collection === c && o.meaning === meaning);
  const names = Object.keys(spec.collections);
  const collection = names.find((c) => byCollection('read')(c) && (byCollection('delete')(c) ?? byCollection('update')(c))) ?? names.find((c) => byCollection('read')(c));
  if (!collection) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to write a world from \`${spec.source}\`: no operation reads one record of a collection (GET /things/{id} answering an object), so no scenario can be written. Operations: ${spec.operations.map((o) => `${o.api.method} ${o.api.path}`).join(', ')}.`);
  }
  const c = spec.collections[collection] as CrudCollection;
  const read = byCollection('read')(collection) as CrudOperation;
  const write = byCollection('delete')(collection) ?? byCollection('update')(collection);
  const recordId = (n: number) => (c.idType === 'integer' ? n : `${collection.slice(0, 1).toUpperCase()}${n}`);
  const record = (n: number): Obj => {
    let value: unknown;
    try {
      value = generateSync(c.schema as never, { seed: hash53(`${id}|scenario|${n}`) % 2 ** 31, optionalsProbability: 1, alwaysFakeOptionals: true, maxItems: 1, maxDepth: 3 });
    } catch {
      value = {};
    }
    return { ...(isObj(value) ? value : {}), [c.idField]: recordId(n) };
  };
  // A scenario's records: in the store (a world over the in-memory store), or made by the collection's
  // create call on the service (a world over a running service).
  const create = byCollection('create')(collection);
  if (service && !create) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to write a world over the service from \`${spec.source}\`: no operation creates a record of \`${collection}\`, so no scenario can set its records up. Add one to the document, or write the scenarios' setup calls by hand.`);
  }
  const setupOf = (r: Obj) => (service && create ? { calls: [{ tool: create.name, args: Object.fromEntries(Object.entries(r).filter(([k]) => k in ((create.input.properties as Obj | undefined) ?? {}))) }] } : { [collection]: [r] });
  const first = record(9001);
  const second = record(9002);
  // What the read must tell: a text field of the record, long enough to be found in a reply.
  const shown = Object.entries(first).find(([k, v]) => k !== c.idField && typeof v === 'string' && v.trim().length >= 3 && !/^\d+$/.test(v));
  const singular = collection.replace(/ies$/, 'y').replace(/s$/, '');
  const readIntent = `read_${snake(singular)}`;
  const writeIntent = write ? `${write.meaning}_${snake(singular)}` : undefined;
  const idArg = read.idInput ?? c.idField;
  const tasks: Record<string, unknown> = {
    [`read-${snake(singular).replace(/_/g, '-')}`]: {
      id: `read-${snake(singular).replace(/_/g, '-')}`,
      world: id,
      title: `Tell the user about ${singular} ${String(recordId(9001))}`,
      tags: { category: 'read', tools: [read.name] },
      setup: setupOf(first),
      user: { profile: { name: 'Sam Rivera' }, identity: 'name', requests: [{ intent: readIntent, slots: { id: String(recordId(9001)) } }] },
      gold: [],
      outputs: shown ? [shown[1]] : [],
      reads: [{ tool: read.name, args: { [idArg]: String(recordId(9001)) } }],
    },
  };
  if (write && writeIntent) {
    const slug = `${write.meaning}-${snake(singular).replace(/_/g, '-')}`;
    const changed = Object.entries(second).find(([k, v]) => k !== c.idField && typeof v === 'string');
    const args: Obj = { [write.idInput ?? c.idField]: String(recordId(9002)) };
    if (write.meaning === 'update') {
      // Every field the update requires, from the record; one text field changed.
      const required = Array.isArray(write.input.required) ? (write.input.required as string[]) : [];
      for (const k of required) if (!(k in args) && k in second) args[k] = second[k];
      // Another value the field's schema allows: drawn until it differs from the record's.
      if (changed) {
        const schema = ((write.input.properties as Obj | undefined) ?? {})[changed[0]];
        for (let i = 0; i < 20; i++) {
          let v: unknown;
          try {
            v = generateSync((isObj(schema) ? schema : { type: 'string' }) as never, { seed: hash53(`${id}|change|${i}`) % 2 ** 31 });
          } catch {
            break;
          }
          if (v !== undefined && v !== changed[1]) {
            args[changed[0]] = v;
            break;
          }
        }
      }
    }
    tasks[slug] = {
      id: slug,
      world: id,
      title: `${write.meaning === 'delete' ? 'Delete' : 'Update'} ${singular} ${String(recordId(9002))}`,
      tags: { category: write.meaning, tools: [write.name] },
      setup: setupOf(second),
      user: { profile: { name: 'Sam Rivera' }, identity: 'name', requests: [{ intent: writeIntent, slots: { id: String(recordId(9002)) } }] },
      gold: [{ tool: write.name, args }],
      outputs: [],
    };
  }
  const entity = c.idType === 'integer' ? '/\\b9\\d{3}\\b/g' : `/\\b${collection.slice(0, 1).toUpperCase()}9\\d{3}\\b/g`;
  const language = `${header(['How users word their requests: the phrasings below are a start; add the ways your users ask, and the perturbation material (docs/worlds.md, 7).'])}import type { UserLanguage } from 'shakedown';

/** How a user of ${spec.title} words things; \`{slot}\` placeholders are filled from the scenario and protected. */
export const language: UserLanguage = {
  intents: {
    ${JSON.stringify(readIntent)}: [${JSON.stringify(`What are the details of ${singular} {id}?`)}, ${JSON.stringify(`Can you look up ${singular} {id} for me?`)}],${writeIntent ? `\n    ${JSON.stringify(writeIntent)}: [${JSON.stringify(`Please ${write?.meaning} ${singular} {id}.`)}, ${JSON.stringify(`I'd like to ${write?.meaning} ${singular} {id}.`)}],` : ''}
  },
  slots: {
    id: { asked: [/\\bwhich\\b/i, /\\bid\\b/i, /\\bnumber\\b/i], answers: ['It is {id}.', '{id}.'] },
  },
  identity: { name: ['My name is {name}.'] },
  identityAsked: [/\\bname\\b/i, /\\bwho\\b/i],
  confirmAsked: [/\\bconfirm\\b/i, /\\bproceed\\b/i, /\\bshall i\\b/i, /\\bgo ahead\\b/i],
  helpAsked: [/how can i help/i, /what (do|can) (you need|i do)/i],
  anythingElse: [/anything else/i],
  entityPattern: ${entity},
  confirmSlots: ['id'],${writeIntent ? `\n  proposals: { ${JSON.stringify(writeIntent)}: [/\\b${write?.meaning === 'delete' ? '(?:delet|remov)' : '(?:updat|chang|modif)'}\\w*/i] },` : ''}
  perturbation: {
    entityFormats: { id: 'id' },
    lexicon: { "I'd like to": ['I want to'], please: ['kindly'] },
    paraphrases: {},
    distractors: ['I am writing from my phone.'],
    stories: { '*': ['I need this sorted out today.'] },
    competing: [],
  },
};
`;
  const lists = spec.operations.filter((o) => o.meaning === 'list' && !(Array.isArray(o.input.required) && (o.input.required as unknown[]).length > 0));
  const proxy = service
    ? `${header([...notInferred.slice(0, -1), `The state the judge compares: ${lists.length > 0 ? lists.map((o) => o.name).join(', ') : 'no list operation without arguments; write `snapshot`'}. Add the reads that show everything your agent may change.`, `The reset hook (${service.reset.method} ${service.reset.path}) must put the service back to the same state before every episode.`])}import { readFileSync } from 'node:fs';
import { httpApiWorld, type CrudSpec } from 'shakedown';
import { language } from './language.js';

/** The operations read from ${spec.source}. */
const spec = JSON.parse(readFileSync(new URL('./operations.json', import.meta.url), 'utf8')) as CrudSpec;

/** ${spec.title.replace(/\*\//g, '')}, the running service behind Shakedown's fault injector (docs/your-tools.md). */
export default httpApiWorld({
  id: ${JSON.stringify(id)},
  spec,
  baseUrl: process.env.SHAKEDOWN_SERVICE_URL ?? ${JSON.stringify(service.baseUrl)},
  reset: ${JSON.stringify(service.reset)},
  snapshot: ${JSON.stringify(lists.map((o) => ({ tool: o.name })))},
  policy: readFileSync(new URL('./policy.md', import.meta.url), 'utf8'),
  userLanguage: language,
  categories: ${JSON.stringify([...new Set(Object.values(tasks).map((t) => (t as { tags: { category: string } }).tags.category))])},
});
`
    : undefined;
  const index = proxy ?? `${header(notInferred)}import { readFileSync } from 'node:fs';
import { crudApplySetup, crudDbSchema, crudGenerate, crudHandlers, crudSetupSchema, crudTools, defineWorld, type CrudSpec } from 'shakedown';
import { ownHandlers } from './handlers.js';
import { language } from './language.js';

/** The operations read from ${spec.source}: tools, their meaning on the store, the collections' schemas. */
const spec = JSON.parse(readFileSync(new URL('./operations.json', import.meta.url), 'utf8')) as CrudSpec;

/** ${spec.title.replace(/\*\//g, '')}, as a world over an in-memory store (docs/your-tools.md). */
export default defineWorld({
  id: ${JSON.stringify(id)},
  description: ${JSON.stringify(`${spec.title}: ${spec.operations.length} operations from ${spec.source}, over an in-memory store`)},
  dbSchema: crudDbSchema(spec),
  generate: (seed) => crudGenerate(spec, seed),
  setupSchema: crudSetupSchema,
  applySetup: (db, setup) => crudApplySetup(spec, db as never, setup),
  tools: crudTools(spec),
  // Your handlers first: one for a path replaces the inferred one.
  handlers: (instance) => [...ownHandlers(instance as never), ...crudHandlers(spec, instance as never)],
  policy: readFileSync(new URL('./policy.md', import.meta.url), 'utf8'),
  userLanguage: language,
  categories: ${JSON.stringify([...new Set(Object.values(tasks).map((t) => (t as { tags: { category: string } }).tags.category))])},
  // What the judge checks beside the final state (docs/judging.md): who the user is (\`identify\`), whose
  // records are whose (\`records\`), which calls read a user's records (\`private\`). Empty: only the state,
  // the claims and the outputs are checked.
  judging: {},
});
`;
  const handlers = `${header([...unknown.map((o) => `${o.name} (${o.api.method} ${o.api.path}): ${o.note ?? 'not understood'}.`), 'Anything the inferred handlers get wrong for your API (side effects on other collections, validation, computed fields).'])}import { http, HttpResponse, type RequestHandler, type WorldInstance } from 'shakedown';

// Your own handlers, tried before the inferred ones: write one for each operation listed above, e.g.
//
//   http.post('*' + '/api/pet/:petId/uploadImage', async ({ request, params }) => {
//     const w = instance(request);
//     return HttpResponse.json(w.db.pet?.[String(params.petId)] ?? {});
//   }),
export function ownHandlers(instance: (request: Request) => WorldInstance<Record<string, Record<string, unknown>>>): RequestHandler[] {
  void instance;
  void http;
  void HttpResponse;
  return [];
}
`;
  const policy = `<!-- ${header(['The rules an agent must follow: who may do what, what must be confirmed, what is refused.']).replace(/\/\/ ?/g, '').replace(/-->/g, '')} -->
# ${spec.title}: policy

You help users of ${spec.title}. Before any change, tell the user exactly what you will change and wait for
an explicit yes. Never change a record the user did not ask about.

<!-- TODO: the real rules of your service. -->
`;
  const files: Record<string, string> = {
    'operations.json': `${JSON.stringify(spec, null, 2)}\n`,
    'index.ts': index,
    ...(service ? {} : { 'handlers.ts': handlers }),
    'language.ts': language,
    'policy.md': policy,
  };
  for (const [slug, task] of Object.entries(tasks)) files[`tasks/${slug}.json`] = `${JSON.stringify(task, null, 2)}\n`;
  return files;
}
