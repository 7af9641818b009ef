// Self-consistency's words on the judge report card (conditions and the reasons a value or an
// interval is undefined), in English and Chinese: the plug-in hands them to the card's
// exports, the app to its page. A temperature condition (T=0.7) is a code and shows as it is.
import type { CardDictionary } from '../../../report-card/phrases';

export const SELF_CONSISTENCY_CARD_TEXT: CardDictionary = {
  en: {
    phrases: {
      repeats: '{{condition}}, {{repeats}} repeats',
      one_per_order: '{{condition}}, one verdict per order',
      no_two_repeats: 'no question with two valid repeats',
      'no items': 'no items',
      'every resample gives the same value': 'every resample gives the same value',
      no_item_all_repeats: 'no item with every repeat of both orders valid',
      no_item_decided_both_orders: 'no item named A or B in both orders',
    },
  },
  zh: {
    title: '自洽性',
    measures: {
      disagreement: '两次重复不一致的概率',
      unanimous: '全体一致的比例',
    },
    phrases: {
      repeats: '{{condition}}，重复 {{repeats}} 次',
      one_per_order: '{{condition}}，每种顺序一个判决',
      no_two_repeats: '没有两次重复都有效的问题',
      'no items': '没有条目',
      'every resample gives the same value': '每次重抽样的值都相同',
      no_item_all_repeats: '没有两种顺序的每次重复都有效的条目',
      no_item_decided_both_orders: '没有在两种顺序下都判为 A 或 B 的条目',
    },
    values: { condition: { own: '评审模型自身的温度' } },
  },
};
