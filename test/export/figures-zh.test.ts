// Issue 15 item 9: figures in 中文 — every title, axis name, legend and series name of the
// exported SVG is Chinese (judge labels, language codes and numbers pass through), and the
// English figure is unchanged.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildFigureSpecs } from '../../src/shared/protocols/judge-ls/report/figures';
import { JUDGE_LS_FIGURES_ZH } from '../../src/shared/protocols/judge-ls/report/figure-zh';
import { englishSeriesName, localizeFigure } from '../../src/shared/report/figure-i18n';
import { markSimulatedFigure } from '../../src/shared/report/simulated';
import { renderSvg } from '../../src/main/report/figures';
import { JUDGES, makeMetrics, SUBSETS } from './fixture';

const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => { window: { DOMParser: typeof DOMParser } };
};
const { DOMParser: XmlParser } = new JSDOM('').window;
const svgTexts = (svg: string) =>
  [...new XmlParser().parseFromString(svg, 'image/svg+xml').querySelectorAll('text')].map(
    (t) => t.textContent ?? '',
  );

/** English words left in a text once judge labels are taken out (language codes are not words). */
function englishWords(text: string): string[] {
  let rest = text;
  for (const j of [...JUDGES, ...SUBSETS]) rest = rest.split(j).join(' ');
  return (rest.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !/^(EN|ZH|LS|CGP|NR|RV|RC)$/.test(w));
}

describe('figures in Chinese', () => {
  const metrics = makeMetrics();

  it('translates every word of every Judge-LS figure, drawn text included', () => {
    for (const spec of buildFigureSpecs(metrics)) {
      const zh = localizeFigure(spec, 'zh', [JUDGE_LS_FIGURES_ZH]);
      expect(englishWords(zh.title), spec.id).toEqual([]);
      const drawn = svgTexts(renderSvg(zh));
      expect(drawn.flatMap(englishWords), spec.id).toEqual([]);
      expect(
        drawn.some((t) => /[\u4e00-\u9fff]/.test(t)),
        spec.id,
      ).toBe(true);
    }
  });

  it('leaves the English figure as built, and keeps the English series name as the id', () => {
    const spec = buildFigureSpecs(metrics).find((f) => f.id === 'flip_rates')!;
    expect(localizeFigure(spec, 'en', [JUDGE_LS_FIGURES_ZH])).toBe(spec);
    const zh = localizeFigure(spec, 'zh', [JUDGE_LS_FIGURES_ZH]);
    const series = zh.option.series as { name: string; id: string; type: string }[];
    const bar = series.find((s) => s.type === 'bar' && englishSeriesName(s.id) === 'Correctness flip EN-ZH')!;
    expect(bar.name).toBe('正确性翻转 EN-ZH');
  });

  it('translates the simulated mark and the notes that say why a figure is empty', () => {
    const spec = markSimulatedFigure(buildFigureSpecs(metrics)[0]);
    expect(localizeFigure(spec, 'zh', [JUDGE_LS_FIGURES_ZH]).title).toBe(
      '模拟数据 — 各语言的评审准确率（严格，95% 置信区间）',
    );
    const note =
      'No valid verdicts, so no bar: J1 · EN (12 failed); J2 · ZH (3 failed). See the failures table.';
    expect(localizeFigure({ ...spec, note }, 'zh', [JUDGE_LS_FIGURES_ZH]).note).toBe(
      '没有有效的判断，因此没有柱形：J1 · EN（12 次失败）；J2 · ZH（3 次失败）。请查看失败表。',
    );
  });

  it("labels the heatmaps' colour legend (the hover label of its handle) in Chinese", () => {
    const legends = Object.fromEntries(
      buildFigureSpecs(metrics)
        .filter((f) => f.id.endsWith('_heatmap'))
        .map((f) => {
          const zh = localizeFigure(f, 'zh', [JUDGE_LS_FIGURES_ZH]);
          return [f.id, (zh.option.visualMap as { formatter: unknown }).formatter];
        }),
    );
    expect(legends).toEqual({
      subset_quality_heatmap: '准确率（%）：{value}',
      subset_flip_heatmap: '翻转（%）：{value}',
    });
  });
});
