// The preregistration panel's strings (issue 24 part 2: the lock form, the lock in force, the
// deviations), as their own i18next namespace ('prereg'). Importing this module registers them.
import { i18next } from '../i18n';

export const PREREG_NS = 'prereg';

const en = {
  title: 'Preregistration',
  loading: 'Loading the preregistration…',
  loadFailed: 'Could not load the preregistration',
  none: 'No analysis plan is locked: every result of this experiment is exploratory. Lock the plan before the run to make the chosen comparisons confirmatory.',
  form: {
    lockTitle: 'Lock the analysis plan',
    supersedeTitle: 'Supersede the plan in force',
    supersedeIntro:
      'A lock is never edited. A new version is locked beside it, with your reason, and listed as a deviation.',
    confirmatory: 'Confirmatory comparisons',
    confirmatoryHelp: 'The comparisons of the power plan this study tests; everything else is exploratory.',
    confirmatoryIds: 'Confirmatory comparison ids (one per line)',
    confirmatoryIdsHelp: 'This protocol has no power plan, so any name is taken.',
    primary: 'Primary comparison',
    hypotheses: 'Hypotheses (optional)',
    alpha: 'α (significance level)',
    correction: 'Correction across the confirmatory family',
    exclusions: 'Exclusion rule',
    exclusionsPlaceholder: 'e.g. items the audit flags are left out',
    stopping: 'Stopping rule',
    stoppingPlaceholder: 'e.g. all planned items; no interim look',
    reason: 'Reason for the new version',
    lock: 'Lock the plan',
    supersede: 'Lock the new version',
    busy: 'Locking…',
    cancel: 'Cancel',
    failed: 'The plan was not locked',
    fieldError: '{{field}}: {{message}}',
    afterData:
      '{{answers}} answers of this experiment are already stored. A plan locked now is registered after data collection: results will say so, and its comparisons will not be reported as confirmatory.',
    afterDataLock: 'Lock it as registered after data collection',
  },
  corrections: { holm: 'Holm (step-down)', bonferroni: 'Bonferroni', none: 'None' },
  errors: {
    confirmatory: 'Choose at least one comparison.',
    primary: 'The primary comparison must be one of the confirmatory ones.',
    alpha: 'Give a number above 0 and at most 0.5.',
    exclusions: 'State the exclusion rule (e.g. “none”).',
    stopping: 'State the stopping rule (e.g. “all planned items”).',
    reason: 'Say why the new version supersedes the plan in force.',
  },
  lock: {
    inForce: 'Locked plan in force',
    version: 'Version {{version}}',
    lockedAt: 'Locked at',
    sha256: 'SHA-256',
    reason: 'Supersedes version {{previous}} because',
    primaryMark: 'primary',
    tampered:
      'TAMPERED: lock version {{versions}} no longer matches its SHA-256. It was changed after locking and cannot be relied on as a preregistration; export and the study bundle are refused.',
    hypotheses: 'Hypotheses',
    answersAtLock: 'Answers collected at the lock',
    items: 'Registered items',
    judges: 'Registered judges',
    earlier: 'Superseded versions',
    earlierLine: 'Version {{version}} · {{at}} · SHA-256 {{sha}}',
    download: 'Download preregistration.md',
    downloadBusy: 'Writing preregistration.md…',
    downloadFailed: 'Could not write preregistration.md: {{message}}',
    supersede: 'Supersede…',
  },
  deviations: {
    title: 'Deviations from the plan',
    none: 'No deviation from the plan was found.',
  },
  deviation: {
    locked_after_data:
      'Registered after data collection: the plan was locked at {{at}}, when {{answers}} answers were already stored, so its comparisons are not confirmatory.',
    amended:
      'Version {{version}} superseded version {{previous}} at {{at}} ({{answers}} answers collected by then): {{reason}}',
    sample_size: 'The plan registered {{registered}} items; the experiment uses {{used}}.',
    items_changed: 'The experiment uses {{items}} items as registered, but not the same ones.',
    judges: 'The judges differ from the registered ones: added {{added}}; removed {{removed}}.',
    config: 'The config changed after the lock: {{keys}}.',
    comparison_missing: 'Registered confirmatory comparisons the experiment no longer makes: {{ids}}.',
    texts_edited: '{{count}} texts were edited by hand after the lock.',
    answers_missing:
      '{{failed}} of {{planned}} planned answers failed, so the analysed sample is smaller than the registered one.',
    nothing: 'none',
  },
  wizard: {
    title: 'Preregister (optional)',
    toggle: 'Lock an analysis plan when the experiment is created',
    on: 'The plan is locked with the experiment, before any answer comes in; it is never edited afterwards, only superseded with a reason on the run page.',
    off: 'Without a plan every result is exploratory. You can still lock one on the run page before it runs.',
  },
  note: {
    title: 'Preregistered (version {{version}}, locked {{at}})',
    confirmatory: 'Confirmatory:',
    afterDataTitle:
      'Registered after data collection (version {{version}}, locked {{at}}, when {{answers}} answers were already stored)',
    afterDataComparisons: 'Named in the plan (not confirmatory: registered after data collection):',
    exploratory: 'Every other comparison and table on this page is exploratory.',
    none: 'No analysis plan was locked: every result on this page is exploratory.',
  },
};

