import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  accuracyByLanguageFigure,
  buildFigureSpecs,
  subsetQualityHeatmapFigure,
  tieProbePreferenceFigure,
  type FigureSpec,
} from '../../src/shared/protocols/judge-ls/report/figures';
import { pct, wrappedLines } from '../../src/shared/report/chart-kit';
import { biasProfileFigure } from '../../src/shared/protocols/bias-probes/report/figures';
import type { BiasMetrics } from '../../src/shared/protocols/bias-probes/types';
import {
  findFont,
  fontFor,
  PNG_SCALE,
  renderSvg,
  svgToPng,
  CJK_FONT_CANDIDATES,
} from '../../src/main/report/figures';
import { JUDGES, makeMetrics, SUBSETS } from './fixture';

// jsdom ships no type declarations (and @types/jsdom is not installed): type the one class used here.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => { window: { DOMParser: typeof DOMParser } };
};
const { DOMParser: XmlParser } = new JSDOM('').window;

function parseSvg(svg: string): Document {
  const doc = new XmlParser().parseFromString(svg, 'image/svg+xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`SVG is not well-formed XML: ${error.textContent}`);
  return doc;
}

function seriesIndex(spec: FigureSpec, name: string, type: string): number {
  const series = spec.option.series as { name?: string; type?: string }[];
  const i = series.findIndex((s) => s.name === name && s.type === type);
  if (i < 0) throw new Error(`${spec.id}: no ${type} series "${name}"`);
  return i;
}

/** Data shapes ECharts drew for one series (SSR tags them with ecmeta attributes). */
function shapes(doc: Document, index: number): Element[] {
  return [...doc.querySelectorAll(`[ecmeta_ssr_type="chart"][ecmeta_series_index="${index}"]`)];
}

const texts = (doc: Document) => [...doc.querySelectorAll('text')].map((t) => t.textContent ?? '');

function pngWidth(png: Buffer): number {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return png.readUInt32BE(16);
}

describe('figure SVGs', () => {
  const metrics = makeMetrics();

  it('every figure renders to well-formed SVG with its title', () => {
    const specs = buildFigureSpecs(metrics);
    expect(specs.map((s) => s.id)).toEqual([
      'accuracy_by_language',
      'accuracy_by_language_tie_half',
      'accuracy_drop',
      'flip_rates',
      'position_inconsistency',
      'tie_probe_preference',
      'subset_quality_heatmap',
      'subset_flip_heatmap',
    ]);
    for (const spec of specs) {
      const doc = parseSvg(renderSvg(spec));
      expect(doc.documentElement.getAttribute('width')).toBe(String(spec.width));
      expect(texts(doc), spec.id).toContain(spec.title);
      for (const judge of JUDGES) expect(texts(doc), `${spec.id}: ${judge}`).toContain(judge);
    }
  });

  it('accuracy by language draws one bar and one CI whisker per judge for each language', () => {
    const spec = accuracyByLanguageFigure(metrics);
    const doc = parseSvg(renderSvg(spec));
    for (const language of ['EN', 'ZH', 'LS']) {
      expect(texts(doc)).toContain(language);
      expect(shapes(doc, seriesIndex(spec, language, 'bar'))).toHaveLength(JUDGES.length);
      // A whisker is a vertical line plus two caps.
      expect(shapes(doc, seriesIndex(spec, language, 'custom'))).toHaveLength(3 * JUDGES.length);
    }
    for (const label of ['Accuracy (%)', 'Judge']) expect(texts(doc)).toContain(label);
  });

  it('drops a bar and its whisker when a judge has no row for a language', () => {
    const partial = makeMetrics();
    partial.quality = partial.quality.filter((r) => !(r.judge === JUDGES[1] && r.language === 'LS'));
    const spec = accuracyByLanguageFigure(partial);
    const doc = parseSvg(renderSvg(spec));
    expect(shapes(doc, seriesIndex(spec, 'LS', 'bar'))).toHaveLength(1);
    expect(shapes(doc, seriesIndex(spec, 'LS', 'custom'))).toHaveLength(3);
  });

  it('tie-probe preference stacks EN wins, ties and ZH wins for each judge', () => {
    const spec = tieProbePreferenceFigure(metrics);
    const doc = parseSvg(renderSvg(spec));
    for (const name of ['EN wins', 'Tie', 'ZH wins']) {
      expect(texts(doc)).toContain(name);
      expect(shapes(doc, seriesIndex(spec, name, 'bar'))).toHaveLength(JUDGES.length);
    }
    expect(texts(doc)).toContain('60.0');
  });

  it('accuracy drop: bars are the paired change, each with its 95% CI whisker', () => {
    const spec = buildFigureSpecs(metrics).find((f) => f.id === 'accuracy_drop')!;
    expect(spec.title).toBe('Accuracy change vs English (strict, points, 95% CI)');
    const series = spec.option.series as { type: string; name: string; data: unknown[] }[];
    const whiskers = series.filter((s) => s.type === 'custom');
    expect(whiskers.map((s) => s.name)).toEqual(['ZH − EN', 'LS − EN']);
    const row = metrics.language_invariance.find((r) => r.comparison === 'EN-ZH')!;
    expect(whiskers[0].data[0]).toEqual([0, pct(row.accuracy_change_ci[0]), pct(row.accuracy_change_ci[1])]);
    const bars = series.filter((s) => s.type === 'bar');
    expect((bars[0].data[0] as { value: number }).value).toBe(pct(row.accuracy_change));
    expect(shapes(parseSvg(renderSvg(spec)), series.indexOf(whiskers[0] as never)).length).toBeGreaterThan(0);
  });

  it('subset heatmap has a panel per judge with a cell per subset and language', () => {
    const spec = subsetQualityHeatmapFigure(metrics);
    const doc = parseSvg(renderSvg(spec));
    for (const judge of JUDGES) {
      expect(shapes(doc, seriesIndex(spec, judge, 'heatmap'))).toHaveLength(SUBSETS.length * 3);
    }
    for (const subset of SUBSETS) expect(texts(doc)).toContain(subset);
    expect(texts(doc)).toContain('90.0');
    // Each cell says how many items its value rests on.
    expect(texts(doc).filter((t) => /^n = \d+$/.test(t)).length).toBeGreaterThanOrEqual(SUBSETS.length * 3);
    // Colour follows the value, not n; labels on the dark end of the scale are white.
    const vm = spec.option.visualMap as { dimension?: number };
    expect(vm.dimension).toBe(2);
    const dark = subsetQualityHeatmapFigure({
      ...metrics,
      subset_quality: metrics.subset_quality.map((r) => ({ ...r, accuracy_tie_half: 0.05 })),
    });
    const cells = (dark.option.series as { data: { label: { color: string } }[] }[])[0].data;
    expect(cells.every((c) => c.label.color === '#ffffff')).toBe(true);
  });

  it('keeps the option builders free of Node imports so the renderer can use them', () => {
    for (const file of [
      '../../src/shared/report/chart-kit.ts',
      '../../src/shared/protocols/judge-ls/report/figures.ts',
    ]) {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      expect(
        imports.filter((m) => m.startsWith('node:') || m.includes('/main/') || m.includes('resvg')),
      ).toEqual([]);
    }
  });
});

describe('figure PNGs', () => {
  it('render at 300 dpi equivalent width, with a CJK font when a label is Chinese', async () => {
    const metrics = makeMetrics();
    for (const r of metrics.tie_probe) if (r.judge === JUDGES[0]) r.judge = '通义千问 Qwen';
    const spec = tieProbePreferenceFigure(metrics);
    const svg = renderSvg(spec);
    expect(svg).toContain('通义千问 Qwen');
    const cjk = findFont(CJK_FONT_CANDIDATES);
    expect(cjk, 'fonts-noto-cjk is expected on this machine').not.toBeNull();
    expect(fontFor(svg)?.files).toContain(cjk!.files[0]);
    expect(fontFor(renderSvg(accuracyByLanguageFigure(makeMetrics())))?.files).not.toContain(cjk!.files[0]);

    const png = await svgToPng(svg, spec.width);
    expect(pngWidth(png)).toBe(Math.round(spec.width * PNG_SCALE));
  });

  it('fall back to the system fonts without crashing when no font file is known', async () => {
    const spec = accuracyByLanguageFigure(makeMetrics());
    const png = await svgToPng(renderSvg(spec), spec.width, { font: null });
    expect(pngWidth(png)).toBe(Math.round(spec.width * (300 / 96)));
    expect(png.length).toBeGreaterThan(10_000);
  });
});

// Last stop's note: pairwise bias-profile rows were cut with "…" ("Sim judge · Worse response as
// Markd…"), losing what tells the rows apart. Long labels now wrap, rows as tall as their lines.
describe('bias profile row labels', () => {
  const probe = (judge: string, effect: string, mean: number) => ({
    judge,
    category: 'all',
    probe: effect,
    effect,
    n: 40,
    items: 40,
    mean,
    mean_ci: [mean - 0.1, mean + 0.1],
    sd: 0.3,
    dz: mean / 0.3,
    p: 0.01,
    p_method: 'exact',
    p_holm: 0.03,
    significant: true,
  });
  const judges = ['claude-sonnet-4-5 (mock)', 'gpt-4.1 (mock)'];
  const metrics = {
    mode: 'pairwise',
    scale: 5,
    probes: judges.flatMap((j) => [
      probe(j, 'markdown', 0.2),
      probe(j, 'longer', 0.3),
      probe(j, 'position', 0.1),
    ]),
    scatter: [],
  } as unknown as BiasMetrics;

  it('wraps a long label instead of cutting it, every word drawn once', () => {
    const spec = biasProfileFigure(metrics);
    const labels = (spec.option.yAxis as { data: string[] }).data;
    expect(labels.some((l) => l.length > 36)).toBe(true);
    const drawn = texts(parseSvg(renderSvg(spec)));
    expect(drawn.join('\n')).not.toContain('…');
    for (const label of labels) {
      const words = label.split(/\s+/);
      for (const w of words) expect(drawn.some((t) => t.includes(w))).toBe(true);
      // The label's lines, one after another, join back into it.
      const lines = drawn.map((t) => t.trim());
      const joinsAt = (i: number) => {
        let joined = lines[i];
        for (let k = i + 1; joined.length < label.length && k < lines.length; k++) joined += ` ${lines[k]}`;
        return joined === label;
      };
      expect(
        lines.some((_t, i) => joinsAt(i)),
        label,
      ).toBe(true);
    }
    // Two lines of 15 px and their margin fit each row.
    expect(spec.height).toBeGreaterThanOrEqual(120 + labels.length * 40);
  });

  it('shows the CI in its legend as a whisker in the whiskers’ colour, not a palette-blue box', () => {
    const svg = renderSvg(biasProfileFigure(metrics));
    // ECharts' default palette starts with #5470c6: the custom series took it for its legend icon.
    expect(svg.toLowerCase()).not.toContain('#5470c6');
    const legend = biasProfileFigure(metrics).option.legend as {
      data: ({ name: string; icon?: string } | string)[];
    };
    expect(legend.data[0]).toEqual({ name: '95% CI', icon: expect.stringMatching(/^path:\/\//) as string });
  });

  it('counts wrapped lines as ECharts breaks them: at spaces, and between CJK characters', () => {
    expect(wrappedLines('short', 100)).toBe(1);
    // 7.2 px a Latin character at 12 px: "aaaa bbbb" is 64.8 px.
    expect(wrappedLines('aaaa bbbb', 40)).toBe(2);
    expect(wrappedLines('aaaa bbbb cccc', 70)).toBe(2);
    expect(wrappedLines('一二三四五六', 36)).toBe(2);
    // A word wider than the line is cut where it overflows.
    expect(wrappedLines('a'.repeat(20), 72)).toBe(2);
  });
});

describe('the ECharts build an export loads', () => {
  it('is the minified one-file build (V8 keeps the full build’s 7 MiB of source in the heap)', () => {
    renderSvg({
      id: 'one-bar',
      title: 'One bar',
      width: 320,
      height: 200,
      option: {
        xAxis: { type: 'category', data: ['a'] },
        yAxis: { type: 'value' },
        series: [{ type: 'bar', data: [1] }],
      },
    });
    const req = createRequire(import.meta.url);
    const loaded = Object.keys(req.cache);
    expect(loaded).toContain(req.resolve('echarts/dist/echarts.min.js'));
    expect(loaded).not.toContain(req.resolve('echarts'));
  });
});
