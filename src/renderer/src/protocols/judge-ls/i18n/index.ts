import { i18next } from '../../host';
import { en } from './en';
import { zh } from './zh';

export const JUDGE_LS_NS = 'judge-ls';
/** Judge-LS's strings first, then the results page's and the app's (generic words: Total, Loading…). */
export const JUDGE_LS_NAMESPACES = [JUDGE_LS_NS, 'results', 'translation'];
export const judgeLsResources = { en, zh };

// Registered on import, so every Judge-LS component (and its tests) finds its strings.
for (const [lng, res] of Object.entries(judgeLsResources)) {
  i18next.addResourceBundle(lng, JUDGE_LS_NS, res, true, true);
}

// The verdict browser (generic, namespace 'verdicts') lists Judge-LS's pairs of verdicts with
// fields and values of this protocol: its words are added to that namespace from here.
const VERDICT_WORDS = {
  en: {
    fields: { subset: 'Subset' },
    values: {
      language_pair: 'EN vs target language',
      order_pair: 'original vs swapped order',
      noise_floor: 'noise floor',
      'EN-EN (repeat)': 'EN-EN (repeat)',
      orig: 'original order',
      swap: 'swapped order',
    },
  },
  zh: {
    fields: { subset: '子集' },
    values: {
      language_pair: '英语对目标语言',
      order_pair: '原顺序对交换顺序',
      noise_floor: '噪声底线',
      'EN-EN (repeat)': 'EN-EN（重复提问）',
      orig: '原顺序',
      swap: '交换顺序',
    },
  },
};
for (const [lng, res] of Object.entries(VERDICT_WORDS))
  i18next.addResourceBundle(lng, 'verdicts', res, true, true);
