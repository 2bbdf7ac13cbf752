/**
 * A module agent's episodes share its host process, and the world's policy and tools are sent to the
 * host once (not with every episode). They reach each episode frozen, as in the sweep's own process: an
 * episode that tampers with them changes nothing the next one sees.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shakedownIn } from '../cli-run.js';

const fixture = fileURLToPath(new URL('../fixtures/red-team/tools-tamperer.mjs', import.meta.url));

describe('a hosted agent and the world it is sent', () => {
  it('meets the tools as the world gives them in every episode, whatever an earlier one tried', async () => {
    const base = mkdtempSync(join(tmpdir(), 'shakedown-hosted-world-'));
    const out = join(base, 'run');
    const r = await shakedownIn(base, 'sweep', '--out', out, '--agent', fixture, '--scenario', 'read-order-status', '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0', '--trials', '3', '--concurrency', '1', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { messages: { role: string; text?: string; content?: string }[] });
    expect(records).toHaveLength(6);
    const replies = records.map((rec) => rec.messages.find((m) => m.role === 'agent'));
    for (const m of replies) expect(m?.text ?? m?.content).toBe('pristine=true refused=4 unchanged=true');
  });
});
