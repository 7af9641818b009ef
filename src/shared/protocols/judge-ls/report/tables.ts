// The Judge-LS tables of DESIGN.md section 8 (and the dashboard's): content for the generic
// table model of src/shared/report/table.ts.
import type {
  Comparison,
  InvarianceRow,
  JudgeLsMetrics,
  Language,
  MetricsStatistics,
  PositionRow,
  QualityRow,
  TieProbeRow,
} from '../types';
import { tieProbeTarget } from '../types';
import { targetName } from '../languages';
import { col, intervalCell, type PFamily, type Table, type TableRow } from '../../../report/table';
import type { CI } from '../../../report/format';
import { rateColumns, keyColumns, N_COLUMN, numberColumn, countColumns } from '../../../report/columns';
import { positionLeanColumns, repeatFloorColumns, repeatFloorMethods } from '../../../report/paired-tables';
import { failureNote, missingComparison, qualityCoverage } from './coverage';
import { TIE_HALF_METHOD } from '../../../stats/intervals';
import { REPEAT_COMPARISON } from '../choice';
import { verificationTables } from './verification';
import { doseResponseTables } from './dose-response';

const LANGUAGES: Language[] = ['EN', 'ZH', 'LS'];
const COMPARISONS: Comparison[] = ['EN-ZH', 'EN-LS'];

/** Judges in the order they first appear in the metrics, so every table lists them alike. */
export function judgeOrder(metrics: JudgeLsMetrics): string[] {
  const seen = new Set<string>();
  const groups: { judge: string }[][] = [
    metrics.quality,
    metrics.language_invariance,
    metrics.position,
    metrics.tie_probe,
    metrics.subset_quality,
    metrics.subset_flip,
  ];
  for (const rows of groups) for (const r of rows) seen.add(r.judge);
  // A judge whose every verdict failed has no metrics row, but it was run: list it.
  for (const f of metrics.failures) if (f.kind !== 'transform') seen.add(f.judge);
  return [...seen];
}

function sortRows<T extends { judge: string }>(
  rows: T[],
  judges: string[],
  secondary: (r: T) => number,
): T[] {
  return [...rows].sort(
    (a, b) => judges.indexOf(a.judge) - judges.indexOf(b.judge) || secondary(a) - secondary(b),
  );
}

// Other targets (issue 37) after EN, ZH and LS, in the metrics' own order (the sort is stable).
const rankIn = <T>(list: T[], x: T) => (list.includes(x) ? list.indexOf(x) : list.length);
const byLanguage = (r: { language: Language }) => rankIn(LANGUAGES, r.language);
const byComparison = (r: { comparison: Comparison }) => rankIn(COMPARISONS, r.comparison);

/** The note column, present only when some row says why it has no values. */
const NOTE = col('note', 'Note', 'text');
const withNote = (columns: Table['columns'], rows: TableRow[]) =>
  rows.some((r) => r.note) ? [...columns, NOTE] : columns;

/** "no valid verdicts (360 failed, see failures)": a row that stands where numbers would be. */
const noValid = (failed: number) => `no valid verdicts (${failed} failed, see failures)`;

function qualityTable(metrics: JudgeLsMetrics, judges: string[]): Table {
  // A judge and language whose every answered verdict failed keeps its row, saying so.
  const empty: TableRow[] = qualityCoverage(metrics)
    .filter((c) => c.usable === 0)
    .map((c) => ({ judge: c.judge, language: c.language, n: 0, note: noValid(c.failed) }));
  const rows = sortRows<TableRow & { judge: string; language: Language }>(
    [
      ...metrics.quality.map((r) => ({
        ...r,
        accuracy_strict_ci: intervalCell(r.accuracy_strict_ci, r.accuracy_strict_ci_undefined_reason),
      })),
      ...(empty as (TableRow & { judge: string; language: Language })[]),
    ],
    judges,
    byLanguage,
  );
  const note = failureNote(metrics);
  return {
    id: 'quality',
    title: 'Judge accuracy by language',
    caption:
      'Pairwise judge accuracy (%) per language, both answer orders pooled. Strict: a tie counts as wrong ' +
      `(${intervalName(metrics)}); tie-half: a tie counts 0.5 (${TIE_HALF_METHOD}). Position A: share of raw ` +
      'verdicts for the first-shown answer.' +
      (note ? ` ${note}` : ''),
    columns: withNote(
      [
        ...keyColumns('judge', 'language'),
        N_COLUMN,
        ...rateColumns('accuracy_strict', 'Acc. strict', { method: intervalShortName(metrics) }),
        ...rateColumns('accuracy_tie_half', 'Acc. tie-half', { method: TIE_HALF_SHORT }),
        col('position_a_rate', 'Position A', 'pct'),
        col('tie_rate', 'Ties', 'pct'),
      ],
      rows,
    ),
    rows,
  };
}

