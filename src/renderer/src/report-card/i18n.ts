// The report card page's strings, as their own i18next namespace ('reportCard'). The card's
// domain words (gates, statuses, measures, column names) are the exports' own (src/shared/
// report-card/text.ts), so the page and the files say the same thing in each language.
import { CARD_TEXT } from '../../../shared/report-card/text';
import { i18next } from '../i18n';

export const REPORT_CARD_NS = 'reportCard';

const en = {
  ...CARD_TEXT.en,
  nav: 'Judges',
  open: 'Judge report cards',
  pageTitle: 'Judge report cards',
  intro:
    'One page per judge model (provider kind + model id): every experiment of this store that used it, with its headline figures side by side, held to the gates you set. Values of different datasets keep their dataset and n; they are never pooled.',
  chooseJudge: 'Judge model',
  choose: 'Choose…',
  noJudges: 'No experiment in this store has a judge yet. Run one, then come back.',
  loading: 'Loading…',
  failed: 'Could not build the report card',
  listFailed: 'Could not list the judges',
  experimentsCount_one: '{{count}} experiment',
  experimentsCount_other: '{{count}} experiments',
  simulatedBadge: 'Simulated',
  simulatedHelp: 'Answered by the built-in simulated provider: made-up answers, a demo, not a measurement.',
  recordedBadge: 'Recorded',
  recordedHelp:
    'Answers read from a recorded-answers file (judgments made elsewhere), not asked by this app.',
  openResults: 'Results',
  items: 'items',
  labels: 'Judge labels',
  decisive: 'Decisive measurement',
  notMeasuredHelp: 'No experiment of this judge measured it.',
  thresholdFrom: 'Threshold from',
  gatesHelp:
    'Defaults come from the literature (each names its source); a threshold you change says "set by the researcher". Gates are kept in the data folder (report-card-gates.json); the CLI takes --gates FILE.',
  download: 'Download',
  csvGates: 'CSV (gates)',
  editGates: 'Change the gates',
  threshold: 'Threshold',
  wholeCi: 'Whole 95% CI must clear it',
  applies: 'Applies',
  saveGates: 'Save gates',
  defaultGates: 'Literature defaults',
  gatesFailed: 'Could not save the gates',
  gatesLoadFailed: 'Could not read the gates',
  gatePercent: 'Enter a percentage from 0 to 100 (e.g. 90).',
  gateCorrelation: 'Enter a correlation from −1 to 1 (e.g. 0.8).',
  gateAbove0: 'Enter a number above 0.',
  gateRange: 'Enter a number from {{min}} to {{max}}.',
  reasonValue: 'the value misses {{threshold}}',
  reasonInterval: 'the 95% interval reaches past {{threshold}}',
};

const zh: typeof en = {
  ...CARD_TEXT.zh,
  nav: '评审模型',
  open: '评审模型成绩单',
  pageTitle: '评审模型成绩单',
  intro:
    '每个评审模型（提供方类型 + 模型 ID）一页：此数据库中使用过它的每个实验，主要指标并排列出，并对照你设定的门槛。不同数据集的数值各自注明数据集和 n，从不合并。',
  chooseJudge: '评审模型',
  choose: '请选择…',
  noJudges: '此数据库中还没有带评审模型的实验。先运行一个实验，再回到这里。',
  loading: '正在加载…',
  failed: '无法生成成绩单',
  listFailed: '无法列出评审模型',
  experimentsCount_one: '{{count}} 个实验',
  experimentsCount_other: '{{count}} 个实验',
  simulatedBadge: '模拟',
  simulatedHelp: '由内置的模拟提供方回答：虚构的回答，仅作演示，不是测量结果。',
  recordedBadge: '录制',
  recordedHelp: '回答读自录制回答文件（在别处做出的评判），并非由本应用发出请求。',
  openResults: '结果',
  items: '个条目',
  labels: '评审标签',
  decisive: '决定结果的测量',
  notMeasuredHelp: '该评审模型的实验都没有测量这一项。',
  thresholdFrom: '阈值来源',
  gatesHelp:
    '默认阈值来自文献（各自注明出处）；你改动过的阈值标为“研究者设定”。门槛保存在数据文件夹中（report-card-gates.json）；命令行可用 --gates FILE。',
  download: '下载',
  csvGates: 'CSV（门槛）',
  editGates: '修改门槛',
  threshold: '阈值',
  wholeCi: '要求整个 95% 区间达标',
  applies: '启用',
  saveGates: '保存门槛',
  defaultGates: '恢复文献默认值',
  gatesFailed: '无法保存门槛',
  gatesLoadFailed: '无法读取门槛',
  gatePercent: '请输入 0 到 100 之间的百分数（例如 90）。',
  gateCorrelation: '请输入 −1 到 1 之间的相关系数（例如 0.8）。',
  gateAbove0: '请输入大于 0 的数。',
  gateRange: '请输入 {{min}} 到 {{max}} 之间的数。',
  reasonValue: '数值未达到 {{threshold}}',
  reasonInterval: '95% 区间越过了 {{threshold}}',
};

i18next.addResourceBundle('en', REPORT_CARD_NS, en, true, true);
i18next.addResourceBundle('zh', REPORT_CARD_NS, zh, true, true);
