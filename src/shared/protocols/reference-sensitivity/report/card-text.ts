// Reference sensitivity's words on the judge report card, in English and Chinese: the plug-in
// hands them to the card's exports, the app to its page. Settings (NR, RV, RC), transitions and
// languages are codes and show as they are.
import type { CardDictionary } from '../../../report-card/phrases';

export const REFSENS_CARD_TEXT: CardDictionary = {
  en: {
    phrases: {
      language: '{{language}}',
      setting_language: '{{setting}} · {{language}}',
      transition_language: '{{transition}} · {{language}}',
      no_valid_verdict: 'no valid verdict',
    },
  },
  zh: {
    title: '参考答案敏感性',
    measures: {
      c1_accept: 'C1 接受率（正确答案）',
      c2_accept: 'C2 接受率（错误答案）',
      acceptance: '接受率',
    },
    phrases: {
      language: '{{language}}',
      setting_language: '{{setting}} · {{language}}',
      transition_language: '{{transition}} · {{language}}',
      no_valid_verdict: '没有有效判决',
    },
  },
};
