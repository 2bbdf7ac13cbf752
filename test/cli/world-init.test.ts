// `shakedown world init --from-openapi` (docs/your-tools.md): a world written from an OpenAPI document
// validates and sweeps as written, on the public Swagger Petstore 3 document and on the larger document of a
// real service (Ory Kratos, 60 operations); its tools have the meaning their paths and methods imply.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serverCommand } from '../../src/cli/mcp-world-files.js';
import { crudSpecOf } from '../../src/cli/openapi-world.js';
import { crudHandlers, crudTools, type CrudSpec } from '../../src/ground/crud.js';
import { ToolRuntime } from '../../src/ground/runtime.js';
import { createClock } from '../../src/ground/clock.js';
import { callTool } from '../../src/ground/tools.js';
import { shakedown } from '../cli-run.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/openapi/${name}`, import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** A folder of the user's own, where `shakedown` is installed, as a generated world imports it. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shakedown-world-init-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'shakedown'), 'dir');
  return dir;
}

/** An episode's tools over a spec's store, without a world around it. */
function store(spec: CrudSpec, db: Record<string, Record<string, unknown>> = {}) {
  const world = { id: 'spec', tools: crudTools(spec), handlers: (instance: never) => crudHandlers(spec, instance) } as never;
  const runtime = new ToolRuntime(world);
  const session = runtime.open({ episodeId: 'crud', db, clock: createClock() });
  const call = (name: string, args: Record<string, unknown>) => callTool(session.fetch, session.baseUrl, crudTools(spec).find((t) => t.name === name) as never, args);
  return { call, db, session };
}