function invarianceTable(metrics: JudgeLsMetrics, judges: string[]): Table {
  // A comparison with no valid pair because one side has no valid verdict keeps its row.
  const empty: (TableRow & { judge: string; comparison: Comparison })[] = [];
  for (const judge of judges) {
    for (const comparison of COMPARISONS) {
      const why = missingComparison(metrics, judge, comparison);
      if (!why) continue;
      const failed = why.coverage.filter((c) => c.usable === 0).reduce((n, c) => n + c.failed, 0);
      empty.push({
        judge,
        comparison,
        n: 0,
        note: `no valid verdicts in ${why.empty.join(' and ')} (${failed} failed, see failures)`,
      });
    }
  }
  const rows = sortRows<TableRow & { judge: string; comparison: Comparison }>(
    [
      ...metrics.language_invariance.map((r) => ({
        ...r,
        flip_rate_ci: intervalCell(r.flip_rate_ci, r.flip_rate_ci_undefined_reason),
        correctness_flip_rate_ci: intervalCell(
          r.correctness_flip_rate_ci,
          r.correctness_flip_rate_ci_undefined_reason,
        ),
      })),
      ...empty,
    ],
    judges,
    byComparison,
  );
  return {
    id: 'invariance',
    title: 'Language invariance',
    caption:
      'Verdict changes between English and the target language over (item, order) pairs valid in both. ' +
      `Flip: the normalized choice differs; correctness flip: correctness differs (${intervalName(metrics)}). ` +
      (metrics.statistics?.ci === 'cluster-bootstrap'
        ? ''
        : // issue 33: with flips planted by item, the Wilson interval held the planted rate in under 90 % of runs (docs/VALIDATION.md).
          "Wilson counts an item's two orders as independent pairs: when a translation changes the verdict in both orders, " +
          'it is too narrow (docs/VALIDATION.md, end to end); the item-clustered bootstrap (ci: cluster-bootstrap) resamples items. ') +
      'Counts split the pairs by which side was judged correctly. McNemar: exact test on the discordant ' +
      "pairs with the item as its unit (an item's two orders are not independent; sign-flip over items); Holm: adjusted across the table's comparisons.",
    columns: withNote(
      [
        ...keyColumns('judge', 'comparison'),
        N_COLUMN,
        ...rateColumns('flip_rate', 'Flip'),
        ...rateColumns('correctness_flip_rate', 'Corr. flip'),
        ...countColumns({
          both_correct: 'Both correct',
          en_only_correct: 'EN only',
          target_only_correct: 'Target only',
          both_wrong: 'Both wrong',
        }),
        col('mcnemar_p', 'McNemar p', 'p'),
        col('mcnemar_p_holm', 'Holm p', 'p'),
      ],
      rows,
    ),
    rows,
    families: [holmFamily('invariance', 'mcnemar_p', 'mcnemar_p_holm', ['judge', 'comparison'])],
  };
}

/** The probed targets in the metrics' order (ZH first in a plan), and whether rows name them. */
export function tieProbeLanguages(metrics: JudgeLsMetrics): { languages: string[]; perLanguage: boolean } {
  return {
    languages: [...new Set(metrics.tie_probe.map((r) => tieProbeTarget(r).language))],
    perLanguage: metrics.tie_probe.some((r) => 'language' in r),
  };
}

