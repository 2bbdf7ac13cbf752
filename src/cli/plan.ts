/**
 * `shakedown plan`: how many tasks and trials a run needs for a target precision of pass^k or a paired
 * difference to detect, from an expected pass rate or a pilot run (docs/statistics.md "Planning a run").
 */
import { ShakedownError } from '../ground/errors.js';
import { DEFAULT_THETA } from '../stats/surface.js';
import { binomial, meanSe, type TaskCount } from '../stats/stats.js';
import { clusteredSe, clustersOf } from '../stats/bootstrap.js';
import { familyOf } from '../ground/family-id.js';
import { spreadFromPilot, spreadFromRate, tasksNeeded, varianceAt, withinVariance, type PlanTarget, type Spread } from '../stats/plan.js';
import { loadRun } from '../report/run.js';
import { parseInteger, parseNumberList, type Flags, type Io } from './options.js';

const one = (flags: Flags, name: 'width' | 'detect' | 'power' | 'pass' | 'price', lo: number, hi: number): number | undefined => {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const [v] = parseNumberList(name, raw);
  if (v === undefined || !(v > lo && v <= hi)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to plan: \`--${name} ${raw}\` is out of range; give a number in (${lo}, ${hi}].`);
  return v;
};

/** The spread of per-task differences between two agents of a pilot, paired by task, in the same parts. */
/**
 * The design effect of per-task values that come in families: the clustered variance of their mean over
 * the variance if tasks were independent, at least 1 (a plan never counts on families helping). Undefined
 * when every task is its own family.
 */
function designEffect(values: readonly { id: string; v: number }[]): number | undefined {
  const clusters = clustersOf(values.map((x) => x.id), familyOf);
  if (!clusters) return undefined;
  const v = values.map((x) => x.v);
  const iid = meanSe(v).se;
  const c = clusteredSe(v, clusters);
  return iid > 0 ? Math.max(1, (c * c) / (iid * iid)) : 1;
}

function pairedSpread(a: readonly TaskCount[], b: readonly TaskCount[], k: number): { between: number; within: (n: number) => number; tasks: number } {
  const bBy = new Map(b.map((t) => [t.scenario, t]));
  const pairs = a.flatMap((ta) => {
    const tb = bBy.get(ta.scenario);
    return tb && ta.n >= k && tb.n >= k ? [[ta, tb] as const] : [];
  });
  const est = (t: TaskCount) => binomial(t.c, k) / binomial(t.n, k);
  const d = pairs.map(([x, y]) => est(x) - est(y));
  const T = d.length;
  const withinAt = (n: number | undefined) => pairs.reduce((s, [x, y]) => s + withinVariance(n ?? x.n, k, x.c / x.n) + withinVariance(n ?? y.n, k, y.c / y.n), 0) / Math.max(1, T);
  if (T < 2) return { between: 0, within: (n) => withinAt(n), tasks: T };
  const mean = d.reduce((s, v) => s + v, 0) / T;
  const observed = d.reduce((s, v) => s + (v - mean) ** 2, 0) / (T - 1);
  return { between: Math.max(0, observed - withinAt(undefined)), within: (n) => withinAt(n), tasks: T };
}