describe('world init --from-openapi', () => {
  it('reads the Petstore: each operation as a tool with the meaning its method and path imply, and what it cannot infer said', async () => {
    const spec = await crudSpecOf(fixture('petstore3.yaml'));
    expect(spec.operations).toHaveLength(19);
    const meaning = Object.fromEntries(spec.operations.map((o) => [o.name, `${o.meaning}${o.collection ? ` ${o.collection}` : ''}${o.idInput ? ` by ${o.idInput}` : ''}`]));
    expect(meaning).toMatchObject({
      get_pet_by_id: 'read pet by petId',
      delete_pet: 'delete pet by petId',
      add_pet: 'create pet',
      update_pet: 'update pet by id',
      find_pets_by_status: 'list pet',
      get_order_by_id: 'read order by orderId',
      place_order: 'create order',
      get_user_by_name: 'read user by username',
      update_user: 'update user by username',
      create_user: 'create user',
      upload_file: 'unknown pet',
      login_user: 'unknown user',
    });
    expect(spec.collections.user?.idField).toBe('username');
    expect(spec.collections.pet).toMatchObject({ idField: 'id', idType: 'integer' });
    // Reads are GET, writes POST on a path of their own.
    expect(spec.operations.find((o) => o.name === 'delete_pet')).toMatchObject({ method: 'POST', path: '/pet/{petId}/delete' });
    expect(spec.operations.find((o) => o.name === 'get_pet_by_id')).toMatchObject({ method: 'GET', path: '/pet/{petId}' });
  });

  it('answers with the store: create, read, list by query, update, delete; 404 for a record not there, 501 for an operation not understood', async () => {
    const spec = await crudSpecOf(fixture('petstore3.yaml'));
    const { call, db } = store(spec, { pet: {}, order: {}, user: {} });
    expect((await call('add_pet', { id: 7, name: 'Rex', photoUrls: [], status: 'available' })).status).toBe(200);
    expect(db.pet?.['7']).toMatchObject({ name: 'Rex' });
    expect((await call('get_pet_by_id', { petId: '7' })).body).toMatchObject({ id: 7, name: 'Rex' });
    expect((await call('find_pets_by_status', { status: 'available' })).body).toHaveLength(1);
    expect((await call('find_pets_by_status', { status: 'sold' })).body).toHaveLength(0);
    expect((await call('update_pet', { id: 7, name: 'Max', photoUrls: [] })).body).toMatchObject({ id: 7, name: 'Max', status: 'available' });
    // Only the tool's own input goes into a record: nothing of the URL it was called on.
    expect(Object.keys(db.pet?.['7'] as object).sort()).toEqual(['id', 'name', 'photoUrls', 'status']);
    // A form update's query is its data (`POST /pet/{petId}?name=&status=`).
    expect((await call('update_pet_with_form', { petId: '7', name: 'Rex', status: 'sold' })).body).toMatchObject({ name: 'Rex', status: 'sold' });
    expect((await call('update_pet', { id: 8, name: 'Nobody', photoUrls: [] })).status).toBe(404);
    expect((await call('delete_pet', { petId: '7' })).status).toBe(200);
    expect(db.pet?.['7']).toBeUndefined();
    expect((await call('get_pet_by_id', { petId: '7' })).status).toBe(404);
    expect((await call('login_user', { username: 'a', password: 'b' })).status).toBe(501);
    // A body that breaks the input schema is the API's 400, with zod's message.
    expect((await call('add_pet', { id: 9, photoUrls: [] })).status).toBe(400);
  });

  it('writes an update scenario where the document has no delete, and it holds', async () => {
    const dir = project();
    const file = join(dir, 'notes.yaml');
    writeFileSync(file, `openapi: 3.0.3
info: { title: Notes, version: '1' }
paths:
  /notes:
    post:
      operationId: createNote
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } } }
  /notes/{noteId}:
    get:
      operationId: getNote
      parameters: [{ name: noteId, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } } }
    put:
      operationId: updateNote
      parameters: [{ name: noteId, in: path, required: true, schema: { type: string } }]
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } } }
components:
  schemas:
    Note: { type: object, required: [id, text], properties: { id: { type: string }, text: { type: string, minLength: 3, maxLength: 10, pattern: '^[a-z]+$' } } }
`);
    const world = join(dir, 'notes');
    expect((await shakedown('world', 'init', world, '--from-openapi', file)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(world, 'tasks', 'update-note.json'), 'utf8')).gold[0]).toMatchObject({ tool: 'update_note' });
    const v = await shakedown('validate', '--world', join(world, 'index.ts'));
    expect(v.stdout + v.stderr).toMatch(/2 of 2 scenarios of world notes hold/);
  });

  it('refuses a create of a record that exists where the document declares a 409', async () => {
    const dir = project();
    const file = join(dir, 'tickets.yaml');
    writeFileSync(file, `openapi: 3.0.3
info: { title: Tickets, version: '1' }
paths:
  /tickets:
    post:
      operationId: createTicket
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }, '409': { description: exists } }
  /tickets/{ticketId}:
    get:
      operationId: getTicket
      parameters: [{ name: ticketId, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } } }
components:
  schemas:
    Ticket: { type: object, required: [id, title], properties: { id: { type: string }, title: { type: string }, status: { type: string, enum: [open, closed] } } }
`);
    const spec = await crudSpecOf(file);
    const { call } = store(spec, { tickets: {} });
    expect((await call('create_ticket', { id: 'T1', title: 'Printer' })).status).toBe(200);
    expect((await call('create_ticket', { id: 'T1', title: 'Printer again' })).status).toBe(409);
    expect((await call('get_ticket', { ticketId: 'T1' })).body).toMatchObject({ title: 'Printer' });
  });

  for (const [name, ops, collection] of [['petstore3.yaml', 19, 'pet'], ['kratos.json', 60, 'identities']] as const) {
    it(`writes a world from ${name} that validates and sweeps as written`, async () => {
      const dir = project();
      const world = join(dir, 'world');
      const init = await shakedown('world', 'init', world, '--from-openapi', fixture(name));
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
      expect(init.stdout).toMatch(new RegExp(`${ops} tools`));
      const index = readFileSync(join(world, 'index.ts'), 'utf8');
      expect(index).toMatch(/^\/\/ NOT INFERRED: fill these in/m);
      const v = await shakedown('validate', '--world', join(world, 'index.ts'));
      expect(v.stdout + v.stderr).toMatch(/2 of 2 scenarios of world world hold/);
      expect(v.code).toBe(0);
      const out = join(dir, 'run');
      const s = await shakedown('sweep', '--world', join(world, 'index.ts'), '--agent', 'oracle,noop', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--out', out);
      expect(s.code).toBe(0);
      const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8')) as { agents: { agent: string; cells: { lambda: number; passHatK: { value: number }[] }[] }[] };
      const pass = (agent: string, lambda: number) => grid.agents.find((a) => a.agent === agent)?.cells.find((c) => c.lambda === lambda)?.passHatK[0]?.value;
      expect(pass('oracle', 0)).toBe(1);
      expect(pass('noop', 0)).toBe(0);
      const tasks = readFileSync(join(world, 'tasks', `read-${collection === 'identities' ? 'identity' : collection}.json`), 'utf8');
      expect(JSON.parse(tasks).reads).toHaveLength(1);
    }, 120_000);
  }

  it('writes a world over an MCP server from npm (--from-mcp) that validates and sweeps as written, a fresh server per episode', async () => {
    const dir = project();
    const world = join(dir, 'memory');
    const server = join(root, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
    const init = await shakedown('world', 'init', world, '--from-mcp', `MEMORY_FILE_PATH={dir}/memory.jsonl "${process.execPath}" "${server}"`);
    expect(init.stderr).toBe('');
    expect(init.stdout).toMatch(/9 tools \(6 that write, by their annotations\)/);
    const index = readFileSync(join(world, 'index.ts'), 'utf8');
    expect(index).toMatch(/"MEMORY_FILE_PATH":"\{dir\}\/memory\.jsonl"/);
    expect(index).toMatch(/snapshot: \[\{"tool":"read_graph"\}\]/);
    const v = await shakedown('validate', '--world', join(world, 'index.ts'));
    expect(v.stdout + v.stderr).toMatch(/2 of 2 scenarios of world memory hold/);
    const out = join(dir, 'run');
    const s = await shakedown('sweep', '--world', join(world, 'index.ts'), '--agent', 'oracle,noop', '--eps', '0', '--lambda', '0', '--trials', '1', '--out', out);
    expect(s.code).toBe(0);
    expect(s.stdout).toMatch(/oracle\s+1\.000 at ε 0, λ 0/);
    expect(s.stdout).toMatch(/noop\s+0\.000 at ε 0, λ 0/);
    // The server kept its state in the episode's folder, not beside itself.
    expect(existsSync(join(root, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'memory.jsonl'))).toBe(false);
    expect(serverCommand(`A=1 B='x y' node "a b.js" --flag`)).toEqual({ env: { A: '1', B: 'x y' }, cmd: 'node', args: ['a b.js', '--flag'] });
    const bad = await shakedown('world', 'init', join(dir, 'bad'), '--from-mcp', `"${process.execPath}" -e "process.exit(1)"`);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Failed to list the tools of .*: .*Check that the command starts an MCP server on stdio/);
  }, 120_000);

  it('says what to fix: a Swagger 2.0 document, a missing file, a folder that is not empty', async () => {
    const dir = project();
    const swagger = join(dir, 'old.json');
    writeFileSync(swagger, JSON.stringify({ swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} }));
    const old = await shakedown('world', 'init', join(dir, 'a'), '--from-openapi', swagger);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/Swagger 2\.0 document: convert it to OpenAPI 3/);
    const missing = await shakedown('world', 'init', join(dir, 'b'), '--from-openapi', join(dir, 'nope.yaml'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Failed to read the OpenAPI document .*nope\.yaml/);
    mkdirSync(join(dir, 'full'));
    writeFileSync(join(dir, 'full', 'keep.txt'), 'x');
    const full = await shakedown('world', 'init', join(dir, 'full'), '--from-openapi', fixture('petstore3.yaml'));
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(/not empty.*--force/);
    expect((await shakedown('world', 'init', join(dir, 'c'))).stderr).toMatch(/--from-openapi SPEC.*--from-mcp "COMMAND"/);
  });
});
