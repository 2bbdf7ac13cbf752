// A reply made plain for the claim reader (src/judge/reply-text.ts): one form of each typography and phrasing.
import { describe, expect, it } from 'vitest';
import { plainReply } from '../../src/judge/reply-text.js';

describe('a reply made plain', () => {
  it('reads JSON, quotes, dashes, an adverb after a negation, list numbers and "our system" in one form each', () => {
    expect(plainReply('{"message": "Done.", "reservation_status": "active", "reason": "late"}')).toBe('Done.\nreservation_status: active\nreason: late');
    expect(plainReply('I\u2019ve \u201ccancelled\u201d it - the refund follows in 5 - 7 days.')).toBe('I\'ve "cancelled" it \u2014 the refund follows in 5 - 7 days.');
    expect(plainReply("Our system won't currently let me.\n1. First\n 2) Second")).toBe("The system won't let me.\n- First\n - Second");
    // Made plain once, it stays as it is.
    const once = plainReply('Our booking system can\u2019t actually do it - sorry.\n3. Next');
    expect(plainReply(once)).toBe(once);
  });
});
