import { z } from 'zod';
import { parseAmount, parseDate, type EntityFormat, type PerturbationFamily } from '../src/ground/perturb.js';
import { pick, type Rng } from '../src/ground/seeds.js';
import { chance } from './util.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Other ways to write an entity that a careful reader resolves to the same thing; empty where there are none. */
export function formatVariants(format: EntityFormat, value: string): string[] {
  switch (format) {
    case 'id': {
      const m = /^(#?)\s*([A-Za-z]*)[\s-]?(\d+)$/.exec(value.trim());
      if (!m) return [];
      const [, , letters = '', digits = ''] = m;
      const core = `${letters}${digits}`;
      return [core, `#${core}`, `# ${core}`, core.toLowerCase(), `#${core.toLowerCase()}`, ...(letters ? [`${letters} ${digits}`, `${letters}-${digits}`] : [])];
    }
    case 'email': {
      const [local = '', domain = ''] = value.split('@');
      const title = (s: string) => s.replace(/(^|[._-])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
      return [value.toUpperCase(), `${title(local)}@${domain}`, `${title(local)}@${title(domain)}`];
    }
    case 'name':
      return [value.toLowerCase(), value.toUpperCase()];
    case 'amount': {
      const n = parseAmount(value);
      if (n === undefined) return [];
      const fixed = n.toFixed(2);
      return [`$${fixed}`, `${Number(fixed)} dollars`, `USD ${fixed}`, `$${Number(fixed)}`, `${fixed} dollars`];
    }
    case 'date': {
      const iso = parseDate(value);
      if (!iso) return [];
      const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
      const month = MONTHS[m - 1] ?? '';
      return [iso, `${month} ${d}, ${y}`, `${d} ${month.slice(0, 3)} ${y}`, `${m}/${d}/${y}`, `${month.slice(0, 3)} ${d} ${y}`];
    }
    case 'text':
    case 'digits':
    case 'verbatim':
      return [];
  }
}

const variant = (format: EntityFormat, value: string, current: string, rng: Rng): string | undefined => {
  const options = formatVariants(format, value).filter((v) => v !== current);
  return options.length === 0 ? undefined : pick(rng, options);
};

const params = z
  .object({
    /** Probability that an entity with other forms is rewritten in one, at full strength. @default 0.6 */
    rate: z.number().min(0).max(1).default(0.6),
  })
  .strict();

/** Entities written another way: ids with or without `#` and spacing, amounts, dates, e-mail and name casing. */
export const entityFormat: PerturbationFamily<typeof params> = {
  id: 'entity-format',
  description: "entity format variation: '#W9000404' / 'w 9000404', '$12.50' / '12.5 dollars', dates, e-mail and name casing",
  touches: ['entity-format'],
  onset: 0.2,
  params,
  apply(segments, { level, rng, language }, p) {
    if (level === 0) return [...segments];
    const formats = language.perturbation?.entityFormats ?? {};
    return segments.map((s) => {
      if (!s.protected || s.retracted || !s.slot) return s;
      const format = formats[s.slot];
      if (!format || !chance(rng, level * p.rate)) return s;
      const value = s.value ?? s.text;
      const text = variant(format, value, s.text, rng);
      return text === undefined ? s : { ...s, text, value };
    });
  },
};
