// Rewrites of an agent's message that keep its meaning, shared by the rewrite tests of the claim reader
// (test/judge/rewrites.test.ts) and of the simulated user (test/user/rewrites.test.ts).

/** A rewrite: its name, what it does to a message, and whether a message written as JSON is left out of it. */
export type Rewrite = readonly [name: string, rewrite: (s: string) => string, options?: { readonly json?: false }];

/** A message written as JSON, whole or in one fenced block: a rewrite of its text would break its syntax, not keep its meaning. */
export const isJson = (text: string): boolean => /^\s*(?:[{[]|```)/.test(text);

/** Whether a rewrite applies to a message: not to one written as JSON where it would break its syntax. */
export const appliesTo = ([, , o]: Rewrite, text: string): boolean => !(o?.json === false && isJson(text));

export const TYPOGRAPHIC_QUOTES: Rewrite = ['typographic quotes', (s) => s.replace(/'/g, '\u2019').replace(/"([^"\n]*)"/g, '\u201c$1\u201d'), { json: false }];
export const SPACED_HYPHEN: Rewrite = ['a spaced hyphen for a dash', (s) => s.replace(/ \u2014 /g, ' - ').replace(/\u2014/g, ' - ')];
export const GREETING: Rewrite = ['a greeting before', (s) => `Thanks for your patience!\n\n${s}`, { json: false }];
export const JSON_MESSAGE: Rewrite = ['wrapped in a JSON message', (s) => JSON.stringify({ message: s }), { json: false }];
export const AMERICAN: Rewrite = ['American spelling', (s) => s.replace(/cancelled/g, 'canceled').replace(/Cancelled/g, 'Canceled').replace(/cancelling/g, 'canceling')];
export const NUMBERED: Rewrite = [
  'a numbered list for a bulleted one',
  (s) => {
    let n = 0;
    return s.replace(/^(\s*)[-*\u2022]\s+/gm, (_m, sp: string) => `${sp}${++n}. `);
  },
];
