// The statistics glossary's words, EN and 中文, as their own i18next namespace ('glossary').
// Importing this module registers them.
import { i18next } from '../i18n';

export const GLOSSARY_NS = 'glossary';

const en = {
  title: 'Statistics glossary',
  open: 'What is {{term}}?',
  close: 'Close',
  others: 'Other entries',
  validation: 'How it behaves in simulation (coverage, error rates, power; rerun with npm run validate):',
  entries: {
    wilson: {
      term: 'Wilson 95% CI',
      body: 'The range the true rate is likely in, given how many items were judged: [low, high] in percent. It is computed with the Wilson score method, which stays sensible for small n and for rates near 0% or 100%. Two rates whose intervals overlap widely may not really differ; with few items the interval is wide.',
    },
    tieHalfCi: {
      term: 'Tie-half 95% CI (Wilson score on the mean)',
      body: 'The interval of tie-half accuracy: the Wilson score interval applied to the mean score (1 right, ½ tie, 0 wrong) with n = the number of verdicts. A score between 0 and 1 varies at most as much as a right/wrong answer at the same mean (Bhatia & Davis 2000), so the interval is a little wide rather than too narrow, and it keeps a width at 0% and 100%. Without ties it equals the strict Wilson interval.',
    },
    newcombe: {
      term: 'Newcombe paired-difference 95% CI',
      body: 'The interval of a difference between two rates measured on the same items (e.g. target-language minus English accuracy): Newcombe’s (1998) method 10, which combines the Wilson intervals of both rates with the correlation of the paired answers (with Newcombe’s continuity correction). It stays inside −100 to +100 points and is trustworthy for small n.',
    },
    tMeanCi: {
      term: 'Mean paired difference 95% CI (t)',
      body: 'The interval of a mean of paired differences (e.g. a score on the longer variant minus the score on the original, or an effect minus the judge’s own repeat change): mean ± t(0.975, n − 1) · SD/√n, cut back to what a difference can take (± the scale’s span; ±1 for win scores). When every difference is equal there is no spread to estimate and the table says “undefined”.',
    },
    kappaCi: {
      term: 'κ 95% CI',
      body: 'κ ± 1.96 standard errors, with the large-sample standard error of Fleiss, Cohen & Everitt (1969), as statsmodels computes it, cut back to κ’s range [−1, 1] (with few items κ ± 1.96 SE can pass 1). When one side gives the same rating to every item, κ’s variance is 0 and there is no interval: the table says “undefined (one side constant)”. Large-sample means large: with weights on a 1–5 scale at κ near 0.9 it covered 81–85 % with 30–74 items and 92.5 % with 500 (VALIDATION.md, end to end and weighted-kappa).',
    },
    fisherZ: {
      term: 'ρ 95% CI (jackknife, Fisher z)',
      body: 'The interval of Spearman’s ρ: tanh(atanh ρ ± t(0.975, n − 1)·SE), SE the jackknife standard error of atanh ρ: ρ recomputed without each item in turn, SE = √((n − 1)/n · Σ(zᵢ − z̄)²) (Quenouille–Tukey; Efron & Tibshirani 1993, ch. 11; Miller 1974). The spread is measured from the ratings, not assumed: the Bonett & Wright (2000) formula it replaced, (1 + ρ²/2)/(n − 3), is the bivariate normal’s, and on 1–5 ratings where a judge gives either the true score or a random one ρ varies about twice as much, so that interval covered only 87–89 % at ρ 0.63, 76–78 % at 0.81 and 63–66 % at 0.9. The jackknife covers 93–97 % there and on normal data from 30 to 500 items (VALIDATION.md, spearman-fisher-z). It needs at least 4 items. No interval (“undefined”, with the reason) at ρ = ±1, when without one item ρ is ±1 (the data cannot show how ρ varies: at ρ 0.9 on 1–5 ratings in 23 % of 30-item samples, 6 % of 50-item ones), or when ρ is the same without any item; when one side is constant, ρ itself is undefined.',
    },
    tieHalf: {
      term: 'Tie-half accuracy',
      body: 'Accuracy where a tie counts as half right. Strict accuracy counts a tie as wrong. A judge that says “tie” often looks worse under strict accuracy and in between under tie-half; report the one your study fixed in advance.',
    },
    mcnemar: {
      term: 'McNemar test',
      body: 'A test for paired answers: the same items judged in two conditions (e.g. English and Chinese). It looks only at the items whose correctness changed, counting right→wrong against wrong→right. A small p means the change is unlikely to be chance alone. It says nothing about how large the change is: read the rates and their CIs for that.',
    },
    position: {
      term: 'Position inconsistency',
      body: 'The share of items where the judge’s choice depends on the order the two answers are shown: it picks one answer first, then the other when they are swapped. A consistent judge picks the same answer (or a tie) both ways. A lean to one position shows in the inconsistent items only: “both first” items (the answer shown first chosen in both orders) against “both second” items. The lean p is the exact McNemar test of those two counts (consistent items give one “first” and one “second” and cancel); counting all verdicts as independent would hide a lean on a few items among many consistent ones.',
    },
    multiple: {
      term: 'Many comparisons',
      body: 'Each p-value is for one comparison. With many judges, languages and subsets, some p-values fall below 0.05 by chance alone (about 1 in 20 when nothing differs). Decide in advance which comparisons matter, or adjust the p-values (e.g. with Holm’s method) before calling a difference significant. The p-values shown here are not adjusted.',
    },
    holm: {
      term: 'Holm correction',
      body: 'A way to adjust p-values for many comparisons: sort the m p-values from smallest to largest, multiply the k-th smallest by (m − k + 1), and keep each adjusted value at least as large as the one before. It controls the chance of any false finding and is never worse than Bonferroni.',
    },
    kappa: {
      term: 'Cohen’s κ',
      body: 'Agreement between two raters (e.g. a judge and people) beyond what chance would give: 1 is perfect agreement, 0 is what chance alone gives, below 0 is worse than chance. It is lower than plain agreement when one answer is much more common than the other.',
    },
    power: {
      term: 'Power and the smallest detectable effect',
      body: 'Before a run: the smallest effect the chosen items detect with 80% probability (power) at two-sided α = 0.05, and the items an effect you type needs. Each comparison uses the power of the test its table reports. Exact McNemar (paired proportions, e.g. EN→target accuracy): power = Σ_d Bin(d; n, ψ) · P(exact binomial test on d discordant pairs rejects), ψ the share of pairs whose correctness differs (Suissa & Shuster 1991). Exact binomial (a flip rate against a reference rate p0): the probability of the test’s rejection region under the planned rate. Paired t: the noncentral t with noncentrality d_z·√n (Cohen 1988). Wilcoxon signed-rank: the t’s figure at n·3/π pairs, its asymptotic relative efficiency under normal differences (Noether 1987). Human agreement: the items for the Fisher-z interval of ρ, tanh(atanh ρ ± 1.96/√(n − 3)), to exclude 0.8. Rates come from an earlier run of the same judges when there is one (said which); otherwise they are defaults, marked so.',
    },
    flips: {
      term: 'Flips',
      body: 'A flip is an item where the judge’s verdict changes between two conditions (e.g. the English and the Chinese text): it prefers the other answer, or switches to or from a tie. A correctness flip is a flip that changes whether the verdict matches the gold label. Flips count changes in both directions, so a judge can flip often while its accuracy stays the same.',
    },
  },
};