const zh: typeof en = {
  title: '预注册',
  loading: '正在加载预注册…',
  loadFailed: '无法加载预注册',
  none: '尚未锁定分析计划：本实验的所有结果都是探索性的。在运行前锁定计划，所选比较即为验证性比较。',
  form: {
    lockTitle: '锁定分析计划',
    supersedeTitle: '以新版本取代现行计划',
    supersedeIntro: '已锁定的计划永不修改。新版本连同你的理由锁定在旧版本旁边，并列为一项偏离。',
    confirmatory: '验证性比较',
    confirmatoryHelp: '本研究检验的功效计划中的比较；其余一切均为探索性。',
    confirmatoryIds: '验证性比较的标识（每行一个）',
    confirmatoryIdsHelp: '此协议没有功效计划，因此任何名称均可。',
    primary: '主要比较',
    hypotheses: '假设（可选）',
    alpha: 'α（显著性水平）',
    correction: '验证性检验族的多重比较校正',
    exclusions: '排除规则',
    exclusionsPlaceholder: '例如：审核标记的条目不纳入分析',
    stopping: '停止规则',
    stoppingPlaceholder: '例如：全部计划条目；不做中期查看',
    reason: '新版本的理由',
    lock: '锁定计划',
    supersede: '锁定新版本',
    busy: '正在锁定…',
    cancel: '取消',
    failed: '计划未能锁定',
    fieldError: '{{field}}：{{message}}',
    afterData:
      '本实验已存有 {{answers}} 个回答。现在锁定的计划属于“数据收集后登记”：结果中会如实注明，其中的比较不会作为验证性分析报告。',
    afterDataLock: '按“数据收集后登记”锁定',
  },
  corrections: { holm: 'Holm 逐步下降法', bonferroni: 'Bonferroni 校正', none: '不校正' },
  errors: {
    confirmatory: '请至少选择一个比较。',
    primary: '主要比较必须是验证性比较之一。',
    alpha: '请填写大于 0 且不超过 0.5 的数。',
    exclusions: '请写明排除规则（例如“无”）。',
    stopping: '请写明停止规则（例如“全部计划条目”）。',
    reason: '请说明新版本为何取代现行计划。',
  },
  lock: {
    inForce: '现行锁定计划',
    version: '第 {{version}} 版',
    lockedAt: '锁定时间',
    sha256: 'SHA-256',
    reason: '取代第 {{previous}} 版的理由',
    primaryMark: '主要',
    tampered:
      '已被篡改：第 {{versions}} 版锁定内容与其 SHA-256 不符。锁定后曾被修改，不能作为预注册依据；导出与研究包均被拒绝。',
    hypotheses: '假设',
    answersAtLock: '锁定时已收集的回答',
    items: '登记的条目',
    judges: '登记的评审模型',
    earlier: '已被取代的版本',
    earlierLine: '第 {{version}} 版 · {{at}} · SHA-256 {{sha}}',
    download: '下载 preregistration.md',
    downloadBusy: '正在写入 preregistration.md…',
    downloadFailed: '无法写入 preregistration.md：{{message}}',
    supersede: '以新版本取代…',
  },
  deviations: {
    title: '与计划的偏离',
    none: '未发现与计划的偏离。',
  },
  deviation: {
    locked_after_data:
      '数据收集后登记：计划锁定于 {{at}}，此时已存有 {{answers}} 个回答，因此其中的比较不是验证性分析。',
    amended: '第 {{version}} 版于 {{at}} 取代了前一版（当时已收集 {{answers}} 个回答）：{{reason}}',
    sample_size: '计划登记了 {{registered}} 个条目；实验使用了 {{used}} 个。',
    items_changed: '实验使用的条目数（{{items}}）与登记相同，但条目不同。',
    judges: '评审模型与登记的不同：新增 {{added}}；移除 {{removed}}。',
    config: '锁定后配置有改动：{{keys}}。',
    comparison_missing: '登记的验证性比较已不再进行：{{ids}}。',
    texts_edited: '锁定后有 {{count}} 段文本被人工编辑。',
    answers_missing: '计划的 {{planned}} 个回答中有 {{failed}} 个失败，因此分析样本小于登记的样本。',
    nothing: '无',
  },
  wizard: {
    title: '预注册（可选）',
    toggle: '创建实验时锁定分析计划',
    on: '计划随实验一同锁定，早于任何回答；此后永不修改，只能在运行页面说明理由后以新版本取代。',
    off: '没有计划时，所有结果都是探索性的。你仍可在运行前于运行页面锁定计划。',
  },
  note: {
    title: '已预注册（第 {{version}} 版，锁定于 {{at}}）',
    confirmatory: '验证性比较：',
    afterDataTitle: '数据收集后登记（第 {{version}} 版，锁定于 {{at}}，此时已存有 {{answers}} 个回答）',
    afterDataComparisons: '计划中列出的比较（数据收集后登记，不是验证性分析）：',
    exploratory: '本页其余所有比较和表格均为探索性。',
    none: '未锁定分析计划：本页所有结果均为探索性。',
  },
};

export const preregResources = { en, zh };

i18next.addResourceBundle('en', PREREG_NS, en, true, true);
i18next.addResourceBundle('zh', PREREG_NS, zh, true, true);
