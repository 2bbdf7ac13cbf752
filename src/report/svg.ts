/**
 * Heatmaps of the reliability surface as SVG, drawn without a browser: pass^k over ε (rows) and λ
 * (columns), each cell labelled with its value and 95% interval, on viridis (perceptually uniform and
 * colour-blind safe), with a legend, axis titles and a title that says agent, k, world, profile and run.
 * Every value drawn from a run (agent ids, world, profile, run name, ε and λ, counts) goes through the
 * `svg` tag (markup.ts), which escapes it: a value that is not what it should be shows as text.
 */
import type { CellComparison } from '../stats/compare.js';
import type { CellSummary } from '../stats/stats.js';
import { escapeXml, joinMarkup, svg, type Markup } from './markup.js';

export { escapeXml };

/** Viridis at 9 control points (matplotlib), interpolated. */
const VIRIDIS = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725'];
/** A diverging, colour-blind-safe scale for differences (ColorBrewer PuOr): purple below 0, orange above. */
const PUOR = ['#542788', '#8073ac', '#b2abd2', '#d8daeb', '#f7f7f7', '#fee0b6', '#fdb863', '#e08214', '#b35806'];

const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
const toHex = (rgb: readonly number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

function ramp(stops: readonly string[], t: number): string {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const a = hex(stops[i] as string);
  const b = hex(stops[i + 1] as string);
  return toHex(a.map((v, j) => v + ((b[j] as number) - v) * (x - i)));
}

/** The colour of a pass^k value in [0, 1]. */
export const viridis = (v: number): string => ramp(VIRIDIS, v);
/** The colour of a difference in [-1, 1]. */
export const diverging = (d: number): string => ramp(PUOR, (d + 1) / 2);

/** Black or white, whichever reads on the background. */
function textOn(bg: string): string {
  const [r, g, b] = hex(bg);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 ? '#000000' : '#ffffff';
}

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '–');
const f4 = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '–');

export interface HeatmapContext {
  readonly world: string;
  readonly profile: string;
  readonly run: string;
  /** Baseline volumes to note under the map, e.g. `{ oracle: 0.92, noop: 0 }`. */
  readonly baselines?: Readonly<Record<string, number>>;
}

const CELL_W = 92;
const CELL_H = 54;
const LEFT = 70;
const TOP = 58;

interface Panel {
  readonly svg: Markup;
  readonly width: number;
  readonly height: number;
}

function axes(eps: readonly number[], lambda: readonly number[], x0: number): Markup {
  return svg`${lambda.map((l, j) => svg`<text x="${x0 + LEFT + j * CELL_W + CELL_W / 2}" y="${TOP - 8}" text-anchor="middle" font-size="12">${f2(l)}</text>`)}${eps.map((e, i) => svg`<text x="${x0 + LEFT - 8}" y="${TOP + i * CELL_H + CELL_H / 2 + 4}" text-anchor="end" font-size="12">${f2(e)}</text>`)}<text x="${x0 + LEFT + (lambda.length * CELL_W) / 2}" y="${TOP - 26}" text-anchor="middle" font-size="12" font-weight="bold">λ (tool faults)</text><text transform="translate(${x0 + 16},${TOP + (eps.length * CELL_H) / 2}) rotate(-90)" text-anchor="middle" font-size="12" font-weight="bold">ε (user wording)</text>`;
}

