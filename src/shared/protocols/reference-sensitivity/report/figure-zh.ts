// Reference sensitivity's figure words in Chinese, for the 中文 dashboard and the exports made
// from it. Applied by src/shared/report/figure-i18n.ts.
import type { FigureDictionary } from '../../../report/figure-i18n';

export const REFSENS_FIGURES_ZH: FigureDictionary = {
  exact: {
    'Calibration: C1 (gold) and C2 (wrong) acceptance, no reference':
      '校准：无参考答案时 C1（正确）与 C2（错误）的接受率',
    'Judge · language': '评审模型 · 语言',
    'Accepted (%)': '接受（%）',
    'C1 gold': 'C1 正确',
    'C2 wrong': 'C2 错误',
    'NR-NR repeat (noise floor)': 'NR-NR 重复提问（噪声底线）',
    'CGP (C1 − C2)': 'CGP（C1 − C2）',
    'Decision flips between settings (all generators)': '不同设置之间的判定翻转（全部生成模型）',
    'Flip rate (%)': '翻转率（%）',
    'Acceptance by setting (all generators, %)': '各设置的接受率（全部生成模型，%）',
  },
};
