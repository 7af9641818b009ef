// Judge-LS's Methods sentences (issue 24): the design and each judge's headline numbers, taken
// from the metrics the tables show (quality: strict accuracy; language_invariance: flip rate).
import {
  methodsRate as rate,
  type MethodsDesign,
  type MethodsSection,
  designMethods,
  methodsLines,
} from '../../../shared/paper/methods';
import type { JudgeLsMetrics } from '../../../shared/protocols/judge-ls/types';
import type { MethodsHookContext } from '../plugin';
import type { Exp } from './experiment';
import type { MethodsLang } from '../../../shared/paper/methods';
import { canonicalTargets, targetName } from '../../../shared/protocols/judge-ls/languages';
import { doseResponseMethods } from './dose-response';

/**
 * The target languages by name and, with verified translations (issue 37), how they were checked
 * and how many passed: per language, then the items whose every translation passed.
 */
function languagesSection(exp: Exp, metrics: JudgeLsMetrics, lang: MethodsLang): MethodsSection {
  const zh = lang === 'zh';
  const names = canonicalTargets(exp.options.languages).map((t) => targetName(t, lang));
  const blocks: MethodsSection['blocks'] = [
    {
      kind: 'p',
      text: zh ? `目标语言：${names.join('、')}。` : `Target languages: ${names.join('; ')}.`,
    },
  ];
  const v = metrics.verification;
  if (v) {
    const llm = v.translations.some((r) => 'llm_equivalent' in r);
    const items = new Set(v.translations.map((r) => r.item_id));
    const passedItems = [...items].filter((i) => !v.excluded_item_ids.includes(i)).length;
    const passed = v.translations.filter((r) => r.verified).length;
    blocks.push({
      kind: 'p',
      text: zh
        ? `译文验证：每个译文由 ${v.provider}/${v.model} 回译为英文，并以 ${v.metric} 与英文原文比较；` +
          `chrF 低于 ${v.min_chrf}${llm ? '，或该模型对原文与译文给出“不等价”判定' : ''}的译文未通过验证。` +
          `${v.translations.length} 个译文中有 ${passed} 个通过（通过率 ${rate(v.translations.length ? passed / v.translations.length : null, lang)}）；` +
          `${items.size} 个条目中有 ${passedItems} 个条目的全部译文都通过验证，“仅已验证条目”的结果只用这些条目。`
        : `Translation check: each translation was translated back into English by ${v.provider}/${v.model} ` +
          `and scored against the English source with ${v.metric}; a translation below chrF ${v.min_chrf}` +
          `${llm ? ", or one the same model's equivalence verdict on source and translation called not equivalent," : ''} ` +
          `was not verified. ${passed} of ${v.translations.length} translations passed (pass rate ` +
          `${rate(v.translations.length ? passed / v.translations.length : null, lang)}); ${passedItems} of ${items.size} ` +
          'items had every translation verified, and the verified-only results use these items.',
    });
    blocks.push({
      kind: 'list',
      items: [...new Set(v.translations.map((r) => r.language))].map((t) => {
        const rows = v.translations.filter((r) => r.language === t);
        const k = rows.filter((r) => r.verified).length;
        return zh
          ? `${targetName(t, lang)}：${rows.length} 个译文中 ${k} 个通过（${rate(k / rows.length, lang)}）`
          : `${targetName(t, lang)}: ${k} of ${rows.length} translations passed (${rate(k / rows.length, lang)})`;
      }),
    });
  }
  return {
    id: 'judge-ls.languages',
    title: v
      ? zh
        ? '目标语言与译文验证'
        : 'Target languages and translation check'
      : zh
        ? '目标语言'
        : 'Target languages',
    blocks,
  };
}

// The design as the paper states it, in both languages; the numbers follow it as lists.
const DESIGN: MethodsDesign = {
  title: { en: 'Design (language-switching invariance)', zh: '设计（语言切换不变性）' },
  text: {
    en: 'Each judge gave a pairwise verdict on every item in English and in each target-language version made by the transformer model, in both answer orders. Accuracy is per verdict (n = valid verdicts); the flip rate is the share of (item, order) pairs whose English and target-language verdicts differ (n = valid pairs).',
    zh: '每个评审模型对每个条目的英文原文及其各目标语言版本（由变换模型生成）分别做出成对判断，两种回答顺序各一次。准确率按判断计算（n = 有效判断数）；翻转率为同一条目同一顺序下英文与目标语言判断不同的比例（n = 有效配对数）。',
  },
};

export function judgeLsMethods({
  exp,
  metrics,
  lang,
}: MethodsHookContext<Exp, JudgeLsMetrics>): MethodsSection[] {
  const quality = methodsLines(metrics.quality, lang, {
    en: (q) => `${q.judge}, ${q.language}: strict accuracy ${rate(q.accuracy_strict, lang)} (n = ${q.n})`,
    zh: (q) => `${q.judge}，${q.language}：严格准确率 ${rate(q.accuracy_strict, lang)}（n = ${q.n}）`,
  });
  const flips = methodsLines(metrics.language_invariance, lang, {
    en: (r) => `${r.judge}, ${r.comparison}: flip rate ${rate(r.flip_rate, lang)} (n = ${r.n})`,
    zh: (r) => `${r.judge}，${r.comparison}：翻转率 ${rate(r.flip_rate, lang)}（n = ${r.n}）`,
  });
  return [
    designMethods('judge-ls.design', DESIGN, lang, quality, flips),
    languagesSection(exp, metrics, lang),
    ...doseResponseMethods(metrics, lang),
  ];
}
