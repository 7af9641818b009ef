// The self-consistency tables on screen in 中文: titles, captions, column headers and the few
// fixed words in cells. The table model itself (what the exports write) stays English; judge
// labels, categories and item ids are data.
import type { SelfConsistencyMetrics } from '../../../../shared/protocols/self-consistency/types';
import { COMMON_HEADERS_ZH, FIRST_POSITION_HEADERS_ZH, studyTableText } from '../../kits/table-text';

const TITLES_ZH: Record<string, string> = {
  stability: '稳定性：评审模型与自己不一致的频率',
  accuracy_by_k: '一次重复与 k 次重复多数投票的准确率',
  position_by_k: '每种顺序 k 次重复时的位置一致性',
  agreement_histogram: '每道题的一致程度',
  unstable: '不稳定的题目',
  failures: '失败的重复',
};

const HEADERS_ZH: Record<string, string> = {
  ...COMMON_HEADERS_ZH,
  ...FIRST_POSITION_HEADERS_ZH,
  condition: '温度',
  category: '类别',
  questions: '题目数',
  unanimous_rate: '全体一致',
  unanimous_rate_ci: '95% 置信区间',
  disagree_prob: '不一致概率',
  disagree_prob_ci: '95% 置信区间',
  fleiss_kappa: 'Fleiss κ',
  complete: '完整题目',
  within_sd: '题内标准差',
  icc1: 'ICC(1)',
  icc1_ci: 'ICC 95% 置信区间',
  asked: '提问次数',
  failed: '失败',
  accuracy: '准确率',
  accuracy_ci: '95% 置信区间',
  single_mean: '单次平均',
  n: '题目数',
  consistency: '一致',
  consistency_ci: '95% 置信区间',
  lean_p_holm: 'Holm p',
  modal: '一致的重复次数',
  item_id: '条目',
  order: '顺序',
  verdicts: '判断',
  distinct: '不同判断数',
  reason: '原因',
  count: '次数',
};

function captionZh(id: string, m: SelfConsistencyMetrics): string | undefined {
  switch (id) {
    case 'stability':
      return (
        `每道题（条目${m.mode === 'pairwise' ? ' × 顺序' : ''}）以同一请求提问 ${m.repeats} 次。全体一致：有效重复 ≥ 2 次的题目中，` +
        '所有重复结果相同的比例。不一致概率：同一题两次重复结果不同的概率，对题目取平均。两者均附按条目聚类的百分位自助法 ' +
        `95% 置信区间（B = ${m.statistics.bootstrap_b}）。Fleiss κ：以各次重复为评分者，在完整题目（每次重复都有效）上计算` +
        (m.mode === 'pointwise'
          ? '；题内标准差：每道题评分的标准差的平均；ICC(1)：单向随机、单次评分，基于 F 分布的 95% 置信区间。'
          : '。') +
        '失败：没有可用回答的重复（每一行都计入）。'
      );
    case 'accuracy_by_k':
      return (
        '有标准答案的完整题目（每个 k 都是同一批题目），全部类别及各个类别。' +
        (m.mode === 'pairwise'
          ? '多数：前 k 次重复中最常见的选择；票数相同（可能出现平局）算作错误。'
          : '多数：前 k 次重复评分的中位数，与四舍五入后的人工评分比较。') +
        '仅取奇数 k。单次平均：一次重复的准确率对所有重复序号取平均。按条目聚类的自助法 95% 置信区间。'
      );
    case 'position_by_k':
      return (
        '两种顺序的所有重复都有效的条目：前 k 次重复的多数选择在两种顺序下相同的比例（票数相同算不一致）；Wilson 95% 置信区间。单次平均：每种顺序一次重复，对重复序号取平均。' +
        'k 次投票多数的位置偏向按条目配对检验：多数在两种顺序下都选展示在前的回答的条目对都选在后的条目；偏向 p：精确 McNemar 检验，Holm：在全表内校正。' +
        '第一位置率：在两种顺序下都有判断的条目上为 ½ + (两次都选第一位 − 两次都选第二位) / 2n，附 Newcombe 配对 95% 置信区间（方法 10）。'
      );
    case 'agreement_histogram':
      return `按 ${m.repeats} 次重复中给出最常见判断的次数统计的完整题目数。`;
    case 'unstable':
      return '有效重复结果不完全一致的题目；判断按样本顺序列出（× = 没有可用回答）。';
    case 'failures':
      return '重试后仍没有可用回答的重复，按评审模型、温度和原因统计。';
    default:
      return undefined;
  }
}

/** A table's words on screen in `lang`; English is the table as the export writes it. */
export const scTableText = studyTableText<SelfConsistencyMetrics>({
  titles: TITLES_ZH,
  caption: captionZh,
  headers: HEADERS_ZH,
  cell: (c, text) =>
    text
      .replace(/^judge's own \(provider default\)$/, '自身设置（服务商默认）')
      .replace(/^judge's own \(T=(.+)\)$/, '自身设置（T=$1）')
      .replace(/^judge's own$/, '自身设置')
      .replace(/^undefined \((.*)\)$/, (_m, why: string) => `无定义（${WHY_ZH[why] ?? why}）`)
      .replace(/^judge$/, c.key === 'role' ? '评审模型' : 'judge'),
});

const WHY_ZH: Record<string, string> = {
  'fewer than 2 complete questions': '完整题目少于 2 道',
  'one verdict everywhere': '所有判断相同',
  'every resample gives the same value': '每次重抽样的值都相同',
  'no items': '没有条目',
  'no variation between repeats': '各次重复之间没有差异',
  'every score equal': '所有评分相同',
  'fewer than 2 valid repeats': '有效重复少于 2 次',
  'no data': '没有数据',
};
