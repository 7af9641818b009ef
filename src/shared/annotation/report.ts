// The agreement report's tables and figures, built with the report kit (the dashboard draws the
// same figures; the exports write the same tables as CSV, XLSX and LaTeX).
import type { EChartsOption } from 'echarts';
import {
  barGrid,
  baseOption,
  categoryAxis,
  OKABE_ITO,
  valueAxis,
  type FigureSpec,
} from '../report/chart-kit';
import { col, type Table, type TableRow } from '../report/table';
import { intervalTextColumn, keyColumns, N_COLUMN, numberColumn, countColumns } from '../report/columns';
import { toFixedText, undefinedText } from '../report/format';
import type { AgreementReport, AgreementRow, JudgeHumanRow } from './agreement';
import { judgePeopleTables } from './judge-people-report';

const PALETTE = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.green,
  OKABE_ITO.vermillion,
  OKABE_ITO.purple,
  OKABE_ITO.skyBlue,
];

/** Coefficients with three decimals (no "-0.000"); '–' where undefined. */
export const num = (v: number | null | undefined, digits = 3): string =>
  typeof v === 'number' && Number.isFinite(v) ? toFixedText(v, digits) : '–';
/** An interval; without one, "undefined (reason)" when the report says why, else '–'. */
export const ci = (c: [number, number] | null | undefined, undefinedReason?: string | null): string =>
  c ? `[${num(c[0])}, ${num(c[1])}]` : undefinedReason ? undefinedText(undefinedReason) : '–';

const agreementColumns = [
  N_COLUMN,
  numberColumn('rho', 'Spearman ρ'),
  intervalTextColumn('rho_ci', 'ρ 95% CI'),
  numberColumn('r', 'Pearson r'),
  numberColumn('tau', 'Kendall τ-b'),
  numberColumn('kappa', 'Cohen κ'),
  intervalTextColumn('kappa_ci', 'κ 95% CI'),
  col('exact', 'Exact agreement', 'pct'),
];

function agreementCells(r: AgreementRow): TableRow {
  return {
    n: r.n,
    rho: num(r.spearman_rho),
    rho_ci: ci(r.spearman_rho_ci, r.spearman_rho_ci_undefined_reason),
    r: num(r.pearson_r),
    tau: num(r.kendall_tau_b),
    kappa: num(r.kappa),
    kappa_ci: ci(r.kappa_ci, r.kappa_ci_undefined_reason),
    exact: r.exact_agreement,
  };
}

/** The rule behind "More items", in one sentence (the decision panel says the same). */
export const MORE_ITEMS_RULE =
  'More items: how many more rated items the 95% CI around the same ρ needs to clear the threshold, ' +
  'its spread on the z scale shrinking as 1/√(n − 3) (n = (half-width of atanh CI · √(n − 3) / ' +
  '|atanh ρ − atanh threshold|)² + 3, minus the items rated), so a ρ close to the threshold, or ratings ' +
  'whose ρ varies much, need many more items.';

/** How ρ's interval is computed and where it holds (docs/VALIDATION.md, spearman-fisher-z). */
export const RHO_CI_LIMIT =
  "ρ's CI: a jackknife on Fisher's z (the spread of atanh ρ measured by leaving out one item at a time, t on n − 1 df; Efron & Tibshirani 1993), so it holds on 1–5 ratings unlike a bivariate normal, where the Bonett–Wright formula it replaced covered 63–89 %; undefined when without one item ρ is ±1 (the data cannot show how ρ varies) or the same without any item (docs/VALIDATION.md, spearman-fisher-z).";

/** The decision word, with why when it is undefined or rests on ρ alone. */
export function decisionCell(r: JudgeHumanRow): string {
  if (r.decision === 'undefined' && r.decision_reason) return `undefined (${r.decision_reason})`;
  if (r.decision_warning) return `${r.decision} (${r.decision_warning})`;
  return r.decision;
}