/** Judges in table order; within a judge the metrics' language order (the sort is stable). */
const tieProbeRowsSorted = (metrics: JudgeLsMetrics, judges: string[]): TieProbeRow[] =>
  sortRows(metrics.tie_probe, judges, () => 0);

function tieProbeTable(metrics: JudgeLsMetrics, judges: string[]): Table {
  const { languages, perLanguage } = tieProbeLanguages(metrics);
  // The verdicts a row stands on are its comparison's probes (EN-ZH, EN-ar): a key for the link alone.
  const rows = tieProbeRowsSorted(metrics, judges).map((r) => ({
    ...r,
    comparison: `EN-${tieProbeTarget(r).language}`,
  }));
  if (!perLanguage)
    return {
      id: 'tie_probe',
      title: 'Tie probe: English vs Chinese',
      caption:
        'The gold answer in English against its Chinese translation, both orders. An unbiased judge answers ' +
        'tie (or splits evenly). Rates in % with Wilson 95% CIs; EN share: EN wins among non-tie verdicts. ' +
        'Binomial p: exact two-sided test of EN wins vs ZH wins at ½ with the item as the unit (its two ' +
        "orders' wins summed; sign-flip over items); Holm: adjusted across the table's judges.",
      columns: [
        ...keyColumns('judge'),
        N_COLUMN,
        ...rateColumns('en_win_rate', 'EN wins'),
        ...rateColumns('tie_rate', 'Ties'),
        ...rateColumns('zh_win_rate', 'ZH wins'),
        col('en_share_non_tie', 'EN share', 'pct'),
        col('binomial_p', 'Binomial p', 'p'),
        col('binomial_p_holm', 'Holm p', 'p'),
      ],
      rows,
      families: [TIE_PROBE_FAMILY],
    };
  const named = languages.map((l) => targetName(l, 'en')).join(', ');
  return {
    id: 'tie_probe',
    title: `Tie probe: English vs ${named}`,
    caption:
      `The gold answer in English against its translation into each language (${named}), both orders. ` +
      'An unbiased judge answers tie (or splits evenly). Rates in % with Wilson 95% CIs; EN share: EN wins ' +
      "among non-tie verdicts. Binomial p: exact two-sided test of EN wins vs the translation's wins at ½ " +
      "with the item as the unit (its two orders' wins summed; sign-flip over items); Holm: adjusted across " +
      "the table's rows (every judge and language).",
    columns: [
      ...keyColumns('judge', 'language'),
      N_COLUMN,
      ...rateColumns('en_win_rate', 'EN wins'),
      ...rateColumns('tie_rate', 'Ties'),
      ...rateColumns('target_win_rate', 'Translation wins'),
      col('en_share_non_tie', 'EN share', 'pct'),
      col('binomial_p', 'Binomial p', 'p'),
      col('binomial_p_holm', 'Holm p', 'p'),
    ],
    rows,
    families: [TIE_PROBE_FAMILY],
  };
}

function positionTable(metrics: JudgeLsMetrics, judges: string[]): Table {
  return {
    id: 'position',
    title: 'Position consistency',
    caption:
      'Share of items whose normalized choice changes when the answer order is swapped, among items valid ' +
      'in both orders (%, Wilson 95% CI). Position lean, paired by item: items that chose the answer shown ' +
      'first in both orders against those that chose the second in both; lean p: exact McNemar (two-sided ' +
      "binomial at ½ on those items), Holm: adjusted across the table's judges and languages. First rate: " +
      'share of "first" among the verdicts of items decided in both orders, ½ + (both first − both second) ' +
      "/ 2n, with Newcombe's paired 95% CI (method 10) on the item's two orders.",
    columns: withNote(
      [
        ...keyColumns('judge', 'language'),
        N_COLUMN,
        ...rateColumns('inconsistency_rate', 'Inconsistent'),
        ...positionLeanColumns({ key: 'lean_p_holm', method: false }),
      ],
      metrics.position.map(positionNote),
    ),
    rows: sortRows(metrics.position, judges, byLanguage).map((r) => ({ ...r, ...positionNote(r) })),
    families: [holmFamily('position', 'lean_p', 'lean_p_holm', ['judge', 'language'])],
  };
}

