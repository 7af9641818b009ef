// Bias probes' figure words in Chinese (titles, axes, legends, the profile's row labels), for
// the 中文 dashboard and the exports made from it. Applied by src/shared/report/figure-i18n.ts.
// The effect names match the dashboard's (src/renderer/src/protocols/bias-probes/i18n.ts).
import type { FigureDictionary } from '../../../report/figure-i18n';
import { effectLabelsZh, placeboLabelsZh } from '../probe-registry';

/** The effects as the figures name them (report/tables.ts, effectLabel) and in Chinese: each probe's. */
export const EFFECTS_ZH: [string, string][] = effectLabelsZh();

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Getters: a probe registered after this module loaded (a test's) has its labels translated too.
export const BIAS_FIGURES_ZH: FigureDictionary = {
  get exact() {
    return exactZh();
  },
  get patterns() {
    return patternsZh();
  },
};

const exactZh = (): FigureDictionary['exact'] => ({
  'Bias profile: effect of each probe (95% CI)': '偏差概况：各探针的效应（95% 置信区间）',
  'Change in win score of the worse response': '较差回答胜分的变化',
  '95% CI': '95% 置信区间',
  'Holm p < 0.05': 'Holm 校正后 p < 0.05',
  'Not significant': '不显著',
  'Placebo (repeat)': '安慰剂（重复作答）',
  ...Object.fromEntries(placeboLabelsZh()),
  Difference: '差值',
  Pairs: '配对数',
  'Length and score of the original responses': '原始回答的长度与评分',
  'Length difference, output_1 − output_2 (tokens)': '长度差，output_1 − output_2（词元）',
  'Length (tokens)': '长度（词元）',
  'Win score of output_1': 'output_1 的胜分',
  Score: '评分',
  // Pairwise mode names the position probe by its key.
  position: '位置',
  ...Object.fromEntries(effectLabelsZh()),
});

const patternsZh = (): FigureDictionary['patterns'] => [
  [/^Score difference \(1–(\d+) scale\)$/, '评分差（1–$1 分制）'],
  [/^Paired differences: /, '配对差分布：'],
  // Inside longer strings: "judge · effect" row labels and the histograms' titles.
  ...effectLabelsZh().map(([en, zh]): [RegExp, string] => [new RegExp(escape(en), 'g'), zh]),
  ...placeboLabelsZh().map(([en, zh]): [RegExp, string] => [new RegExp(` · ${escape(en)}$`), ` · ${zh}`]),
  [/ · position$/, ' · 位置'],
  [/：position$/, '：位置'],
];
