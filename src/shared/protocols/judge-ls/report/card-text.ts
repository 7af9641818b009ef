// Judge-LS's words on the judge report card (conditions and the reasons a value is undefined),
// in English and Chinese: the plug-in hands them to the card's exports, the app to its page.
import type { CardDictionary } from '../../../report-card/phrases';

export const JUDGE_LS_CARD_TEXT: CardDictionary = {
  en: {
    phrases: {
      language: '{{language}}',
      comparison: '{{comparison}}',
      beyond_floor: '{{comparison}} beyond the noise floor',
      no_floor: '{{comparison}} (no noise floor measured)',
      no_valid_verdict: 'no valid verdict',
      no_pair_both_languages: 'no pair valid in both languages',
      no_item_both_orders: 'no item valid in both orders',
      no_item_decided_both_orders: 'no item named A or B in both orders',
      no_pair_repeat: 'no pair with both asks valid',
      no_pair_floor: 'no pair valid in EN, its repeat and the target language',
    },
  },
  zh: {
    title: 'Judge-LS：语言敏感性',
    phrases: {
      language: '{{language}}',
      comparison: '{{comparison}}',
      beyond_floor: '{{comparison}}，超出噪声底的部分',
      no_floor: '{{comparison}}（未测量噪声底）',
      no_valid_verdict: '没有有效判决',
      no_pair_both_languages: '没有在两种语言下都有效的配对',
      no_item_both_orders: '没有在两种顺序下都有效的条目',
      no_item_decided_both_orders: '没有在两种顺序下都判为 A 或 B 的条目',
      no_pair_repeat: '没有两次提问都有效的配对',
      no_pair_floor: '没有在 EN、其重复和目标语言下都有效的配对',
    },
  },
};
