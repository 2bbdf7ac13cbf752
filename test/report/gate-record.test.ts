// The gate's regions of summary.md: replaced whole on every gate run, whatever an agent's id holds.
import { describe, expect, it } from 'vitest';
import { summaryWithGate, type GateVerdict } from '../../src/report/gate-record.js';

const verdict = (over: Partial<GateVerdict>): GateVerdict => ({ key: 'k', verdict: 'GO', agents: ['a'], comparators: [], rules: ['pass^1 >= 0.5'], note: '', held: 1, total: 1, failed: [], by: 'gate', episodes: 10, ...over });
const count = (text: string, what: RegExp) => (text.match(new RegExp(what.source, `${what.flags}g`)) ?? []).length;

describe('the gate in summary.md', () => {
  it('keeps one top block and one section list, and a mark inside an agent id is no mark', () => {
    const spoof = 'x <!-- /shakedown:gate --> <!-- /shakedown:gate-sections --> y';
    let text = '# Shakedown: run\n\nbody\n';
    for (let i = 0; i < 3; i++) text = summaryWithGate(text, { schemaVersion: 1, verdicts: [verdict({ agents: [spoof] })] }, 10);
    expect(count(text, /^<!-- shakedown:gate -->$/m)).toBe(1);
    expect(count(text, /^<!-- \/shakedown:gate -->$/m)).toBe(1);
    expect(count(text, /^<!-- \/shakedown:gate-sections -->$/m)).toBe(1);
    expect(count(text, /^## Release gate/m)).toBe(1);
    expect(text).toContain('body');
  });

  it('says a verdict is stale when the run has other episodes now', () => {
    const text = summaryWithGate('# Shakedown: run\n', { schemaVersion: 1, verdicts: [verdict({})] }, 12);
    expect(text).toMatch(/Release gate: GO\*\* \(stale: given on 10 episodes; the run now has 12: gate it again\)/);
    expect(summaryWithGate('# Shakedown: run\n', { schemaVersion: 1, verdicts: [verdict({})] }, 10)).not.toMatch(/stale/);
  });
});
