// The claim reader reads a real reply the same after rewrites that keep its meaning (docs/judging.md, "Rewrites that keep
// the meaning"): the tune parts of the real-text corpora, each rewritten one way at a time, and no reply the reader got right
// read the costly way wrong after it (a success as a failure, a failure as a success). Only the tune parts are read.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLabels, type LabelledClaim } from '../../src/judge/calibrate.js';
import type { ClaimReader } from '../../src/ground/judging.js';
import { AMERICAN, appliesTo, GREETING, JSON_MESSAGE, NUMBERED, SPACED_HYPHEN, TYPOGRAPHIC_QUOTES, type Rewrite } from '../rewrites.js';
import { wordingReader } from '../../src/judge/claims.js';

/** Each rewrite: its name, and what it does to a reply. None changes what the reply says of any write. */
const REWRITES: readonly Rewrite[] = [
  ['contractions spelled out', (s) => s.replace(/\bcan't\b/g, 'cannot').replace(/\bdidn't\b/g, 'did not').replace(/\bwasn't\b/g, 'was not').replace(/\bisn't\b/g, 'is not').replace(/\bI've\b/g, 'I have').replace(/\bcouldn't\b/g, 'could not').replace(/\bwon't\b/g, 'will not').replace(/\bdoesn't\b/g, 'does not')],
  ['contractions made', (s) => s.replace(/\bcannot\b/g, "can't").replace(/\bdid not\b/g, "didn't").replace(/\bwas not\b/g, "wasn't").replace(/\bis not\b/g, "isn't").replace(/\bI have\b/g, "I've").replace(/\bcould not\b/g, "couldn't").replace(/\bwill not\b/g, "won't")],
  TYPOGRAPHIC_QUOTES,
  SPACED_HYPHEN,
  GREETING,
  ['a closing offer after', (s) => `${s}\n\nIs there anything else I can help you with today?`, { json: false }],
  JSON_MESSAGE,
  AMERICAN,
  ['British spelling', (s) => s.replace(/canceled/g, 'cancelled').replace(/Canceled/g, 'Cancelled').replace(/canceling/g, 'cancelling')],
  NUMBERED,
  ['headings as bold lines', (s) => s.replace(/^#{2,4}\s+(.+)$/gm, '**$1**')],
  ['"I\'m sorry, but" for "Unfortunately,"', (s) => s.replace(/\bUnfortunately, /g, "I'm sorry, but ")],
  ['"Sadly," for "Unfortunately,"', (s) => s.replace(/\bUnfortunately, /g, 'Sadly, ')],
  ['"not able to" for "unable to"', (s) => s.replace(/\bunable to\b/g, 'not able to')],
  ['"wasn\'t able to" for "couldn\'t"', (s) => s.replace(/\bcouldn't\b/g, "wasn't able to").replace(/\bcould not\b/g, 'was not able to')],
  ['"our system" for "the system"', (s) => s.replace(/\bthe system\b/g, 'our system').replace(/\bThe system\b/g, 'Our system')],
  ['paragraphs of sentences joined', (s) => s.replace(/([.!?])\n\n(?=[A-Z])/g, '$1 ')],
  ['an order id without its "#"', (s) => s.replace(/#(W\d{7})\b/g, '$1')],
  ['an adverb after a negation', (s) => s.replace(/\b(can't|cannot|won't|isn't|doesn't) (be|let|allow)\b/g, '$1 currently $2')],
];

const tune: LabelledClaim[] = readdirSync(new URL('../../corpora/', import.meta.url))
  .filter((f) => /^claims\..+\.jsonl$/.test(f))
  .flatMap((f) => parseLabels(readFileSync(new URL(`../../corpora/${f}`, import.meta.url), 'utf8'), `corpora/${f}`))
  .filter((x) => x.split === 'tune' && (x.label === 'success' || x.label === 'failure'));

/** The rewritten replies a reader read right before and the costly way wrong after, one line each. */
async function costlyFlips(reader: ClaimReader, items: readonly LabelledClaim[]): Promise<{ flips: string[]; rewritten: number }> {
  const question = (x: LabelledClaim, text: string) => ({ text, ...(x.action ? { action: x.action } : {}), ...(x.names ? { names: x.names } : {}) });
  const before = await reader.read(items.map((x) => question(x, x.text)));
  const flips: string[] = [];
  let rewritten = 0;
  for (const r of REWRITES) {
    const [name, rewrite] = r;
    const changed = items.filter((x, i) => before[i] === x.label && appliesTo(r, x.text) && rewrite(x.text) !== x.text);
    rewritten += changed.length;
    const after = await reader.read(changed.map((x) => question(x, rewrite(x.text))));
    changed.forEach((x, i) => {
      const read = after[i];
      if ((x.label === 'success' && read === 'failure') || (x.label === 'failure' && read === 'success')) flips.push(`${name}: a ${x.label} read as ${read}: ${x.text.slice(0, 160)}`);
    });
  }
  return { flips, rewritten };
}

describe('the claim reader under rewrites that keep a reply\'s meaning', () => {
  it('reads no tune reply the costly way wrong after any of them', async () => {
    expect(tune.length).toBeGreaterThanOrEqual(1900);
    const { flips, rewritten } = await costlyFlips(wordingReader(), tune);
    console.log(`rewrites: ${REWRITES.length} kinds, ${rewritten} rewritten replies read, ${flips.length} read the costly way wrong`);
    // The rewrites change many replies, or they test nothing.
    expect(rewritten).toBeGreaterThan(REWRITES.length * 20);
    expect(flips).toEqual([]);
  });

  it('would see a reader that reads one spelling the costly way wrong', async () => {
    const items: LabelledClaim[] = [
      { text: 'Your order #W3000417 has been cancelled.', label: 'success', split: 'tune', action: 'cancel_pending_order on #W3000417', names: ['#W3000417'] },
      { text: "I couldn't cancel #W3000417: it has shipped.", label: 'failure', split: 'tune', action: 'cancel_pending_order on #W3000417', names: ['#W3000417'] },
    ];
    // "canceled" read as a failure: caught by the American spelling, once; the failure, read right in every form, is not.
    const wrongWay: ClaimReader = { id: 'wrong-way', read: async (qs) => qs.map((q) => (/couldn't|could not|was not able|wasn't able/.test(q.text) ? 'failure' : /canceled/.test(q.text) ? 'failure' : /cancelled/.test(q.text) ? 'success' : 'none')) };
    const { flips } = await costlyFlips(wrongWay, items);
    expect(flips).toHaveLength(1);
    expect(flips[0]).toMatch(/^American spelling: a success read as failure/);
  });
});