export function agreementTables(report: AgreementReport): Table[] {
  const ia = report.inter_annotator;
  const weights = report.scale.kind === 'score' ? 'quadratic-weighted' : 'unweighted';
  const reference = report.scale.kind === 'score' ? 'median' : 'majority';
  const tables: Table[] = [
    {
      id: 'inter_annotator',
      title: 'Agreement among people',
      caption:
        `ICC(2,1): two-way random, absolute agreement, single rater, on the ${ia.n_complete} items every annotator rated ` +
        '(95% CI of McGraw & Wong 1996, clipped to [−1, 1]); ' +
        `Krippendorff's α (${ia.alpha_level}) on all ${ia.n_items} rated items; Fleiss' κ for labels. ` +
        `Below ${0.6} the task looks ill-defined for validating a judge.` +
        (report.scale.kind === 'preference'
          ? ' Preferences enter ICC, α and ρ coded +1 (response A better), 0 (tie), −1 (response B better).'
          : ''),
      columns: [
        ...countColumns({ annotators: 'Annotators', items: 'Items rated', complete: 'Rated by all' }),
        numberColumn('icc', 'ICC(2,1)'),
        intervalTextColumn('icc_ci', 'ICC 95% CI'),
        numberColumn('alpha', 'Krippendorff α'),
        numberColumn('fleiss', 'Fleiss κ'),
        col('warning', 'Warning', 'text'),
      ],
      rows: [
        {
          annotators: ia.n_annotators,
          items: ia.n_items,
          complete: ia.n_complete,
          icc: num(ia.icc21),
          icc_ci: ci(ia.icc21_ci),
          alpha: num(ia.krippendorff_alpha),
          fleiss: num(ia.fleiss_kappa),
          warning: ia.warning ? 'below 0.6' : '',
        },
      ],
    },
    {
      id: 'judge_human',
      title: `Judge vs human ${reference}`,
      caption:
        `Spearman ρ with a jackknife Fisher-z 95% CI, Pearson r, Kendall τ-b, ${weights} Cohen's κ with a 95% CI and exact agreement ` +
        `against the human ${reference} per item. κ's CI: κ ± 1.96 SE (Fleiss, Cohen & Everitt 1969) clipped to ` +
        "κ's range [−1, 1]; " +
        'undefined when one side is constant (its variance is 0). ' +
        `Decision at ρ ≥ ${report.threshold} applied to the CI; at ρ = ±1 the Fisher-z CI is undefined and ` +
        `the decision rests on ρ alone (marked). ${MORE_ITEMS_RULE} ${RHO_CI_LIMIT}`,
      columns: [
        ...keyColumns('judge'),
        col('variant', 'Scores', 'text'),
        ...agreementColumns,
        col('decision', 'Decision', 'text'),
        col('more', 'More items', 'int'),
      ],
      rows: report.judge_human.map((r) => ({
        judge: r.judge,
        variant: r.variant,
        ...agreementCells(r),
        decision: decisionCell(r),
        more: r.more_items,
      })),
    },
    {
      id: 'bands',
      title: 'Agreement by human-quality band',
      caption:
        `Terciles of the human ${reference}: where agreement breaks down. κ's CI (κ ± 1.96 SE clipped to ` +
        '[−1, 1]) is undefined where one side is constant within a band (a yes/no reference cannot vary ' +
        'within a band).',
      columns: [col('judge', 'Judge', 'text'), col('band', 'Band', 'text'), ...agreementColumns],
      rows: report.bands.map((r) => ({ judge: r.judge, band: r.band, ...agreementCells(r) })),
    },
    {
      id: 'categories',
      title: 'Agreement by category',
      caption:
        "Per category of the items (subset, QA category or language). κ's CI: κ ± 1.96 SE clipped to " +
        "κ's range [−1, 1]; undefined (with the reason) where its variance is 0.",
      columns: [col('judge', 'Judge', 'text'), col('category', 'Category', 'text'), ...agreementColumns],
      rows: report.categories.map((r) => ({ judge: r.judge, category: r.category, ...agreementCells(r) })),
    },
  ];
  if (report.calibration_mapping.length) {
    tables.push({
      id: 'calibration',
      title: 'Calibration mapping, cross-validated',
      caption:
        'Isotonic regression (and a least-squares line) from judge score to the human median; MAE and ρ on held-out folds ' +
        'before (raw judge score) and after (mapped).',
      columns: [
        ...keyColumns('judge', 'category'),
        N_COLUMN,
        col('k', 'Folds', 'int'),
        numberColumn('mae_before', 'MAE before'),
        numberColumn('mae_after', 'MAE isotonic'),
        numberColumn('mae_linear', 'MAE linear'),
        numberColumn('rho_before', 'ρ before'),
        numberColumn('rho_after', 'ρ isotonic'),
        numberColumn('rho_linear', 'ρ linear'),
      ],
      rows: report.calibration_mapping.map((m) => ({
        judge: m.judge,
        category: m.category,
        n: m.n,
        k: m.k,
        mae_before: num(m.mae_before),
        mae_after: num(m.mae_after),
        mae_linear: num(m.mae_linear),
        rho_before: num(m.rho_before),
        rho_after: num(m.rho_after),
        rho_linear: num(m.rho_linear),
      })),
    });
  }
  tables.push(...judgePeopleTables(report));
  if (report.check_accuracy) tables.push(checkAccuracyTable(report));
  return tables;
}

/** A share with its interval, or why it has none. */
const shareCi = (c: [number, number] | null, reason?: string) =>
  c ? `[${num(c[0])}, ${num(c[1])}]` : undefinedText(reason ?? 'no items');