/** One panel: pass^k of one agent over the grid. */
function panel(cells: readonly CellSummary[], k: number, x0: number, subtitle: string): Panel {
  const eps = [...new Set(cells.map((c) => c.eps))].sort((a, b) => a - b);
  const lambda = [...new Set(cells.map((c) => c.lambda))].sort((a, b) => a - b);
  const parts: Markup[] = [svg`<text x="${x0 + LEFT}" y="16" font-size="13" font-weight="bold">${subtitle}</text>`, axes(eps, lambda, x0)];
  for (const c of cells) {
    const e = c.passHatK[k - 1];
    if (!e) continue;
    const x = x0 + LEFT + lambda.indexOf(c.lambda) * CELL_W;
    const y = TOP + eps.indexOf(c.eps) * CELL_H;
    const fill = viridis(e.value);
    const ink = textOn(fill);
    parts.push(
      joinMarkup([
        svg`<g class="cell" data-eps="${c.eps}" data-lambda="${c.lambda}" data-k="${k}"><title>ε ${c.eps}, λ ${c.lambda}: pass^${k} ${f3(e.value)} [${f3(e.ci95[0])}, ${f3(e.ci95[1])}], ${c.tasks} tasks x ${c.trials} trials</title>`,
        svg`<rect x="${x}" y="${y}" width="${CELL_W - 2}" height="${CELL_H - 2}" fill="${fill}"/>`,
        svg`<text x="${x + CELL_W / 2 - 1}" y="${y + 22}" text-anchor="middle" font-size="15" font-weight="bold" fill="${ink}">${f3(e.value)}</text>`,
        svg`<text x="${x + CELL_W / 2 - 1}" y="${y + 40}" text-anchor="middle" font-size="10" fill="${ink}">[${f2(e.ci95[0])}, ${f2(e.ci95[1])}]</text></g>`,
      ]),
    );
  }
  return { svg: joinMarkup(parts), width: LEFT + lambda.length * CELL_W + 10, height: TOP + eps.length * CELL_H };
}

function legend(x: number, y: number, height: number, scale: (t: number) => string, labels: readonly [number, string][], title: string): Markup {
  const steps = 40;
  const bands = Array.from({ length: steps }, (_, i) => svg`<rect x="${x}" y="${y + (height * i) / steps}" width="14" height="${height / steps + 0.5}" fill="${scale(1 - i / (steps - 1))}"/>`);
  return svg`<text x="${x}" y="${y - 8}" font-size="11" font-weight="bold">${title}</text>${bands}${labels.map(([t, label]) => svg`<text x="${x + 18}" y="${y + height * (1 - t) + 4}" font-size="10">${label}</text>`)}`;
}

/** Words of `text` in lines of at most `max` characters. */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A figure as wide as its panels: the title (15 px) and the footer (10 px) wrap to that width instead of
 * widening the image, so that a figure carries no blank margin beside its cells.
 */
