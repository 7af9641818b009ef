// The bias-probes tables on screen in 中文: titles, captions (the same sentences as the report's,
// with its numbers), column headers and the few fixed words in cells. The table model itself
// (what the exports write) stays English; judge labels, categories and item ids are data.
import type { BiasMetrics } from '../../../../shared/protocols/bias-probes/types';
import { COMMON_HEADERS_ZH, FIRST_POSITION_HEADERS_ZH, studyTableText } from '../../kits/table-text';
import { allConditions } from '../../../../shared/protocols/bias-probes/probe-registry';
import { BIAS_FIGURES_ZH } from '../../../../shared/protocols/bias-probes/report/figure-zh';

const TITLES_ZH: Record<string, string> = {
  bias_profile: '偏差概况：各探针的效应',
  position: '位置：第一位置（A）率与交换一致性',
  length_correlation: '原始回答的长度与评分',
  debiased: '原始分数与去偏分数',
  audit: '变体审核',
  flagged: '被标记的变体',
  sensitivity: '敏感性：去掉被标记变体后的偏差概况',
  noise_floor: '噪声底线：各效应超出评审自身重复变动的部分',
  accuracy: '各变体对照金标准的准确率',
  instruction_paraphrases: '评审说明措辞：各改写版本改变的判决',
  own_answers: '自我偏好：超额自胜率',
};

const HEADERS_ZH: Record<string, string> = {
  ...COMMON_HEADERS_ZH,
  ...FIRST_POSITION_HEADERS_ZH,
  category: '类别',
  effect: '效应',
  mean: '平均差',
  mean_ci: '95% 置信区间',
  p_holm: 'Holm p',
  sig: '显著',
  flip_rate: '翻转',
  flip_rate_ci: '翻转 95% 置信区间',
  position_a_rate: 'A 率',
  position_a_rate_ci: '95% 置信区间',
  binomial_p: '二项检验 p',
  n_pairs: '配对数',
  swap_consistency: '交换一致性',
  swap_consistency_ci: '一致性 95% 置信区间',
  n_human: 'n（有人工分）',
  partial_spearman_r: '偏 ρ',
  raw_mean: '原始',
  debiased_mean: '去偏',
  variant: '变体',
  made: '生成',
  flagged: '被标记',
  none: '无可删减',
  item_id: '条目',
  response: '回答',
  reasons: '原因',
  placebo: '安慰剂',
  excess: '超出',
  excess_ci: '95% 置信区间（t 区间）',
  changed: '改变',
  changed_repeat: '重复时改变',
  mcnemar_p: '改变 p（精确 McNemar）',
  mcnemar_p_holm: 'Holm p（改变）',
  abs: '|Δ| 探针 / 重复',
  abs_p: '|Δ| p',
  abs_p_holm: 'Holm p（|Δ|）',
  correct: '正确',
  ties: '平局',
  accuracy: '准确率',
  accuracy_ci: '95% 置信区间',
  paraphrase: '改写',
  changed_rate: '改变率',
  changed_rate_ci: '改变率 95% 置信区间',
  flip_n: '可翻转',
  robustness_rate: 'RR（稳健率）',
  robustness_rate_ci: 'RR 95% 置信区间',
  own_models: '自身回答模型',
  self_win: '自胜率',
  human_win: '人类',
  n_longer: '自身较长',
  balanced: '长度平衡',
  balanced_ci: '长度平衡 95% 置信区间',
  balanced_p: '长度平衡 p',
};

const CELLS_ZH: Record<string, Record<string, string>> = {
  effect: { ...BIAS_FIGURES_ZH.exact },
  // The conditions' names come from their probes (probe-registry.ts).
  variant: {
    original: '原文',
    ...Object.fromEntries(allConditions().map(({ condition }) => [condition.id, condition.name.zh])),
  },
  role: { rewriter: '改写模型', judge: '评审模型' },
  judge: { rewriter: '改写模型' },
};

// An interval that does not exist, in any column (the reasons of metrics.ts).
const UNDEFINED_ZH: Record<string, string> = {
  'undefined (every difference is equal, so the t interval has no width to estimate)':
    '无定义（所有差都相同，t 区间没有可估计的宽度）',
  'undefined (one difference only)': '无定义（只有一个差）',
  'undefined (no paired units: no verdict was judged in both conditions)':
    '无定义（没有配对单位：没有在两种条件下都评判过的判断）',
  'undefined (every difference comes from one item)': '无定义（所有差都来自同一个条目）',
  'undefined (no original verdict left to flip)': '无定义（没有可翻转的原判决）',
  "undefined (every item's differences average to the overall mean, so the item-clustered interval has no width to estimate)":
    '无定义（每个条目的差的均值都等于总均值，按条目聚类的区间没有可估计的宽度）',
};

