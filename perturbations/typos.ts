import { z } from 'zod';
import { mapUnprotected, type PerturbationFamily } from '../src/ground/perturb.js';
import type { Rng } from '../src/ground/seeds.js';

const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const NEIGHBOURS: Record<string, string> = {};
for (let r = 0; r < ROWS.length; r++) {
  const row = ROWS[r] ?? '';
  for (let c = 0; c < row.length; c++) {
    const near = [row[c - 1], row[c + 1], ROWS[r - 1]?.[c], ROWS[r + 1]?.[c]].filter((x): x is string => !!x);
    NEIGHBOURS[row[c] ?? ''] = near.join('');
  }
}

const params = z
  .object({
    /** Probability that a word of four or more letters gets one typo, at full strength. @default 0.25 */
    rate: z.number().min(0).max(1).default(0.25),
  })
  .strict();

function typo(word: string, rng: Rng): string {
  const i = 1 + Math.floor(rng() * (word.length - 2));
  const op = rng();
  const ch = word[i] ?? '';
  if (op < 0.4) {
    const near = NEIGHBOURS[ch.toLowerCase()];
    if (!near) return word;
    const sub = near[Math.floor(rng() * near.length)] ?? ch;
    return word.slice(0, i) + (ch === ch.toUpperCase() ? sub.toUpperCase() : sub) + word.slice(i + 1);
  }
  if (op < 0.7 && i + 1 < word.length) return word.slice(0, i) + (word[i + 1] ?? '') + ch + word.slice(i + 2);
  return word.slice(0, i) + word.slice(i + 1);
}

/** Keyboard-adjacent substitutions, transpositions and dropped letters in ordinary words. */
export const typos: PerturbationFamily<typeof params> = {
  id: 'typos',
  description: 'keyboard-adjacent substitutions, transposed and dropped letters in ordinary words',
  touches: ['letters'],
  onset: 0,
  params,
  apply(segments, { level, rng }, p) {
    if (level === 0) return [...segments];
    return mapUnprotected(segments, (text) => text.replace(/[A-Za-z]{4,}/g, (word) => (rng() < level * p.rate ? typo(word, rng) : word)));
  },
};
