// `shakedown calibrate`: compares a claim reader with hand labels and prints agreement and Cohen's kappa.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ShakedownError } from '../core/errors.js';
import type { ResolvedConfig } from '../core/config.js';
import type { EpisodeOptions } from '../core/episode.js';
import type { WorldDefinition } from '../core/world.js';
import { calibrate, parseLabels, type Calibration, type LabelledClaim } from '../judge/calibrate.js';
import type { ClaimReader } from '../judge/claims.js';
import { llmClaimReader } from '../judge/llm.js';
import { defaultClaimReader } from '../judge/verdict.js';
import { loadWorld } from './world-module.js';
import { type Flags, type Io } from './options.js';
import { loadConfig } from './config-file.js';

/** The claim reader a `--judge` value names: `wording` (the default) or `llm:MODEL` on the config's LLM settings. */
export function claimReaderOf(spec: string | undefined, config: ResolvedConfig, world: WorldDefinition): ClaimReader {
  const s = (spec ?? 'wording').trim();
  if (s === 'wording' || s === 'default') return defaultClaimReader(world);
  if (s.startsWith('llm:') && s.length > 4) return llmClaimReader({ ...config.llm, model: s.slice(4) });
  throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--judge ${s}\`: give \`wording\` (the world's wording data, the default) or \`llm:MODEL\` (an OpenAI-compatible API, see \`--llm-base-url\`).`);
}

/** The hand labels of a world, or of `--labels FILE`. */
export function labelsOf(path: string | undefined, world: WorldDefinition): { items: LabelledClaim[]; source: string } {
  const source = path ? resolve(path) : world.judging?.claimLabels;
  if (!source) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to calibrate: world ${world.id} ships no claim labels. Pass \`--labels FILE\` (JSON lines of {"text", "label"}).`);
  if (!existsSync(source)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read labels \`${path ?? source}\`: no such file.`);
  return { items: parseLabels(readFileSync(source, 'utf8'), path ?? source), source };
}

const line = (name: string, c: Calibration) =>
  `${name.padEnd(10)} ${String(c.n).padStart(4)} items  agreement ${(c.agreement * 100).toFixed(1)}%  kappa ${c.kappa.toFixed(3)} [${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}]`;

/** Calibrates the reader on the labels, whole and per split and style. */
export async function calibrateOn(reader: ClaimReader, items: readonly LabelledClaim[]): Promise<{ all: Calibration; parts: Record<string, Calibration> }> {
  const all = await calibrate(reader, items);
  const parts: Record<string, Calibration> = {};
  const groups = new Map<string, LabelledClaim[]>();
  for (const x of items) {
    for (const g of [`split:${x.split}`, ...(x.style ? [`style:${x.style}`] : [])]) groups.set(g, [...(groups.get(g) ?? []), x]);
  }
  for (const [g, xs] of [...groups].sort()) parts[g] = await calibrate(reader, xs);
  return { all, parts };
}

/** `shakedown calibrate [--judge wording|llm:MODEL] [--labels FILE] [--world W] [--json]`. */
export async function calibrateCommand(flags: Flags, io: Io): Promise<number> {
  const config = await loadConfig(flags);
  const world = await loadWorld(config.world);
  const reader = claimReaderOf(flags.judge, config, world);
  const { items, source } = labelsOf(flags.labels, world);
  const { all, parts } = await calibrateOn(reader, items);
  if (flags.json) {
    io.out(`${JSON.stringify({ labels: source, ...all, parts }, null, 2)}\n`);
    return 0;
  }
  io.out(`Claim reader ${reader.id} against ${items.length} hand labels (${source}):\n`);
  io.out(`${line('all', all)}\n`);
  for (const [g, c] of Object.entries(parts)) io.out(`${line(g.replace(/^\w+:/, ''), c)}\n`);
  const labels = Object.keys(all.confusion).sort();
  io.out(`\nconfusion (rows: label, columns: read)\n${''.padEnd(9)}${['success', 'failure', 'pending', 'none'].map((l) => l.padStart(9)).join('')}\n`);
  for (const l of labels) io.out(`${l.padEnd(9)}${['success', 'failure', 'pending', 'none'].map((r) => String(all.confusion[l]?.[r] ?? 0).padStart(9)).join('')}\n`);
  if (all.disagreements.length > 0) {
    io.out('\nread differently from the label:\n');
    for (const d of all.disagreements.slice(0, 20)) io.out(`  ${d.label} read as ${d.read}: ${d.text.replace(/\s+/g, ' ').slice(0, 140)}\n`);
  }
  return 0;
}

/**
 * The claim reader of a sweep: the world's wording by default; an LLM judge only after it agrees with the
 * world's hand labels (kappa at least `judgeMinKappa`), and only in this process.
 */
export async function sweepJudge(config: ResolvedConfig, world: WorldDefinition, options: EpisodeOptions, io: Io) {
  if (config.judge === 'wording') return { options, judge: { reader: 'wording' } };
  if (config.workers !== 'auto' && config.workers > 1) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to plan the sweep: the LLM judge \`${config.judge}\` runs in this process only; drop \`--workers ${config.workers}\` (or use \`--concurrency\` to overlap its API calls).`);
  }
  const reader = claimReaderOf(config.judge, config, world);
  const { items, source } = labelsOf(undefined, world);
  const c = await calibrate(reader, items);
  const figure = `${c.kappa.toFixed(3)} [${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}] on ${c.n} hand labels of world ${world.id}`;
  if (!(c.kappa >= config.judgeMinKappa)) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to use the judge \`${config.judge}\`: its Cohen's kappa is ${figure}, below the threshold ${config.judgeMinKappa}. See where it disagrees with \`shakedown calibrate --judge ${config.judge} --world ${world.id}\`, or lower \`--judge-min-kappa\` knowingly.`);
  }
  io.err(`shakedown: judge ${reader.id}: Cohen's kappa ${figure} (threshold ${config.judgeMinKappa})\n`);
  return { options: { ...options, claimReader: reader }, judge: { reader: reader.id, kappa: c.kappa, ci95: c.ci95, labels: source, threshold: config.judgeMinKappa } };
}
