/**
 * Markup that escapes every value put into it: `html` and `svg` are tagged templates whose substitutions
 * are escaped (strings, numbers, anything) unless they are markup themselves, built by this tag or
 * marked with `trusted`. A value from a run's files (an agent id, an ε that is not a number, a task
 * title, a message) can then only ever be text in report.html and the heatmaps, never markup, whichever
 * file it came from; an audit reads the few `trusted` calls, not every interpolation.
 */

/** Escapes text for SVG and HTML, in element content and in quoted attributes alike. */
export const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Markup: text already escaped, or built of escaped parts. */
export class Markup {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A value as markup: markup as it is, a list item by item, anything else as escaped text. */
function part(value: unknown): string {
  if (value instanceof Markup) return value.toString();
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === undefined || value === null) return '';
  return escapeXml(String(value));
}

/** A template whose substitutions are escaped unless they are markup. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += part(values[i]) + (strings[i + 1] as string);
  return new Markup(out);
}

/** The same tag, for SVG. */
export const svg = html;

/**
 * Markup this program made itself and vouches for (a heatmap's SVG, the page's own script), never
 * text from a run. Every call is a place to audit.
 */
export const trusted = (text: string): Markup => new Markup(text);

/** Markup parts joined by `separator` (itself markup). */
export const joinMarkup = (parts: readonly unknown[], separator = ''): Markup => new Markup(parts.map(part).join(separator));
