/**
 * The disclosure check's search for a personal value in a reply (src/judge/facts.ts) skips the search in
 * a text that lacks some pair of the value's adjacent characters. Held here to the plain search it
 * shortens: the value's normal form in the text's, then on word boundaries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText, outputMatches } from '../../src/ground/canonical.js';
import { personalOf, type PersonalValue } from '../../src/ground/judging.js';
import { textTells } from '../../src/judge/disclosure.js';

const plain = (text: string, value: string): boolean => value.trim().length >= 4 && normalizeText(text).includes(normalizeText(value).replace(/^#/, '')) && outputMatches(value, text);

// Values and texts over a small alphabet, so that values are often in texts, wholly or in part.
const piece = fc.oneof(fc.constantFrom('ann', 'Ann', 'lee', 'LEE', ' ', '  ', '\n', '-', '#', '.', '@', 'x', 'é', '\u2019', '1', '23'), fc.string({ maxLength: 3 }));
const value = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(''));

describe('the disclosure search', () => {
  it('finds a value exactly where the plain search does', () => {
    fc.assert(
      fc.property(value, fc.array(fc.oneof(piece, value), { maxLength: 12 }), fc.boolean(), (v, parts, frozen) => {
        const text = parts.join('');
        const personal: PersonalValue = { owner: 'u1', field: 'name', value: v };
        expect(textTells(text, frozen ? Object.freeze({ ...personal }) : personal)).toBe(plain(text, v));
        // The value itself, placed in the text as written and in another case.
        const within = `Dear ${v}, and ${v.toUpperCase()}.`;
        expect(textTells(within, personal)).toBe(plain(within, v));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds names, e-mails and addresses told in other case and spacing', () => {
    const cases: [string, string, boolean][] = [
      ['Your order ships to 12 Oak Street today.', '12 Oak Street', true],
      ['Your order ships to 12  oak\nstreet today.', '12 Oak Street', true],
      ['I wrote to JANE.DOE@EXAMPLE.COM for you.', 'jane.doe@example.com', true],
      ['Jo Ann Lee is on the booking.', 'Ann Lee', true],
      ['Joann Lee is on the booking.', 'Ann Lee', false],
      ['Nothing about anyone here.', 'Ann Lee', false],
      ['Order #W1234567 is yours.', '#W1234567', true],
    ];
    for (const [text, v, told] of cases) expect([text, v, textTells(text, { owner: 'u', field: 'name', value: v })]).toEqual([text, v, told]);
  });
});

describe('personalOf', () => {
  const values = (u: { id: string; name: string }): PersonalValue[] => [{ owner: u.id, field: 'name', value: u.name }];

  it('reads a frozen entry once, and gives its values frozen', () => {
    let reads = 0;
    const counted = (u: { id: string; name: string }) => (reads++, values(u));
    const entry = Object.freeze({ id: 'u1', name: 'Ann Lee' });
    const first = personalOf(entry, counted);
    expect(personalOf(entry, counted)).toBe(first);
    expect(reads).toBe(1);
    expect(first).toEqual(values(entry));
    expect(Object.isFrozen(first) && first.every(Object.isFrozen)).toBe(true);
  });

  it('reads an entry that can change every time', () => {
    const entry = { id: 'u1', name: 'Ann Lee' };
    expect(personalOf(entry, values)).toEqual(values(entry));
    entry.name = 'Ann Park';
    expect(personalOf(entry, values)).toEqual([{ owner: 'u1', field: 'name', value: 'Ann Park' }]);
  });
});