export async function planCommand(dirs: readonly string[], flags: Flags, io: Io): Promise<number> {
  const width = one(flags, 'width', 0, 2);
  const difference = one(flags, 'detect', 0, 1);
  if ((width === undefined) === (difference === undefined)) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to plan: give one target, `--width W` (the full width of a cell\'s 95% interval of pass^k) or `--detect D` (a paired difference in pass^k to detect), e.g. `shakedown plan --detect 0.1 --k 4 --pass 0.9`.');
  }
  const power = one(flags, 'power', 0, 0.999) ?? 0.8;
  const k = flags.k === undefined ? 1 : parseInteger('k', flags.k);
  if (k < 1 || k > 64) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to plan: \`--k ${k}\` is out of range; give 1 to 64.`);
  const trialsList = flags.trials === undefined ? [k, 2 * k, 4 * k].filter((n, i, xs) => xs.indexOf(n) === i) : flags.trials.split(',').map((t) => parseInteger('trials', t.trim()));
  for (const n of trialsList) if (n < k) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to plan: ${n} trials cannot estimate pass^${k}; give --trials of at least ${k}.`);
  const target: PlanTarget = width !== undefined ? { width } : { difference: difference as number, power };
  const pass = one(flags, 'pass', 0, 1);
  const pilot = flags.pilot;
  if ((pass === undefined) === (pilot === undefined)) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to plan: give what is expected, `--pass P` (the per-trial pass rate) or `--pilot RUN` (a small run of the agent, with `--agent ID`, or `--agents A,B` for two agents to compare).');
  const price = one(flags, 'price', 0, 1_000);
  const cells = flags.cells === undefined ? 1 : parseInteger('cells', flags.cells);
  if (cells < 1) throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to plan: `--cells` counts the ε x λ cells of the sweep; give 1 or more.');
  if (dirs.length > 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to plan: it takes no positional argument (got ${dirs.join(' ')}); name a pilot run with \`--pilot RUN\`.`);

  const what = 'width' in target ? `a 95% interval of pass^${k} no wider than ${target.width} in a cell` : `a paired difference of ${target.difference} in pass^${k} between two agents, with ${Math.round(power * 100)}% power at the 5% level (two-sided)`;
  io.out(`plan: ${what}\n`);
  /** Per candidate trials: the SD that decides, from the spread. */
  /** `deff`: the design effect of tasks in families, from the pilot (tasks needed are multiplied by it). */
  type Source = { readonly label: string; readonly sd: (n: number) => number; readonly deff?: number };
  const sources: Source[] = [];
  let costPerEpisode = price;
  if (pass !== undefined) {
    const { alike, extreme } = spreadFromRate(pass, k);
    // Two agents measured independently of each other: the variance of a difference is twice one agent's.
    const factor = 'width' in target ? 1 : 2;
    sources.push({ label: `every task at pass rate ${pass} (least spread)`, sd: (n) => Math.sqrt(factor * varianceAt(alike, n, k)) });
    sources.push({ label: 'tasks all-or-nothing at that rate (most spread)', sd: (n) => Math.sqrt(factor * varianceAt(extreme, n, k)) });
  } else {
    const run = await loadRun(pilot as string, DEFAULT_THETA);
    const ids = flags.agents ? flags.agents.split(',').map((s) => s.trim()) : flags.agent ?? [run.grid.agents.find((a) => !['oracle', 'noop'].includes(a.agent))?.agent ?? ''];
    const cellsOf = (id: string) => run.grid.agents.find((a) => a.agent === id)?.cells ?? (() => { throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to plan: the pilot ${run.dir} has no agent \`${id}\`. Agents: ${run.grid.agents.map((a) => a.agent).join(', ')}.`); })();
    const costs = run.grid.agents.flatMap((a) => a.cells.flatMap((c) => (c.usage?.costUsd !== undefined && c.episodes > 0 ? [c.usage.costUsd / c.episodes] : [])));
    if (costPerEpisode === undefined && costs.length > 0) costPerEpisode = costs.reduce((a, b) => a + b, 0) / costs.length;
    if ('width' in target || ids.length < 2) {
      // The widest cell decides: a plan must hold where the agent is least consistent.
      const spreads = cellsOf(ids[0] as string).map((c) => ({ c, s: spreadFromPilot(c.perTask, k) }));
      const worst = spreads.reduce((w, x) => (varianceAt(x.s, k, k) > varianceAt(w.s, k, k) ? x : w));
      const factor = 'width' in target ? 1 : 2;
      const deff = designEffect(worst.c.perTask.filter((t) => t.n >= k).map((t) => ({ id: t.scenario, v: binomial(t.c, k) / binomial(t.n, k) })));
      sources.push({ label: `pilot ${run.dir}, ${ids[0]}, its most spread cell (ε ${worst.c.eps}, λ ${worst.c.lambda}; ${worst.c.perTask.length} tasks)${factor === 2 ? ', a second agent assumed independent and as spread' : ''}`, sd: (n) => Math.sqrt(factor * varianceAt(worst.s as Spread, n, k)), ...(deff ? { deff } : {}) });
    } else {
      const [a, b] = ids as [string, string];
      const ca = cellsOf(a);
      const cb = cellsOf(b);
      const paired = ca.flatMap((x) => {
        const y = cb.find((c) => c.eps === x.eps && c.lambda === x.lambda);
        return y ? [{ x, p: pairedSpread(x.perTask, y.perTask, k) }] : [];
      });
      if (paired.length === 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to plan: ${a} and ${b} share no cell in the pilot ${run.dir}.`);
      const worst = paired.reduce((w, q) => (q.p.between + q.p.within(k) > w.p.between + w.p.within(k) ? q : w));
      const y = cb.find((c) => c.eps === worst.x.eps && c.lambda === worst.x.lambda);
      const yBy = new Map((y?.perTask ?? []).map((t) => [t.scenario, t]));
      const est = (t: TaskCount) => binomial(t.c, k) / binomial(t.n, k);
      const deff = designEffect(worst.x.perTask.flatMap((t) => {
        const u = yBy.get(t.scenario);
        return u && t.n >= k && u.n >= k ? [{ id: t.scenario, v: est(t) - est(u) }] : [];
      }));
      sources.push({ label: `pilot ${run.dir}, ${a} against ${b} paired by task, their most spread cell (ε ${worst.x.eps}, λ ${worst.x.lambda}; ${worst.p.tasks} tasks)`, sd: (n) => Math.sqrt(worst.p.between + worst.p.within(n)), ...(deff ? { deff } : {}) });
    }
  }
  for (const s of sources) {
    if (s.deff) io.out(`\n  the pilot's tasks come in families: design effect ${s.deff.toFixed(2)} (the clustered variance over the independent one), which multiplies the tasks needed`);
    io.out(`\n  from ${s.label}:\n  trials  SD per task  tasks  episodes per cell${cells > 1 ? `  episodes (${cells} cells)` : ''}${costPerEpisode !== undefined ? '  cost' : ''}\n`);
    for (const n of trialsList) {
      const sd = s.sd(n);
      // Tasks in families count for less than independent ones: the pilot's design effect scales what is needed.
      const tasks = Math.ceil(tasksNeeded(sd, target) * (s.deff ?? 1));
      const perCell = Number.isFinite(tasks) ? tasks * n : Number.POSITIVE_INFINITY;
      const total = perCell * cells;
      const fmt = (x: number) => (Number.isFinite(x) ? x.toLocaleString('en-US') : 'more than 100,000 tasks');
      io.out(`  ${String(n).padStart(6)}  ${sd.toFixed(3).padStart(11)}  ${fmt(tasks).padStart(5)}  ${fmt(perCell).padStart(17)}${cells > 1 ? `  ${fmt(total).padStart(10)}` : ''}${costPerEpisode !== undefined && Number.isFinite(total) ? `  $${(total * costPerEpisode).toFixed(2)}` : ''}\n`);
    }
  }
  io.out(`\nTasks are the unit: more trials shrink only the noise within a task, never how much tasks differ. Per agent; multiply by the agents swept.${pass !== undefined ? ' A pilot run (`--pilot RUN`) places the truth between the two bounds.' : ''}\n`);
  return 0;
}
