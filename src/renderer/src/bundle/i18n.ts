// The study bundle page's strings (issue 24: a reviewer opens a `.judgelab` in the app), as their
// own i18next namespace ('bundle').
import { i18next } from '../i18n';

export const BUNDLE_NS = 'bundle';

const en = {
  open: 'Open a study bundle…',
  title: 'Study bundle',
  intro:
    'A study bundle (*.judgelab) holds an experiment’s config, dataset, prompts and every raw answer. Opening one replays those answers here, offline: no provider is called and no key is used, and nothing is added to your experiments. Every metric, table and figure is recomputed and compared with the one stored in the bundle.',
  choose: 'Choose a bundle…',
  busy: 'Recomputing {{file}}…',
  failed: 'Could not open the bundle: {{message}}',
  readOnly: 'Read-only: opened from a bundle',
  experiment: 'Experiment',
  protocol: 'Protocol',
  status: 'Status when exported',
  entries: 'Entries checked against their SHA-256',
  replayed: 'Answers replayed (no call made)',
  simulated: 'Answered by the simulated provider: a demo, not a measurement.',
  identical: 'Every recomputed file equals the stored one ({{count}} compared).',
  differs_one: '{{count}} of {{total}} recomputed files differs from the stored one.',
  differs_other: '{{count}} of {{total}} recomputed files differ from the stored one.',
  checksTitle: 'What was recomputed',
  notRecomparedTitle: 'Not recompared',
  notRecomparedHelp:
    'These files of the export folder were not made again, so they are neither equal nor different.',
  notRecompared: {
    manifest:
      'records the original run (its times, app version, counts as exported); only its preregistration hash is checked',
    methods: 'written from the original run’s dates and times of answers, which a replay cannot reproduce',
    protocolFile: 'a protocol’s own export file: verify does not recompute it',
    unreadable: 'could not be read or drawn again here',
  },
  file: 'File',
  result: 'Result',
  equal: 'equal',
  different: 'different',
  firstDifference: 'First difference',
  stored: 'stored',
  recomputed: 'recomputed',
  tablesTitle: 'Tables recomputed from the bundle',
  tablesHelp:
    'As the bundle’s export files hold them: exported tables are in English, as a paper prints them.',
  noTables: 'This protocol has no tables for this experiment.',
};

const zh: typeof en = {
  open: '打开研究包…',
  title: '研究包',
  intro:
    '研究包（*.judgelab）包含实验的配置、数据集、提示词和每一条原始回答。在此打开时会离线重放这些回答：不调用任何提供方，不使用任何密钥，也不会加入你的实验列表。每个指标、表格和图都会重新计算，并与包中保存的版本比较。',
  choose: '选择研究包…',
  busy: '正在重新计算 {{file}}…',
  failed: '无法打开研究包：{{message}}',
  readOnly: '只读：从研究包打开',
  experiment: '实验',
  protocol: '协议',
  status: '导出时的状态',
  entries: '按 SHA-256 核对的条目',
  replayed: '重放的回答（未发出调用）',
  simulated: '由模拟提供方回答：演示用，不是测量结果。',
  identical: '重新计算的每个文件都与保存的相同（共比较 {{count}} 个）。',
  differs_one: '{{total}} 个重新计算的文件中有 {{count}} 个与保存的不同。',
  differs_other: '{{total}} 个重新计算的文件中有 {{count}} 个与保存的不同。',
  checksTitle: '重新计算的内容',
  notRecomparedTitle: '未重新比较',
  notRecomparedHelp: '导出文件夹中的这些文件没有重新生成，因此既不算相同也不算不同。',
  notRecompared: {
    manifest: '记录原始运行（时间、应用版本、导出时的计数）；只核对其中的预注册哈希',
    methods: '根据原始运行中回答的日期和时间写成，重放无法重现',
    protocolFile: '协议自己的导出文件：verify 不重新计算它',
    unreadable: '无法在此读取或重新绘制',
  },
  file: '文件',
  result: '结果',
  equal: '相同',
  different: '不同',
  firstDifference: '第一处不同',
  stored: '保存的',
  recomputed: '重新计算的',
  tablesTitle: '由研究包重新计算的表格',
  tablesHelp: '与研究包导出文件中的表格一致：导出的表格为英文，与论文中印出的一致。',
  noTables: '此协议在该实验中没有表格。',
};

i18next.addResourceBundle('en', BUNDLE_NS, en, true, true);
i18next.addResourceBundle('zh', BUNDLE_NS, zh, true, true);
