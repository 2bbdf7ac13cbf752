/**
 * Record MACs (src/store/mac.ts): an HMAC-SHA256 under the run's key of the line's bytes before its MAC
 * field, which the fast walker passes over; and the same verdicts whether a log's MACs are checked inline
 * or on a worker thread beside the reader (mac-check.ts).
 */
import { createHmac } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isRunKey, LineSigner, newRunKey, unsigned } from '../../src/store/mac.js';
import { checkMacsOffThread, failingLines } from '../../src/store/mac-check.js';
import { aggregationFields } from '../../src/store/record-walk.js';
import { parseRecord } from '../../src/store/log-lines.js';
import { loadRun } from '../../src/report/run.js';
import { shakedown } from '../cli-run.js';

const base = mkdtempSync(join(tmpdir(), 'shakedown-mac-'));
const run = join(base, 'run');

beforeAll(async () => {
  const r = await shakedown('sweep', '--out', run, '--agent', 'reference:none', '--scenario', 'read-order-status', '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--quiet', '--workers', '1');
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

describe('a signed line', () => {
  it('ends with the HMAC-SHA256, under the key, of its bytes before `,"mac":"`', () => {
    const key = newRunKey();
    expect(isRunKey(key)).toBe(true);
    expect(isRunKey(key.toUpperCase())).toBe(false);
    const json = JSON.stringify({ key: { scenario: 's', agent: 'a', eps: 0, lambda: 0, trial: 0 }, text: 'é "quoted" 🙂' });
    const line = new LineSigner(key).sign(json);
    const body = json.slice(0, -1);
    expect(line).toBe(`${body},"mac":"${createHmac('sha256', Buffer.from(key, 'hex')).update(body).digest('hex')}"}`);
    expect(JSON.parse(line)).toEqual({ ...JSON.parse(json), mac: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const bytes = Buffer.from(`x${line}y`);
    expect(new LineSigner(key).verify(bytes, 1, bytes.length - 1)).toBe(true);
    expect(new LineSigner(newRunKey()).verify(bytes, 1, bytes.length - 1)).toBe(false);
    expect(unsigned(bytes, 1, bytes.length - 1)).toBe(json);
    // One byte changed anywhere, the MAC's digits included, and it no longer verifies.
    for (const at of [2, Math.floor(bytes.length / 2), bytes.length - 5]) {
      const edited = Buffer.from(bytes);
      edited[at] = (edited[at] as number) ^ 1;
      expect(new LineSigner(key).verify(edited, 1, edited.length - 1), String(at)).toBe(false);
    }
    // Signed again under another key, it verifies there and not under the first.
    const other = newRunKey();
    const again = Buffer.from(new LineSigner(other).resign(bytes, 1, bytes.length - 1));
    expect(new LineSigner(other).verify(again, 0, again.length)).toBe(true);
    expect(new LineSigner(key).verify(again, 0, again.length)).toBe(false);
  });

  it('reads the same to the fast walker and to a whole parse, which both leave the MAC out (and the parse the line\'s tally)', () => {
    for (const line of readFileSync(join(run, 'episodes.jsonl'), 'utf8').trim().split('\n')) {
      const bare = unsigned(Buffer.from(line), 0, Buffer.byteLength(line));
      expect(aggregationFields(line)).toEqual(aggregationFields(bare));
      expect(aggregationFields(line)).toBeDefined();
      const { tally, ...record } = JSON.parse(bare) as Record<string, unknown>;
      expect(tally).toBeDefined();
      expect(parseRecord(line)).toEqual(record);
    }
  });
});

describe('MACs checked on a worker thread', () => {
  it('give the grid and verdicts of the inline check, for a clean log, a torn line and an edited record', async () => {
    const dir = join(base, 'edited');
    cpSync(run, dir, { recursive: true });
    const log = join(dir, 'episodes.jsonl');
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const same = async (expected: { torn: number; unverified: number }) => {
      const inline = await loadRun(dir, 0.8, { offThreadBytes: Number.POSITIVE_INFINITY });
      const beside = await loadRun(dir, 0.8, { offThreadBytes: 0 });
      expect(beside.grid).toEqual(inline.grid);
      expect(beside.problems).toEqual(inline.problems);
      expect(beside.completeness).toEqual(inline.completeness);
      expect(inline.problems).toMatchObject(expected);
    };
    await same({ torn: 0, unverified: 0 });
    // A torn line fails its MAC on the thread, but was never counted: no second read is needed, and none changes anything.
    appendFileSync(log, '{"key":{"scenario":"read-order');
    await same({ torn: 1, unverified: 0 });
    lines[3] = (lines[3] as string).replace(/"outcome":"(pass|fail)"/, (_, o: string) => `"outcome":"${o === 'pass' ? 'fail' : 'pass'}"`);
    writeFileSync(log, `${lines.join('\n')}\n`);
    await same({ torn: 0, unverified: 1 });
    // The thread itself answers (a thread that failed would only send the reader back to the inline check).
    const { key } = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { key: string };
    expect(await failingLines(log, key)).toEqual([4]);
    expect(await checkMacsOffThread(log, key)).toEqual([4]);
  }, 60_000);
});

describe('one episode logged twice', () => {
  it('counts once when its second record writes the key fields in another order, signed as the first', async () => {
    const dir = join(base, 'twice');
    cpSync(run, dir, { recursive: true });
    const log = join(dir, 'episodes.jsonl');
    const before = await loadRun(dir, 0.8);
    const { key } = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { key: string };
    const first = readFileSync(log, 'utf8').split('\n')[0] as string;
    const record = JSON.parse(unsigned(Buffer.from(first), 0, Buffer.byteLength(first))) as { key: Record<string, unknown>; outcome: string };
    // The same episode, its key's fields reversed and its outcome turned: a second record the reader must not count.
    const reordered = { ...record, key: Object.fromEntries(Object.entries(record.key).reverse()), outcome: record.outcome === 'pass' ? 'fail' : 'pass' };
    appendFileSync(log, `${new LineSigner(key).sign(JSON.stringify(reordered))}\n`);
    const after = await loadRun(dir, 0.8);
    expect(after.duplicates).toBe(before.duplicates + 1);
    expect(after.outcomes.size).toBe(before.outcomes.size);
    expect([...after.outcomes]).toEqual([...before.outcomes]);
    expect(after.grid).toEqual(before.grid);
  }, 60_000);
});

describe('the episode log held open for a sweep', () => {
  it('writes each record as appendEpisode does, refuses a link in the log\'s place, and writes nothing once closed', async () => {
    const { appendEpisode, openEpisodeLog } = await import('../../src/store/rundir.js');
    const { symlinkSync } = await import('node:fs');
    const dir = mkdtempSync(join(base, 'log-'));
    const records = readFileSync(join(run, 'episodes.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).slice(0, 3).map((l) => JSON.parse(l) as Parameters<typeof appendEpisode>[1]);
    const signer = new LineSigner(newRunKey());
    const one = join(dir, 'one.jsonl');
    const held = join(dir, 'held.jsonl');
    for (const r of records) appendEpisode(one, r, signer);
    const log = openEpisodeLog(held, signer);
    for (const r of records) log.append(r);
    // Each line is on disk when append returns: a sweep killed after it keeps the episode.
    expect(readFileSync(held, 'utf8')).toBe(readFileSync(one, 'utf8'));
    log.close();
    expect(() => log.append(records[0] as Parameters<typeof appendEpisode>[1])).toThrow(/closed/);
    expect(readFileSync(held, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
    symlinkSync(one, join(dir, 'link.jsonl'));
    expect(() => openEpisodeLog(join(dir, 'link.jsonl'), signer)).toThrow(/symbolic link/);
  });
});
