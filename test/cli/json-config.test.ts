// A JSON config with a syntax error is said by line and column, with the line, not by a character offset.
import { describe, expect, it } from 'vitest';
import { parseJsonAt } from '../../src/cli/config-file.js';
import { suggest } from '../../src/ground/errors.js';

describe('errors that say where and what was meant', () => {
  it('places a JSON syntax error by line and column', () => {
    expect(parseJsonAt('{"trials": 4}')).toEqual({ trials: 4 });
    expect(() => parseJsonAt('{\n  "trials": 4,\n  "eps": [0, 0.5,]\n}\n')).toThrow(/value expected at line 3, column 18 \(`"eps": \[0, 0\.5,\]`\)/);
    expect(() => parseJsonAt('{\n  "trials": 4\n  "eps": [0]\n}')).toThrow(/comma expected at line 3, column 3/);
  });

  it('suggests the nearest names only when they are near', () => {
    expect(suggest('trails', ['trials', 'tasks', 'eps'])).toEqual(['trials']);
    expect(suggest('stauts', ['status', 'state', 'zzz'])).toEqual(['state', 'status']);
    expect(suggest('hurricane', ['mixed', 'lying', 'network'])).toEqual([]);
  });
});