/** A row whose first rate is undefined says why (every item it has was a tie in some order). */
function positionNote(r: PositionRow): TableRow {
  return r.first_rate === null ? { note: 'first rate undefined (no item decided in both orders)' } : {};
}

function usageTable(metrics: JudgeLsMetrics): Table {
  const rows = metrics.usage.map((r) => ({ ...r }));
  const sum = (
    k:
      | 'calls'
      | 'cache_hits'
      | 'input_tokens'
      | 'output_tokens'
      | 'cached_input_tokens'
      | 'cache_write_tokens'
      | 'cost_usd',
  ) => metrics.usage.reduce((acc, r) => acc + (r[k] ?? 0), 0);
  return {
    id: 'usage',
    title: 'Usage and cost',
    caption:
      'API calls, tokens and cost per role. Cache hits are requests answered from the local ledger ' +
      'without a paid call. Cached input are prompt-cache reads (billed at the cached-input price); ' +
      'cache writes are Anthropic prompt-cache writes (billed at the cache-write price, 1.25 × input ' +
      'for the 5-minute cache); both are part of the input tokens.',
    columns: [
      col('role', 'Role', 'text'),
      col('judge', 'Label', 'text'),
      col('model', 'Model', 'text'),
      ...countColumns({
        calls: 'Calls',
        cache_hits: 'Cache hits',
        input_tokens: 'Input tok.',
        cached_input_tokens: 'Cached input',
        cache_write_tokens: 'Cache writes',
        output_tokens: 'Output tok.',
      }),
      col('cost_usd', 'Cost (USD)', 'usd'),
    ],
    rows,
    footer: rows.length
      ? [
          {
            role: 'Total',
            judge: '',
            model: '',
            calls: sum('calls'),
            cache_hits: sum('cache_hits'),
            input_tokens: sum('input_tokens'),
            cached_input_tokens: sum('cached_input_tokens'),
            cache_write_tokens: sum('cache_write_tokens'),
            output_tokens: sum('output_tokens'),
            cost_usd: sum('cost_usd'),
          },
        ]
      : undefined,
  };
}

/** The significance table's test names, which also say which family a row is in. */
const MCNEMAR_TEST = 'McNemar (exact)';
const BINOMIAL_TEST = 'Binomial (exact)';

/** A Holm family over a whole table: every row one hypothesis, named by `hypothesis`. */
const holmFamily = (name: string, p: string, adjusted: string, hypothesis: string[]): PFamily => ({
  name,
  method: 'holm',
  p,
  adjusted,
  by: [],
  hypothesis,
});

/** Every judge (× probed language): the rows carry `comparison` (EN-ZH, EN-ar) either way. */
const TIE_PROBE_FAMILY = holmFamily('tie_probe', 'binomial_p', 'binomial_p_holm', ['judge', 'comparison']);