// own-answers.ts's reasons, which name the judge's model and the answer models.
function ownUndefinedZh(text: string): string | undefined {
  const none =
    /^undefined \(no item has exactly one response by the judge's own model \(judge model (.*); answer models counted as its own: (.*)\)\)$/.exec(
      text,
    );
  if (none)
    return `无定义（没有恰有一个回答由评审自身模型写成的条目；评审模型 ${none[1]}，计为其自身的回答模型：${none[2] === 'none in the data' ? '数据中没有' : none[2]}）`;
  if (/^undefined \(length cannot be balanced/.test(text))
    return '无定义（自身回答较长或不较长的条目少于 2 个，无法平衡长度）';
  return undefined;
}

// stats/robustness.ts, the report's RR sentence.
const rrCaption = (m: BiasMetrics) =>
  `RR：稳健率（CALM，Ye 等 2025），${m.mode === 'pairwise' ? '胜者（含平局）' : '评分'}在两种条件间没有改变的` +
  `${m.mode === 'pairwise' ? '（条目，顺序）配对' : '回答'}所占比例，附按设计效应调整 n 的 Wilson 95% 置信区间（同一条目的单位并不独立）；` +
  '安慰剂的 RR 是评审重评的一致率，即效应的 RR 所对照的基线。';

function probeCaption(m: BiasMetrics, extra: string): string {
  const unit = m.mode === 'pairwise' ? '较差回答的胜分（胜 1、平 ½、负 0）' : `评分（1–${m.scale}）`;
  return (
    `按评审模型和类别统计的${unit}配对差；同一条目的${m.mode === 'pairwise' ? '两种顺序' : '各回答'}属于一个条目，检验以条目为单位。` +
    '均值及按条目聚类的 t 分布 95% 置信区间（截取到差值可取的范围 ' +
    `${m.mode === 'pairwise' ? '±1' : `±${m.scale - 1}`}；所有差都相同时无定义）、Cohen d_z、` +
    '对条目均值的 Wilcoxon 符号秩检验 p（双侧；n ≤ 50 且无结、无零时为精确检验，否则用带结校正的正态近似），' +
    `以及在每个评审模型 × 类别内的 Holm 校正 p（一个检验族：该类别的探针行${m.mode === 'pairwise' ? '及其位置检验' : ''}；` +
    '类别 “all” 汇总各类别，自成一个检验族，仅在有两个及以上类别时显示）；* = Holm p < 0.05。' +
    (m.mode === 'pairwise'
      ? '翻转：判断转向较差回答的（条目，顺序）配对所占比例（Wilson 95% 置信区间）。'
      : '') +
    rrCaption(m) +
    extra
  );
}

function captionZh(id: string, m: BiasMetrics): string | undefined {
  const c = m.audit.checks;
  switch (id) {
    case 'bias_profile':
      return probeCaption(m, '');
    case 'sensitivity':
      return probeCaption(m, '审核标记了变体的配对不计入。');
    case 'position':
      return (
        '原始配对按两种顺序评判，按条目配对。两次都选第一位／第二位：两种顺序下都选了展示在前（在后）的回答的条目；' +
        '偏向 p：这两个计数的精确 McNemar 检验（在 ½ 处的双侧二项检验），与同一评审模型 × 类别的探针一起做 Holm 校正。' +
        '第一位置率：在两种顺序下都作出判断的条目中选 A 的判断所占比例，½ + (两次都选第一位 − 两次都选第二位) / 2n，' +
        '附按条目两种顺序配对的 Newcombe 95% 置信区间（方法 10）。交换一致性：两种顺序下归一化选择相同的条目所占比例（Wilson 95% 置信区间）。'
      );
    case 'length_correlation':
      return (
        (m.mode === 'pairwise'
          ? '长度差 output_1 − output_2（词元：单词；每个中日韩字符算一个）与 output_1 两种顺序平均胜分的相关：'
          : '长度（词元：单词；每个中日韩字符算一个）与评审评分的相关：') +
        'Pearson 与 Spearman 及双侧 p；在有人工评分的条目上，控制人工评分的偏 Spearman 相关。'
      );
    case 'debiased':
      return m.mode === 'pairwise'
        ? 'output_1 的平均胜分：原始 = 原文、原顺序；去偏 = 两种顺序的平均，在评判过的去 Markdown 文本上。'
        : '平均评分：原始 = 原样的回答；去偏 = 同一回答去掉 Markdown 后（格式探针运行过的地方）。';
    case 'audit':
      return (
        `改写的检查：非空；保留原文的每个数字；长度比在区间内（加长 [${c.longer_band.join(', ')}]，` +
        `缩短 [${c.shorter_band.join(', ')}]，Markdown 为纯文本的 ±${Math.round(c.markdown_tolerance * 100)}%）。` +
        '“无可删减”：改写模型找不到可删的冗余。'
      );
    case 'noise_floor':
      return (
        `把每个效应未改动的一侧再评一次（同一提示${m.mode === 'pairwise' ? '，两种顺序' : ''}）：长度效应为原文，` +
        `Markdown 为纯文本${m.mode === 'pairwise' ? '' : '，位置为后展示的回答'}。安慰剂一行是` +
        `${m.mode === 'pairwise' ? '较差回答的胜分' : `评分（1–${m.scale}）`}的配对差“重复 − 首次”，附按条目聚类的 t 分布 95% 置信区间、` +
        '对条目均值的 Wilcoxon 符号秩检验 p，以及重复时改变的评分数。每个效应列在它的安慰剂下：在两者都有的单位上，把效应的差与安慰剂的差配对：' +
        '效应均值、安慰剂均值，以及超出部分（效应 − 安慰剂）及其 t 分布 95% 置信区间、Cohen d_z、Wilcoxon 符号秩检验 p ' +
        '和 Holm 校正 p；* = Holm p < 0.05。改变：探针改变了评分的单位数与重复时改变的单位数，用以条目为单位的精确 McNemar 检验比较（按条目聚类，条目内符号翻转）；' +
        '|Δ|：探针与重复下的平均绝对变化，用绝对变化配对的 Wilcoxon 符号秩检验比较。每种检验都在每个评审模型 × 类别的各效应间做 Holm 校正。' +
        (m.mode === 'pairwise'
          ? '翻转：重复时判断转向较差回答的（条目，顺序）所占比例（Wilson 95% 置信区间）。'
          : '') +
        rrCaption(m) +
        '效应行的 RR 即其偏差概况行的 RR（全部单位）。'
      );
    case 'accuracy':
      return '每个评审模型、变体和类别下，选中金标准（较好）回答的（条目，顺序）判断所占比例；平局不算正确。Wilson 95% 置信区间。';
    case 'flagged':
      return '审核标记的变体；敏感性表不计入它们的配对。';
    case 'instruction_paraphrases':
      return (
        '每个单位在评审说明的一个改写版本（按条目轮流分配）和原文下各评审一次：平均变化（' +
        (m.mode === 'pairwise' ? '较差回答的胜分' : '评分') +
        '）、判决不同的比例（Wilson 95% 置信区间）' +
        (m.mode === 'pairwise'
          ? '，以及原本未选较差回答、改写后转向它的判决比例（Wilson 95% 置信区间）。'
          : '。')
      );
    case 'own_answers':
      return (
        '恰有一个回答由评审自身模型写成的条目（配置中的评审模型—回答模型对应表；两个都是自身回答的不计入）。' +
        '自胜率：评审对自身回答的胜分（胜 1、平 ½、负 0），每个条目两种顺序平均；人类：人工标签偏好该回答时为 1。' +
        '超出 = 自胜率 − 人类，按条目配对，t 分布 95% 置信区间（截取到 [−100, 100] %）、Wilcoxon 符号秩检验 p，' +
        '其 Holm p 见偏差概况中的该行（属于那个检验族）。长度平衡：自身回答较长（词元）与不较长两层超出的等权平均，Welch t 95% 置信区间与 p。'
      );
    default:
      return undefined;
  }
}

/** A table's words on screen in `lang`; English is the table as the export writes it. */
export const biasTableText = studyTableText<BiasMetrics>({
  titles: TITLES_ZH,
  caption: captionZh,
  headers: HEADERS_ZH,
  cell: (c, text) => CELLS_ZH[c.key]?.[text] ?? UNDEFINED_ZH[text] ?? ownUndefinedZh(text) ?? text,
});
