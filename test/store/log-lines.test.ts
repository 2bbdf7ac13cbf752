/**
 * The fast log reader (src/store/log-lines.ts) against a whole `JSON.parse` of every line: same fields for
 * real records of every shape the engine writes, the same lines found in odd files, and a fallback (never
 * a wrong answer) for lines the walk does not read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAgent } from '../../src/agents/registry.js';
import { forEachLine, KeyHashes, readLastLines } from '../../src/store/log-lines.js';
import { makeRng } from '../../src/ground/seeds.js';
import { aggregationFields, aggregationFieldsOfBytes, fieldsOfRecord, gridFirst } from '../../src/store/record-walk.js';
import { parseRecord } from '../../src/store/log-lines.js';
import { LineSigner, newRunKey } from '../../src/store/mac.js';
import { runEpisode, WorldHarness } from '../../src/run/episode.js';
import { type EpisodeRecord } from '../../src/ground/record.js';
import { episodeOptions, retail, retailScenarios } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'shakedown-log-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function records(): Promise<EpisodeRecord[]> {
  const harness = new WorldHarness(retail, '42');
  const out: EpisodeRecord[] = [];
  for (const agent of ['reference:robust', 'reference-strict:none', 'noop'])
    for (const s of retailScenarios.slice(0, 10)) {
      const prepared = await harness.prepare(s);
      out.push(await runEpisode(harness, prepared, resolveAgent(agent), { scenario: s.id, agent, eps: 1, lambda: 0.5, trial: 0 }, episodeOptions()));
    }
  return out;
}

describe('aggregation fields read from a line', () => {
  it('equal those of the parsed record, for real records with faults, perturbations, failures and usage', async () => {
    const all = await records();
    // Shapes the engine writes beside the plain ones: usage and costs, a failure, confusions, quotes and
    // backslashes and non-ASCII text in messages, a trace entry refused outside the world.
    const extra = all.slice(0, 3).map((r, i) => ({
      ...r,
      usage: { promptTokens: 10 + i, completionTokens: 2 },
      costUsd: i === 0 ? null : 0.001 * i,
      userUsage: { promptTokens: 1, completionTokens: 1 },
      userCostUsd: 0,
      confusions: [{ turn: 0, reason: 'x' }],
      messages: [...r.messages, { role: 'user' as const, text: 'say "perturbations":["x"] \\" ü 🙂 {[', perturbations: ['typos'] }],
      trace: [...r.trace, { tool: null, method: 'GET', path: 'http://elsewhere/', ordinal: 0, status: 0, atMs: 0, refused: 'outside the world' }],
    }));
    let perturbed = 0;
    let faulted = 0;
    for (const r of [...all, ...extra]) {
      const line = JSON.stringify(r);
      const fast = aggregationFields(line);
      expect(fast).toBeDefined();
      expect(fast).toEqual(fieldsOfRecord(JSON.parse(line) as EpisodeRecord));
      perturbed += fast?.families.length ? 1 : 0;
      faulted += fast?.faults.length ? 1 : 0;
    }
    expect(perturbed).toBeGreaterThan(0);
    expect(faulted).toBeGreaterThan(0);
    // Pretty-printed JSON reads the same.
    const pretty = JSON.stringify(extra[1], null, 2);
    expect(aggregationFields(pretty)).toEqual(fieldsOfRecord(JSON.parse(pretty) as EpisodeRecord));
  });

  it('reads nothing from a line it cannot walk whole: torn, not an object, a key with escapes', () => {
    const line = JSON.stringify({ key: { scenario: 's', agent: 'a', eps: 0, lambda: 0, trial: 0 }, outcome: 'pass', faults: [], messages: [{ role: 'user', text: 'hi' }], trace: [] });
    for (let cut = 1; cut < line.length; cut += 7) expect(aggregationFields(line.slice(0, cut))).toBeUndefined();
    expect(aggregationFields('[1, 2]')).toBeUndefined();
    expect(aggregationFields(line.replace('"outcome"', '"out\\u0063ome"'))).toBeUndefined();
    expect(aggregationFields(line.replace('"messages":[', '"messages":{"0":').replace('}],"trace"', '}},"trace"'))).toBeUndefined();
    expect(aggregationFields(line)).toEqual({ key: { scenario: 's', agent: 'a', eps: 0, lambda: 0, trial: 0 }, outcome: 'pass', faults: [], families: [], confused: false, calls: 0 });
  });
});

describe('a line laid out with the grid\'s members first', () => {
  const signer = new LineSigner(newRunKey());
  const lineOf = (r: EpisodeRecord) => signer.sign(JSON.stringify(gridFirst(r)));

  it('holds the same members and values as the record, gives the same fields, and parses back to the record without its tally', async () => {
    const all = await records();
    const extra = all.slice(0, 3).map((r, i) => ({
      ...r,
      usage: { promptTokens: 10 + i, completionTokens: 2, calls: 1 },
      costUsd: i === 0 ? (null as unknown as number) : 0.001 * i,
      userUsage: { promptTokens: 1, completionTokens: 1, calls: 1 },
      userCostUsd: 0,
      confusions: [{ turn: 0, text: 'say "tally":{"calls":9} ü', reason: 'x' }] as unknown as EpisodeRecord['confusions'],
      messages: [...r.messages, { role: 'user' as const, text: ',"tally":{"calls":9,"families":[],"confused":true}', perturbations: ['typos'] }],
    }));
    for (const r of [...all, ...extra]) {
      const line = lineOf(r);
      // The members the grid reads, then the tally, before the messages and the trace.
      expect(line.indexOf('"tally":')).toBeLessThan(line.indexOf('"messages":'));
      expect(parseRecord(line)).toEqual(JSON.parse(JSON.stringify(r)));
      expect(aggregationFields(line, true)).toEqual(fieldsOfRecord(r as EpisodeRecord));
      // Without its MAC field, or for a caller that does not check MACs, the line is read by the walk, which finds the same.
      expect(aggregationFields(JSON.stringify(gridFirst(r)), true)).toEqual(fieldsOfRecord(r as EpisodeRecord));
      expect(aggregationFields(line)).toEqual(fieldsOfRecord(r as EpisodeRecord));
    }
  });

  it('reads nothing from a line cut short, and falls back to the walk where its tally does not parse', async () => {
    const [r] = await records();
    const line = lineOf(r as EpisodeRecord);
    for (let cut = 1; cut < line.length; cut += 5) expect(aggregationFields(line.slice(0, cut), true)).toBeUndefined();
    // A torn line with a whole record after it ends with a MAC field, and is torn all the same, as a whole parse reads it.
    for (const cut of [line.indexOf('"messages"'), line.indexOf('"trace"'), line.length - 80]) {
      const joined = line.slice(0, cut) + line;
      expect(parseRecord(joined)).toBeUndefined();
      expect(aggregationFields(joined, true)).toBeUndefined();
    }
    // A family's name with a brace in it ends the tally's bytes early: the one parse fails, and the walk reads the line.
    const braced = { ...(r as EpisodeRecord), messages: [{ role: 'user' as const, text: 'x', perturbations: ['odd}name', 'typos'] }] };
    expect(aggregationFields(lineOf(braced), true)).toEqual(fieldsOfRecord(braced));
    // A line of the walk's layout, in a buffer whose next line has a tally: read by the walk, not from the next line's tally.
    const old = signer.sign(JSON.stringify({ ...(r as EpisodeRecord), outcome: 'error' }));
    const buf = Buffer.from(`${old}\n${line}\n`);
    expect(aggregationFieldsOfBytes(buf, 0, Buffer.byteLength(old), true)).toEqual(fieldsOfRecord({ ...(r as EpisodeRecord), outcome: 'error' }));
  });
});

describe('the walk over bytes', () => {
  const base = { key: { scenario: 's', agent: 'a', eps: 0, lambda: 0, trial: 0 }, outcome: 'fail', faults: [], messages: [{ role: 'user', text: 'hi' }], trace: [] };
  const same = (record: unknown) => {
    const line = JSON.stringify(record);
    expect(aggregationFields(line)).toEqual(fieldsOfRecord(JSON.parse(line) as EpisodeRecord));
  };

  it('keeps plain strings it has seen apart by their bytes, past the size of its table', () => {
    // Thousands of distinct names (more than the table keeps), each seen twice, some one letter apart.
    const names = Array.from({ length: 6000 }, (_, i) => `family-${(i * 7919) % 6000}${i % 3 === 0 ? 'x' : ''}`);
    const messages = Array.from({ length: 200 }, (_, m) => ({ role: 'user', text: `m${m}`, perturbations: names.slice(m * 30, m * 30 + 30).concat(names.slice((m * 30 + 15) % 6000, ((m * 30 + 15) % 6000) + 5)) }));
    same({ ...base, messages });
    same({ ...base, messages, failure: 'missing-write' });
    // Two names of one length whose hashes in the table collide: told apart by their bytes.
    same({ ...base, messages: [{ role: 'user', text: 'x', perturbations: ['f55zx', 'fgpcd', 'f55zx', 'fgpcd'] }] });
  });

  it('reads escaped, non-ASCII and control-free strings as JSON.parse does', () => {
    same({ ...base, outcome: 'fail', failure: 'wrong-write', messages: [{ role: 'user', text: 'x', perturbations: ['ty"pos', 'ümlaut', 'tab\there', 'line\nbreak', '🙂'] }] });
    same({ ...base, messages: [{ role: 'user', text: 'x', perturbations: [] }, { role: 'user', text: 'y', perturbations: ['typos', 1, null] }] });
    same({ ...base, trace: [{ tool: null }, { tool: 'null' }, { method: 'GET' }, { tool: 'get_order', args: { tool: null } }] });
  });

  it('ends a string at a quote only after an even run of backslashes, wherever the run and the quote fall', () => {
    // Runs of 0 to 5 backslashes before quotes, at a string's start and end and mid-text, in texts the walk
    // skips and in names it keeps; a wrong end would shift every member after it.
    const pieces = Array.from({ length: 6 }, (_, k) => `${'\\'.repeat(k)}"`);
    for (const [i, a] of pieces.entries())
      for (const b of pieces) {
        const text = `${a}mid${b}${'\\'.repeat(i)}`;
        same({ ...base, messages: [{ role: 'agent', text }, { role: 'user', text: `x${text}`, perturbations: [`f${text}`, 'typos'] }], trace: [{ tool: `t${text}` }, { tool: null, note: text }] });
      }
    // A line cut inside a string that ends in a backslash run: never read past its end.
    const line = JSON.stringify({ ...base, messages: [{ role: 'user', text: 'ends in \\\\' }] });
    expect(aggregationFields(line.slice(0, line.indexOf('ends in') + 10))).toBeUndefined();
  });

  it('reads numbers, literals and objects of every shape as JSON.parse does, and nothing from what it would refuse', () => {
    // Numbers of every shape JSON allows: signs, zero and minus zero, fractions, exponents, past 2^53 and 15 digits.
    for (const n of ['0', '-0', '7', '-12', '0.5', '-0.25', '1e3', '1E-7', '2.5e+10', '123456789012345', '1234567890123456789', '9007199254740993', '-9007199254740993', '0.1000000000000000055511151231257827', '1e308', '5e-324']) {
      const line = JSON.stringify(base).replace('"trial":0', `"trial":${n}`).replace('"faults":[]', `"faults":[],"turns":${n},"simulatedMs":${n}`);
      expect(aggregationFields(line), n).toEqual(fieldsOfRecord(JSON.parse(line) as EpisodeRecord));
      expect(Object.is(aggregationFields(line)?.key.trial, JSON.parse(line).key.trial), n).toBe(true);
    }
    // Not JSON numbers: nothing read, as before.
    for (const n of ['01', '-', '1.', '.5', '1e', '+1', '0x10', 'NaN', 'Infinity', '1_0']) {
      expect(aggregationFields(JSON.stringify(base).replace('"trial":0', `"trial":${n}`)), n).toBeUndefined();
    }
    // Flat objects: usage with null and true, a key logged with its fields in another order, a key with a
    // repeated field (the last counts, in the first one's place), one with __proto__ as an own field, a nested value.
    same({ ...base, usage: { promptTokens: 10, completionTokens: 2, cached: true, note: null } });
    same({ ...base, key: { trial: 3, lambda: 0.5, eps: 1, agent: 'a', scenario: 's' } });
    const repeated = JSON.stringify(base).replace('"trial":0}', '"trial":0,"eps":0.5}');
    expect(aggregationFields(repeated)).toEqual(fieldsOfRecord(JSON.parse(repeated) as EpisodeRecord));
    expect(Object.keys(aggregationFields(repeated)?.key ?? {})).toEqual(['scenario', 'agent', 'eps', 'lambda', 'trial']);
    const proto = JSON.stringify(base).replace('"trial":0}', '"trial":0,"__proto__":{"x":1}}');
    expect(aggregationFields(proto)).toEqual(fieldsOfRecord(JSON.parse(proto) as EpisodeRecord));
    expect(Object.getPrototypeOf(aggregationFields(proto)?.key)).toBe(Object.prototype);
    same({ ...base, key: { ...base.key, extra: { nested: [1, 2] }, name: 'ü' } });
    // Keys of other texts, as JSON.parse reads them: escaped and non-ASCII names, a value of another type,
    // a member missing, spaces.
    same({ ...base, key: { ...base.key, scenario: 'say "hi"\\', agent: 'ü-🙂' } });
    same({ ...base, key: { ...base.key, eps: '0', trial: null } });
    same({ ...base, key: { scenario: 's', agent: 'a', eps: 0, lambda: 0 } });
    const spaced = JSON.stringify(base).replace('"eps":0,', '"eps" : 0 ,');
    expect(aggregationFields(spaced)).toEqual(fieldsOfRecord(JSON.parse(spaced) as EpisodeRecord));
  });

  it('gives nothing (the caller parses the line whole) for a member whose text does not parse', () => {
    const line = JSON.stringify(base);
    // Brackets and quotes balance, so the walk passes the line; the key's own text is not JSON.
    expect(aggregationFields(line.replace('"trial":0}', '"trial":0,}'))).toBeUndefined();
    expect(aggregationFields(line.replace('"faults":[]', '"faults":[1,]'))).toBeUndefined();
    expect(aggregationFields(line.replace('"text":"hi"}', '"text":"hi","perturbations":["a",]}'))).toBeUndefined();
    expect(aggregationFields(line.replace('"outcome":"fail"', '"outcome":"fa\\il"'))).toBeUndefined();
    expect(aggregationFields(line)).toBeDefined();
  });
});

describe('lines of a log file', () => {
  it('are found across reads, with CRLF, a blank line and no final newline', async () => {
    const long = 'x'.repeat(3 << 20);
    const path = join(dir, 'lines.txt');
    writeFileSync(path, `a\r\n${long}\n\nü end`);
    const seen: [string, number][] = [];
    await forEachLine(path, (buf, start, end, lineNo) => void seen.push([buf.toString('utf8', start, end), lineNo]));
    expect(seen).toEqual([
      ['a', 1],
      [long, 2],
      ['', 3],
      ['ü end', 4],
    ]);
  });

  it('grow past a line longer than a read, and let the event loop turn between reads', async () => {
    // A 9 MB line (longer than two reads' worth), then short lines over several more reads.
    const huge = 'y'.repeat(9 << 20);
    const short = Array.from({ length: 200_000 }, (_, i) => `line ${i}`);
    const path = join(dir, 'big.txt');
    writeFileSync(path, `${huge}\n${short.join('\n')}\n`);
    let turned = false;
    setImmediate(() => (turned = true));
    let count = 0;
    let sawHuge = false;
    let turnedByLast = false;
    await forEachLine(path, (buf, start, end, lineNo) => {
      if (lineNo === 1) sawHuge = end - start === huge.length && buf[start] === 121 && buf[end - 1] === 121;
      else if (buf.toString('utf8', start, end) === short[lineNo - 2]) count++;
      turnedByLast = turned;
    });
    expect(sawHuge).toBe(true);
    expect(count).toBe(short.length);
    // Reads are synchronous, but an immediate queued before the first one ran before the last line.
    expect(turnedByLast).toBe(true);
  });

  it("hand over each key's last line in log order and count the earlier ones", async () => {
    const rec = (scenario: string, outcome: string) => JSON.stringify({ key: { scenario, agent: 'a', eps: 0, lambda: 0, trial: 0 }, outcome });
    const path = join(dir, 'log.jsonl');
    writeFileSync(path, [rec('s1', 'fail'), rec('s2', 'pass'), '{"torn', rec('s1', 'pass'), ''].join('\n'));
    const got: [string, number][] = [];
    const { duplicates } = await readLastLines(path, (line, lineNo) => void got.push([line, lineNo]));
    expect(duplicates).toBe(1);
    expect(got).toEqual([
      [rec('s2', 'pass'), 2],
      ['{"torn', 3],
      [rec('s1', 'pass'), 4],
    ]);
  });

  it('hand over the same lines as a read by key text, with or without keys logged twice', async () => {
    // The first read tells "no key twice" by hashes; what it hands on must be what a read that keeps every key's text gives.
    const byText = (lines: readonly string[]) => {
      const last = new Map<string, number>();
      lines.forEach((l, i) => {
        const m = /^\{"key":(\{[^}]*\})/.exec(l);
        if (m) last.set(m[1] as string, i + 1);
      });
      let duplicates = 0;
      const got: [string, number][] = [];
      lines.forEach((l, i) => {
        const m = /^\{"key":(\{[^}]*\})/.exec(l);
        if (m && last.get(m[1] as string) !== i + 1) duplicates++;
        else if (l.trim() !== '') got.push([l, i + 1]);
      });
      return { duplicates, got };
    };
    const rng = makeRng('log-lines:keys');
    for (const [round, twice] of [[0, 0], [1, 0], [2, 3], [3, 40]] as const) {
      const lines: string[] = [];
      for (let i = 0; i < 3000; i++) {
        // Keys that differ in one character, in a number or in their order of fields.
        const trial = Math.floor(rng() * 4);
        lines.push(i % 500 === 7 ? '{"torn' : i % 700 === 3 ? '  ' : JSON.stringify({ key: i % 2 ? { scenario: `s${i}`, agent: 'a', eps: 0, lambda: 0.5, trial } : { agent: 'a', scenario: `s${i}`, eps: 0, lambda: 0.5, trial }, outcome: rng() < 0.5 ? 'pass' : 'fail' }));
      }
      for (let d = 0; d < twice; d++) {
        const from = Math.floor(rng() * 3000);
        if (lines[from]?.startsWith('{"key"')) lines.push(`${(lines[from] as string).replace(/"outcome":"\w+"/, '"outcome":"error"')}`);
      }
      const path = join(dir, `keys-${round}.jsonl`);
      writeFileSync(path, `${lines.join('\n')}\n`);
      const got: [string, number][] = [];
      const { duplicates } = await readLastLines(path, (line, lineNo) => void got.push([line, lineNo]));
      const want = byText(lines);
      expect(duplicates).toBe(want.duplicates);
      expect(got).toEqual(want.got);
      if (twice === 0) expect(duplicates).toBe(0);
      else expect(duplicates).toBeGreaterThan(0);
    }
  });

  it('keep a set of key hashes that knows a key again wherever its bytes lie, and grows', () => {
    const set = new KeyHashes();
    const keys = Array.from({ length: 200_000 }, (_, i) => Buffer.from(`{"scenario":"s${i}","trial":${i % 4}}`));
    expect(keys.every((k) => set.add(k, 0, k.length))).toBe(true);
    // The same bytes at another offset of another buffer are the same key; a byte more is another.
    const inside = Buffer.concat([Buffer.from('xx'), keys[123] as Buffer, Buffer.from('yy')]);
    expect(set.add(inside, 2, 2 + (keys[123] as Buffer).length)).toBe(false);
    expect(set.add(inside, 2, 3 + (keys[123] as Buffer).length)).toBe(true);
    expect(set.add(inside, 1, 1 + (keys[123] as Buffer).length)).toBe(true);
    expect(keys.every((k) => !set.add(k, 0, k.length))).toBe(true);
  });
});
