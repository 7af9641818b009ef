// The Methods text, written from what was done (issue 24; docs/DESIGN.md "Paper kit"): the
// generic sections from the stored facts (methods-facts.ts), the protocol's own sections through
// its optional `methods` capability, and the statistics as the tables' captions state them, so the
// text and the tables cannot disagree. Knows no protocol. English and Chinese.
import {
  methodsNumber as num,
  methodsUsd as usd,
  type MethodsDocument,
  type MethodsLang,
  type MethodsSection,
} from '../../shared/paper/methods';
import { columnNames, namesMethod, type Table } from '../../shared/report/table';
import type { PreregistrationView } from '../../shared/paper/preregistration';
import type { MethodsFacts, MethodsModel } from './methods-facts';
import { deviationBlocks } from './preregistration-text';

/** Methods a caption or protocol sentence may name, with the reference a reader looks up. */
const REFERENCES: { pattern: RegExp; ref: string }[] = [
  {
    pattern: /Wilson|威尔逊/,
    ref: 'Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference. JASA 22(158), 209–212.',
  },
  {
    pattern: /Holm/,
    ref: 'Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal of Statistics 6(2), 65–70.',
  },
  {
    pattern: /McNemar/,
    ref: 'McNemar, Q. (1947). Note on the sampling error of the difference between correlated proportions or percentages. Psychometrika 12(2), 153–157.',
  },
  {
    pattern: /item-clustered|sign-flip over items|按条目聚类/,
    ref: 'Durkalski, V. L., Palesch, Y. Y., Lipsitz, S. R., & Rust, P. F. (2003). Analysis of clustered matched-pair data. Statistics in Medicine 22(15), 2417–2428.',
  },
  {
    pattern: /bootstrap|自助/i,
    ref: 'Efron, B., & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.',
  },
  {
    pattern: /Wilcoxon/,
    ref: 'Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin 1(6), 80–83.',
  },
  {
    pattern: /Spearman/,
    ref: 'Spearman, C. (1904). The proof and measurement of association between two things. American Journal of Psychology 15(1), 72–101.',
  },
  {
    pattern: /Krippendorff/,
    ref: "Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology (2nd ed.). Sage. (Krippendorff's α.)",
  },
  {
    pattern: /Cohen['’]s κ/,
    ref: 'Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and Psychological Measurement 20(1), 37–46.',
  },
  {
    pattern: /Fleiss, Cohen & Everitt/,
    ref: 'Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors of kappa and weighted kappa. Psychological Bulletin 72(5), 323–327.',
  },
  {
    pattern: /Fleiss['’] κ/,
    ref: 'Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological Bulletin 76(5), 378–382.',
  },
  {
    pattern: /ICC\(1\)/,
    ref: 'Shrout, P. E., & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater reliability. Psychological Bulletin 86(2), 420–428.',
  },
  {
    pattern: /Cohen['’]s d_z/,
    ref: 'Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences (2nd ed.). Lawrence Erlbaum.',
  },
  {
    pattern: /\bt 95% CI|paired t\b/,
    ref: 'Student (1908). The probable error of a mean. Biometrika 6(1), 1–25.',
  },
  {
    pattern: /Newcombe/,
    ref: 'Newcombe, R. G. (1998). Improved confidence intervals for the difference between binomial proportions based on paired data. Statistics in Medicine 17(22), 2635–2650.',
  },
  {
    pattern: /Gwet/,
    ref: 'Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence of high agreement. British Journal of Mathematical and Statistical Psychology 61(1), 29–48.',
  },
  {
    pattern: /\bPPI\b|prediction-powered/i,
    ref: 'Angelopoulos, A. N., Bates, S., Fannjiang, C., Jordan, M. I., & Zrnic, T. (2023). Prediction-powered inference. Science 382(6671), 669–674.',
  },
  {
    pattern: /PPI\+\+/,
    ref: 'Angelopoulos, A. N., Duchi, J. C., & Zrnic, T. (2023). PPI++: Efficient prediction-powered inference. arXiv:2311.01453.',
  },
  {
    pattern: /Rogan/,
    ref: 'Rogan, W. J., & Gladen, B. (1978). Estimating prevalence from the results of a screening test. American Journal of Epidemiology 107(1), 71–76.',
  },
  {
    pattern: /Rogan/,
    ref: 'Lee, C., Zeng, T., Jeong, J., Sohn, J., & Lee, K. (2025). How to correctly report LLM-as-a-judge evaluations. arXiv:2511.21140.',
  },
  {
    pattern: /alternative annotator|替代标注者/i,
    ref: 'Calderon, N., Reichart, R., & Dror, R. (2025). The alternative annotator test for LLM-as-a-judge: How to statistically justify replacing human annotators with LLMs. ACL 2025, 16051–16081.',
  },
  {
    pattern: /Benjamini–Yekutieli|Benjamini-Yekutieli/,
    ref: 'Benjamini, Y., & Yekutieli, D. (2001). The control of the false discovery rate in multiple testing under dependency. Annals of Statistics 29(4), 1165–1188.',
  },
  {
    pattern: /Fisher-z|Fisher z/,
    ref: 'Fisher, R. A. (1921). On the "probable error" of a coefficient of correlation deduced from a small sample. Metron 1, 3–32.',
  },
];

interface Words {
  title: (name: string) => string;
  simulated: string;
  recorded: string;
  data: string;
  dataText: (f: MethodsFacts) => string;
  license: (l: string | null) => string;
  sampling: (f: MethodsFacts) => string;
  models: string;
  modelLine: (m: MethodsModel) => string;
  prompts: string;
  promptsText: (n: number) => string;
  audit: string;
  auditText: (flagged: number) => string;
  calls: string;
  callsText: (f: MethodsFacts) => string;
  failuresNone: string;
  failuresText: string;
  failureLine: (kind: string, count: number) => string;
  statistics: string;
  statisticsText: string;
  tableLine: (t: Table) => string;
  corrections: string;
  correctionsHolm: string;
  correctionsNone: string;
  deviations: string;
  deviationsText: string;
  cost: string;
  costText: (f: MethodsFacts) => string;
}

/** The interval methods a table's columns name (`TableColumn.method`), which its caption may not repeat. */
const intervals = (t: Table, lead: string, sep: string) => {
  // Named as the CSV names the column ("Flip 95% CI", not a bare "95% CI"); a method the name
  // already says ("Holm p") is not listed again.
  const names = columnNames(t);
  const named = t.columns.flatMap((c, i) =>
    c.method && !namesMethod(names[i], c.method) ? [`${names[i]}: ${c.method}`] : [],
  );
  return named.length === 0 ? '' : `${lead}${[...new Set(named)].join(sep)}.`;
};

const temps = (m: MethodsModel, dflt: string) =>
  m.temperatures.length === 0 ? dflt : m.temperatures.map((t) => (t === null ? dflt : num(t))).join(', ');
const span = (m: MethodsModel, none: string, to: string) =>
  m.firstAnswer === null ? none : `${m.firstAnswer} ${to} ${m.lastAnswer}`;

// A recorded file's answers and the simulator's are no paid calls: the words say where they came from.
const modelCallsEn = (m: MethodsModel) =>
  m.paid
    ? `${m.calls} calls paid`
    : m.providerKind === 'recorded'
      ? `${m.calls} answers read from the recorded file (no call made)`
      : `${m.calls} simulated answers (no call made)`;
const modelCallsZh = (m: MethodsModel) =>
  m.paid
    ? `付费调用 ${m.calls} 次`
    : m.providerKind === 'recorded'
      ? `从录制文件读取回答 ${m.calls} 个（未调用模型）`
      : `模拟回答 ${m.calls} 个（未调用模型）`;
const paidEn = (f: MethodsFacts) => {
  const unpaid = f.calls - f.paidCalls;
  const read =
    unpaid > 0 ? ` ${unpaid} answers were read from recorded files or simulated, with no call made;` : '';
  return f.paidCalls === 0 && unpaid > 0
    ? `No provider call was made or paid: ${unpaid} answers were read from recorded files or simulated;`
    : `The experiment paid for ${f.paidCalls} provider calls;${read}`;
};
const paidZh = (f: MethodsFacts) => {
  const unpaid = f.calls - f.paidCalls;
  const read = unpaid > 0 ? `另有 ${unpaid} 个回答读取自录制文件或为模拟回答，未调用模型；` : '';
  return f.paidCalls === 0 && unpaid > 0
    ? `本实验未调用也未付费调用任何提供方：${unpaid} 个回答读取自录制文件或为模拟回答；`
    : `本实验付费调用提供方 ${f.paidCalls} 次；${read}`;
};

const EN: Words = {
  title: (name) => `Methods: ${name}`,
  simulated:
    'Simulated: every answer came from the built-in simulated provider (a demonstration). Do not report these numbers as findings.',
  recorded:
    'Answers were read from recorded files (provider kind "recorded"); no model was called during this run.',
  data: 'Data',
  dataText: (f) =>
    `We used the dataset "${f.dataset.name}" (file ${f.dataset.sourceFile || 'not recorded'}, ${f.dataset.format || 'format not recorded'}, SHA-256 ${f.dataset.sha256 || 'not recorded'}) with ${f.dataset.total} items, of which ${f.dataset.used} items entered the experiment.`,
  license: (l) =>
    l === null
      ? 'License: not recorded (a user-supplied file; state its license and source here).'
      : `License: ${l}.`,
  sampling: (f) => {
    const s = f.sampling;
    const subsets = s.subsets ? `only the subsets ${s.subsets.join(', ')}; ` : 'all subsets; ';
    const pick =
      s.limit === null
        ? 'every item (no limit)'
        : s.sample === 'random'
          ? `a random sample of ${s.limit} items (seed ${s.seed ?? 'not set'})`
          : `the first ${s.limit} items in file order`;
    return `Sampling: ${subsets}${pick}.`;
  },
  models: 'Models',
  modelLine: (m) =>
    `${m.label} (${m.role}): provider ${m.providerKind}, model ${m.model}, temperature ${temps(m, 'provider default')}; answers ${span(m, 'none yet', 'to')}; ${modelCallsEn(m)}, ${m.cacheHits} answers reused.`,
  prompts: 'Prompts',
  promptsText: (n) =>
    `The ${n} prompt templates as run are given in full in the appendix; their SHA-256 hashes (of the UTF-8 text) are:`,
  audit: 'Transformations and their audit',
  auditText: (flagged) =>
    `The protocol's automatic audit of the transformed texts flagged items: ${flagged}. The main analysis keeps them; a sensitivity analysis without them is reported beside it (metrics.json "sensitivity").`,
  calls: 'Calls and failures',
  callsText: (f) =>
    `The plan held ${f.tasks.planned} answers: ${f.tasks.ok} usable, ${f.tasks.failed} failed and ${f.tasks.pending} still open. ${paidEn(f)} ${f.cacheHits} answers were reused from the ledger (identical requests are asked once). An answer was asked again when the provider failed in passing (a server error, a time-out, a rate limit) or when it could not be parsed (up to ${f.maxParseRetries} times): ${f.reasked.answers} answers needed more than one ask (${f.reasked.extraAsks} extra asks). Failed answers are left out of every statistic and listed in the failures table.`,
  failuresNone: 'No answer failed.',
  failuresText: 'Failed answers by kind:',
  failureLine: (kind, count) => `${kind}: ${count}`,
  statistics: 'Statistics',
  statisticsText:
    'Each table states its statistics; the captions below are those of the exported tables (tables/*.tex, *.csv), computed from the same results.',
  tableLine: (t) => `${t.title}: ${t.caption}${intervals(t, ' Intervals: ', '; ')}`,
  corrections: 'Multiple comparisons',
  correctionsHolm:
    "p values are adjusted with Holm's step-down procedure within the family each caption names (Holm 1979); α = 0.05.",
  correctionsNone: 'No test of this experiment is adjusted for multiple comparisons.',
  deviations: 'Deviations from the preregistration',
  deviationsText:
    'No preregistration was locked for this experiment, so every analysis above is exploratory. A locked analysis plan, and any deviation from it, would be stated here.',
  cost: 'Cost',
  costText: (f) =>
    `The calls cost ${usd(f.costUsd)} in total (tokens reported by the providers at the prices configured for the experiment; reused answers cost nothing; a model without a price counts as $0).`,
};

const ZH: Words = {
  title: (name) => `方法：${name}`,
  simulated: '模拟：所有回答均来自内置的模拟提供方（演示用）。请勿将这些数字作为研究结果报告。',
  recorded: '回答读取自录制文件（提供方类型 "recorded"）；本次运行未调用任何模型。',
  data: '数据',
  dataText: (f) =>
    `我们使用了数据集“${f.dataset.name}”（文件 ${f.dataset.sourceFile || '未记录'}，格式 ${f.dataset.format || '未记录'}，SHA-256 ${f.dataset.sha256 || '未记录'}），共 ${f.dataset.total} 个条目，其中 ${f.dataset.used} 个条目进入实验。`,
  license: (l) => (l === null ? '许可：未记录（用户自有文件；请在此注明其许可与来源）。' : `许可：${l}。`),
  sampling: (f) => {
    const s = f.sampling;
    const subsets = s.subsets ? `仅限子集 ${s.subsets.join('、')}；` : '全部子集；';
    const pick =
      s.limit === null
        ? '全部条目（无上限）'
        : s.sample === 'random'
          ? `随机抽取 ${s.limit} 个条目（种子 ${s.seed ?? '未设置'}）`
          : `按文件顺序取前 ${s.limit} 个条目`;
    return `抽样：${subsets}${pick}。`;
  },
  models: '模型',
  modelLine: (m) =>
    `${m.label}（${m.role}）：提供方 ${m.providerKind}，模型 ${m.model}，温度 ${temps(m, '提供方默认')}；回答时间 ${span(m, '尚无', '至')}；${modelCallsZh(m)}，复用回答 ${m.cacheHits} 个。`,
  prompts: '提示词',
  promptsText: (n) => `运行时使用的 ${n} 个提示词模板全文见附录；其 SHA-256 哈希（UTF-8 文本）如下：`,
  audit: '文本变换及其审核',
  auditText: (flagged) =>
    `协议对变换后文本的自动审核标记了 ${flagged} 个条目。主分析保留这些条目；另报告排除它们的敏感性分析（metrics.json 中的 "sensitivity"）。`,
  calls: '调用与失败',
  callsText: (f) =>
    `计划共 ${f.tasks.planned} 个回答：可用 ${f.tasks.ok} 个，失败 ${f.tasks.failed} 个，未完成 ${f.tasks.pending} 个。${paidZh(f)}${f.cacheHits} 个回答复用自账本（相同请求只问一次）。提供方暂时失败（服务器错误、超时、限流）或回答无法解析（最多 ${f.maxParseRetries} 次）时会再问一次：${f.reasked.answers} 个回答问了不止一次（共多问 ${f.reasked.extraAsks} 次）。失败的回答不计入任何统计，并列于失败表中。`,
  failuresNone: '没有失败的回答。',
  failuresText: '失败回答按类型：',
  failureLine: (kind, count) => `${kind}：${count}`,
  statistics: '统计方法',
  statisticsText:
    '每张表都说明了其统计方法；以下为导出表格（tables/*.tex、*.csv）的表注（英文原文），与表格出自同一结果。',
  tableLine: (t) => `${t.title}：${t.caption}${intervals(t, ' 区间：', '；')}`,
  corrections: '多重比较',
  correctionsHolm: 'p 值在各表注所述的检验族内用 Holm 逐步下降法校正（Holm 1979）；α = 0.05。',
  correctionsNone: '本实验的检验均未做多重比较校正。',
  deviations: '与预注册的偏离',
  deviationsText:
    '本实验未锁定预注册，因此以上所有分析均为探索性分析。若锁定了分析计划，其任何偏离都将在此说明。',
  cost: '费用',
  costText: (f) =>
    `调用总费用为 ${usd(f.costUsd)}（按提供方报告的 token 数及实验配置的价格计算；复用的回答及无价格的模型不计费）。`,
};

export const METHODS_WORDS: Record<MethodsLang, Words> = { en: EN, zh: ZH };

/** The Methods document: generic sections around the protocol's own, references from what the text names. */
export function methodsDocument(
  facts: MethodsFacts,
  protocolSections: readonly MethodsSection[],
  tables: readonly Table[],
  lang: MethodsLang,
  /** Whether the protocol audits transformed texts (has a `flagged` capability). */
  audits: boolean,
  /** The experiment's locked plans and the deviations found from them. */
  preregistration: PreregistrationView,
): MethodsDocument {
  const w = METHODS_WORDS[lang];
  const notes = [...(facts.simulated ? [w.simulated] : []), ...(facts.recorded ? [w.recorded] : [])];
  const sections: MethodsSection[] = [
    {
      id: 'data',
      title: w.data,
      blocks: [
        { kind: 'p', text: w.dataText(facts) },
        { kind: 'p', text: w.license(facts.dataset.license) },
        { kind: 'p', text: w.sampling(facts) },
      ],
    },
    { id: 'models', title: w.models, blocks: [{ kind: 'list', items: facts.models.map(w.modelLine) }] },
    {
      id: 'prompts',
      title: w.prompts,
      blocks: [
        { kind: 'p', text: w.promptsText(facts.prompts.length) },
        { kind: 'list', items: facts.prompts.map((p) => `${p.name}: ${p.sha256}`) },
      ],
    },
    ...protocolSections,
    ...(audits
      ? [{ id: 'audit', title: w.audit, blocks: [{ kind: 'p' as const, text: w.auditText(facts.flagged) }] }]
      : []),
    {
      id: 'calls',
      title: w.calls,
      blocks: [
        { kind: 'p', text: w.callsText(facts) },
        facts.failures.length === 0
          ? { kind: 'p', text: w.failuresNone }
          : { kind: 'p', text: w.failuresText },
        ...(facts.failures.length === 0
          ? []
          : [{ kind: 'list' as const, items: facts.failures.map((f) => w.failureLine(f.kind, f.count)) }]),
      ],
    },
    {
      id: 'statistics',
      title: w.statistics,
      blocks: [
        { kind: 'p', text: w.statisticsText },
        { kind: 'list', items: tables.map(w.tableLine) },
      ],
    },
  ];
  // The tables' declared families (`Table.families`), not their captions' words, say whether a
  // p was adjusted: a caption that mentions Holm without adjusting anything names no family.
  const holm = tables.some((t) => (t.families ?? []).some((f) => f.method === 'holm'));
  sections.push({
    id: 'corrections',
    title: w.corrections,
    blocks: [{ kind: 'p', text: holm ? w.correctionsHolm : w.correctionsNone }],
  });
  sections.push({
    id: 'deviations',
    title: w.deviations,
    blocks: deviationBlocks(preregistration, lang, w.deviationsText),
  });
  sections.push({ id: 'cost', title: w.cost, blocks: [{ kind: 'p', text: w.costText(facts) }] });

  const allText = sections
    .flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'p' ? [b.text] : b.items)))
    .join('\n');
  return {
    lang,
    title: w.title(facts.experiment.name),
    notes,
    sections,
    references: REFERENCES.filter((r) => r.pattern.test(allText)).map((r) => r.ref),
    prompts: facts.prompts,
  };
}
