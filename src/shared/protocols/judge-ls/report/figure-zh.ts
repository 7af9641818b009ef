// Judge-LS's figure words in Chinese (titles, axes, legends, notes), for the 中文 dashboard and
// the exports made from it. Applied by src/shared/report/figure-i18n.ts.
import type { FigureDictionary } from '../../../report/figure-i18n';
import { DOSE_RESPONSE_FIGURES_ZH } from './dose-response';

export const JUDGE_LS_FIGURES_ZH: FigureDictionary = {
  exact: {
    'Judge accuracy by language (strict, 95% CI)': '各语言的评审准确率（严格，95% 置信区间）',
    'Judge accuracy by language (tie-half, 95% CI)': '各语言的评审准确率（平局折半，95% 置信区间）',
    'Accuracy (%)': '准确率（%）',
    'Accuracy change vs English (strict, points)': '相对英文的准确率变化（严格，百分点）',
    'Accuracy change vs English (strict, points, 95% CI)':
      '相对英文的准确率变化（严格，百分点，95% 置信区间）',
    'Accuracy − EN accuracy (points)': '准确率 − 英文准确率（百分点）',
    'ZH − EN': 'ZH − EN',
    'LS − EN': 'LS − EN',
    'Flip EN-ZH': '判断翻转 EN-ZH',
    'Flip EN-LS': '判断翻转 EN-LS',
    'Correctness flip EN-ZH': '正确性翻转 EN-ZH',
    'Correctness flip EN-LS': '正确性翻转 EN-LS',
    'Repeat flip EN-EN (noise floor)': '重复提问翻转 EN-EN（噪声底线）',
    'Verdict flips between languages (95% CI)': '不同语言之间的判断翻转（95% 置信区间）',
    'Pairs (%)': '样本对（%）',
    'Position inconsistency by language (95% CI)': '各语言的位置不一致率（95% 置信区间）',
    'Items with order-dependent choice (%)': '选择随顺序改变的条目（%）',
    'EN wins': '英文胜',
    Tie: '平局',
    'ZH wins': '中文胜',
    'Tie probe: gold answer in English vs Chinese': '平局探针：同一正确答案的英文版与中文版',
    'Translation wins': '译文胜',
    'Probes (%)': '探针（%）',
    'Tie-half accuracy (%) by subset and language': '各子集、各语言的平局折半准确率（%）',
    'Flip rate (%) by subset and comparison': '各子集、各比较的翻转率（%）',
    'Flip (%)': '翻转（%）',
    // The heatmaps' legend label (visualMap formatter templates).
    'Accuracy (%): {value}': '准确率（%）：{value}',
    'Flip (%): {value}': '翻转（%）：{value}',
    'Nothing to draw yet: no verdicts.': '暂无可绘制的内容：还没有判断。',
    ...DOSE_RESPONSE_FIGURES_ZH.exact,
  },
  patterns: [
    [/ ?\((\d+) failed\)/g, '（$1 次失败）'],
    [/ ?\(no valid ([A-Za-z:/-]+) verdicts\)/g, '（没有有效的 $1 判断）'],
    // Other target languages' legends (issue 37): EN-ar, EN-LS:hi, …
    [/^Flip (EN-[A-Za-z:]+)$/, '判断翻转 $1'],
    [/^Correctness flip (EN-[A-Za-z:]+)$/, '正确性翻转 $1'],
    [
      /^Tie probe: gold answer in English vs its translation \((.+)\)$/,
      '平局探针：同一正确答案的英文版与其译文（$1）',
    ],
    [
      /^No valid verdicts, so no bar: (.*)\. See the failures table\.$/,
      '没有有效的判断，因此没有柱形：$1。请查看失败表。',
    ],
    [
      /^Nothing to draw: no valid verdicts \((\d+) failed; see the failures table\)\.$/,
      '无可绘制的内容：没有有效的判断（$1 次失败；请查看失败表）。',
    ],
    [/; /g, '；'],
  ],
};
