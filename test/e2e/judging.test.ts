import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shakedown, shakedownWithInput } from '../cli-run.js';

describe('the new verdicts through the CLI', () => {
  it('keyless retries after a commit: false-failure and duplicated writes in episodes.jsonl, grid.json, report.html and replay', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-judging-')), 'run');
    const r = await shakedown('sweep', '--out', out, '--agent', 'reference:retry,reference:idempotency+backoff', '--scenario', 'cancel-pending-mistake', '--scenario', 'top-up-gift-card', '--eps', '0', '--lambda', '0.5', '--profile', 'timeout-after-commit', '--trials', '4', '--quiet');
    expect(r.code).toBe(0);
    // Seed 42: the retry agent's keyless retries after a commit write twice or meet "already cancelled";
    // the same logic with an Idempotency-Key passes every episode.
    expect(r.stdout).toMatch(/did not pass: 3 \(duplicated-write 2, false-failure-claim 1\)/);
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const retryCancel = records.find((x) => x.key.agent === 'reference:retry' && x.key.scenario === 'cancel-pending-mistake' && x.outcome === 'fail');
    expect(retryCancel.failure).toBe('false-failure-claim');
    expect(retryCancel.findings[0].message).toMatch(/^told the user cancel_order on #W9000201 failed, but it took effect/);
    expect(records.filter((x) => x.key.agent === 'reference:idempotency+backoff').every((x) => x.outcome === 'pass')).toBe(true);
    const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8'));
    const retry = grid.agents.find((a: { agent: string }) => a.agent === 'reference:retry');
    expect(retry.cells[0].failures).toEqual({ 'duplicated-write': 2, 'false-failure-claim': 1 });
    const html = readFileSync(join(out, 'report', 'report.html'), 'utf8');
    // The taxonomy's row of the class: reference:retry's one, reference:idempotency+backoff's none.
    expect(html).toContain('<tr><td>false-failure-claim</td><td>1</td><td>0</td></tr>');
    expect(html).toContain('told the user cancel_order on #W9000201 failed, but it took effect');
    const replay = await shakedown('replay', '--scenario', 'cancel-pending-mistake', '--agent', 'reference:retry', '--eps', '0', '--lambda', '0.5', '--trial', String(retryCancel.key.trial), '--profile', 'timeout-after-commit');
    expect(replay.stdout).toMatch(/false-failure-claim: told the user cancel_order on #W9000201 failed, but it took effect/);
  }, 120_000);
});

describe('shakedown user', () => {
  it('prints the asks it found, what it answered and whether it closed; --json and stdin alike', async () => {
    const args = ['user', '--world', 'travel', '--scenario', 'missing-info-cancel'];
    const r = await shakedown(...args, "To proceed with canceling your reservation, I'll need your email address, the reservation ID, and the reason for cancellation.", 'Let me check that for you.', 'Reservation R900701 is now cancelled.');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/asks found: identity, slot:reservation, slot:reason\n {2}kept the request open\nuser: My e-mail address is tomas\.herrera@example\.org\. It's reservation R900701\. Well, change of plans\./);
    expect(r.stdout).toMatch(/asks found: none \(a progress note\)\n {2}kept the request open\nuser: /);
    expect(r.stdout).toMatch(/asks found: none\n {2}closed the request\n {2}the user ends the conversation \(done\)/);
    const lines = ['"Could you please provide those details?"', JSON.stringify({ text: 'Which reservation is it?' })].join('\n');
    const json = JSON.parse((await shakedownWithInput(lines, ...args, '--json', '--fresh')).stdout);
    expect(json.turns.map((t: { confused: boolean; asks: string[] }) => [t.confused, t.asks])).toEqual([
      [true, ['unplaced: Could you please provide those details?']],
      [false, ['slot:reservation']],
    ]);
    const none = await shakedownWithInput('', ...args);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no agent messages/);
  }, 60_000);
});
