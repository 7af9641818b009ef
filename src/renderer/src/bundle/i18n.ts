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
  tabs: {
    label: 'Parts of the bundle',
    checks: 'Checks',
    results: 'Results and figures',
    plan: 'Preregistered plan',
  },
  plan: {
    title: 'Preregistered plan',
    help: 'The analysis plan as the bundle holds it. Its SHA-256 was recomputed from its content when the bundle was opened: a changed plan is refused.',
    none: 'No analysis plan was locked for this study: every analysis in it is exploratory.',
    manifestMatches:
      'The export’s manifest names this lock (version {{version}}, locked {{at}}): the results were exported under it.',
    manifestDiffers:
      'The export’s manifest names another lock (SHA-256 {{named}}) than the one in force ({{sha}}): the results were not exported under this plan.',
    absent: 'none',
    afterData_one:
      'The plan was first locked when {{count}} answer was already stored: its comparisons are registered after data collection, not confirmatory.',
    afterData_other:
      'The plan was first locked when {{count}} answers were already stored: its comparisons are registered after data collection, not confirmatory.',
    analysisTitle: 'Confirmatory and exploratory results',
    analysisHelp:
      'Rows of the recomputed tables that the plan’s comparisons read are confirmatory; every other row is exploratory (the tables’ Analysis column).',
    analysisRow: '{{confirmatory}} confirmatory, {{exploratory}} exploratory rows',
    analysisAfterData: '{{marked}} rows registered after data collection, {{exploratory}} exploratory rows',
    analysisNone: 'No table row is read by the plan’s comparisons: every result is exploratory.',
    deviationsTitle: 'Deviations found at export',
    deviationsHelp:
      'As the export’s manifest records them, in English (the store they were measured on is not in the bundle).',
    deviationsNone: 'None: the study ran as planned.',
  },
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
  tabs: {
    label: '研究包的各部分',
    checks: '核对',
    results: '结果与图',
    plan: '预注册计划',
  },
  plan: {
    title: '预注册计划',
    help: '研究包中保存的分析计划。打开研究包时已根据其内容重新计算 SHA-256：被改动的计划会被拒绝。',
    none: '本研究没有锁定分析计划：其中的所有分析都是探索性的。',
    manifestMatches:
      '导出的清单（manifest）指向此锁定版本（第 {{version}} 版，锁定于 {{at}}）：结果是在此计划下导出的。',
    manifestDiffers:
      '导出的清单指向另一个锁定版本（SHA-256 {{named}}），而不是当前生效的版本（{{sha}}）：结果不是在此计划下导出的。',
    absent: '无',
    afterData_one: '计划首次锁定时已存有 {{count}} 条回答：其比较属于数据收集后登记，不是验证性的。',
    afterData_other: '计划首次锁定时已存有 {{count}} 条回答：其比较属于数据收集后登记，不是验证性的。',
    analysisTitle: '验证性与探索性结果',
    analysisHelp:
      '重新计算的表格中，被计划的比较读取的行是验证性的；其他所有行都是探索性的（见表格的 Analysis 列）。',
    analysisRow: '验证性 {{confirmatory}} 行，探索性 {{exploratory}} 行',
    analysisAfterData: '数据收集后登记 {{marked}} 行，探索性 {{exploratory}} 行',
    analysisNone: '没有表格行被计划的比较读取：所有结果都是探索性的。',
    deviationsTitle: '导出时发现的偏离',
    deviationsHelp: '按导出清单的记录，以英文显示（测量这些偏离所用的数据库不在研究包中）。',
    deviationsNone: '无：研究按计划进行。',
  },
};

i18next.addResourceBundle('en', BUNDLE_NS, en, true, true);
i18next.addResourceBundle('zh', BUNDLE_NS, zh, true, true);
