import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eta, formatEta, startProgress } from '../../src/cli/progress.js';

describe('sweep progress', () => {
  it('prints plain lines off a terminal, with the running pass rate per agent, and the last one at the end', () => {
    let text = '';
    const p = startProgress({ out: () => undefined, err: (t) => (text += t), tty: false }, 4, 0, false);
    p.episode('reference:none', true);
    p.episode('reference:robust', true);
    p.episode('reference:none', false);
    p.episode('reference:robust', true);
    p.stop();
    expect(text).toMatch(/^ {2}4\/4 episodes, \d+\/s, ETA …; pass so far: reference:none 0.50 · reference:robust 1.00\n$/);
  });

  it('estimates the time left only once the rate means something, and never cuts an agent name', () => {
    expect(eta(1000, 5, 0, 30)).toBe('…');
    expect(eta(1000, 50, 0, 1)).toBe('…');
    // 100 of 1,000 in 20 s: 900 more at 5 per second.
    expect(eta(1000, 100, 0, 20)).toBe('3m00s');
    // A resumed run counts only the episodes run since it resumed.
    expect(eta(1000, 600, 500, 10)).toBe('40s');
    expect(formatEta(3720)).toBe('1h02m');
    let text = '';
    const p = startProgress({ out: () => undefined, err: (t) => (text += t), tty: false }, 1, 0, false);
    p.episode('reference:idempotency+backoff@verbose-markdown', true);
    expect(text).toContain('reference:idempotency+backoff@verbose-markdown 1.00');
  });

  it('draws a bar on a terminal and stays silent when asked', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    let drawn = '';
    stream.on('data', (c: Buffer) => (drawn += c.toString()));
    const bar = startProgress({ out: () => undefined, err: () => undefined, tty: true }, 2, 0, false, stream);
    bar.episode('a', true);
    bar.episode('a', false);
    bar.stop();
    expect(drawn).toMatch(/2\/2 episodes/);
    expect(drawn).toMatch(/pass a 0\.50/);
    let quiet = '';
    const q = startProgress({ out: () => undefined, err: (t) => (quiet += t), tty: false }, 1, 0, true);
    q.episode('a', true);
    expect(quiet).toBe('');
  });
});
