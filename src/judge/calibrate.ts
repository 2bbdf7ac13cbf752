// Calibration of a claim reader against hand labels: agreement and Cohen's kappa with a bootstrap
// interval (DESIGN decision 14: an LLM judge is used only after it agrees with people).
import { z } from 'zod';
import { makeRng } from '../ground/seeds.js';
import { ShakedownError } from '../ground/errors.js';
import { CLAIM_LABELS, type ClaimLabel, type ClaimReader } from '../ground/judging.js';

/** One hand-labelled message: what it says about an action. `split` keeps a held-out part apart. */
export const labelledClaimSchema = z.object({
  text: z.string().min(1),
  action: z.string().optional(),
  names: z.array(z.string()).optional(),
  label: z.enum(CLAIM_LABELS as unknown as [ClaimLabel, ...ClaimLabel[]]),
  /** `tune`: read while the wording was written; `held-out`: never read while tuning. @default "tune" */
  split: z.enum(['tune', 'held-out']).default('tune'),
  /** How the message is written (terse, markdown, chatty, llm), for reporting by style. */
  style: z.string().optional(),
  /** Where a message of a real agent comes from (owner/repo), the model that wrote it and its domain, for reporting per source. */
  source: z.string().optional(),
  model: z.string().optional(),
  domain: z.string().optional(),
});
export type LabelledClaim = z.output<typeof labelledClaimSchema>;

/** Reads a JSON-lines file of labelled claims, naming the line of any bad entry. */
export function parseLabels(text: string, source: string): LabelledClaim[] {
  const out: LabelledClaim[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read labels ${source}:${i + 1}: not JSON. Write one {"text", "label"} object per line.`);
    }
    const parsed = labelledClaimSchema.safeParse(raw);
    if (!parsed.success) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read labels ${source}:${i + 1}:\n${z.prettifyError(parsed.error)}`);
    out.push(parsed.data);
  });
  if (out.length === 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read labels ${source}: no labelled claims in it.`);
  return out;
}

/** Cohen's kappa of two raters over the same items, any number of categories (1 = perfect, 0 = chance). */
export function cohensKappa<T>(a: readonly T[], b: readonly T[]): number {
  const n = a.length;
  if (n === 0 || n !== b.length) return Number.NaN;
  const cats = [...new Set([...a, ...b])];
  let agree = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i]) agree++;
  const po = agree / n;
  let pe = 0;
  for (const c of cats) pe += (a.filter((x) => x === c).length / n) * (b.filter((x) => x === c).length / n);
  return pe === 1 ? (po === 1 ? 1 : 0) : (po - pe) / (1 - pe);
}

export interface Calibration {
  readonly reader: string;
  readonly n: number;
  readonly agreement: number;
  readonly kappa: number;
  /** 95% percentile bootstrap interval of kappa over the labelled items (2,000 resamples, seeded). */
  readonly ci95: readonly [number, number];
  /** Counts by [label, read]. */
  readonly confusion: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Items the reader got wrong, for the author of the wording. */
  readonly disagreements: readonly { readonly text: string; readonly label: ClaimLabel; readonly read: ClaimLabel }[];
}

/** Compares a reader with the hand labels. */
export async function calibrate(reader: ClaimReader, items: readonly LabelledClaim[], seed = 'calibrate'): Promise<Calibration> {
  const read = await reader.read(items.map((x) => ({ text: x.text, ...(x.action ? { action: x.action } : {}), ...(x.names ? { names: x.names } : {}) })));
  const truth = items.map((x) => x.label);
  const kappa = cohensKappa(truth, read);
  const rng = makeRng(seed);
  const ks: number[] = [];
  for (let r = 0; r < 2000; r++) {
    const ta: ClaimLabel[] = [];
    const rb: ClaimLabel[] = [];
    for (let i = 0; i < items.length; i++) {
      const j = Math.floor(rng() * items.length);
      ta.push(truth[j] as ClaimLabel);
      rb.push(read[j] as ClaimLabel);
    }
    const k = cohensKappa(ta, rb);
    if (Number.isFinite(k)) ks.push(k);
  }
  ks.sort((x, y) => x - y);
  const q = (p: number) => ks[Math.min(ks.length - 1, Math.max(0, Math.floor(p * ks.length)))] ?? Number.NaN;
  const confusion: Record<string, Record<string, number>> = {};
  items.forEach((x, i) => {
    const row = (confusion[x.label] ??= {});
    const r = read[i] ?? 'none';
    row[r] = (row[r] ?? 0) + 1;
  });
  return {
    reader: reader.id,
    n: items.length,
    agreement: truth.filter((t, i) => t === read[i]).length / items.length,
    kappa,
    ci95: [q(0.025), q(0.975)],
    confusion,
    disagreements: items.flatMap((x, i) => (x.label === read[i] ? [] : [{ text: x.text, label: x.label, read: read[i] ?? 'none' }])),
  };
}
