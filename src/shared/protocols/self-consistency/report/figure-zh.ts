// Self-consistency's figure words in Chinese (titles, axes, legends), for the 中文 dashboard and
// the exports made from it. Applied by src/shared/report/figure-i18n.ts.
import type { FigureDictionary } from '../../../report/figure-i18n';

export const SELF_CONSISTENCY_FIGURES_ZH: FigureDictionary = {
  exact: {
    'Stability: P(two repeats disagree), 95% CI': '稳定性：两次重复不一致的概率，95% 置信区间',
    'P(disagree) (%)': '不一致概率（%）',
    'Accuracy of the majority of k repeats': 'k 次重复多数投票的准确率',
    'Accuracy (%)': '准确率（%）',
    'Repeats voted (k)': '参与投票的重复次数（k）',
    'Position consistency with k repeats per order': '每种顺序 k 次重复时的位置一致性',
    'Consistent in both orders (%)': '两种顺序一致（%）',
    'Per-question agreement among the repeats': '每道题各次重复之间的一致程度',
    'Repeats giving the most frequent verdict': '给出最常见判断的重复次数',
    Questions: '题目数',
  },
  patterns: [
    [/^Temperature: judge's own$/, '温度：评审模型自身设置'],
    [/^Temperature: /, '温度：'],
    [/ · judge's own$/, ' · 自身设置'],
    [
      /^No bar for (.+): fewer than two valid repeats of any question\.$/,
      '$1 无柱：没有任何题目有两次以上有效重复。',
    ],
  ],
};
