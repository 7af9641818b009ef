// The verdict browser's strings, as their own i18next namespace ('verdicts'). Importing this
// module registers them.
import { i18next } from '../i18n';

const en = {
  title: 'Verdicts',
  intro:
    'The verdicts behind a number of a results table, read from the stored answers (offline). Change the filters to see more or fewer.',
  results: 'Results',
  loading: 'Loading…',
  loadFailed: 'Could not load the verdicts',
  count_one: '{{count, number}} verdict',
  count_other: '{{count, number}} verdicts',
  excluded: 'Without flagged items, as the table was.',
  filters: 'Filters',
  all: 'All',
  clear: 'Clear filters',
  none: 'No verdict matches these filters.',
  item: 'Item',
  verdict: 'Verdict',
  correct: 'Correct',
  reason: 'Reason',
  shown: 'Answer the judge was shown',
  open: 'Open',
  close: 'Close',
  yes: 'yes',
  no: 'no',
  ungraded: 'not graded',
  itemFailed: 'Could not load the item',
  listHint: 'Click a row, or press Enter on it, to see the item and the judge’s reason.',
  fields: {
    judge: 'Judge',
    kind: 'Kind',
    language: 'Language',
    order: 'Order',
    generator: 'Generator',
    setting: 'Setting',
  },
  compared: {
    title: 'What the probe changed',
    before: 'Before: {{condition}}',
    after: 'Judged: {{condition}}',
    diff: 'Changes from {{before}} to {{after}}',
    words: 'word by word',
    chars: 'character by character',
  },
  conditions: {
    original: 'original',
    plain: 'plain text',
    longer: 'longer',
    shorter: 'shorter',
    markdown: 'Markdown',
  },
  values: {
    tie: 'tie',
    CORRECT: 'CORRECT',
    INCORRECT: 'INCORRECT',
    quality: 'quality',
    tie_probe: 'tie probe',
  },
};

const zh: typeof en = {
  title: '判决',
  intro: '结果表格中一个数字背后的判决，读取自已存的回答（离线）。更改筛选条件可查看更多或更少。',
  results: '结果',
  loading: '加载中…',
  loadFailed: '无法加载判决',
  count_one: '{{count, number}} 条判决',
  count_other: '{{count, number}} 条判决',
  excluded: '不含被标记的条目，与表格一致。',
  filters: '筛选',
  all: '全部',
  clear: '清除筛选',
  none: '没有符合这些筛选条件的判决。',
  item: '条目',
  verdict: '判决',
  correct: '是否正确',
  reason: '理由',
  shown: '评审看到的回答',
  open: '打开',
  close: '关闭',
  yes: '是',
  no: '否',
  ungraded: '未评分',
  itemFailed: '无法加载条目',
  listHint: '点击一行（或在行上按 Enter）查看条目和评审的理由。',
  fields: {
    judge: '评审',
    kind: '类型',
    language: '语言',
    order: '顺序',
    generator: '生成模型',
    setting: '设置',
  },
  compared: {
    title: '探针改动了什么',
    before: '改动前：{{condition}}',
    after: '评审看到的：{{condition}}',
    diff: '从{{before}}到{{after}}的改动',
    words: '逐词',
    chars: '逐字',
  },
  conditions: {
    original: '原文',
    plain: '纯文本',
    longer: '加长版',
    shorter: '缩短版',
    markdown: 'Markdown 版',
  },
  values: { tie: '平局', CORRECT: '正确', INCORRECT: '错误', quality: '质量', tie_probe: '平局探针' },
};

export const VERDICTS_NS = 'verdicts';
export const verdictsResources = { en, zh };

i18next.addResourceBundle('en', VERDICTS_NS, en, true, true);
i18next.addResourceBundle('zh', VERDICTS_NS, zh, true, true);
