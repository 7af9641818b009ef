// The words of an interval that does not exist, in 中文, for the screen: the tables and files say
// "undefined (reason)" in English (src/shared/stats/interval-rule.ts); a 中文 page shows
// "无定义（…）" with the reason in 中文, the same text the report card and agreement page use.
/** Reasons an interval does not exist, as the metrics give them, in 中文. */
export const UNDEFINED_REASONS_ZH: Record<string, string> = {
  'no items': '没有条目',
  'every resample gives the same value': '每次重抽样的值都相同',
  'one difference only': '只有一个差',
  'every difference is equal, so the t interval has no width to estimate':
    '所有差都相同，t 区间没有可估计的宽度',
  'every difference comes from one item': '所有差都来自同一个条目',
  "every item's differences average to the overall mean, so the item-clustered interval has no width to estimate":
    '每个条目的差的均值都等于总均值，按条目聚类的区间没有可估计的宽度',
  'no question with both verdicts valid': '没有两个判断都有效的问题',
  'one side constant': '一方恒定',
  'variance 0': '方差为 0',
  // The dose–response trend (stats/trend.ts TREND_REASONS).
  'no observations': '没有观测',
  'the measured ratios do not vary': '实测比例没有变化',
  'one item only: a cluster-robust variance needs two': '只有一个条目：聚类稳健方差至少需要两个',
  'standard error 0 (every outcome lies on the fitted line, e.g. no flip at any ratio)':
    '标准误为 0（每个结果都落在拟合线上，例如任何比例下都没有翻转）',
  'the t interval lies wholly outside the slope’s range [−1, 1]': 't 区间完全落在斜率的取值范围 [−1, 1] 之外',
};

/** "undefined (reason)" in 中文, "无定义（…）"; any other text as it is. */
export function undefinedTextZh(text: string): string {
  const m = /^undefined \((.*)\)$/.exec(text);
  return m ? `无定义（${UNDEFINED_REASONS_ZH[m[1]] ?? m[1]}）` : text;
}
