// The results workspace's strings, as their own i18next namespace ('results') so this folder
// does not touch the app's en.ts/zh.ts. Importing this module registers them.
import { i18next } from '../i18n';

const en = {
  title: 'Results',
  experiment: 'Experiment',
  intro: '{{name}} · dataset {{dataset}}',
  introPlain: 'Metrics of this experiment',
  loading: 'Loading…',
  loadFailed: 'Could not load the results',
  simulatedChart: 'Simulated — {{title}}',
  contents: 'Sections',
  noRows: 'No rows yet.',
  // A row a preregistered (confirmatory) comparison reads, or any other (exploratory).
  analysis: {
    header: 'Analysis',
    confirmatory: 'Confirmatory',
    exploratory: 'Exploratory',
    confirmatoryTitle: 'Read by a comparison the preregistration made confirmatory',
    exploratoryTitle: 'Not read by a preregistered comparison: exploratory',
    afterData: 'Registered after data collection',
    afterDataTitle:
      'Read by a comparison of a plan locked once answers were already stored: not confirmatory',
  },
  cellVerdicts: 'Open the verdicts behind this number',
  total: 'Total',
  dismiss: 'Dismiss',
  withoutFlagged_one: 'Without flagged items ({{count, number}})',
  withoutFlagged_other: 'Without flagged items ({{count, number}})',
  withoutFlaggedOn_one:
    'Every table and chart below leaves out the {{count, number}} item the audit flagged.',
  withoutFlaggedOn_other:
    'Every table and chart below leaves out the {{count, number}} items the audit flagged.',
  withoutFlaggedOff: 'All items. Switch this on to check that flagged items do not drive the results.',
  verifiedOnly: {
    label_one: 'Verified items only ({{count, number}} not verified)',
    label_other: 'Verified items only ({{count, number}} not verified)',
    on_one:
      'Every table and chart below leaves out the {{count, number}} item that did not pass verification: a translation of it failed the back-translation check (chrF below the threshold, or the model called it not equivalent). The verification table lists each reason.',
    on_other:
      'Every table and chart below leaves out the {{count, number}} items that did not pass verification: a translation of each failed the back-translation check (chrF below the threshold, or the model called it not equivalent). The verification table lists each reason.',
    off_one:
      'All items. {{count, number}} item did not pass verification; switch this on to see every result on verified items only.',
    off_other:
      'All items. {{count, number}} items did not pass verification; switch this on to see every result on verified items only.',
    none: 'Every item passed verification: the results are the same with this switch on.',
    items: 'Items left out',
  },
  counts: {
    in: '{{done, number}} of {{planned, number}} answers in',
    failed: '{{count, number}} failed',
    // Planned but not answered: left out of every rate until they are.
    pending_one: '{{count, number}} not answered yet (left out below)',
    pending_other: '{{count, number}} not answered yet (left out below)',
    seeFailures: 'see Failures',
    mostlyFailed_one:
      '{{failed, number}} of {{answered, number}} answers have no usable value; the rates below count only the usable ones.',
    mostlyFailed_other:
      '{{failed, number}} of {{answered, number}} answers have no usable value; the rates below count only the usable ones.',
  },
  reasonDiff: {
    title: 'What changed in the reason',
    words: 'compared word by word',
    chars: 'compared character by character (Chinese text)',
  },
  generic: 'Every table of this experiment, as the export writes it.',
  empty: {
    title: 'No verdicts yet',
    body: 'This experiment has no judgments yet. Start or resume the run; results appear here as verdicts arrive.',
  },
  export: {
    as: 'Export {{what}} as {{format}}',
    busy: 'Exporting…',
    failed: 'Export failed: {{message}}',
    all: 'Export all',
    written_one: 'Wrote {{count, number}} file to',
    written_other: 'Wrote {{count, number}} files to',
    files: 'Files',
    emptyWarning:
      'This experiment has no verdicts yet: the export would hold empty tables and figures. Export anyway?',
    anyway: 'Export anyway',
    cancel: 'Cancel',
    downloaded: 'Downloaded {{file}}: every table, figure and metrics.json in one zip.',
    figuresFailed:
      'Some figures could not be drawn and were left out (everything else was written; manifest.json lists them): {{figures}}',
    language: 'Figures in',
    openFolder: 'Open folder',
    methods: 'Export → Methods',
    methodsBusy: 'Writing the Methods…',
    methodsText: 'The Methods text',
    methodsNote:
      'Written from the stored experiment: every number is the one the tables and metrics.json hold. The export folder holds the same files.',
    download: 'Download {{file}}',
    bundle: 'Export → Study bundle',
    bundleBusy: 'Writing the study bundle…',
    bundleDone:
      'Saved {{file}}: config, dataset, prompts, every request and response, metrics and the export folder, with a SHA-256 per file and no key. A reviewer recomputes it offline with: judge-lab bundle verify {{file}}',
    languages: { en: 'English', zh: '中文' },
  },
};

type Strings = typeof en;
type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };

