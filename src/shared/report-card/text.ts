// The report card's words in English and Chinese, for the exports (the app's pages use i18n;
// these are the same words, kept beside the pure model so the CLI needs no renderer code).
import type { ExperimentStatus } from '../experiments';
import type { FigureLanguage } from '../report/figure-i18n';
import { RUN_STATUS_TEXT } from '../run-status-text';
import type { CardWords, GateStatus } from './types';

export interface CardText {
  title: string;
  gatesTitle: string;
  gatesCaption: string;
  rowsTitle: string;
  rowsCaption: string;
  experiment: string;
  protocol: string;
  dataset: string;
  judge: string;
  measure: string;
  condition: string;
  value: string;
  interval: string;
  gate: string;
  rule: string;
  status: string;
  source: string;
  note: string;
  researcherSet: string;
  noExperiments: string;
  simulated: string;
  recorded: string;
  statuses: Record<GateStatus | 'undefined', string>;
  /** Measures several studies report (a study's own are in its card dictionary's `measures`). */
  measures: Record<string, string>;
  runStatuses: Record<ExperimentStatus, string>;
  undefinedValue: string;
  /** `{{why}}`: the reason, in the card's or the protocol's words. */
  undefinedWhy: string;
  noInterval: string;
  noIntervalWhy: string;
  /** The card's own phrases (agreement with people, gate reasons, experiment notes). */
  words: CardWords;
}

const EN: CardText = {
  title: 'Judge report card',
  gatesTitle: 'Gates',
  gatesCaption:
    'Each gate against every experiment that measured it: fail when any measurement fails; warn when a value passes but its 95% interval reaches past the threshold; pass when all defined ones pass. The decisive measurement is shown with its experiment, dataset and n.',
  rowsTitle: 'Headline figures',
  rowsCaption:
    'Every experiment that used this judge, one row per figure, with its dataset and n; values of different datasets are never pooled. Intervals are 95%.',
  experiment: 'Experiment',
  protocol: 'Protocol',
  dataset: 'Dataset',
  judge: 'Judge label',
  measure: 'Measure',
  condition: 'Condition',
  value: 'Value',
  interval: '95% CI',
  gate: 'Gate',
  rule: 'Rule',
  status: 'Status',
  source: 'Source of the threshold',
  note: 'Note',
  researcherSet: 'set by the researcher',
  noExperiments: 'No experiment in this store used this judge.',
  simulated: 'simulated: made-up answers',
  recorded: 'recorded: answers from a file',
  statuses: {
    pass: 'pass',
    warn: 'warn',
    fail: 'fail',
    not_measured: 'not measured',
    incomplete: 'incomplete',
    off: 'off (turned off)',
    undefined: 'undefined',
  },
  measures: {},
  runStatuses: RUN_STATUS_TEXT.en,
  undefinedValue: 'undefined',
  undefinedWhy: 'undefined: {{why}}',
  noInterval: 'no interval',
  noIntervalWhy: 'no interval: {{why}}',
  words: {
    phrases: {
      people: 'people: set "{{set}}"',
      no_rows: 'this protocol contributes no report card rows',
      nothing_answered: 'nothing answered yet',
      no_value: 'no value',
      value_misses: '{{value}} misses {{threshold}}',
      interval_undefined: 'the interval is undefined',
      run_incomplete: 'the run has not finished ({{answered}} of {{planned}} calls answered)',
      interval_not_clear: 'the 95% interval [{{low}}, {{high}}] is not clear of {{threshold}}',
      interval_not_given: 'the protocol gives no interval for this figure',
      position_lean:
        'leans to the {{position}} position: {{first}} items first in both orders, {{second}} second in both (paired exact test, Holm p = {{p}} < {{alpha}})',
      icc_too_few: 'too few items every annotator rated',
      icc_interval_undefined: 'the ICC interval is undefined for these ratings',
      rho_side_constant: 'ρ undefined: a side is constant',
      kappa_undefined: 'κ undefined: chance agreement is 1',
      'one side constant': 'one side is constant',
      'ρ = ±1': 'ρ = ±1 has no Fisher-z interval',
      'fewer than 4 items': 'fewer than 4 items',
      'ρ = ±1 without one item': 'without one item ρ = ±1, so the jackknife cannot measure how ρ varies',
      'ρ the same without any one item': 'ρ is the same without any one item, so its jackknife spread is 0',
      'variance 0': 'the variance of κ is 0',
      'gwet: fewer than 2 subjects with 2 ratings': "Gwet's AC undefined: fewer than 2 items rated by both",
      'gwet: fewer than 2 categories': "Gwet's AC undefined: the scale has fewer than 2 categories",
      'gwet: zero variance': "no interval: Gwet's AC has variance 0 here",
    },
  },
};

