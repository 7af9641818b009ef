// The column mapping screen's words, EN and 中文, as their own i18next namespace ('importColumns').
// Importing this module registers them.
import { i18next } from '../i18n';

export const IMPORT_COLUMNS_NS = 'importColumns';

const en = {
  title: 'Choose columns for {{file}}',
  intro:
    'The column names of this file are not the ones Judge Lab reads. Say which column holds each field; Judge Lab remembers the choice for files with the same columns.',
  kind: 'Dataset kind',
  kinds: {
    pairwise: 'Pairwise: an instruction, two outputs, which one is better',
    qa: 'Questions with reference answers',
    pointwise: 'Single responses to score',
  },
  fieldsLegend: 'Which column is which field',
  required: 'required',
  optional: 'optional',
  choose: '— choose a column —',
  none: '— none —',
  fields: {
    instruction: 'The task or question the outputs answer',
    output_1: 'The first output',
    output_2: 'The second output',
    label: 'Which output is better: 1 or 2',
    id: 'An id for each item',
    subset: 'A group name (used to filter and break results down)',
    question: 'The question',
    answers: 'The reference answers (a JSON list, or one answer)',
    language: 'The language of the question (en, zh…)',
    context: 'Text the question refers to',
    category: 'A category name',
    response: 'The response to score',
    reference: 'A reference response',
    human_score: 'A person’s score of the response',
  },
  missing: 'Still to choose: {{fields}}',
  duplicate: 'Column “{{column}}” is chosen for more than one field: {{fields}}',
  preview: 'The first rows as they will be imported',
  previewEmpty: 'The file has no rows to preview.',
  importWith: 'Import with these columns',
  cancel: 'Cancel',
  details_one: 'What the importer found ({{count, number}} problem)',
  details_other: 'What the importer found ({{count, number}} problems)',
  remembered: 'Columns mapped as remembered for files with these columns: {{mapping}}.',
  saved: 'Judge Lab will map files with the same columns this way next time.',
};

const zh: typeof en = {
  title: '为 {{file}} 选择列',
  intro:
    '这个文件的列名不是 Judge Lab 读取的列名。请指出每个字段在哪一列；Judge Lab 会为列相同的文件记住这个选择。',
  kind: '数据集类型',
  kinds: {
    pairwise: '成对比较：一条指令、两个输出以及哪个更好',
    qa: '带参考答案的问题',
    pointwise: '逐条打分的单个回答',
  },
  fieldsLegend: '哪一列是哪个字段',
  required: '必填',
  optional: '可选',
  choose: '— 选择一列 —',
  none: '— 无 —',
  fields: {
    instruction: '输出所回答的任务或问题',
    output_1: '第一个输出',
    output_2: '第二个输出',
    label: '哪个输出更好：1 或 2',
    id: '每个条目的编号',
    subset: '分组名称（用于筛选和分组统计结果）',
    question: '问题',
    answers: '参考答案（JSON 列表，或一个答案）',
    language: '问题的语言（en、zh……）',
    context: '问题所涉及的文本',
    category: '类别名称',
    response: '要打分的回答',
    reference: '参考回答',
    human_score: '人对该回答的评分',
  },
  missing: '尚未选择：{{fields}}',
  duplicate: '列“{{column}}”被选给了多个字段：{{fields}}',
  preview: '前几行导入后的样子',
  previewEmpty: '文件中没有可预览的行。',
  importWith: '按这些列导入',
  cancel: '取消',
  details_one: '导入时发现的问题（{{count, number}} 个）',
  details_other: '导入时发现的问题（{{count, number}} 个）',
  remembered: '已按为相同列的文件记住的方式映射列：{{mapping}}。',
  saved: '下次遇到列相同的文件，Judge Lab 会按这种方式映射。',
};

i18next.addResourceBundle('en', IMPORT_COLUMNS_NS, en, true, true);
i18next.addResourceBundle('zh', IMPORT_COLUMNS_NS, zh, true, true);
