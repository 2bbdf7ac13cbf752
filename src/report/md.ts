/**
 * Text for Markdown: every character that could start markup (a table bar, code, emphasis, a link, an
 * HTML tag or entity) escaped with a backslash, so that no value from a run is anything but text in
 * summary.md (files.ts has `mdText`, the same for any value).
 */
export const md = (s: string) => s.replace(/[|\\`*_<>[\]&]/g, (c) => `\\${c}`);
