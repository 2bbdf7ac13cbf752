// Errors up front (`shakedown sweep`): an agent under test that throws is said once per kind of error,
// with its message and the command that replays it, and `--fail-fast N` stops launching more episodes.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';

const agent = fileURLToPath(new URL('../fixtures/agents/always-throws.mjs', import.meta.url));

describe('errors of the agent under test', () => {
  it('are said once per kind with the first message and a replay command, and --fail-fast stops the run, resumable', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-errors-')), 'run');
    const r = await shakedown('sweep', '--agent', `${agent},oracle`, '--fail-fast', '3', '--concurrency', '2', '--eps', '0', '--lambda', '0', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/errors of the agents under test \(the first of each kind/);
    expect(r.stdout).toMatch(/always-throws: Error in \d+ episodes?: the model client is not configured: OPENAI_API_KEY is missing\n {4}npx shakedown replay .*--agent .*always-throws\.mjs/);
    expect(r.stderr).toMatch(/stopped at a budget: 3 episodes of the agents under test ended in an error \(`--fail-fast 3`\); \d+ of 320 episodes done/);
    const done = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').length;
    expect(done).toBeLessThan(20);
    // The baseline's errors would not count: oracle has none here, and the run is resumable.
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).complete).toBe(false);
  }, 120_000);
});
