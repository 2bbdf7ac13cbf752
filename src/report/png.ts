/**
 * PNG from the SVG heatmaps with @resvg/resvg-js and the DejaVu Sans files the project ships in
 * assets/fonts (licence beside them), so text renders the same on a fresh machine without system fonts.
 */
import { Resvg } from '@resvg/resvg-js';
import { packagePath } from '../ground/package-root.js';

const FONTS = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) => packagePath('assets', 'fonts', f));

/** Renders an SVG to PNG at `scale` times its size. */
export function svgToPng(svg: string, scale = 2): Buffer {
  const resvg = new Resvg(svg, { font: { fontFiles: FONTS, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' }, fitTo: { mode: 'zoom', value: scale }, background: '#ffffff' });
  return resvg.render().asPng();
}