const ZH: CardText = {
  title: '评审模型成绩单',
  gatesTitle: '门槛',
  gatesCaption:
    '每个门槛对照所有测量过它的实验：任一测量未达标即为未通过；数值达标但 95% 区间越过阈值为警示；全部有定义的测量达标即为通过。列出决定结果的测量及其实验、数据集和 n。',
  rowsTitle: '主要指标',
  rowsCaption:
    '使用该评审模型的每个实验，每个指标一行，并注明数据集和 n；不同数据集的数值从不合并。区间为 95%。',
  experiment: '实验',
  protocol: '协议',
  dataset: '数据集',
  judge: '评审标签',
  measure: '指标',
  condition: '条件',
  value: '数值',
  interval: '95% 置信区间',
  gate: '门槛',
  rule: '规则',
  status: '状态',
  source: '阈值来源',
  note: '备注',
  researcherSet: '研究者设定',
  noExperiments: '此数据库中没有实验使用该评审模型。',
  simulated: '模拟：虚构的回答',
  recorded: '录制：来自文件的回答',
  statuses: {
    pass: '通过',
    warn: '警示',
    fail: '未通过',
    not_measured: '未测量',
    incomplete: '未完成',
    off: '已关闭',
    undefined: '无定义',
  },
  measures: {
    position_consistency: '位置一致性',
    excess_flip_rate: '超出噪声底的翻转率',
    position_a_rate: '选 A 的比例',
    human_icc: '人工评分者之间的 ICC(2,1)',
    human_rho: '与人工评分的 Spearman ρ',
    human_kappa: "与人工评分的 Cohen's κ",
    human_gwet: '与人工评分的 Gwet AC1/AC2',
  },

  runStatuses: RUN_STATUS_TEXT.zh,
  undefinedValue: '无定义',
  undefinedWhy: '无定义：{{why}}',
  noInterval: '无区间',
  noIntervalWhy: '无区间：{{why}}',
  words: {
    phrases: {
      people: '人工评分：评分集“{{set}}”',
      no_rows: '该协议不提供成绩单指标',
      nothing_answered: '尚无回答',
      no_value: '没有数值',
      value_misses: '{{value}} 未达到 {{threshold}}',
      interval_undefined: '区间无定义',
      run_incomplete: '运行尚未完成（已回答 {{answered}}/{{planned}} 次调用）',
      interval_not_clear: '95% 区间 [{{low}}, {{high}}] 未整体越过 {{threshold}}',
      interval_not_given: '该协议未给出此指标的区间',
      position_lean:
        '偏向{{position}}位置：{{first}} 个条目在两种顺序下都选第一位，{{second}} 个都选第二位（配对精确检验，多重校正后 p = {{p}} < {{alpha}}）',
      icc_too_few: '所有评分者都评过的条目太少',
      icc_interval_undefined: '这些评分的 ICC 区间无定义',
      rho_side_constant: 'ρ 无定义：一方为常数',
      kappa_undefined: 'κ 无定义：机会一致率为 1',
      'one side constant': '一方为常数',
      'ρ = ±1': 'ρ = ±1 时没有 Fisher-z 区间',
      'fewer than 4 items': '条目少于 4 个',
      'ρ = ±1 without one item': '去掉一个条目后 ρ = ±1，刀切法无法测出 ρ 的波动',
      'ρ the same without any one item': '去掉任一条目 ρ 都不变，刀切法的离散程度为 0',
      'variance 0': 'κ 的方差为 0',
      'gwet: fewer than 2 subjects with 2 ratings': 'Gwet AC 无定义：双方都评过的条目少于 2 个',
      'gwet: fewer than 2 categories': 'Gwet AC 无定义：量表的类别少于 2 个',
      'gwet: zero variance': '无区间：此处 Gwet AC 的方差为 0',
    },
    values: { position: { first: '第一', second: '第二' } },
  },
};

export const CARD_TEXT: Record<FigureLanguage, CardText> = { en: EN, zh: ZH };
