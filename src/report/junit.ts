/** The release gate's checks as JUnit XML, for CI. */
import type { GateCheck } from '../stats/gate.js';
import { escapeXml } from './svg.js';

/** JUnit XML for CI: a test suite per rule, a test case per agent and cell. */
export function junitXml(checks: readonly GateCheck[]): string {
  const byRule = new Map<string, GateCheck[]>();
  for (const c of checks) byRule.set(c.rule, [...(byRule.get(c.rule) ?? []), c]);
  const suites = [...byRule].map(([rule, cs]) => {
    const cases = cs.map((c) => `    <testcase classname="${escapeXml(c.agent)}" name="${escapeXml(`ε ${c.eps}, λ ${c.lambda}`)}">${c.passed ? '' : `<failure message="${escapeXml(c.message)}"/>`}</testcase>`).join('\n');
    return `  <testsuite name="${escapeXml(rule)}" tests="${cs.length}" failures="${cs.filter((c) => !c.passed).length}">\n${cases}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="shakedown gate" tests="${checks.length}" failures="${checks.filter((c) => !c.passed).length}">\n${suites.join('\n')}\n</testsuites>\n`;
}
