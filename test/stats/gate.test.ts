import { describe, expect, it } from 'vitest';
import { ResampleBank } from '../../src/stats/bootstrap.js';
import { evaluateGate, parseRule } from '../../src/stats/gate.js';
import { junitXml } from '../../src/report/junit.js';
import { ShakedownError } from '../../src/ground/errors.js';
import { summarizeCell, type CellSummary } from '../../src/stats/stats.js';

const cell = (eps: number, lambda: number, cs: readonly number[]): CellSummary =>
  summarizeCell(eps, lambda, cs.map((c, i) => ({ scenario: `t${i}`, n: 4, c, errors: 0 })), new ResampleBank('g').for(cs.length));
const grid = [cell(0, 0, [4, 4, 4, 4]), cell(0, 0.3, [4, 4, 3, 4]), cell(1, 0, [4, 2, 4, 4]), cell(1, 0.3, [0, 2, 1, 4])];

describe('gate rules', () => {
  it('parse metric, k, bound and conditions, and refuse what they cannot read', () => {
    expect(parseRule('pass^4 >= 0.8 where eps <= 0.2 and lambda <= 0.2')).toMatchObject({ metric: 'pass^', k: 4, op: '>=', bound: 0.8, where: [{ axis: 'eps', op: '<=', value: 0.2 }, { axis: 'lambda', op: '<=', value: 0.2 }] });
    expect(parseRule('pass@2 > 0.5').where).toEqual([]);
    expect(() => parseRule('reliability >= 0.8')).toThrow(ShakedownError);
    expect(() => parseRule('pass^4 >= 1.5')).toThrow(/not in \[0, 1\]/);
    expect(() => parseRule('pass^4 >= 0.8 where temperature < 1')).toThrow(/"temperature < 1" is not eps\|lambda OP NUMBER/);
  });

  it('hold only when every selected cell meets the bound, on the estimate or on its lower bound', () => {
    const rules = [parseRule('pass^1 >= 0.85 where lambda <= 0')];
    expect(evaluateGate('a', grid, rules).map((c) => c.passed)).toEqual([true, true]);
    expect(evaluateGate('a', grid, rules, { lower: true }).some((c) => !c.passed)).toBe(true);
    expect(evaluateGate('a', grid, [parseRule('pass^4 >= 0.5')]).filter((c) => !c.passed).map((c) => [c.eps, c.lambda])).toEqual([[1, 0.3]]);
    expect(() => evaluateGate('a', grid, [parseRule('pass^4 >= 0.5 where eps > 5')])).toThrow(/selects no cell/);
    expect(() => evaluateGate('a', grid, [parseRule('pass^9 >= 0.5')])).toThrow(/no pass\^9/);
  });

  it('limit the regression against a baseline and write JUnit XML', () => {
    const better = [cell(0, 0, [4, 4, 4, 4]), cell(0, 0.3, [4, 4, 4, 4]), cell(1, 0, [4, 4, 4, 4]), cell(1, 0.3, [4, 4, 4, 4])];
    const checks = evaluateGate('a', grid, [], { baseline: better, maxRegression: 0.1 });
    expect(checks.filter((c) => !c.passed).map((c) => [c.eps, c.lambda])).toEqual([[0, 0.3], [1, 0], [1, 0.3]]);
    const xml = junitXml(checks);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="shakedown gate" tests="4" failures="3">/);
    expect(xml).toContain('<failure message="pass^4 1.000 -&gt; 0.750 (-0.250) at ε 0, λ 0.3"/>');
  });
});
