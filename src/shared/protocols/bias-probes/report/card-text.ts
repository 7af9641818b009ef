// The bias probes' words on the judge report card (conditions and the reasons a value or an
// interval is undefined), in English and Chinese: the plug-in hands them to the card's
// exports, the app to its page.
import type { CardDictionary } from '../../../report-card/phrases';
import { allEffects, biasProbes } from '../probe-registry';

/** Each registered probe's name and effect's short name in one language (read when a card is made). */
function probeValues(lang: 'en' | 'zh'): Record<string, Record<string, string>> {
  return {
    probe: Object.fromEntries(biasProbes().map((p) => [p.id, p.texts.name[lang]])),
    effect: Object.fromEntries(allEffects().map(({ effect }) => [effect.id, effect.short[lang]])),
  };
}

export const BIAS_CARD_TEXT: CardDictionary = {
  en: {
    phrases: {
      probe_effect: '{{probe}}: {{effect}} ({{mode}})',
      original_both_orders: 'original texts, both orders',
      original: 'original texts',
      no_valid_pair: 'no valid pair',
      fewer_than_two: 'fewer than 2 paired differences',
      zero_variance: 'zero variance of the paired differences (all equal)',
      dz_no_interval: "no interval is computed for d_z; the mean change's interval is in the row above",
      no_ab_verdict: 'no verdict named A or B',
      no_item_both_orders: 'no item valid in both orders',
      no_item_decided_both_orders: 'no item named A or B in both orders',
      no_own_answer: 'undefined: no item has exactly one response by the judge’s own model ({{model}})',
      length_unbalanced: 'undefined: fewer than 2 items where the own response is longer, or where it is not',
    },
    // A getter: a probe registered after this module loaded (a test's) has its words too.
    get values() {
      return probeValues('en');
    },
  },
  zh: {
    title: '偏差探针',
    measures: {
      bias_effect: '平均分数变化',
      effect_dz: "Cohen's d_z",
      self_win_rate: '自胜率',
      excess_self_win: '超额自胜率（评审 − 人类）',
      excess_self_win_balanced: '超额自胜率（长度平衡）',
    },
    phrases: {
      probe_effect: '{{probe}}：{{effect}}（{{mode}}）',
      original_both_orders: '原始文本，两种顺序',
      original: '原始文本',
      no_valid_pair: '没有有效配对',
      fewer_than_two: '配对差值少于 2 个',
      zero_variance: '配对差值的方差为 0（全部相等）',
      dz_no_interval: '不计算 d_z 的区间；平均变化的区间见上一行',
      no_ab_verdict: '没有判为 A 或 B 的判决',
      no_item_both_orders: '没有在两种顺序下都有效的条目',
      no_item_decided_both_orders: '没有在两种顺序下都判为 A 或 B 的条目',
      no_own_answer: '无定义：没有恰有一个回答由评审自身模型（{{model}}）写成的条目',
      length_unbalanced: '无定义：自身回答较长或不较长的条目少于 2 个',
    },
    get values() {
      return { ...probeValues('zh'), mode: { pointwise: '逐项评分', pairwise: '成对比较' } };
    },
  },
};
