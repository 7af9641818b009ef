// The position probe: pointwise, each response of a pair scored with both in view, shown first and
// shown second (first − second; placebo: the second asked again); pairwise, the original pair in
// both orders and the paired position test (the `position` table, its report-card gate).
import type { BiasProbe } from '../probe-types';

export const positionProbe: BiasProbe = {
  id: 'position',
  conditions: [],
  effects: [
    {
      id: 'position',
      measure: 'paired-position',
      variant: 'original',
      base: 'original',
      modes: ['pointwise', 'pairwise'],
      placebo: 'second',
      // Pairwise its rows are the position table's; the effect keeps its id as a label.
      label: { pointwise: { en: 'Shown first − second', zh: '先展示 − 后展示' } },
      short: { en: 'position', zh: '位置' },
      placeboLabel: { en: 'Repeat − first, shown second (placebo)', zh: '重复 − 首次，后展示（安慰剂）' },
    },
  ],
  texts: {
    name: { en: 'position', zh: '位置' },
    choice: {
      en: 'Position (both orders; a score with the pair in view)',
      zh: '位置（两种顺序；同时展示两个回答时的评分）',
    },
  },
};