function significanceTable(metrics: JudgeLsMetrics, judges: string[]): Table {
  const mcnemar: TableRow[] = sortRows(metrics.language_invariance, judges, byComparison).map((r) => ({
    judge: r.judge,
    test: MCNEMAR_TEST,
    comparison: r.comparison,
    n: r.n,
    favour_en: r.en_only_correct,
    favour_target: r.target_only_correct,
    p: r.mcnemar_p,
    p_holm: r.mcnemar_p_holm,
  }));
  const binomial: TableRow[] = tieProbeRowsSorted(metrics, judges).map((r) => {
    const target = tieProbeTarget(r);
    return {
      judge: r.judge,
      test: BINOMIAL_TEST,
      comparison: `Tie probe EN vs ${target.language}`,
      // Not a column: the tie-probe table's name of the hypothesis, for its family declaration.
      probe: `EN-${target.language}`,
      n: r.en_wins + target.wins,
      favour_en: r.en_wins,
      favour_target: target.wins,
      p: r.binomial_p,
      p_holm: r.binomial_p_holm,
    };
  });
  const perLanguage = tieProbeLanguages(metrics).perLanguage;
  return {
    id: 'significance',
    title: 'Significance tests',
    caption:
      'Exact two-sided tests at p = 0.5. McNemar: pairs correct only in English vs only in the target ' +
      'language, item-clustered (sign-flip over items; n = all valid pairs); Holm p adjusts the McNemar tests across all judges and languages. ' +
      (perLanguage
        ? "Tie probe: EN wins vs the translation's wins among non-tie verdicts, item-clustered (n = non-tie probes); " +
          'Holm p adjusts the tie-probe tests across all judges and languages.'
        : 'Tie probe: EN wins vs ZH wins among non-tie verdicts, item-clustered (n = non-tie probes); Holm p adjusts the ' +
          'tie-probe tests across judges.'),
    columns: [
      ...keyColumns('judge'),
      col('test', 'Test', 'text'),
      ...keyColumns('comparison'),
      N_COLUMN,
      ...countColumns({ favour_en: 'Favours EN', favour_target: 'Favours target' }),
      col('p', 'p', 'p'),
      col('p_holm', 'Holm p', 'p'),
    ],
    rows: [...mcnemar, ...binomial],
    // The same hypotheses as the invariance and tie-probe tables, in one table: two families.
    families: [
      { ...holmFamily('invariance', 'p', 'p_holm', ['judge', 'comparison']), where: { test: MCNEMAR_TEST } },
      { ...holmFamily('tie_probe', 'p', 'p_holm', ['judge', 'probe']), where: { test: BINOMIAL_TEST } },
    ],
  };
}

/**
 * The noise floor (only with `noiseFloor` on): per judge, EN against its own repeat (EN-EN), then
 * each language's flips beside the repeat's on the same pairs, with the excess and its test.
 */
function noiseFloorTable(metrics: JudgeLsMetrics, judges: string[]): Table | null {
  const nf = metrics.noise_floor;
  if (!nf) return null;
  const rows: TableRow[] = [];
  for (const judge of judges) {
    const r = nf.repeat.find((x) => x.judge === judge);
    if (r)
      rows.push({
        judge,
        comparison: REPEAT_COMPARISON,
        n: r.n,
        flip_rate: r.flip_rate,
        flip_rate_ci: r.flip_rate_ci,
      });
    for (const x of sortRows(
      nf.excess.filter((e) => e.judge === judge),
      judges,
      byComparison,
    ))
      rows.push({ ...x });
  }
  return {
    id: 'noise_floor',
    title: 'Noise floor: language flips beyond repeat flips',
    caption:
      'Each English verdict asked a second time (same prompt, same order): EN-EN is how often the judge ' +
      'changes its normalized choice when nothing changes (Wilson 95% CI). EN-ZH and EN-LS rows compare, ' +
      'on the same (item, order) pairs valid in all three verdicts, the language flip rate with the repeat ' +
      'flip rate (Wilson 95% CIs); ' +
      repeatFloorMethods({ excess: 'language − repeat', under: 'translation', only: 'language' }) +
      " (sign-flip over items); Holm: adjusted across the table's language rows.",
    columns: [
      ...keyColumns('judge', 'comparison'),
      ...repeatFloorColumns({ flipHeader: 'Flip', onlyKey: 'language_only', onlyHeader: 'Language only' }),
    ],
    rows,
    // EN-EN rows have no test: outside the family by their missing p.
    families: [holmFamily('noise_floor', 'mcnemar_p', 'mcnemar_p_holm', ['judge', 'comparison'])],
  };
}

/** Subsets in the order the metrics first name them (the dataset's order), so both subset tables agree. */
function subsetOrder(metrics: JudgeLsMetrics): string[] {
  const seen = new Set<string>();
  for (const r of [...metrics.subset_quality, ...metrics.subset_flip]) seen.add(r.subset);
  return [...seen];
}