const zh: typeof en = {
  title: '统计术语表',
  open: '什么是{{term}}？',
  close: '关闭',
  others: '其他条目',
  validation: '模拟中的表现（覆盖率、错误率、功效；可用 npm run validate 重新运行）：',
  entries: {
    wilson: {
      term: 'Wilson 95% 置信区间',
      body: '在已评审条目数量下，真实比率很可能所在的范围：[下限, 上限]，单位为百分比。采用 Wilson 评分法计算，在 n 较小或比率接近 0% 或 100% 时依然合理。两个比率的区间大幅重叠时，它们未必真的不同；条目越少，区间越宽。',
    },
    tieHalfCi: {
      term: '平局折半 95% 置信区间（均值上的 Wilson 评分区间）',
      body: '平局折半准确率的区间：对平均得分（答对 1、平局 ½、答错 0）套用 Wilson 评分区间，n 为判断数。取值在 0 到 1 之间的得分，其方差不超过同均值下对/错回答的方差（Bhatia & Davis 2000），因此区间宁宽勿窄，在 0% 和 100% 时也保有宽度。没有平局时与严格准确率的 Wilson 区间相同。',
    },
    newcombe: {
      term: 'Newcombe 配对差 95% 置信区间',
      body: '同一批条目上两个比率之差的区间（例如目标语言准确率减英文准确率）：Newcombe（1998）方法 10，把两个比率的 Wilson 区间与配对回答的相关（含 Newcombe 的连续性校正）结合起来。区间不超出 −100 到 +100 个百分点，n 较小时也可靠。',
    },
    tMeanCi: {
      term: '配对差均值 95% 置信区间（t）',
      body: '配对差均值的区间（例如加长变体的评分减原文的评分，或某效应减评审自身重复作答的变动）：均值 ± t(0.975, n − 1) · 标准差/√n，截取到差值可取的范围（± 量表跨度；胜分为 ±1）。所有差都相同时无从估计离散程度，表格显示“未定义”。',
    },
    kappaCi: {
      term: 'κ 95% 置信区间',
      body: 'κ ± 1.96 个标准误，标准误采用 Fleiss、Cohen 与 Everitt（1969）的大样本公式，与 statsmodels 相同，并截取到 κ 的取值范围 [−1, 1]（条目少时 κ ± 1.96 SE 可能超过 1）。若一方对所有条目给出同一评分，κ 的方差为 0，没有区间：表中显示“无定义（一方恒定）”。大样本公式需要真正的大样本：在 1–5 分量表上加权、κ 接近 0.9 时，30–74 个条目的覆盖率为 81–85 %，500 个条目时为 92.5 %（VALIDATION.md，端到端与 weighted-kappa）。',
    },
    fisherZ: {
      term: 'ρ 95% 置信区间（刀切法，Fisher z）',
      body: 'Spearman ρ 的区间：tanh(atanh ρ ± t(0.975, n − 1)·SE)，SE 为 atanh ρ 的刀切法（jackknife）标准误：依次去掉每个条目重新计算 ρ，SE = √((n − 1)/n · Σ(zᵢ − z̄)²)（Quenouille–Tukey；Efron 与 Tibshirani 1993，第 11 章；Miller 1974）。离散程度由评分本身测得，而非假定：它取代的 Bonett 与 Wright（2000）公式 (1 + ρ²/2)/(n − 3) 是二元正态的方差；在 1–5 分量表上，若评审模型要么给出真实分数、要么随机给分，ρ 的波动约为其两倍，该区间的覆盖率在 ρ 0.63 时只有 87–89 %，0.81 时 76–78 %，0.9 时 63–66 %。刀切法在这些评分上以及 30 到 500 个条目的正态数据上覆盖 93–97 %（VALIDATION.md，spearman-fisher-z）。至少需要 4 个条目。ρ = ±1、去掉某一个条目后 ρ = ±1（数据无法显示 ρ 的波动；在 ρ 0.9 的 1–5 分评分上，30 个条目的样本中占 23 %，50 个条目时占 6 %）、或去掉任一条目 ρ 都不变时，没有区间（“无定义”，并说明原因）；一方恒定时 ρ 本身无定义。',
    },
    tieHalf: {
      term: '平局折半准确率',
      body: '把平局算作答对一半的准确率。严格准确率把平局算作答错。经常判平局的评审模型在严格准确率下显得更差，在平局折半下居中；请报告研究事先确定的那一种。',
    },
    mcnemar: {
      term: 'McNemar 检验',
      body: '用于配对回答的检验：同一批条目在两种条件下被评审（例如英文和中文）。它只看正确性发生变化的条目，比较“对→错”和“错→对”的数量。p 值小说明这种变化不太可能只是偶然。它不说明变化有多大：请看比率及其置信区间。',
    },
    position: {
      term: '位置不一致率',
      body: '评审模型的选择取决于两个回答的展示顺序的条目所占比例：先选了一个回答，交换顺序后又选了另一个。一致的评审模型在两种顺序下选择同一个回答（或都判平局）。位置偏向只体现在不一致的条目上：“两次都选第一位”的条目（两种顺序下都选了展示在前的回答）对“两次都选第二位”的条目。偏向 p 是这两个计数的精确 McNemar 检验（一致的条目各贡献一次“第一位”和一次“第二位”，相互抵消）；把所有判断当作独立样本会把少数条目上的偏向淹没在大量一致条目之中。',
    },
    multiple: {
      term: '多重比较',
      body: '每个 p 值只对应一次比较。评审模型、语言和子集很多时，即使什么都没有差别，也会有一些 p 值偶然低于 0.05（大约二十分之一）。请事先确定哪些比较重要，或在称差异显著之前先校正 p 值（例如用 Holm 方法）。这里显示的 p 值未经校正。',
    },
    holm: {
      term: 'Holm 校正',
      body: '一种针对多重比较校正 p 值的方法：把 m 个 p 值从小到大排序，第 k 小的乘以 (m − k + 1)，并保证每个校正后的值不小于前一个。它控制出现任何一个假阳性的概率，且从不比 Bonferroni 更保守。',
    },
    kappa: {
      term: 'Cohen’s κ',
      body: '两位评分者（例如评审模型与人）之间超出偶然水平的一致性：1 表示完全一致，0 表示与偶然相同，小于 0 表示比偶然还差。当某一种回答远比另一种常见时，它会低于单纯的一致率。',
    },
    power: {
      term: '统计功效与最小可检测效应',
      body: '运行之前：所选条目在双侧 α = 0.05 下以 80% 概率（功效）能检测出的最小效应，以及你输入的效应所需的条目数。每个比较使用其表格所报告检验的功效。精确 McNemar 检验（配对比例，例如英文→目标语言的准确率）：功效 = Σ_d Bin(d; n, ψ) · P(对 d 个不一致对的精确二项检验拒绝)，ψ 为正确性不同的配对所占比例（Suissa & Shuster 1991）。精确二项检验（翻转率对参照比率 p0）：计划比率下检验拒绝域的概率。配对 t 检验：非中心参数为 d_z·√n 的非中心 t 分布（Cohen 1988）。Wilcoxon 符号秩检验：取 t 检验在 n·3/π 对时的结果，即正态差值下的渐近相对效率（Noether 1987）。人工一致性：使 ρ 的 Fisher-z 区间 tanh(atanh ρ ± 1.96/√(n − 3)) 不含 0.8 所需的条目数。若同一批评审模型此前运行过，比率取自那次运行（并注明）；否则为默认值，并如此标注。',
    },
    flips: {
      term: '翻转',
      body: '翻转是指评审模型的判断在两种条件下（例如英文文本和中文文本）发生变化的条目：改选另一个回答，或变成平局、从平局变出。正确性翻转是改变了判断是否与标准答案一致的翻转。翻转统计两个方向的变化，所以一个评审模型可能经常翻转而准确率不变。',
    },
  },
};

i18next.addResourceBundle('en', GLOSSARY_NS, en, true, true);
i18next.addResourceBundle('zh', GLOSSARY_NS, zh, true, true);
