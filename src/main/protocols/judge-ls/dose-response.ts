// Judge-LS's dose–response (issue 37): flips against English at several mixing ratios of one
// code-switched pair (`LS:hi@0`, `LS:hi@25`, …), per judge, over the ratio measured on the text
// judged (shared/text/mixing.ts), not the ratio asked for.
//
// Pairs are (item, order) valid in EN and in the mixed target, as in the invariance table, whose
// text has content words (a measured ratio). A level's flip rate has Wilson's interval and the
// item-clustered bootstrap's. The trend is the slope of flips on the measured ratio over every
// level of the series (stats/trend.ts): an item is judged at every ratio and in both orders against
// one English verdict, so its pairs are one cluster — the test is the slope's cluster-robust t test
// (Cochran–Armitage's trend test with a variance that holds for repeated items), Holm-adjusted
// across the table (every judge × series).
import type {
  DoseLevelRow,
  DoseResponseMetrics,
  DoseTrendRow,
  JudgeLsMetrics,
  JudgmentRecord,
} from '../../../shared/protocols/judge-ls/types';
import { designSection, type MethodsSection } from '../../../shared/paper/methods';
import { canonicalTargets, mixingOf } from '../../../shared/protocols/judge-ls/languages';
import {
  clusterBootstrapRatio,
  clusteredLinearTrend,
  clusteredSlopeBootstrap,
  holmAdjust,
  intervalFields,
  RANGE,
  ruledBootstrap,
  ruleInterval,
  wilsonInterval,
  type TrendObservation,
} from '../../../shared/stats';
import { MIXING_MEASURE, mixingRatio, type MixingCount } from '../../../shared/text/mixing';
import type { MetricsContext } from '../plugin';
import type { JudgeTask } from './model';
import { normalizeChoice } from './parse';

export const DOSE_METHOD =
  'flip (EN vs the mixed text, same item and order) on the measured ratio: linear probability slope by least squares; cluster-robust (CR1, items) t test and interval on items − 1 df, Holm across judges × series; item-clustered percentile bootstrap interval beside it';

/** Why a t interval clipped to [−1, 1] has no width left. */
export const SLOPE_OUT_OF_RANGE = 'the t interval lies wholly outside the slope’s range [−1, 1]';

const key = (judge: string, itemId: string, language: string) => `${judge}\u0000${itemId}\u0000${language}`;

/** The measured content words of every verdict on a mixed text, by judge, item and target. */
export function mixingOfVerdicts(ctx: Pick<MetricsContext, 'results'>): Map<string, MixingCount> {
  const out = new Map<string, MixingCount>();
  for (const r of ctx.results) {
    if (r.stage !== 'judge') continue;
    const m = r.meta as JudgeTask['meta'];
    if (m.mixing && m.kind === 'quality') out.set(key(m.judge, m.sourceId, m.language), m.mixing);
  }
  return out;
}

/** The mixed targets of a study's languages, in canonical order (none: no dose–response). */
export function mixedTargets(languages: readonly string[]): string[] {
  return canonicalTargets(languages).filter((l) => mixingOf(l) !== null);
}

interface Obs {
  item: string;
  x: number;
  flipped: boolean;
}

const boolSum = (xs: readonly Obs[]) => xs.reduce((s, o) => s + (o.flipped ? 1 : 0), 0);

export function doseResponse(
  firsts: readonly JudgmentRecord[],
  judges: readonly string[],
  targets: readonly string[],
  mixing: ReadonlyMap<string, MixingCount>,
  boot: { B: number; seed: number },
): DoseResponseMetrics {
  const valid = firsts.filter((r) => r.kind === 'quality' && r.status === 'ok' && r.winner);
  const choice = (r: JudgmentRecord) => normalizeChoice(r.order as 'orig' | 'swap', r.winner!);
  const series = [...new Set(targets.map((t) => mixingOf(t)!.series))];
  const levels: DoseLevelRow[] = [];
  const trend: DoseTrendRow[] = [];
  for (const judge of judges) {
    const mine = valid.filter((r) => r.judge === judge);
    const en = new Map(mine.filter((r) => r.language === 'EN').map((r) => [`${r.itemId}:${r.order}`, r]));
    for (const s of series) {
      const all: TrendObservation[] = [];
      let levelCount = 0;
      for (const target of targets.filter((t) => mixingOf(t)!.series === s)) {
        const obs: Obs[] = [];
        for (const r of mine) {
          if (r.language !== target) continue;
          const e = en.get(`${r.itemId}:${r.order}`);
          const count = mixing.get(key(judge, r.itemId, target));
          const x = count ? mixingRatio(count) : null;
          if (!e || x === null) continue;
          obs.push({ item: r.itemId, x, flipped: choice(e) !== choice(r) });
        }
        if (obs.length === 0) continue;
        levelCount++;
        const flips = boolSum(obs);
        const xs = obs.map((o) => o.x);
        const byItem = new Map<string, { num: number; den: number }>();
        for (const o of obs) {
          const c = byItem.get(o.item) ?? { num: 0, den: 0 };
          c.num += o.flipped ? 1 : 0;
          c.den++;
          byItem.set(o.item, c);
        }
        levels.push({
          judge,
          series: s,
          target,
          asked_ratio: mixingOf(target)!.ratio,
          measured_ratio: xs.reduce((a, b) => a + b, 0) / xs.length,
          measured_min: Math.min(...xs),
          measured_max: Math.max(...xs),
          n: obs.length,
          flips,
          flip_rate: flips / obs.length,
          flip_rate_ci: wilsonInterval(flips, obs.length),
          ...intervalFields(
            'flip_rate_ci_boot',
            ruledBootstrap(clusterBootstrapRatio([...byItem.values()], boot), RANGE.proportion),
          ),
        });
        for (const o of obs) all.push({ cluster: o.item, x: o.x, y: o.flipped ? 1 : 0 });
      }
      if (all.length === 0) continue;
      const t = clusteredLinearTrend(all);
      const testReason = t.slope_undefined_reason ?? t.test_undefined_reason;
      const wald = ruleInterval(t.ci, RANGE.rateDifference, {
        none: testReason ?? 'no interval',
        // The t interval has a width; only clipping to the slope's range can close it.
        zeroWidth: SLOPE_OUT_OF_RANGE,
      });
      const bootCi =
        t.slope === null
          ? { ci: null, reason: t.slope_undefined_reason! }
          : ruledBootstrap(clusteredSlopeBootstrap(all, boot), RANGE.rateDifference);
      trend.push({
        judge,
        series: s,
        n: t.n,
        items: t.clusters,
        levels: levelCount,
        intercept: t.intercept,
        slope: t.slope,
        ...(t.slope_undefined_reason ? { slope_undefined_reason: t.slope_undefined_reason } : {}),
        ...intervalFields('slope_ci', wald),
        slope_p: t.p,
        ...(t.p === null ? { slope_p_undefined_reason: testReason ?? 'no test' } : {}),
        slope_p_holm: null,
        ...intervalFields('slope_ci_boot', bootCi),
      });
    }
  }
  // Holm across the table (every judge × series): the family a reader scans.
  const adjusted = holmAdjust(trend.map((r) => r.slope_p));
  trend.forEach((r, i) => (r.slope_p_holm = adjusted[i]));
  return { measure: MIXING_MEASURE, method: DOSE_METHOD, levels, trend };
}