function subsetQualityTable(metrics: JudgeLsMetrics, judges: string[], subsets: string[]): Table {
  return {
    id: 'subset_quality',
    title: 'Accuracy by subset',
    caption:
      'Tie-half accuracy (%) per dataset subset and language, both answer orders pooled: a tie counts ' +
      `0.5 (${TIE_HALF_METHOD}).`,
    columns: [
      ...keyColumns('judge', 'subset', 'language'),
      N_COLUMN,
      ...rateColumns('accuracy_tie_half', 'Acc. tie-half', { method: TIE_HALF_SHORT }),
    ],
    rows: sortRows(
      metrics.subset_quality,
      judges,
      (r) => subsets.indexOf(r.subset) * (LANGUAGES.length + 1) + byLanguage(r),
    ).map((r) => ({ ...r })),
  };
}

function subsetFlipTable(metrics: JudgeLsMetrics, judges: string[], subsets: string[]): Table {
  return {
    id: 'subset_flip',
    title: 'Language flips by subset',
    caption:
      'Share (%) of (item, order) pairs valid in both languages whose normalized choice differs between ' +
      'English and the target language, per dataset subset (Wilson 95% CI).',
    columns: [...keyColumns('judge', 'subset', 'comparison'), N_COLUMN, ...rateColumns('flip_rate', 'Flip')],
    rows: sortRows(
      metrics.subset_flip,
      judges,
      (r) => subsets.indexOf(r.subset) * COMPARISONS.length + byComparison(r),
    ).map((r) => ({ ...r })),
  };
}

function failuresTable(metrics: JudgeLsMetrics): Table {
  // The metrics already order these (judges, then the transformer; kinds; most frequent first).
  const rows: TableRow[] = metrics.failures.map((f) => ({ ...f }));
  return {
    id: 'failures',
    title: 'Failed calls',
    caption:
      'Calls that ended without a usable verdict or translation, per judge (or the transformer), kind ' +
      'and reason. They are missing from every rate above and counted here instead.',
    columns: [
      ...keyColumns('judge'),
      col('kind', 'Kind', 'text'),
      ...keyColumns('language'),
      { ...col('reason', 'Reason', 'text'), width: 0.5 },
      col('count', 'Calls', 'int'),
    ],
    rows,
    footer: rows.length
      ? [
          {
            judge: 'Total',
            kind: '',
            language: '',
            reason: '',
            count: metrics.failures.reduce((n, f) => n + f.count, 0),
          },
        ]
      : undefined,
  };
}

