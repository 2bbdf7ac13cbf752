import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../../scenarios/index.js';
import { loadWorld, loadWorldModule } from '../../src/run/world-module.js';

const LIBRARY = fileURLToPath(new URL('../fixtures/worlds/library/index.ts', import.meta.url));

describe('world modules', () => {
  it('load once per path, with their scenarios beside them, and built-in ids as built-ins', async () => {
    const a = await loadWorld(LIBRARY);
    expect(a.id).toBe('library');
    expect(await loadWorldModule(LIBRARY)).toBe(a);
    expect(a.scenarioDir).toBe(fileURLToPath(new URL('../fixtures/worlds/library/tasks', import.meta.url)));
    expect(loadScenarios(a).map((s) => s.id)).toEqual(['missing-info-renew', 'read-due-date', 'refusal-renew-reserved', 'renew-loan']);
    expect((await loadWorld('travel')).id).toBe('travel');
    await expect(loadWorld('hotel')).rejects.toThrow(/Failed to find world `hotel`: no such world\. Built-in worlds: retail, travel; or a world module path such as \.\/my-world\/index\.ts/);
  });

  it('take an export named `world`, and a scenario folder of their own relative to the module', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-world-module-'));
    writeFileSync(join(dir, 'named.mts'), `import library from '${LIBRARY}';\nexport const world = { ...library, id: 'library-named', scenarioDir: '${join(dirname(LIBRARY), 'tasks')}' };\n`);
    const named = await loadWorldModule(join(dir, 'named.mts'));
    expect(named.id).toBe('library-named');
    expect(named.scenarioDir).toBe(join(dirname(LIBRARY), 'tasks'));
    writeFileSync(join(dir, 'nothing.mts'), 'export const answer = 42;\n');
    await expect(loadWorldModule(join(dir, 'nothing.mts'))).rejects.toThrow(/it has no default export\. Write `export default defineWorld/);
    writeFileSync(join(dir, 'throws.mts'), "throw new Error('half-written');\n");
    await expect(loadWorldModule(join(dir, 'throws.mts'))).rejects.toThrow(/importing it threw Error: half-written\. Fix the module so that it imports\./);
  });
});