/** A percentage for the Methods text ("38.4 %" / undefined with why). */
function points(x: number | null, lang: 'en' | 'zh', why?: string): string {
  if (x === null) return lang === 'zh' ? `未定义（${why ?? '无值'}）` : `undefined (${why ?? 'no value'})`;
  return `${(x * 100).toFixed(1)}`;
}

/** The Methods section of the dose–response (none without it). */
export function doseResponseMethods(metrics: JudgeLsMetrics, lang: 'en' | 'zh'): MethodsSection[] {
  const d = metrics.dose_response;
  if (!d) return [];
  const zh = lang === 'zh';
  const levels = [...new Set(d.levels.map((l) => l.target))].join(', ');
  const rows = d.trend.map((r) => {
    const ci = r.slope_ci
      ? `[${points(r.slope_ci[0], lang)}, ${points(r.slope_ci[1], lang)}]`
      : points(null, lang, r.slope_ci_undefined_reason);
    const p =
      r.slope_p_holm === null
        ? points(null, lang, r.slope_p_undefined_reason)
        : r.slope_p_holm.toPrecision(3);
    return zh
      ? `${r.judge}，${r.series}：斜率 ${points(r.slope, lang, r.slope_undefined_reason)} 个百分点（95% 置信区间 ${ci}；Holm 校正 p = ${p}；${r.items} 个条目，n = ${r.n}）`
      : `${r.judge}, ${r.series}: slope ${points(r.slope, lang, r.slope_undefined_reason)} points (95% CI ${ci}; Holm p = ${p}; ${r.items} items, n = ${r.n})`;
  });
  return [
    designSection(
      'judge-ls.dose-response',
      { en: 'Dose–response (mixing ratio)', zh: '剂量–反应（混合比例）' },
      {
        en: `Code-switched versions were requested at several mixing ratios (${levels}: the percentage of content words in the second language). The ratio was measured on each text judged as the share of its content words in the second language (word segments of Intl.Segmenter holding a letter, code, URLs and e-mail addresses left out; a word counts by its script, or, for a language written in the Latin script, as a Latin word absent from the English source). Per judge, flips against the English verdict (same item and order) were regressed on the measured ratio over all levels (linear probability model; slope = change in flip rate from ratio 0 to 1, in points); because every item is judged at every ratio, its verdicts form one cluster: cluster-robust (CR1) standard errors over items, a t test on items − 1 degrees of freedom, Holm's adjustment across judges × language pairs, and an item-clustered percentile bootstrap interval beside it.`,
        zh: `语码转换版本按若干混合比例生成（${levels}：第二语言实词的百分比）。比例在每个被评判的文本上实测，即其实词中第二语言所占比例（Intl.Segmenter 切出的含字母的词，不计代码、网址和电子邮件地址；按文字判断，拉丁字母书写的语言则以英文原文中没有的拉丁字母词计）。对每个评审模型，将相对英文判断（同一条目、同一顺序）的翻转对所有比例档的实测比例做回归（线性概率模型；斜率为比例从 0 到 1 时翻转率的变化，单位为百分点）；由于每个条目在每个比例下都被评判，其判断构成一个聚类：按条目的聚类稳健（CR1）标准误，自由度为条目数 − 1 的 t 检验，在评审 × 语言对之间做 Holm 校正，并给出按条目聚类的百分位自助法区间。`,
      },
      lang,
      rows,
    ),
  ];
}
