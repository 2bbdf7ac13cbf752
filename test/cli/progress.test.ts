import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startProgress } from '../../src/cli/progress.js';

describe('sweep progress', () => {
  it('prints plain lines off a terminal, with the running pass rate per agent, and the last one at the end', () => {
    let text = '';
    const p = startProgress({ out: () => undefined, err: (t) => (text += t), tty: false }, 4, 0, false);
    p.episode('reference:none', true);
    p.episode('reference:robust', true);
    p.episode('reference:none', false);
    p.episode('reference:robust', true);
    p.stop();
    expect(text).toMatch(/^ {2}4\/4 episodes, \d+\/s; pass so far: reference:none 0.50 · reference:robust 1.00\n$/);
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