const zh: DeepStrings<Strings> = {
  title: '结果',
  experiment: '实验',
  intro: '{{name}} · 数据集 {{dataset}}',
  introPlain: '本实验的指标',
  loading: '加载中…',
  loadFailed: '无法加载结果',
  simulatedChart: '模拟 — {{title}}',
  contents: '章节',
  noRows: '暂无数据。',
  analysis: {
    header: '分析',
    confirmatory: '验证性',
    exploratory: '探索性',
    confirmatoryTitle: '预注册设为验证性的比较读取此行',
    exploratoryTitle: '未被预注册的比较读取：探索性',
    afterData: '数据收集后登记',
    afterDataTitle: '读取此行的比较出自已有回答之后才锁定的计划：不是验证性分析',
  },
  cellVerdicts: '打开这个数字背后的判决',
  total: '合计',
  dismiss: '关闭',
  withoutFlagged_one: '排除被标记的条目（{{count, number}}）',
  withoutFlagged_other: '排除被标记的条目（{{count, number}}）',
  withoutFlaggedOn_one: '下方所有表格和图表均已排除审核标记的 {{count, number}} 个条目。',
  withoutFlaggedOn_other: '下方所有表格和图表均已排除审核标记的 {{count, number}} 个条目。',
  withoutFlaggedOff: '全部条目。打开此开关，可检查被标记的条目是否左右了结果。',
  verifiedOnly: {
    label_one: '仅已验证的条目（{{count, number}} 个未通过验证）',
    label_other: '仅已验证的条目（{{count, number}} 个未通过验证）',
    on_one:
      '下方所有表格和图表均已排除未通过验证的 {{count, number}} 个条目：其某个译文未通过回译检查（chrF 低于阈值，或模型判定不等价）。验证表列出了每个原因。',
    on_other:
      '下方所有表格和图表均已排除未通过验证的 {{count, number}} 个条目：其某个译文未通过回译检查（chrF 低于阈值，或模型判定不等价）。验证表列出了每个原因。',
    off_one:
      '全部条目。有 {{count, number}} 个条目未通过验证；打开此开关，可只在已验证的条目上查看所有结果。',
    off_other:
      '全部条目。有 {{count, number}} 个条目未通过验证；打开此开关，可只在已验证的条目上查看所有结果。',
    none: '所有条目均已通过验证：打开此开关结果不变。',
    items: '被排除的条目',
  },
  counts: {
    in: '已收到 {{done, number}} / {{planned, number}} 个回答',
    failed: '{{count, number}} 个失败',
    pending_one: '{{count, number}} 个尚未回答（下方未计入）',
    pending_other: '{{count, number}} 个尚未回答（下方未计入）',
    seeFailures: '查看失败',
    mostlyFailed_one:
      '{{answered, number}} 个回答中有 {{failed, number}} 个无法使用：下方结果仅基于其余回答。',
    mostlyFailed_other:
      '{{answered, number}} 个回答中有 {{failed, number}} 个无法使用：下方结果仅基于其余回答。',
  },
  reasonDiff: {
    title: '理由有何变化',
    words: '逐词比较',
    chars: '逐字比较（中文文本）',
  },
  generic: '本实验的全部表格，与导出文件一致。',
  empty: {
    title: '尚无判决',
    body: '本实验还没有任何判决。请开始或继续运行；判决到达后结果会显示在这里。',
  },
  export: {
    as: '将{{what}}导出为 {{format}}',
    busy: '导出中…',
    failed: '导出失败：{{message}}',
    all: '全部导出',
    written_one: '已写入 {{count, number}} 个文件到',
    written_other: '已写入 {{count, number}} 个文件到',
    files: '文件',
    emptyWarning: '本实验还没有任何判决：导出的表格和图表将是空的。仍要导出吗？',
    anyway: '仍然导出',
    cancel: '取消',
    downloaded: '已下载 {{file}}：全部表格、图表和 metrics.json 打包在一个 zip 中。',
    figuresFailed: '部分图表无法绘制，已略去（其余文件均已写出；manifest.json 中列出）：{{figures}}',
    language: '图表语言',
    openFolder: '打开文件夹',
    methods: '导出 → 方法',
    methodsBusy: '正在撰写方法部分…',
    methodsText: '方法部分全文',
    methodsNote: '根据已存实验撰写：每个数字都与表格和 metrics.json 中的一致。导出文件夹中也有相同文件。',
    download: '下载 {{file}}',
    bundle: '导出 → 研究包',
    bundleBusy: '正在写入研究包…',
    bundleDone:
      '已保存 {{file}}：配置、数据集、提示词、全部请求与回答、指标及导出文件夹，每个文件附 SHA-256，不含任何密钥。审稿人可离线重算：judge-lab bundle verify {{file}}',
    languages: { en: 'English', zh: '中文' },
  },
};

export const RESULTS_NS = 'results';
export const resultsResources = { en, zh };

i18next.addResourceBundle('en', RESULTS_NS, en, true, true);
i18next.addResourceBundle('zh', RESULTS_NS, zh, true, true);
