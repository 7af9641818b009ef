// The compare page's strings, as their own i18next namespace ('compare'). Importing this module
// registers them.
import { i18next } from '../i18n';

export const COMPARE_NS = 'compare';

const en = {
  title: 'Compare runs',
  intro:
    'Two experiments of one protocol (e.g. two prompt templates on the same items), or two judges of one experiment: accuracy side by side on the answers both have, with paired tests.',
  open: 'Compare runs',
  sideA: 'A',
  sideB: 'B',
  experiment: 'Experiment',
  judge: 'Judge',
  sharedJudges: 'Judges both share',
  choose: 'Choose…',
  compare: 'Compare',
  loading: 'Comparing…',
  failed: 'Could not compare',
  needTwo: 'Compare needs two experiments of one protocol, or one with two judges.',
  tableTitle: 'Deltas with paired tests',
  tableHelp:
    'Δ = B − A in points. The 95% CI resamples shared items (their orders move together); McNemar counts who alone was right, with the item as the unit; Holm adjusts across the per-condition rows (the pooled "all" row repeats their data and has no Holm p). Agreement counts each order of an item once.',
  back: 'Back to experiments',
  col: {
    judge_a: 'Judge A',
    judge_b: 'Judge B',
    condition: 'Condition',
    items: 'Items',
    accuracy_a: 'Acc. A',
    accuracy_b: 'Acc. B',
    agreement: 'Agreement',
    a_only_correct: 'A only',
    b_only_correct: 'B only',
  },
};

const zh: typeof en = {
  title: '比较运行',
  intro:
    '同一协议的两个实验（例如同一批条目上的两套提示模板），或同一实验中的两个评审模型：在双方都有的答案上并排比较准确率，并给出配对检验。',
  open: '比较运行',
  sideA: 'A',
  sideB: 'B',
  experiment: '实验',
  judge: '评审模型',
  sharedJudges: '双方共有的评审模型',
  choose: '请选择…',
  compare: '比较',
  loading: '正在比较…',
  failed: '无法比较',
  needTwo: '比较需要同一协议的两个实验，或一个含两个评审模型的实验。',
  tableTitle: '差值与配对检验',
  tableHelp:
    'Δ = B − A（百分点）。95% 置信区间按共有条目重抽样（同一条目的两种顺序一起抽取）；McNemar 检验统计仅一方正确的情况，以条目为单位；Holm 在各条件行之间校正（汇总行 “all” 重复这些数据，没有 Holm p）。一致率中同一条目的每种顺序各计一次。',
  back: '返回实验列表',
  col: {
    judge_a: '评审模型 A',
    judge_b: '评审模型 B',
    condition: '条件',
    items: '条目数',
    accuracy_a: 'A 准确率',
    accuracy_b: 'B 准确率',
    agreement: '一致率',
    a_only_correct: '仅 A 正确',
    b_only_correct: '仅 B 正确',
  },
};

i18next.addResourceBundle('en', COMPARE_NS, en, true, true);
i18next.addResourceBundle('zh', COMPARE_NS, zh, true, true);
