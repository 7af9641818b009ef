// Judge-LS's Methods sentences (issue 24): the design and each judge's headline numbers, taken
// from the metrics the tables show (quality: strict accuracy; language_invariance: flip rate).
import { methodsRate as rate, type MethodsSection, designSection } from '../../../shared/paper/methods';
import type { JudgeLsMetrics } from '../../../shared/protocols/judge-ls/types';
import type { MethodsHookContext } from '../plugin';
import type { Exp } from './experiment';
import { doseResponseMethods } from './dose-response';

export function judgeLsMethods({ metrics, lang }: MethodsHookContext<Exp, JudgeLsMetrics>): MethodsSection[] {
  const zh = lang === 'zh';
  const quality = metrics.quality.map((q) =>
    zh
      ? `${q.judge}，${q.language}：严格准确率 ${rate(q.accuracy_strict, lang)}（n = ${q.n}）`
      : `${q.judge}, ${q.language}: strict accuracy ${rate(q.accuracy_strict, lang)} (n = ${q.n})`,
  );
  const flips = metrics.language_invariance.map((r) =>
    zh
      ? `${r.judge}，${r.comparison}：翻转率 ${rate(r.flip_rate, lang)}（n = ${r.n}）`
      : `${r.judge}, ${r.comparison}: flip rate ${rate(r.flip_rate, lang)} (n = ${r.n})`,
  );
  return [
    designSection(
      'judge-ls.design',
      { en: 'Design (language-switching invariance)', zh: '设计（语言切换不变性）' },
      {
        en: 'Each judge gave a pairwise verdict on every item in English and in each target-language version made by the transformer model, in both answer orders. Accuracy is per verdict (n = valid verdicts); the flip rate is the share of (item, order) pairs whose English and target-language verdicts differ (n = valid pairs).',
        zh: '每个评审模型对每个条目的英文原文及其各目标语言版本（由变换模型生成）分别做出成对判断，两种回答顺序各一次。准确率按判断计算（n = 有效判断数）；翻转率为同一条目同一顺序下英文与目标语言判断不同的比例（n = 有效配对数）。',
      },
      lang,
      quality,
      flips,
    ),
    ...doseResponseMethods(metrics, lang),
  ];
}
