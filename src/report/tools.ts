/**
 * A world's tool reference in Markdown, generated from its tool specs (the zod inputs and answer schemas
 * agents are given): `shakedown list tools --world W --format md`, and docs/tools-<world>.md, which a test
 * keeps equal to what this writes.
 */
import { toolSpecJson, type WorldDefinition } from '../ground/world.js';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; enum?: unknown[]; anyOf?: Schema[]; description?: string; format?: string; minimum?: number; maximum?: number; const?: unknown };

/** A schema as a short type: `string`, `"a" | "b"`, `{ id: string, items: { ... }[] }`. */
function typeOf(s: Schema | undefined, depth = 0): string {
  if (!s) return 'any';
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return s.anyOf.map((x) => typeOf(x, depth)).join(' | ');
  const t = Array.isArray(s.type) ? s.type.join(' | ') : s.type;
  if (t === 'array') return `${typeOf(s.items, depth)}[]`;
  if (t === 'object' && s.properties) {
    if (depth >= 2) return 'object';
    const req = new Set(s.required ?? []);
    return `{ ${Object.entries(s.properties).map(([k, v]) => `${k}${req.has(k) ? '' : '?'}: ${typeOf(v, depth + 1)}`).join(', ')} }`;
  }
  const range = s.minimum !== undefined || s.maximum !== undefined ? ` (${s.minimum ?? ''}..${s.maximum ?? ''})` : '';
  return `${t ?? 'any'}${s.format ? ` (${s.format})` : ''}${range}`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The reference of one world's tools. */
export function toolReference(world: WorldDefinition): string {
  const lines = [
    `# Tools of the ${world.id} world`,
    '',
    `Generated from the world's tool specs (\`shakedown list tools --world ${world.id} --format md\`). Every tool is`,
    'an HTTP endpoint under the episode\'s tool base URL. Path parameters go into the path, URL-encoded; the',
    'other arguments go into the query string for a GET and into a JSON body for a POST. A write takes an',
    '`Idempotency-Key` header: a retry with the same key is answered from the first call (`idempotent-replayed:',
    'true`) and changes nothing twice. Every answer carries the episode\'s time in `Date`.',
    '',
    'Errors are JSON `{ "error": CODE, "message": TEXT }`: 400 for arguments that do not fit the inputs below,',
    '404 for a record that does not exist, 402 or 409 for a request the policy refuses (the message says why),',
    '422 for an Idempotency-Key reused on another tool, 500 for a failure of the world itself. Faults add 429 (Retry-After), 500/502/503 (a 502 is an HTML',
    'page), 504 after a wait, a connection reset, a body cut short, answers whose fields drifted from the',
    'schema below, and empty results (docs/faults.md).',
    '',
    '| tool | call | writes | arguments |',
    '| --- | --- | --- | --- |',
  ];
  const specs = world.tools.map(toolSpecJson);
  for (const t of specs) {
    const input = t.inputSchema as Schema;
    const req = new Set(input.required ?? []);
    const args = Object.entries(input.properties ?? {}).map(([k, v]) => `\`${k}${req.has(k) ? '' : '?'}\`: ${typeOf(v)}`).join('; ') || 'none';
    lines.push(`| \`${t.name}\` | \`${t.method} ${t.path}\` | ${t.write ? 'yes' : 'no'} | ${cell(args)} |`);
  }
  lines.push('');
  for (const t of specs) {
    lines.push(`## \`${t.name}\``, '', cell(t.description), '', `\`${t.method} ${t.path}\`${t.write ? ', a write' : ''}.`, '');
    const out = t.outputSchema as Schema | undefined;
    if (out) lines.push(`A successful answer (200): \`${typeOf(out)}\``, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
