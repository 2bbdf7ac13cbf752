/**
 * Release-gate rules over a grid: `pass^4 >= 0.8 where eps <= 0.2 and lambda <= 0.2`. A rule holds for
 * an agent when every cell it selects meets the bound (on the estimate, or on the interval's lower bound
 * when asked); a baseline adds a limit on how much any cell may fall.
 */
import { ShakedownError } from '../ground/errors.js';
import type { CellSummary } from './stats.js';

type Op = '>=' | '>' | '<=' | '<' | '==';

export interface GateRule {
  readonly text: string;
  readonly metric: 'pass^' | 'pass@';
  readonly k: number;
  readonly op: Op;
  readonly bound: number;
  readonly where: readonly { readonly axis: 'eps' | 'lambda'; readonly op: Op; readonly value: number }[];
}

const OPS: Readonly<Record<Op, (a: number, b: number) => boolean>> = {
  '>=': (a, b) => a >= b - 1e-12,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b + 1e-12,
  '<': (a, b) => a < b,
  '==': (a, b) => Math.abs(a - b) < 1e-9,
};

/** Parses a rule; a malformed one is refused with the grammar. */
export function parseRule(text: string): GateRule {
  const m = /^\s*(pass\^|pass@)(\d+)\s*(>=|>|<=|<|==)\s*([\d.]+)\s*(?:where\s+(.+?))?\s*$/i.exec(text);
  const fail = (why: string) =>
    new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read the gate rule "${text}": ${why}. Write e.g. \`pass^4 >= 0.8 where eps <= 0.2 and lambda <= 0.2\` (metric pass^K or pass@K; conditions on eps and lambda joined by "and").`);
  if (!m) throw fail('it is not METRIC OP NUMBER [where CONDITIONS]');
  const bound = Number(m[4]);
  if (!(bound >= 0 && bound <= 1)) throw fail(`the bound ${m[4]} is not in [0, 1]`);
  const where = (m[5] ?? '')
    .split(/\s+and\s+/i)
    .filter((c) => c.trim())
    .map((c) => {
      const w = /^\s*(eps|ε|lambda|λ)\s*(>=|>|<=|<|==)\s*([\d.]+)\s*$/i.exec(c);
      if (!w) throw fail(`the condition "${c.trim()}" is not eps|lambda OP NUMBER`);
      return { axis: /^(eps|ε)$/i.test(w[1] as string) ? ('eps' as const) : ('lambda' as const), op: w[2] as Op, value: Number(w[3]) };
    });
  return { text: text.trim(), metric: (m[1] as string).toLowerCase() as 'pass^' | 'pass@', k: Number(m[2]), op: m[3] as Op, bound, where };
}

export interface GateCheck {
  readonly rule: string;
  readonly agent: string;
  readonly eps: number;
  readonly lambda: number;
  /** The number judged: the estimate, or its interval's lower bound. */
  readonly value: number;
  readonly passed: boolean;
  readonly message: string;
}

/** Judges one agent's cells against the rules (and a baseline's cells with a largest allowed regression). */
export function evaluateGate(
  agent: string,
  cells: readonly CellSummary[],
  rules: readonly GateRule[],
  options: { lower?: boolean; baseline?: readonly CellSummary[]; maxRegression?: number } = {},
): GateCheck[] {
  const checks: GateCheck[] = [];
  for (const rule of rules) {
    const selected = cells.filter((c) => rule.where.every((w) => OPS[w.op](c[w.axis], w.value)));
    if (selected.length === 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to apply the gate rule "${rule.text}": it selects no cell of ${agent}'s grid. Check its conditions against the run's ε and λ.`);
    for (const c of selected) {
      const e = (rule.metric === 'pass^' ? c.passHatK : c.passAtK)[rule.k - 1];
      if (!e) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to apply the gate rule "${rule.text}": the run has ${c.trials} trials per task, so no ${rule.metric}${rule.k}. Lower k or run more trials.`);
      const value = options.lower ? e.ci95[0] : e.value;
      const passed = OPS[rule.op](value, rule.bound);
      checks.push({ rule: rule.text, agent, eps: c.eps, lambda: c.lambda, value, passed, message: `${rule.metric}${rule.k}${options.lower ? ' (lower bound)' : ''} = ${value.toFixed(3)} ${passed ? 'meets' : 'fails'} ${rule.op} ${rule.bound} at ε ${c.eps}, λ ${c.lambda}` });
    }
  }
  if (options.baseline && options.maxRegression !== undefined) {
    const k = Math.min(...cells.map((c) => c.trials));
    for (const c of cells) {
      const b = options.baseline.find((x) => x.eps === c.eps && x.lambda === c.lambda);
      const now = c.passHatK[k - 1]?.value;
      const before = b?.passHatK[k - 1]?.value;
      if (now === undefined || before === undefined) continue;
      const drop = before - now;
      const passed = drop <= options.maxRegression + 1e-12;
      checks.push({ rule: `regression of pass^${k} <= ${options.maxRegression}`, agent, eps: c.eps, lambda: c.lambda, value: drop, passed, message: `pass^${k} ${before.toFixed(3)} -> ${now.toFixed(3)} (${drop > 0 ? '-' : '+'}${Math.abs(drop).toFixed(3)}) at ε ${c.eps}, λ ${c.lambda}` });
    }
  }
  return checks;
}
