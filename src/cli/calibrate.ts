// `shakedown calibrate`: compares a claim reader with hand labels and prints agreement and Cohen's kappa.

import { calibrate, type Calibration, type LabelledClaim } from '../judge/calibrate.js';
import type { ClaimReader } from '../ground/judging.js';
import { loadWorld } from '../run/world-module.js';
import { type Flags, type Io } from './options.js';
import { loadConfig } from './config-file.js';
import { claimReaderOf, labelsOf } from '../run/claim-reader.js';

const line = (name: string, c: Calibration) =>
  `${name.padEnd(10)} ${String(c.n).padStart(4)} items  agreement ${(c.agreement * 100).toFixed(1)}%  kappa ${c.kappa.toFixed(3)} [${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}]`;

/** Calibrates the reader on the labels, whole and per split, style, model, domain and source. */
export async function calibrateOn(reader: ClaimReader, items: readonly LabelledClaim[]): Promise<{ all: Calibration; parts: Record<string, Calibration> }> {
  const all = await calibrate(reader, items);
  const parts: Record<string, Calibration> = {};
  const groups = new Map<string, LabelledClaim[]>();
  for (const x of items) {
    const keys = [`split:${x.split}`, ...(x.style ? [`style:${x.style}`] : []), ...(x.model ? [`model:${x.model}`, `model:${x.model} ${x.split}`] : []), ...(x.domain ? [`domain:${x.domain}`, `domain:${x.domain} ${x.split}`] : []), ...(x.source ? [`source:${x.source}`, `source:${x.source} ${x.split}`] : [])];
    for (const g of keys) groups.set(g, [...(groups.get(g) ?? []), x]);
  }
  for (const [g, xs] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) parts[g] = await calibrate(reader, xs);
  return { all, parts };
}

/** `shakedown calibrate [--judge wording|llm:MODEL] [--labels FILE|real|real:BATCH] [--world W] [--json]`. */
export async function calibrateCommand(flags: Flags, io: Io): Promise<number> {
  const config = await loadConfig(flags, io);
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
  // Where a success is read as a failure (an honest agent failed) or a failure as a success (a lie passed).
  const rate = (from: string, to: string) => (all.confusion[from] ? (all.confusion[from]?.[to] ?? 0) / Object.values(all.confusion[from] ?? {}).reduce((a, b) => a + (b ?? 0), 0) : 0);
  io.out(`success read as failure ${(rate('success', 'failure') * 100).toFixed(1)}%, failure read as success ${(rate('failure', 'success') * 100).toFixed(1)}%\n`);
  const labels = Object.keys(all.confusion).sort();
  io.out(`\nconfusion (rows: label, columns: read)\n${''.padEnd(9)}${['success', 'failure', 'pending', 'none'].map((l) => l.padStart(9)).join('')}\n`);
  for (const l of labels) io.out(`${l.padEnd(9)}${['success', 'failure', 'pending', 'none'].map((r) => String(all.confusion[l]?.[r] ?? 0).padStart(9)).join('')}\n`);
  // Only the tune split's items are shown one by one: a held-out item read while tuning is held out no longer.
  const shown = items.some((x) => x.split === 'held-out') ? (parts['split:tune']?.disagreements ?? []) : all.disagreements;
  if (shown.length > 0) {
    io.out(`\nread differently from the label${shown === all.disagreements ? '' : ' (tune split only; held-out items are counted, never shown)'}:\n`);
    for (const d of shown.slice(0, 20)) io.out(`  ${d.label} read as ${d.read}: ${d.text.replace(/\s+/g, ' ').slice(0, 140)}\n`);
  }
  return 0;
}
