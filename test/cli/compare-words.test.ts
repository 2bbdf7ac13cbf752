// `shakedown compare` says one thing (docs/statistics.md): where a row's interval and its verdict seem to
// disagree, a sentence under it says which decides and why.
import { describe, expect, it } from 'vitest';
import { disagreement } from '../../src/cli/analyze.js';

describe('compare, interval against verdict', () => {
  it('says nothing where they agree', () => {
    expect(disagreement({ ci95: [-0.25, -0.025], verdict: 'worse', p: 0.001, pAdjusted: 0.004 }, 9, 'Holm p')).toBeUndefined();
    expect(disagreement({ ci95: [-0.1, 0.05], verdict: 'no detectable difference', p: 0.3, pAdjusted: 1 }, 9, 'Holm p')).toBeUndefined();
  });

  it('explains an interval without 0 beside "no detectable difference": the adjustment across cells, or too few changed tasks', () => {
    expect(disagreement({ ci95: [-0.25, -0.025], verdict: 'no detectable difference', p: 0.02, pAdjusted: 0.16 }, 9, 'Holm p')).toMatch(/p = 0\.0200 on this cell alone, but across the 9 cells compared the adjusted Holm p = 0\.1600 is not below 0\.05/);
    expect(disagreement({ ci95: [0.01, 0.2], verdict: 'no detectable difference', p: 0.0625, pAdjusted: 0.0625 }, 1, 'Holm p')).toMatch(/does not reach 0\.05 \(p = 0\.0625\)/);
  });

  it('explains a difference found while the interval touches 0', () => {
    expect(disagreement({ ci95: [0, 0.3], verdict: 'better', p: 0.01, pAdjusted: 0.03 }, 3, 'BH p')).toMatch(/the test finds a difference \(BH p = 0\.0300\) while the interval touches 0/);
  });
});