function document(contentWidth: number, height: number, title: string, body: Markup, footer: string): string {
  const width = Math.ceil(Math.max(contentWidth, 360));
  const titleLines = wrap(title, Math.max(20, Math.floor((width - 24) / 8.6)));
  const footerLines = wrap(footer, Math.max(30, Math.floor((width - 24) / 5.8)));
  const top = 10 + 19 * titleLines.length;
  const total = height + top - 28 + 14 * (footerLines.length - 1);
  return joinMarkup([
    svg`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${total}" viewBox="0 0 ${width} ${total}" font-family="DejaVu Sans, Verdana, sans-serif" role="img" aria-label="${title}">`,
    svg`<title>${title}</title>`,
    svg`<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...titleLines.map((l, i) => svg`<text x="12" y="${22 + 19 * i}" font-size="15" font-weight="bold">${l}</text>`),
    svg`<g transform="translate(0,${top})">${body}</g>`,
    ...footerLines.map((l, i) => svg`<text x="12" y="${total - 10 - 14 * (footerLines.length - 1 - i)}" font-size="10" fill="#444444">${l}</text>`),
    svg`</svg>`,
  ]).toString();
}

/**
 * Small multiples of one agent's surface: a panel per k (all k = 1..n, or the ones given), one legend.
 */
export function heatmapSvg(agent: string, cells: readonly CellSummary[], ctx: HeatmapContext, ks?: readonly number[]): string {
  const n = Math.min(...cells.map((c) => c.passHatK.length));
  const list = (ks ?? Array.from({ length: Number.isFinite(n) ? n : 0 }, (_, i) => i + 1)).filter((k) => k >= 1 && k <= n);
  let x = 0;
  let height = 0;
  const body: Markup[] = [];
  for (const k of list) {
    const p = panel(cells, k, x, `pass^${k}`);
    body.push(p.svg);
    x += p.width + 8;
    height = Math.max(height, p.height);
  }
  body.push(legend(x + 10, TOP, height - TOP, viridis, [[0, '0'], [0.5, '0.5'], [1, '1']], 'pass^k'));
  const base = ctx.baselines && Object.keys(ctx.baselines).length > 0 ? ` Baselines (surface volume, pass^1): ${Object.entries(ctx.baselines).map(([id, v]) => `${id} ${v.toFixed(3)}`).join(', ')}.` : '';
  const title = `${agent}: pass^k over ε and λ (k = ${list.join(', ')}) · world ${ctx.world} · profile ${ctx.profile} · run ${ctx.run}`;
  // What two runs of this size must differ by to be told apart: (1.96 + 0.84) sqrt(2) SE, the median over cells, at the largest k shown.
  const kMax = list.at(-1) ?? 1;
  const ses = cells.map((c) => c.passHatK[kMax - 1]?.se ?? Number.NaN).filter((v) => Number.isFinite(v)).sort((p1, p2) => p1 - p2);
  const detect = ses.length > 0 ? ` Two runs of this size must differ by about ${((1.96 + 0.84) * Math.SQRT2 * (ses[Math.floor(ses.length / 2)] as number)).toFixed(2)} in pass^${kMax} to be told apart.` : '';
  return document(x + 90, height + 28 + 40, title, joinMarkup(body), `Each cell: pass^k over tasks and its 95% interval.${detect}${base}`);
}

/** A difference heatmap A - B for pass^k, cells whose difference is significant (Holm) outlined and starred. */
export function differenceSvg(a: string, b: string, rows: readonly CellComparison[], ctx: HeatmapContext): string {
  const eps = [...new Set(rows.map((r) => r.eps))].sort((x, y) => x - y);
  const lambda = [...new Set(rows.map((r) => r.lambda))].sort((x, y) => x - y);
  const k = rows[0]?.k ?? 1;
  const parts: Markup[] = [axes(eps, lambda, 0)];
  for (const r of rows) {
    const x = LEFT + lambda.indexOf(r.lambda) * CELL_W;
    const y = TOP + eps.indexOf(r.eps) * CELL_H;
    const fill = diverging(r.difference);
    const ink = textOn(fill);
    const significant = r.verdict !== 'no detectable difference';
    parts.push(
      joinMarkup([
        svg`<g class="cell" data-eps="${r.eps}" data-lambda="${r.lambda}"><title>ε ${r.eps}, λ ${r.lambda}: ${f3(r.difference)} [${f3(r.ci95[0])}, ${f3(r.ci95[1])}], adjusted p ${f4(r.pAdjusted)}: ${r.verdict}; smallest detectable ${r.minDetectable === null ? '-' : f3(r.minDetectable)}</title>`,
        svg`<rect x="${x}" y="${y}" width="${CELL_W - 2}" height="${CELL_H - 2}" fill="${fill}"${significant ? svg` stroke="#000000" stroke-width="3"` : ''}/>`,
        svg`<text x="${x + CELL_W / 2 - 1}" y="${y + 22}" text-anchor="middle" font-size="15" font-weight="bold" fill="${ink}">${(r.difference >= 0 ? '+' : '') + f3(r.difference)}${significant ? '*' : ''}</text>`,
        svg`<text x="${x + CELL_W / 2 - 1}" y="${y + 40}" text-anchor="middle" font-size="10" fill="${ink}">[${f2(r.ci95[0])}, ${f2(r.ci95[1])}]</text></g>`,
      ]),
    );
  }
  const width = LEFT + lambda.length * CELL_W + 10;
  const height = TOP + eps.length * CELL_H;
  parts.push(legend(width + 10, TOP, height - TOP, (t) => diverging(2 * t - 1), [[0, '-1'], [0.5, '0'], [1, '+1']], 'A - B'));
  const title = `${a} (A) - ${b} (B): pass^${k} · world ${ctx.world} · profile ${ctx.profile} · run ${ctx.run}`;
  const sizes = rows.map((r) => r.minDetectable).filter((v): v is number => v !== null).sort((p1, p2) => p1 - p2);
  const detect = sizes.length > 0 ? ` Smallest detectable difference (80% power): ${(sizes[Math.floor(sizes.length / 2)] as number).toFixed(2)} (median over cells).` : '';
  return document(width + 90, height + 28 + 40, title, joinMarkup(parts), `* outlined: the difference is significant after adjustment across cells and agent pairs (paired sign-flip test, 5%).${detect}`);
}
