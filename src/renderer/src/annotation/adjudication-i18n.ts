// Strings of the guidelines (panel, editor) and the adjudication view, merged into the
// 'annotation' namespace (kept apart from i18n.ts so these screens' strings travel with them).
import { i18next } from '../i18n';

const en = {
  guide: {
    title: 'Guidelines',
    version: 'version {{version}}',
    none: 'This set has no guidelines yet.',
    edit: 'Guidelines',
    editTitle: 'Guidelines for annotators',
    editIntro:
      'Shown on the rating screen above every item. Each save is a new version; every label records the version its annotator was shown.',
    save: 'Save as a new version',
    saved: 'Saved as version {{version}}.',
    unchanged: 'No change: still version {{version}}.',
    history_one: '{{count}} version',
    history_other: '{{count}} versions',
    createLabel: 'Guidelines (optional; editable later, every edit is kept as a version)',
    placeholder: 'What to rate, what counts, how to use the scale, what to do when unsure…',
  },
  adjudicate: {
    open: 'Disagreements',
    title: 'Disagreements',
    intro:
      'Items where annotators gave different labels, side by side. An adjudicated label is stored as such (who, when) and is the item’s human reference in the agreement report; the annotators’ labels stay as they were.',
    none: 'No disagreements: every item people rated has one label among them.',
    adjudicator: 'Adjudicator',
    note: 'Note (optional)',
    labels: 'Labels',
    annotator: 'Annotator',
    value: 'Label',
    version: 'Guidelines',
    versionNone: 'none',
    comment: 'Comment',
    majority: 'Median or majority: {{value}}',
    majorityTied: 'Median or majority: undefined (the labels tie)',
    settledBy: 'Adjudicated: {{value}} by {{who}} at {{when}}',
    settle: 'Adjudicate as',
    withdraw: 'Withdraw',
    needName: 'Type the adjudicator’s name first.',
    count: '{{open}} open · {{settled}} adjudicated',
    tie: 'Tie',
  },
};

const zh: typeof en = {
  guide: {
    title: '标注指南',
    version: '第 {{version}} 版',
    none: '此标注集还没有标注指南。',
    edit: '标注指南',
    editTitle: '给标注者的指南',
    editIntro: '显示在评分界面每个条目上方。每次保存都是新版本；每个标签都记下标注者当时看到的版本。',
    save: '保存为新版本',
    saved: '已保存为第 {{version}} 版。',
    unchanged: '没有改动：仍是第 {{version}} 版。',
    history_one: '{{count}} 个版本',
    history_other: '{{count}} 个版本',
    createLabel: '标注指南（可选；之后可修改，每次修改都保留为一个版本）',
    placeholder: '评什么、什么算数、如何使用量表、拿不准时怎么办……',
  },
  adjudicate: {
    open: '分歧',
    title: '分歧',
    intro:
      '标注者给出不同标签的条目，并排显示。裁定标签单独保存（谁、何时），并在一致性报告中作为该条目的人工参考；标注者的标签保持不变。',
    none: '没有分歧：每个已评条目上大家的标签都相同。',
    adjudicator: '裁定人',
    note: '备注（可选）',
    labels: '标签',
    annotator: '标注者',
    value: '标签',
    version: '指南',
    versionNone: '无',
    comment: '评论',
    majority: '中位数或多数：{{value}}',
    majorityTied: '中位数或多数：未定义（标签打平）',
    settledBy: '已裁定：{{value}}，裁定人 {{who}}，时间 {{when}}',
    settle: '裁定为',
    withdraw: '撤回',
    needName: '请先填写裁定人姓名。',
    count: '未裁定 {{open}} · 已裁定 {{settled}}',
    tie: '平局',
  },
};

i18next.addResourceBundle('en', 'annotation', en, true, true);
i18next.addResourceBundle('zh', 'annotation', zh, true, true);
