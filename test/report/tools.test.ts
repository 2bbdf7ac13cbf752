import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getWorld } from '../../scenarios/index.js';
import { toolReference } from '../../src/report/tools.js';

describe('the tool reference of each world', () => {
  it.each(['retail', 'travel'])('docs/tools-%s.md is what the world\'s specs generate (regenerate with `shakedown list tools --world W --format md`)', (id) => {
    const doc = readFileSync(new URL(`../../docs/tools-${id}.md`, import.meta.url), 'utf8');
    expect(doc).toBe(toolReference(getWorld(id)));
  });

  it('names every tool with its call, whether it writes, its arguments with required ones marked, and its answer', () => {
    const ref = toolReference(getWorld('retail'));
    expect(ref).toContain('| `cancel_order` | `POST /orders/{orderId}/cancel` | yes | `orderId`: string; `reason`: "no longer needed" \\| "ordered by mistake" |');
    expect(ref).toMatch(/## `get_order`[\s\S]*A successful answer \(200\): `\{ /);
  });
});
