/**
 * Coverage of the 95% interval of a cell's pass^k: how often it contains the true mean pass^k when tasks
 * are drawn from a population and each is run n times. Every population x tasks (10, 28, 100) x trials
 * (2, 4, 8) x k, for the interval the grid uses (`taskMeanInterval`) and, for comparison, the plain
 * percentile bootstrap it replaced. docs/statistics.md shows the table this prints.
 *
 *   npx tsx bench/coverage.ts [replications] [auto|classes|tasks]   (default 500, auto)
 *
 * The second argument is how the resamples are drawn (`DrawWay`): `classes` draws every case by class, as
 * the grid draws cells of thousands of tasks, so that its coverage is measured on these small cases too.
 */
import { bootstrapMean, makeResamples, taskMeanInterval, type DrawWay } from '../src/stats/bootstrap.js';
import { deriveSeed, makeRng } from '../src/ground/seeds.js';
import { passHatK } from '../src/stats/stats.js';

const replications = Number(process.argv[2] ?? 500);
const way = (process.argv[3] ?? 'auto') as DrawWay;
if (!['auto', 'classes', 'tasks'].includes(way)) throw new Error(`bench/coverage.ts: the draws are auto, classes or tasks, not "${way}"`);

/** E[p^k] for p uniform on [lo, hi]. */
const uniformMoment = (lo: number, hi: number) => (k: number) => (hi === lo ? lo ** k : (hi ** (k + 1) - lo ** (k + 1)) / ((k + 1) * (hi - lo)));

interface Population {
  readonly name: string;
  /** Bands of per-task pass rates: share, and p uniform on [lo, hi]. */
  readonly bands: readonly (readonly [number, number, number])[];
}

const POPULATIONS: readonly Population[] = [
  { name: 'reliable, every task p = 0.99', bands: [[1, 0.99, 0.99]] },
  { name: 'reliable, every task p = 0.97', bands: [[1, 0.97, 0.97]] },
  { name: 'reliable, p uniform on [0.95, 1]', bands: [[1, 0.95, 1]] },
  { name: 'mixed (0.4 easy, 0.3 middling, 0.3 hard)', bands: [[0.4, 0.95, 1], [0.3, 0.3, 0.8], [0.3, 0, 0.2]] },
  { name: 'hard, p uniform on [0, 0.3]', bands: [[1, 0, 0.3]] },
  { name: 'bimodal (half near 1, half near 0)', bands: [[0.5, 0.98, 1], [0.5, 0, 0.02]] },
];

const truth = (pop: Population, k: number) => pop.bands.reduce((s, [w, lo, hi]) => s + w * uniformMoment(lo, hi)(k), 0);

function drawP(pop: Population, rng: () => number): number {
  let u = rng();
  for (const [w, lo, hi] of pop.bands) {
    if (u < w) return lo + rng() * (hi - lo);
    u -= w;
  }
  const [, lo, hi] = pop.bands.at(-1) as readonly [number, number, number];
  return lo + rng() * (hi - lo);
}

const pct = (x: number) => `${(100 * x).toFixed(1)}`;
console.log(`coverage of the 95% interval of pass^k, ${replications} replications per case; each cell: the grid's interval (the plain percentile bootstrap in brackets)\n`);
let shortAt28 = 0;
for (const pop of POPULATIONS) {
  console.log(`${pop.name}`);
  for (const tasks of [10, 28, 100]) {
    const resamples = makeResamples('coverage', tasks, 1000);
    for (const n of [2, 4, 8]) {
      const hits = Array.from({ length: n }, () => 0);
      const before = Array.from({ length: n }, () => 0);
      const widths = Array.from({ length: n }, () => 0);
      for (let r = 0; r < replications; r++) {
        const rng = makeRng(deriveSeed('coverage', pop.name, tasks, n, r));
        const counts = Array.from({ length: tasks }, () => {
          const p = drawP(pop, rng);
          let c = 0;
          for (let t = 0; t < n; t++) if (rng() < p) c++;
          return c;
        });
        for (let k = 1; k <= n; k++) {
          const values = counts.map((c) => passHatK(n, c, k));
          const t = truth(pop, k);
          const ci = taskMeanInterval(values, resamples, way);
          if (ci.low <= t && t <= ci.high) hits[k - 1] = (hits[k - 1] ?? 0) + 1;
          widths[k - 1] = (widths[k - 1] ?? 0) + (ci.high - ci.low);
          const old = bootstrapMean(values, resamples, 0.025, way);
          if (old.low <= t && t <= old.high) before[k - 1] = (before[k - 1] ?? 0) + 1;
        }
      }
      const cells = hits.map((h, i) => `k=${i + 1} ${pct(h / replications)} (${pct((before[i] ?? 0) / replications)})`);
      const least = Math.min(...hits) / replications;
      if (tasks === 28 && least < 0.93) shortAt28++;
      console.log(`  ${String(tasks).padStart(3)} tasks x ${n} trials: ${cells.join(', ')}; mean width ${(widths.reduce((a, b) => a + b, 0) / n / replications).toFixed(3)}${least < 0.93 ? '  << below 93%' : ''}`);
    }
  }
}
console.log(`\n28-task cases below 93%: ${shortAt28}`);
