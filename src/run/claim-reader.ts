// The claim reader a run uses: the world's wording by default, an LLM judge by name, and the check that an
// LLM judge agrees with the world's hand labels before a sweep may use it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ShakedownError } from '../ground/errors.js';
import { packagePath } from '../ground/package-root.js';
import type { ResolvedConfig } from '../ground/config.js';
import type { EpisodeOptions } from './episode.js';
import type { WorldDefinition } from '../ground/world.js';
import { calibrate, parseLabels, type LabelledClaim } from '../judge/calibrate.js';
import type { ClaimReader } from '../ground/judging.js';
import { llmClaimReader } from '../judge/llm.js';
import { defaultClaimReader } from '../judge/verdict.js';

/** The claim reader a `--judge` value names: `wording` (the default) or `llm:MODEL` on the config's LLM settings. */
export function claimReaderOf(spec: string | undefined, config: ResolvedConfig, world: WorldDefinition): ClaimReader {
  const s = (spec ?? 'wording').trim();
  if (s === 'wording' || s === 'default') return defaultClaimReader(world);
  if (s.startsWith('llm:') && s.length > 4) return llmClaimReader({ ...config.llm, model: s.slice(4) });
  throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--judge ${s}\`: give \`wording\` (the world's wording data, the default) or \`llm:MODEL\` (an OpenAI-compatible API, see \`--llm-base-url\`).`);
}

/**
 * The shipped batches of real LLM agents' replies after writes, by name (corpora/claims.NAME.jsonl: `real`, `fresh`,
 * `more`, `third`, ...). `--labels real` reads them all, `--labels real:NAME` one.
 */
export function realClaimBatches(): string[] {
  const dir = packagePath('corpora');
  return existsSync(dir) ? readdirSync(dir).flatMap((f) => /^claims\.([\w-]+)\.jsonl$/.exec(f)?.[1] ?? []).sort() : [];
}

/**
 * The hand labels of a world, or of `--labels FILE`; `--labels real` reads every shipped batch of real agents' replies
 * (corpora/claims.*.jsonl, each with its split and its source), `--labels real:NAME` one of them (`real:thirteenth`).
 */
export function labelsOf(path: string | undefined, world: WorldDefinition): { items: LabelledClaim[]; source: string } {
  if (path === 'real' || path?.startsWith('real:')) {
    const batches = realClaimBatches();
    if (batches.length === 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read labels \`${path}\`: this installation ships no corpora of real replies (no claims.*.jsonl in ${packagePath('corpora')}). Pass \`--labels FILE\` (JSON lines of {"text", "label"}).`);
    const name = path.slice('real:'.length);
    if (path !== 'real' && name === '') throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read labels \`real:\`: give a batch's name after \`real:\`, one of: ${batches.join(', ')}; or \`real\` for every batch.`);
    const chosen = path === 'real' ? batches : batches.filter((b) => b === name);
    if (chosen.length === 0) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read labels \`${path}\`: no shipped batch of that name. Give \`real\` (every batch) or one of: ${batches.map((b) => `real:${b}`).join(', ')}.`);
    const items = chosen.flatMap((b) => parseLabels(readFileSync(packagePath('corpora', `claims.${b}.jsonl`), 'utf8'), `corpora/claims.${b}.jsonl`));
    return { items, source: chosen.length === 1 ? `corpora/claims.${chosen[0]}.jsonl` : `corpora/claims.*.jsonl, ${chosen.length} batches` };
  }
  const source = path ? resolve(path) : world.judging?.claimLabels;
  if (!source) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to calibrate: world ${world.id} ships no claim labels. Pass \`--labels FILE\` (JSON lines of {"text", "label"}).`);
  if (!existsSync(source)) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read labels \`${path ?? source}\`: no such file.`);
  return { items: parseLabels(readFileSync(source, 'utf8'), path ?? source), source };
}

/**
 * The claim reader of a sweep: the world's wording by default; an LLM judge only after it agrees with the
 * world's hand labels (kappa at least `judgeMinKappa`), and only in this process.
 */
export async function sweepJudge(config: ResolvedConfig, world: WorldDefinition, options: EpisodeOptions, io: { err(text: string): void }) {
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
