// An agent's message as the scripted user reads it: markdown, JSON and leaked reasoning away, then units, each a sentence or a
// list item, marked as an item or as a lead-in to what follows (src/user/reading.ts reads each unit for what it asks).
import { messageText } from '../ground/json-text.js';
import { plainQuotes } from '../ground/canonical.js';

export interface Unit {
  readonly text: string;
  /** A list item (bulleted or numbered). */
  readonly item: boolean;
  /** It ends with a colon: it introduces what follows ("I'll need the following:"). */
  readonly leadIn: boolean;
}

/** A placeholder for a value: "______", "<your user ID>", "[date]", "YYYY-MM-DD", "...". */
const BLANK = String.raw`_{2,}|<[^>]*>|\[[^\]]*\]|YYYY-MM-DD|\.{3}|\u2026`;
/** A line of a form to fill in: a label and no value, or a placeholder for one ("Email: ______", "user_id: <your user ID>", "\"dob\": \"\"", "Date of birth (YYYY-MM-DD):"). */
const FORM_LINE = new RegExp(String.raw`^\s*[-*•]?\s*"?[A-Za-z][\w ()/.#-]{0,40}?"?\s*:\s*(?:"{2}|'{2}|"?(?:${BLANK})"?)?\s*,?\s*$`);
/** A value that is only a placeholder for one. */
export const PLACEHOLDER = new RegExp(String.raw`^\s*(?:${BLANK}|"{2}|'{2})(?=\s|[|,;]|$)`);

/** A heading that asks for what its list names. */
const ASKING_HEADING = /\b(?:from you|please|required|(?:i|we)(?:'ll| will)? need|to (?:proceed|continue|get started|go ahead))\b/i;

/**
 * Text quoted after a colon or a verb of saying, in double or single quotes on one line: "the policy reads: 'Can I cancel? Only
 * within 24 hours.'", 'Earlier you asked: "Which order is pending?"'. Not a whole message in quotes. (Single quotes end at the
 * first apostrophe: a quote with one inside is read as it stands.)
 */
const QUOTED = /(?<=(?::|\b(?:asked|asks|ask|says|said|reads|read|states|stated|wrote|writes|question|questions))\s{0,2})(?:"[^"\n]{1,400}"|'[^'\n]{1,400}'(?=[\s.,;:)]|$))/gi;

/** Markdown and chat decoration away: emphasis, headings, code ticks, quotes, link syntax. */
function plain(text: string): string {
  // A message written as JSON ({"message": "...\\n..."}) is read as the text it holds.
  const unwrapped = messageText(text, { lists: true });
  // A model's reasoning leaked before its reply ("<think>...</think>") is not said to the user.
  const undecorated = unwrapped
    .replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/\r\n?/g, '\n')
    // A code block is left out, but for the lines of a form in it ("First name:", "\"dob\": \"YYYY-MM-DD\""): the user fills those in.
    .replace(/```[^\n]*\n?([\s\S]*?)```/g, (_, body: string) => {
      const form = body.split('\n').filter((l) => FORM_LINE.test(l)).map((l) => l.replace(/^\s*[-*•]?\s*"?([^":]+?)"?\s*:.*$/, '$1: <blank>'));
      return form.length > 0 ? `\n${form.join('\n')}\n` : ' ';
    })
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    // A form's label written as a key ("user_id:", "first_name:") is its words.
    .replace(/^(\s*[-*•]?\s*)([A-Za-z]+(?:_[A-Za-z]+)+)(?=\s*:)/gm, (_, lead: string, key: string) => `${lead}${key.replace(/_/g, ' ')}`)
    // A blank to fill in ("Email: ______") is a placeholder, not emphasis.
    .replace(/_{3,}/g, '<blank>')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/(^|\s)[*_](\S[^*_]*\S|\S)[*_](?=\s|[.,;:!?]|$)/g, '$1$2')
    // A heading that asks introduces what follows it, as a line ending in a colon does ("### What I need
    // from you"); any other heading is a line of its own ("### What you need to know", "### Next steps").
    .replace(/^\s{0,3}#{1,6}\s+(.*?)\s*$/gm, (_, h: string) => (/[:.?!]$/.test(h) ? h : ASKING_HEADING.test(h) ? `${h}:` : `${h}.`))
    .replace(/^\s*>\s?/gm, '')
    // Pictographs are tone, not text: "Which option would you prefer? ✈️" ends as a question.
    .replace(/[\p{Extended_Pictographic}\uFE0F\u200D]+/gu, '')
    .replace(/\|/g, ' ');
  // Typographic apostrophes and quotes as plain ones: "you’d like" is "you'd like".
  // A question inside quoted text (a policy quoted, the user's own question recalled: 'Earlier you asked: "Which order is
  // pending?"') is put to no one: its question marks are read as full stops.
  return plainQuotes(undecorated).replace(QUOTED, (q) => q.replace(/\?/g, '.'));
}

const ITEM = /^\s*(?:[-*+•·◦]|\d{1,2}[.)]|[a-z][.)]|[A-H]\)|\(\d{1,2}\))\s+/;

/** A line labelled as one of several options: "Option A: ...", "Way 2 - ...". */
const OPTION_LINE = /^(?:option|choice|way|method) (?:[a-d]|\d)\b\W{0,3}[:\u2014\u2013-]/i;

/** Sentences split inside a bracket joined again: the part that opens one goes on until it closes. */
function joinOpenBrackets(parts: readonly string[]): string[] {
  const out: string[] = [];
  let open = 0;
  for (const p of parts) {
    if (open > 0 && out.length > 0) out[out.length - 1] = `${out.at(-1)} ${p}`;
    else out.push(p);
    open = Math.max(0, open + (p.match(/\(/g)?.length ?? 0) - (p.match(/\)/g)?.length ?? 0));
  }
  return out;
}

/** Sentences and list items, each a unit; a line that is a list item stays whole. */
export function unitsOf(text: string): Unit[] {
  const out: Unit[] = [];
  // Under a lead-in ("Quick checklist so I can book this:"), until a line ends as a sentence does.
  let listing = false;
  for (const raw of plain(text).split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    // "**Option A:** your email address" is an item of a list too, marked by its label; so is a short line under a
    // lead-in that does not end as a sentence does ("Who's flying — names + birthdays").
    const marked = ITEM.test(line) || OPTION_LINE.test(line);
    const item: boolean = marked || (listing && line.length <= 100 && !/[.!?]["')\]]?\s*$/.test(line));
    const body = line.replace(ITEM, '').trim();
    // Not inside brackets: "Which order (with the #W... ID) did you place?" is one sentence. Nor after a title ("Mr. Patel").
    const parts = item ? [body] : joinOpenBrackets(body.split(/(?<=[.?!])(?<!\b(?:Mr|Mrs|Ms|Dr|Prof)\.)\s+(?=["'(]?[A-Z0-9])/));
    for (const p of parts) {
      const t = p.trim();
      if (t) out.push({ text: t, item, leadIn: /:\s*$/.test(t) });
    }
    listing = out.at(-1)?.leadIn === true || (listing && item);
  }
  return out;
}