/** True when an audit reason names the rule as a whole word (reasons are free text such as "ZH output_1: empty"). */
export function reasonMatchesRule(reason: string, rule: string): boolean {
  const escaped = rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`, 'i').test(reason);
}

function auditTable(metrics: JudgeLsMetrics): Table {
  const { checks, flagged } = metrics.audit;
  const rows: TableRow[] = checks.map((c) => ({
    rule: c.rule,
    description: c.description,
    threshold: c.threshold ?? null,
    items: flagged.filter((f) => f.reasons.some((r) => reasonMatchesRule(r, c.rule))).length,
  }));
  const unmatched = flagged.filter((f) =>
    f.reasons.some((r) => !checks.some((c) => reasonMatchesRule(r, c.rule))),
  ).length;
  if (unmatched > 0) {
    rows.push({
      rule: 'other',
      description: 'Reason not tied to a listed rule',
      threshold: null,
      items: unmatched,
    });
  }
  return {
    id: 'audit',
    title: 'Translation audit',
    caption:
      'Automatic checks of each ZH and LS variant against English, and the number of items each rule ' +
      'flagged (an item can be flagged by several rules).',
    columns: [
      col('rule', 'Rule', 'text'),
      { ...col('description', 'Check', 'text'), width: 0.45 },
      numberColumn('threshold', 'Threshold'),
      col('items', 'Flagged items', 'int'),
    ],
    rows: rows.map((r) => ({ ...r, threshold: r.threshold === null ? null : String(r.threshold) })),
    footer: [
      { rule: 'Any', description: 'Items with at least one reason', threshold: null, items: flagged.length },
    ],
  };
}

function auditItemsTable(metrics: JudgeLsMetrics): Table {
  return {
    id: 'audit_items',
    title: 'Flagged items',
    caption: 'Items flagged by the translation audit, with every reason.',
    columns: [col('item_id', 'Item', 'text'), { ...col('reasons', 'Reasons', 'text'), width: 0.65 }],
    rows: metrics.audit.flagged.map((f) => ({ item_id: f.item_id, reasons: f.reasons.join('; ') })),
  };
}

function sensitivityTable(metrics: JudgeLsMetrics, judges: string[]): Table {
  const excluded = metrics.sensitivity.excluded_item_ids.length;
  const rows: TableRow[] = [];
  const findQuality = (r: QualityRow) =>
    metrics.sensitivity.quality.find((s) => s.judge === r.judge && s.language === r.language);
  const findInvariance = (r: InvarianceRow) =>
    metrics.sensitivity.language_invariance.find((s) => s.judge === r.judge && s.comparison === r.comparison);
  const push = (
    judge: string,
    scope: string,
    metric: string,
    full: { n: number; v: number; ci: CI | string | null },
    sub: { n: number; v: number; ci: CI | string | null } | null,
  ) =>
    rows.push({
      judge,
      scope,
      metric,
      n_full: full.n,
      full: full.v,
      full_ci: full.ci,
      n_excl: sub?.n ?? null,
      excl: sub?.v ?? null,
      excl_ci: sub?.ci ?? null,
      delta: sub ? sub.v - full.v : null,
    });
  for (const r of sortRows(metrics.quality, judges, byLanguage)) {
    const s = findQuality(r);
    push(
      r.judge,
      r.language,
      'Acc. strict',
      {
        n: r.n,
        v: r.accuracy_strict,
        ci: intervalCell(r.accuracy_strict_ci, r.accuracy_strict_ci_undefined_reason),
      },
      s
        ? {
            n: s.n,
            v: s.accuracy_strict,
            ci: intervalCell(s.accuracy_strict_ci, s.accuracy_strict_ci_undefined_reason),
          }
        : null,
    );
    push(
      r.judge,
      r.language,
      'Acc. tie-half',
      { n: r.n, v: r.accuracy_tie_half, ci: r.accuracy_tie_half_ci },
      s ? { n: s.n, v: s.accuracy_tie_half, ci: s.accuracy_tie_half_ci } : null,
    );
  }
  for (const r of sortRows(metrics.language_invariance, judges, byComparison)) {
    const s = findInvariance(r);
    push(
      r.judge,
      r.comparison,
      'Flip',
      { n: r.n, v: r.flip_rate, ci: intervalCell(r.flip_rate_ci, r.flip_rate_ci_undefined_reason) },
      s
        ? { n: s.n, v: s.flip_rate, ci: intervalCell(s.flip_rate_ci, s.flip_rate_ci_undefined_reason) }
        : null,
    );
    push(
      r.judge,
      r.comparison,
      'Corr. flip',
      {
        n: r.n,
        v: r.correctness_flip_rate,
        ci: intervalCell(r.correctness_flip_rate_ci, r.correctness_flip_rate_ci_undefined_reason),
      },
      s
        ? {
            n: s.n,
            v: s.correctness_flip_rate,
            ci: intervalCell(s.correctness_flip_rate_ci, s.correctness_flip_rate_ci_undefined_reason),
          }
        : null,
    );
  }
  return {
    id: 'sensitivity',
    title: 'Sensitivity to flagged translations',
    caption:
      `Accuracy and invariance on all items and without the ${excluded} item(s) flagged by the audit ` +
      `(%, 95% CIs: strict accuracy and flips ${intervalName(metrics)}, tie-half ${TIE_HALF_METHOD}); ` +
      'difference in points.',
    columns: [
      ...keyColumns('judge', 'scope', 'metric'),
      col('n_full', 'n', 'int'),
      ...rateColumns('full', 'All'),
      col('n_excl', 'n', 'int'),
      ...rateColumns('excl', 'Unflagged'),
      col('delta', 'Diff.', 'pct'),
    ],
    rows,
  };
}

/** Every Judge-LS table of DESIGN.md section 8, in the order a paper would show them. */
/**
 * The metrics as the tables show them: with `statistics.ci` "cluster-bootstrap", the
 * strict-accuracy and flip intervals are the item-clustered bootstrap's (Wilson's stay in
 * metrics.json either way). `ci` overrides the config's choice (the results page's switch).
 */
export function withChosenIntervals(metrics: JudgeLsMetrics, ci?: MetricsStatistics['ci']): JudgeLsMetrics {
  const chosen = ci ?? metrics.statistics?.ci ?? 'wilson';
  const statistics = { ...metrics.statistics, ci: chosen };
  if (chosen === 'wilson') return { ...metrics, statistics };
  // A bootstrap interval that does not exist stays undefined (with its reason): falling back to
  // Wilson's would show another method's interval under the bootstrap's name.
  const shown = <N extends string>(name: N, ci: CI | null, reason: string | undefined) =>
    ci ? { [name]: ci } : { [name]: null, [`${name}_undefined_reason`]: reason ?? 'no items' };
  const quality = (rows: QualityRow[]): QualityRow[] =>
    rows.map((r) => ({
      ...r,
      ...shown('accuracy_strict_ci', r.accuracy_strict_ci_boot, r.accuracy_strict_ci_boot_undefined_reason),
    }));
  const invariance = (rows: InvarianceRow[]): InvarianceRow[] =>
    rows.map((r) => ({
      ...r,
      ...shown('flip_rate_ci', r.flip_rate_ci_boot, r.flip_rate_ci_boot_undefined_reason),
      ...shown(
        'correctness_flip_rate_ci',
        r.correctness_flip_rate_ci_boot,
        r.correctness_flip_rate_ci_boot_undefined_reason,
      ),
    }));
  return {
    ...metrics,
    statistics,
    quality: quality(metrics.quality),
    language_invariance: invariance(metrics.language_invariance),
    sensitivity: {
      ...metrics.sensitivity,
      quality: quality(metrics.sensitivity.quality),
      language_invariance: invariance(metrics.sensitivity.language_invariance),
    },
  };
}

/** The tie-half interval's method in a CSV/XLSX header. */
const TIE_HALF_SHORT = 'Wilson score on the mean';

/** The strict-accuracy and flip intervals' method in a CSV/XLSX header. */
function intervalShortName(metrics: JudgeLsMetrics): string {
  return metrics.statistics?.ci === 'cluster-bootstrap' ? 'item-clustered bootstrap' : 'Wilson';
}

/** How the strict-accuracy and flip intervals were made, for captions. */
function intervalName(metrics: JudgeLsMetrics): string {
  const s = metrics.statistics;
  return s?.ci === 'cluster-bootstrap'
    ? `item-clustered bootstrap 95% CI, B = ${s.bootstrap_b}, seed ${s.bootstrap_seed}: an item's orders resampled together`
    : 'Wilson 95% CI';
}

export function buildTables(input: JudgeLsMetrics, ci?: MetricsStatistics['ci']): Table[] {
  const metrics = withChosenIntervals(input, ci);
  const judges = judgeOrder(metrics);
  const subsets = subsetOrder(metrics);
  return [
    qualityTable(metrics, judges),
    invarianceTable(metrics, judges),
    tieProbeTable(metrics, judges),
    ...[noiseFloorTable(metrics, judges)].filter((t): t is Table => t !== null),
    positionTable(metrics, judges),
    subsetQualityTable(metrics, judges, subsets),
    subsetFlipTable(metrics, judges, subsets),
    significanceTable(metrics, judges),
    auditTable(metrics),
    auditItemsTable(metrics),
    sensitivityTable(metrics, judges),
    ...verificationTables(metrics, judges),
    ...doseResponseTables(metrics, judges),
    usageTable(metrics),
    failuresTable(metrics),
  ];
}
