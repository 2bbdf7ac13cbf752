/**
 * Coverage of the 95% bootstrap interval over tasks: how often it contains the true mean pass^k, when
 * tasks are drawn from a population and each is run n times. The population mixes easy, middling and
 * hard tasks, as benchmark results do (p uniform on [0.95, 1], [0.3, 0.8] or [0, 0.2] with shares
 * 0.4, 0.3, 0.3).
 *
 *   npx tsx bench/coverage.ts [replications]   (default 1000)
 */
import { bootstrapMean, makeResamples } from '../src/core/bootstrap.js';
import { deriveSeed, makeRng } from '../src/core/seeds.js';
import { passHatK } from '../src/core/stats.js';

const replications = Number(process.argv[2] ?? 1000);
const bands: readonly [number, number, number][] = [
  [0.4, 0.95, 1],
  [0.3, 0.3, 0.8],
  [0.3, 0, 0.2],
];
/** E[p^k] over the population: each band uniform on [lo, hi]. */
const truth = (k: number) => bands.reduce((s, [w, lo, hi]) => s + (w * (hi ** (k + 1) - lo ** (k + 1))) / ((k + 1) * (hi - lo)), 0);

for (const [tasks, n] of [[10, 4], [28, 4], [28, 8], [100, 4]] as const) {
  const resamples = makeResamples('coverage', tasks, 2000);
  const hits = Array.from({ length: n }, () => 0);
  const widths = Array.from({ length: n }, () => 0);
  for (let r = 0; r < replications; r++) {
    const rng = makeRng(deriveSeed('coverage', tasks, n, r));
    const counts = Array.from({ length: tasks }, () => {
      const u = rng();
      const [, lo, hi] = u < 0.4 ? (bands[0] as [number, number, number]) : u < 0.7 ? (bands[1] as [number, number, number]) : (bands[2] as [number, number, number]);
      const p = lo + rng() * (hi - lo);
      let c = 0;
      for (let t = 0; t < n; t++) if (rng() < p) c++;
      return c;
    });
    for (let k = 1; k <= n; k++) {
      const b = bootstrapMean(counts.map((c) => passHatK(n, c, k)), resamples);
      if (b.low <= truth(k) && truth(k) <= b.high) hits[k - 1] = (hits[k - 1] ?? 0) + 1;
      widths[k - 1] = (widths[k - 1] ?? 0) + (b.high - b.low);
    }
  }
  const row = hits.map((h, i) => `pass^${i + 1} ${((100 * h) / replications).toFixed(1)}% (width ${((widths[i] ?? 0) / replications).toFixed(3)})`);
  console.log(`${tasks} tasks x ${n} trials, ${replications} replications: ${row.join(', ')}`);
}
