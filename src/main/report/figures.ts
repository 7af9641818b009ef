// Server-side rendering of the chart options: ECharts SSR to SVG here, resvg to PNG in png.ts
// (re-exported: callers take both from here). Node only.
import { createRequire } from 'node:module';
import type * as ECharts from 'echarts';
import { showControlChars } from '../../shared/control-chars';
import type { FigureSpec } from '../../shared/report/chart-kit';
import { builtFile } from './built-file';

export {
  ARABIC_FONT_CANDIDATES,
  CJK_FONT_CANDIDATES,
  findFont,
  fontFor,
  LATIN_FONT_CANDIDATES,
  PNG_SCALE,
  preferScriptFonts,
  svgToPng,
  svgToPngSync,
  TELUGU_FONT_CANDIDATES,
  type FontChoice,
  type PngOptions,
} from './png';

// Loaded on first use, not at start: a run needs ECharts only to export, and its ES modules
// take ~0.4 s to load (its one-file CommonJS build ~0.1 s; the same code, the same SVG). The
// minified build of that file: V8 keeps a script's source for as long as its functions live,
// and the full build's 3.8 MB (held as two-byte text: it has Chinese strings) was 7.3 MiB of the
// export's heap; the minified one is the same code without development warnings (issue 39).
// The build's copy of that file beside the main bundle, its Chinese strings escaped, is held as
// one-byte text: 1.1 MiB instead of 2.1 (electron.vite.config.ts); runs from source load the
// package's file.
const requireECharts = createRequire(import.meta.url);
let echartsLib: typeof ECharts | undefined;
const echarts = (): typeof ECharts =>
  (echartsLib ??= requireECharts(
    builtFile('echarts.min.cjs') ?? 'echarts/dist/echarts.min.js',
  ) as typeof ECharts);

/** Loads ECharts now (preload.ts: ahead of an export). */
export const loadECharts = (): void => void echarts();

export interface RenderedFigure extends FigureSpec {
  svg: string;
}

/**
 * Renders an option to an SVG string; the chart is always disposed (a live chart keeps Node
 * running). ECharts escapes markup but not control characters, which XML forbids (a subset named
 * "S\x1b[31m" made resvg refuse the file): they are shown as `\x1B` in the finished SVG.
 */
export function renderSvg(spec: FigureSpec): string {
  const chart = echarts().init(null, null, {
    renderer: 'svg',
    ssr: true,
    width: spec.width,
    height: spec.height,
  });
  try {
    chart.setOption(spec.option);
    return canonicalSvg(showControlChars(chart.renderToSVGString()));
  } finally {
    chart.dispose();
  }
}

/**
 * The SVG with the chart library's instance-numbered names (`zr16-cls-108`: a process-wide counter
 * that differs with every chart drawn before) renumbered by first appearance; nothing else changes.
 * Every rendered figure goes through it, so the same figure is the same bytes however many charts
 * the process drew before (an export's SVGs differed between an app session and a fresh CLI run).
 */
export function canonicalSvg(svg: string): string {
  const names = new Map<string, string>();
  // Both forms: `zr16-cls-108` (classes, gradients) and `zr6-c0` (clip paths).
  return svg.replace(/\bzr\d+-([a-z]+)(-?)\d+\b/g, (m, kind: string, dash: string) => {
    let n = names.get(m);
    if (!n) names.set(m, (n = `zr-${kind}${dash}${names.size}`));
    return n;
  });
}

export function renderFigure(spec: FigureSpec): RenderedFigure {
  return { ...spec, svg: renderSvg(spec) };
}
