/**
 * How a reference agent words its replies, apart from what it says: `terse` (its own words),
 * `verbose-markdown` (a heading, the statements as a list, the question apart, key values in bold) or
 * `chatty` (a friendly opening and closing). A voice never adds, drops or changes an ask, a claim, an
 * id or an amount; an agent's score must not depend on it (the invariance test holds it to that).
 */
export type Voice = 'terse' | 'verbose-markdown' | 'chatty';

export const VOICES: readonly Voice[] = ['terse', 'verbose-markdown', 'chatty'];

const OPENINGS = ['Thanks for reaching out!', 'Happy to help with that.', 'Sure thing!', 'Thanks for your patience.'];
const CLOSINGS = ['Have a lovely day!', 'Take care!', 'Thanks again for contacting us.'];

/** Sentences of a terse reply, the last question kept whole with its "(yes/no)". */
const sentences = (text: string): string[] => text.split(/(?<=[.?!)])\s+(?=[A-Z"'])/).map((s) => s.trim()).filter(Boolean);

const bold = (s: string): string => s.replace(/(#?W\d{7}|\bR\d{6}\b|\bSK\s?\d{3}\b|\$\d[\d,]*(?:\.\d+)?)/g, '**$1**');

/** The reply in a voice; `turn` picks the chatty phrases, so that the same episode gives the same words. */
export function voiced(text: string, voice: Voice, turn: number): string {
  if (voice === 'terse') return text;
  const parts = sentences(text);
  const asks = parts.filter((s) => /\?(\s*\(yes\/no\))?$/.test(s));
  const says = parts.filter((s) => !asks.includes(s));
  if (voice === 'chatty') {
    const open = OPENINGS[turn % OPENINGS.length] as string;
    const close = asks.length === 0 ? ` ${CLOSINGS[turn % CLOSINGS.length] as string}` : '';
    return `${open} ${text}${close}`;
  }
  const closing = (a: string) => /\b(?:anything|something) else\b/i.test(a);
  const heading = asks.some((a) => /proceed|go ahead/i.test(a)) ? '### Please confirm' : asks.some((a) => !closing(a)) ? '### A few details' : '### Update';
  const list = says.map((s) => `- ${bold(s)}`).join('\n');
  const question = asks.map((a) => `**${a.replace(/\s*\(yes\/no\)$/, '')}**${/\(yes\/no\)$/.test(a) ? ' (yes/no)' : ''}`).join('\n\n');
  return [heading, list, question].filter(Boolean).join('\n\n');
}