/** Sensitivity and specificity of each automatic check (check-accuracy.ts). */
function checkAccuracyTable(report: AgreementReport): Table {
  const rows = report.check_accuracy ?? [];
  const positive = rows[0]?.positive ?? (report.scale.kind === 'label' ? report.scale.positive : '');
  return {
    id: 'check_accuracy',
    title: 'Automatic checks against people',
    caption:
      `Each automatic check against the human majority (or adjudicated) label per item, "${positive}" ` +
      `being what the check is meant to find. Sensitivity: of the items people labelled "${positive}", ` +
      `the share the check labelled so too; specificity: of the other items, the share it passed. ` +
      "Wilson 95% CIs; undefined when no item falls in the denominator. Cohen's κ with its CI is the " +
      'judge-vs-human table above.',
    columns: [
      col('judge', 'Check', 'text'),
      N_COLUMN,
      ...countColumns({
        true_positive: 'Both flag',
        false_negative: 'Missed',
        false_positive: 'False alarm',
        true_negative: 'Both pass',
      }),
      numberColumn('sensitivity', 'Sensitivity'),
      intervalTextColumn('sensitivity_ci', 'Sensitivity 95% CI'),
      numberColumn('specificity', 'Specificity'),
      intervalTextColumn('specificity_ci', 'Specificity 95% CI'),
    ],
    rows: rows.map((r) => ({
      judge: r.judge,
      n: r.n,
      true_positive: r.true_positive,
      false_negative: r.false_negative,
      false_positive: r.false_positive,
      true_negative: r.true_negative,
      sensitivity: num(r.sensitivity),
      sensitivity_ci: shareCi(r.sensitivity_ci, r.sensitivity_undefined_reason),
      specificity: num(r.specificity),
      specificity_ci: shareCi(r.specificity_ci, r.specificity_undefined_reason),
    })),
  };
}

export function agreementFigures(report: AgreementReport): FigureSpec[] {
  const judges = [...new Set(report.judge_human.map((r) => r.judge))];
  const scatterSeries: NonNullable<EChartsOption['series']> = [];
  judges.forEach((judge, i) => {
    const color = PALETTE[i % PALETTE.length];
    // Jitter-free points with size by count, so equal scale points stay readable.
    const counts = new Map<string, number>();
    for (const p of report.points) {
      if (p.judge !== judge || p.variant !== 'raw') continue;
      const key = `${p.judgeValue}\u0000${p.human}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    scatterSeries.push({
      type: 'scatter',
      name: judge,
      itemStyle: { color, opacity: 0.7 },
      data: [...counts].map(([k, n]) => {
        const [x, y] = k.split('\u0000').map(Number);
        return { value: [x, y, n], symbolSize: 6 + 3 * Math.sqrt(n) };
      }),
    });
    const mapping = report.calibration_mapping.find((m) => m.judge === judge && m.category === 'all');
    if (mapping) {
      scatterSeries.push({
        type: 'line',
        name: `${judge} mapping`,
        step: undefined,
        showSymbol: false,
        lineStyle: { color, width: 2 },
        data: mapping.knots.map((k) => [k.x, k.y]),
      });
    }
  });
  const scatter: FigureSpec = {
    id: 'judge_vs_human',
    title: 'Judge vs human, with the calibration mapping',
    width: 640,
    height: 480,
    option: {
      ...baseOption('Judge vs human, with the calibration mapping'),
      tooltip: { trigger: 'item' },
      grid: { left: 72, right: 24, top: 56, bottom: 96 },
      xAxis: { ...valueAxis('Judge'), scale: true },
      yAxis: { ...valueAxis(report.scale.kind === 'score' ? 'Human median' : 'Human majority'), scale: true },
      series: scatterSeries,
    },
  };
  const bandNames = ['low', 'mid', 'high'] as const;
  const bands: FigureSpec = {
    id: 'agreement_by_band',
    title: 'Spearman ρ by human-quality band',
    width: Math.max(560, 160 + judges.length * 120),
    height: 400,
    option: {
      ...baseOption('Spearman ρ by human-quality band'),
      grid: barGrid,
      xAxis: categoryAxis(judges),
      yAxis: valueAxis('Spearman ρ', -1, 1),
      series: bandNames.map((band, i) => ({
        type: 'bar' as const,
        name: band,
        itemStyle: { color: [OKABE_ITO.vermillion, OKABE_ITO.yellow, OKABE_ITO.green][i] },
        data: judges.map(
          (j) => report.bands.find((b) => b.judge === j && b.band === band)?.spearman_rho ?? null,
        ),
      })),
    },
  };
  return [scatter, bands];
}
