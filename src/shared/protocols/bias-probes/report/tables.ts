// Bias-probes tables (metrics.json → the generic table model; dashboard and exports).
import { fixedIntervalText as interval, fixedText as num } from '../../../report/format';
import { col, withMethod, type PFamily, type Table, type TableRow } from '../../../report/table';
import { usageTable } from '../../../report/usage';
import {
  rateColumns,
  keyColumns,
  N_COLUMN,
  numberColumn,
  intervalTextColumn,
  textColumns,
} from '../../../report/columns';
import { positionLeanColumns } from '../../../report/paired-tables';
import { withoutEchoedPools } from '../../../report/pooled';
import type { CI } from '../../../report/format';
import type { BiasMetrics, PlaceboBase, ProbeRow } from '../types';
import { effectLabelOf, ORIGINAL_PLACEBO_LABEL, placeboLabelOf } from '../probe-registry';

/** What an effect row compares, in words (tables, figures, dashboard): its probe's label. */
export function effectLabel(effect: ProbeRow['effect'], mode: BiasMetrics['mode']): string {
  return effectLabelOf(effect, mode);
}

function probeTable(id: string, title: string, m: BiasMetrics, rows: ProbeRow[], extra: string): Table {
  const unit =
    m.mode === 'pairwise' ? 'win score of the worse response (1 win, ½ tie, 0 loss)' : `score (1–${m.scale})`;
  const pairwise = m.mode === 'pairwise';
  return {
    id,
    title,
    caption:
      `Paired differences of the ${unit}, per judge and category; an item's ${pairwise ? 'two orders' : 'responses'} are one ` +
      'item, so the tests take the item as the unit. Mean with the item-clustered t 95% CI (clipped to what a ' +
      `difference can take, ${pairwise ? '±1' : `±${m.scale - 1}`}; undefined when every difference is equal), Cohen's d_z, ` +
      'Wilcoxon signed-rank p on the item means (two-sided; exact for n ≤ 50 without ties or zeros, else the ' +
      'normal approximation with tie correction) and Holm-adjusted p within each judge × category (a family: ' +
      `that category's probe rows${pairwise ? ' and its position test' : ''}; category "all" pools the ` +
      'categories and is a family of its own, shown beside two or more categories); * = ' +
      `Holm p < 0.05.${pairwise ? ' Flip: share of (item, order) pairs whose verdict moved to the worse response (Wilson 95% CI).' : ''}` +
      ` ${RR_CAPTION(pairwise)}${extra}`,
    columns: [
      ...keyColumns('judge', 'category', 'effect'),
      N_COLUMN,
      numberColumn('mean', 'Mean diff.'),
      intervalTextColumn('mean_ci', '95% CI'),
      numberColumn('dz', 'd_z'),
      col('p', 'p', 'p'),
      col('p_holm', 'Holm p', 'p'),
      intervalTextColumn('sig', 'Sig.'),
      ...(pairwise ? [col('flip_rate', 'Flip', 'pct'), col('flip_rate_ci', 'Flip 95% CI', 'ci')] : []),
      ...RR_COLUMNS,
    ],
    rows: rows.map((r): TableRow => ({
      judge: r.judge,
      category: r.category,
      effect: effectLabel(r.effect, m.mode),
      n: r.n,
      mean: num(r.mean, 3),
      mean_ci: interval(r.mean_ci, 3, r.mean_ci_undefined),
      dz: num(r.dz),
      p: r.p,
      p_holm: r.p_holm,
      sig: r.significant ? '*' : '',
      ...(pairwise ? { flip_rate: r.flip_rate ?? null, flip_rate_ci: r.flip_rate_ci ?? null } : {}),
      ...rrCells(r),
    })),
    families: [biasFamily(id, 'p', 'p_holm')],
  };
}

/** CALM's robustness rate beside the paired effect (stats/robustness.ts). */
const RR_CAPTION = (pairwise: boolean) =>
  `RR: robustness rate (CALM, Ye et al. 2025), the share of ${pairwise ? '(item, order) pairs whose winner (tie included)' : 'responses whose score'} ` +
  'did not change between the two conditions, with a Wilson 95% CI on the design-effect-adjusted n (an item’s units are not independent); ' +
  'a placebo’s RR is the judge’s rerun consistency, the baseline an effect’s RR is read against.';

const RR_COLUMNS = [
  withMethod(numberColumn('robustness_rate', 'RR'), 'robustness rate'),
  withMethod(intervalTextColumn('robustness_rate_ci', 'RR 95% CI'), 'Wilson, design-effect-adjusted n'),
];

const rrCells = (r: {
  robustness_rate?: number | null;
  robustness_rate_ci?: CI | null;
  robustness_rate_ci_undefined?: string;
}) => ({
  robustness_rate: num(r.robustness_rate, 3),
  robustness_rate_ci: interval(r.robustness_rate_ci, 3, r.robustness_rate_ci_undefined),
});

/**
 * Holm within each judge × category (category "all" its own family: it pools the categories),
 * one hypothesis per effect. Named by the table whose test rows it holds and the adjusted column,
 * so the position table's test can join the profile's and the sensitivity's families by name.
 */
const biasFamily = (table: string, p: string, adjusted: string): PFamily => ({
  name: `${table} ${adjusted}`,
  method: 'holm',
  p,
  adjusted,
  by: ['judge', 'category'],
  hypothesis: ['effect'],
});

/** The placebo's label (tables, figures, dashboard): the original's keeps the words it had. */
export const PLACEBO_LABEL = ORIGINAL_PLACEBO_LABEL.en;
/** A placebo's label: its probe's (probe-registry.ts). */
export function placeboLabel(repeated: PlaceboBase): string {
  return placeboLabelOf(repeated);
}

const count = (k: number, n: number) => `${k}/${n}`;

/**
 * The noise floor (only with `noiseFloor` on): per judge × category the placebo (the unchanged
 * response scored again) and each effect's excess over it on the same units.
 */
function noiseFloorTable(m: BiasMetrics): Table | null {
  const nf = m.noise_floor;
  if (!nf) return null;
  const pairwise = m.mode === 'pairwise';
  const unit = pairwise ? 'win score of the worse response' : `score (1–${m.scale})`;
  const rows: TableRow[] = [];
  // The effect's RR is the profile row's: the excess pairs units with the placebo, the RR does not.
  const effectRow = (x: { judge: string; category: string; effect: string }) =>
    m.probes.find((r) => r.judge === x.judge && r.category === x.category && r.effect === x.effect) ?? {};
  const none = {
    changed_repeat: null,
    mcnemar_p: null,
    mcnemar_p_holm: null,
    abs: null,
    abs_p: null,
    abs_p_holm: null,
  };
  for (const z of nf.placebo) {
    rows.push({
      judge: z.judge,
      category: z.category,
      effect: placeboLabel(z.repeated),
      n: z.n,
      mean: num(z.mean, 3),
      placebo: null,
      excess: null,
      excess_ci: interval(z.mean_ci, 3, z.mean_ci_undefined),
      dz: null,
      p: z.p,
      p_holm: null,
      // Not a column: marks the placebo's own test, a baseline outside the effects' families.
      row: 'placebo',
      sig: '',
      // How many repeated scores changed at all.
      changed: count(z.changed, z.n),
      ...none,
      ...(pairwise ? { flip_rate: z.flip_rate ?? null, flip_rate_ci: z.flip_rate_ci ?? null } : {}),
      ...rrCells(z),
    });
    for (const x of nf.excess.filter(
      (e) => e.judge === z.judge && e.category === z.category && e.repeated === z.repeated,
    ))
      rows.push({
        judge: x.judge,
        category: x.category,
        effect: effectLabel(x.effect, m.mode),
        n: x.n,
        mean: num(x.effect_mean, 3),
        placebo: num(x.placebo_mean, 3),
        excess: num(x.excess, 3),
        excess_ci: interval(x.excess_ci, 3, x.excess_ci_undefined),
        dz: num(x.dz),
        p: x.p,
        p_holm: x.p_holm,
        sig: x.significant ? '*' : '',
        changed: count(x.changed_probe, x.n),
        changed_repeat: count(x.changed_repeat, x.n),
        mcnemar_p: x.changed_p,
        mcnemar_p_holm: x.changed_p_holm,
        abs: `${num(x.abs_probe_mean, 3)} / ${num(x.abs_repeat_mean, 3)}`,
        abs_p: x.abs_p,
        abs_p_holm: x.abs_p_holm,
        ...(pairwise ? { flip_rate: null, flip_rate_ci: null } : {}),
        ...rrCells(effectRow(x)),
      });
  }
  return {
    id: 'noise_floor',
    title: 'Noise floor: each effect beyond the judge’s repeat change',
    caption:
      `Each effect’s unchanged side scored a second time (same prompt${pairwise ? ', each order' : ''}): the ` +
      `original for the length effects, the plain text for Markdown${pairwise ? '' : ', the response shown second for position'}. ` +
      `A placebo row is the paired difference repeat − first of the ${unit}, with the item-clustered t 95% CI, ` +
      'Wilcoxon signed-rank p on the item means ' +
      'and how many repeated scores changed. Each effect row, under its placebo, pairs on the units that have ' +
      'both the effect’s difference with the placebo’s: mean effect, mean placebo, and the excess (effect − ' +
      'placebo) with t 95% CI, Cohen’s d_z, Wilcoxon signed-rank p and Holm-adjusted p; * = Holm p < 0.05. ' +
      'Changed: units whose score the probe changed, and whose repeat changed, compared by the exact McNemar ' +
      'test with the item as its unit (an item’s units are not independent; sign-flip over items); |Δ|: mean absolute change under the probe / the repeat, compared by the Wilcoxon signed-rank test ' +
      'of the paired absolute changes. Each test is Holm-adjusted across the effects of each judge × category.' +
      `${pairwise ? ' Flip: share of (item, order) whose repeat moved to the worse response (Wilson 95% CI).' : ''}` +
      ` ${RR_CAPTION(pairwise)} An effect row’s RR is its bias profile’s (all its units).`,
    columns: [
      ...keyColumns('judge', 'category', 'effect'),
      N_COLUMN,
      numberColumn('mean', 'Mean diff.'),
      numberColumn('placebo', 'Placebo'),
      numberColumn('excess', 'Excess'),
      withMethod(intervalTextColumn('excess_ci', '95% CI'), 't interval'),
      numberColumn('dz', 'd_z'),
      withMethod(col('p', 'p', 'p'), 'Wilcoxon signed-rank'),
      withMethod(col('p_holm', 'Holm p', 'p'), 'Holm'),
      intervalTextColumn('sig', 'Sig.'),
      numberColumn('changed', 'Changed'),
      numberColumn('changed_repeat', 'Repeat changed'),
      withMethod(col('mcnemar_p', 'Changed p', 'p'), 'exact McNemar'),
      withMethod(col('mcnemar_p_holm', 'Holm p (changed)', 'p'), 'Holm'),
      numberColumn('abs', '|Δ| probe / repeat'),
      withMethod(col('abs_p', '|Δ| p', 'p'), 'Wilcoxon signed-rank'),
      withMethod(col('abs_p_holm', 'Holm p (|Δ|)', 'p'), 'Holm'),
      ...(pairwise
        ? [col('flip_rate', 'Flip', 'pct'), withMethod(col('flip_rate_ci', 'Flip 95% CI', 'ci'), 'Wilson')]
        : []),
      ...RR_COLUMNS,
    ],
    rows,
    // The excess, changed and |Δ| tests: three families per judge × category, the placebos outside.
    families: (
      [
        ['p', 'p_holm'],
        ['mcnemar_p', 'mcnemar_p_holm'],
        ['abs_p', 'abs_p_holm'],
      ] as const
    ).map(([p, adjusted]) => ({ ...biasFamily('noise_floor', p, adjusted), outside: { row: 'placebo' } })),
  };
}

/** Pairwise with gold labels: accuracy per judge × variant (the better response chosen). */
function accuracyTable(m: BiasMetrics): Table | null {
  if (!m.accuracy?.length) return null;
  return {
    id: 'accuracy',
    title: 'Accuracy against the gold label, per variant',
    caption:
      'Share of (item, order) verdicts that chose the gold (better) response, per judge, variant and category; ' +
      'a tie is not correct. Wilson 95% CI.',
    columns: [
      ...keyColumns('judge', 'category', 'variant'),
      N_COLUMN,
      col('correct', 'Correct', 'int'),
      col('ties', 'Ties', 'int'),
      ...rateColumns('accuracy', 'Accuracy', { method: 'Wilson' }),
    ],
    rows: m.accuracy.map((r) => ({ ...r })),
  };
}

/** Why a paraphrase's flip rate has no value: every original verdict already chose the worse response. */
export const NO_FLIP_BASE = 'no original verdict left to flip';

/**
 * The rubric probe: per judge × paraphrase, how often the verdicts under it differ from the
 * original instructions' (a paraphrase without judged units has no row; metrics.json keeps it).
 */
function paraphraseTable(m: BiasMetrics): Table | null {
  const rows = (m.instruction_paraphrases ?? []).flatMap((b) => b.rows.filter((r) => r.n > 0));
  if (!rows.length) return null;
  const pairwise = m.mode === 'pairwise';
  return {
    id: 'instruction_paraphrases',
    title: 'Rubric wording: verdicts changed per paraphrase',
    caption:
      'Each unit judged under one paraphrase of the judging instructions (round-robin over the items) and ' +
      'under the original: mean change (' +
      (pairwise ? 'the worse response’s win score' : 'score') +
      '), share of verdicts that differ (Wilson 95% CI)' +
      (pairwise
        ? ', and share of verdicts not for the worse response that turned to it (Wilson 95% CI).'
        : '.'),
    columns: [
      ...keyColumns('judge'),
      col('paraphrase', 'Paraphrase', 'int'),
      N_COLUMN,
      numberColumn('mean', 'Mean change'),
      col('changed', 'Changed', 'int'),
      ...rateColumns('changed_rate', 'Changed rate', { method: 'Wilson' }),
      ...(pairwise
        ? [
            col('flip_n', 'Flippable', 'int'),
            col('flip_rate', 'Flip', 'pct'),
            intervalTextColumn('flip_rate_ci', 'Flip 95% CI'),
          ]
        : []),
    ],
    rows: rows.map((r) => ({
      ...r,
      paraphrase: r.paraphrase + 1,
      mean: num(r.mean, 3),
      ...(pairwise
        ? { flip_rate_ci: interval(r.flip_rate_ci, 3, r.flip_n === 0 ? NO_FLIP_BASE : null) }
        : {}),
    })),
  };
}

/**
 * Self-preference (an own-answers effect): per judge × category the self-win rate beside the human
 * rate on the same pairs, the paired excess and its length-balanced form; "undefined (why)" where
 * no item has exactly one of the judge's own answers.
 */
function ownAnswersTable(m: BiasMetrics): Table | null {
  const rows = m.own_answers ?? [];
  if (!rows.length) return null;
  const pct = (x: number | null) => (x === null ? null : num(x * 100, 1) + ' %');
  const pctCi = (e: { ci: CI | null; ci_undefined?: string }) =>
    e.ci
      ? `[${num(e.ci[0] * 100, 1)}, ${num(e.ci[1] * 100, 1)}] %`
      : interval(null, 1, e.ci_undefined ?? null);
  return {
    id: 'own_answers',
    title: 'Self-preference: excess self-win rate',
    caption:
      'Items where exactly one response was written by the judge’s own model (the judge-to-answer-model ' +
      'mapping in the config; both own: left out). Self-win: the judge’s win score of its own response ' +
      '(1 win, ½ tie, 0 loss), both orders averaged per item; human: 1 when the human label preferred it. ' +
      'Excess = self-win − human, paired per item, t 95% CI clipped to [−100, 100] %, Wilcoxon signed-rank p ' +
      '(its Holm p is the bias profile row’s, in that family). Length-balanced: the equal-weight mean of the excess where the ' +
      'own response is the longer one (tokens) and where it is not, Welch t 95% CI and p.',
    columns: [
      ...keyColumns('judge', 'category'),
      col('own_models', 'Own answer models', 'text'),
      col('n_pairs', 'Pairs', 'int'),
      ...textColumns({ self_win: 'Self-win', human_win: 'Human', excess: 'Excess', excess_ci: '95% CI' }),
      col('p', 'p', 'p'),
      col('n_longer', 'Own longer', 'int'),
      col('balanced', 'Length-balanced', 'text'),
      col('balanced_ci', 'Length-balanced 95% CI', 'text'),
      col('balanced_p', 'Length-balanced p', 'p'),
    ],
    rows: rows.map((r) => ({
      judge: r.judge,
      category: r.category,
      own_models: r.own_models.join(', '),
      n_pairs: r.n_pairs,
      self_win: r.undefined_reason ? `undefined (${r.undefined_reason})` : pct(r.self_win_rate.mean),
      human_win: pct(r.reference_win_rate.mean),
      excess: pct(r.excess.mean),
      excess_ci: r.undefined_reason ? null : pctCi(r.excess),
      p: r.excess.p,
      n_longer: r.strata[0].excess.n,
      balanced: pct(r.length_balanced.mean),
      balanced_ci: r.undefined_reason ? null : pctCi(r.length_balanced),
      balanced_p: r.length_balanced.p,
    })),
  };
}

export function buildBiasTables(m: BiasMetrics): Table[] {
  const tables: Table[] = [probeTable('bias_profile', 'Bias profile: effect of each probe', m, m.probes, '')];
  const noiseFloor = noiseFloorTable(m);
  if (noiseFloor) tables.push(noiseFloor);
  const accuracy = accuracyTable(m);
  if (accuracy) tables.push(accuracy);
  const paraphrases = paraphraseTable(m);
  if (paraphrases) tables.push(paraphrases);
  const own = ownAnswersTable(m);
  if (own) tables.push(own);
  if (m.position.length)
    tables.push({
      id: 'position',
      title: 'Position: first-position (A) rate and swap consistency',
      caption:
        'Original pairs in both orders, paired by item. Both first / both second: items that chose the ' +
        'response shown first (second) in both orders; lean p: exact McNemar of those two counts ' +
        '(two-sided binomial at ½), Holm-adjusted with the probes of the same judge × category. First rate: ' +
        'share of A among the verdicts of items decided in both orders, ½ + (both first − both second) / 2n, ' +
        "with Newcombe's paired 95% CI (method 10) on the item's two orders. Swap consistency: share of " +
        'items whose normalized choice is the same in both orders (Wilson 95% CI).',
      columns: [
        ...keyColumns('judge', 'category'),
        col('n_pairs', 'Pairs', 'int'),
        ...positionLeanColumns({ key: 'p_holm', method: true }),
        ...rateColumns('swap_consistency', 'Swap consistency', { ciHeader: 'Consistency 95% CI' }),
      ],
      rows: m.position.map((r) => ({ ...r })),
      // In its judge × category's profile family (pairwise mode), as the profile's own test; the
      // sensitivity family holds the same test (flagging changes no original pair), not shown there.
      families: [
        { ...biasFamily('bias_profile', 'lean_p', 'p_holm'), hypothesis: [] },
        { ...biasFamily('sensitivity', 'lean_p', 'p_holm'), adjusted: undefined, hypothesis: [] },
      ],
    });
  if (m.length_correlation.length)
    tables.push({
      id: 'length_correlation',
      title: 'Length and score on the original responses',
      caption:
        (m.mode === 'pairwise'
          ? 'Length difference output_1 − output_2 in tokens (words; CJK characters one each) against ' +
            'output_1’s win score averaged over both orders: '
          : 'Length in tokens (words; CJK characters one each) against the judge’s score: ') +
        'Pearson and Spearman with two-sided p; partial Spearman controlling for the human score, on ' +
        'the items that have one.',
      columns: [
        ...keyColumns('judge', 'category'),
        N_COLUMN,
        numberColumn('pearson_r', 'Pearson r'),
        col('pearson_p', 'p', 'p'),
        numberColumn('spearman_r', 'Spearman ρ'),
        col('spearman_p', 'p', 'p'),
        col('n_human', 'n (human)', 'int'),
        numberColumn('partial_spearman_r', 'Partial ρ'),
        col('partial_spearman_p', 'p', 'p'),
      ],
      rows: m.length_correlation.map((r) => ({
        ...r,
        pearson_r: num(r.pearson_r, 3),
        spearman_r: num(r.spearman_r, 3),
        partial_spearman_r: num(r.partial_spearman_r, 3),
      })),
    });
  tables.push({
    id: 'debiased',
    title: 'Raw and debiased scores',
    caption:
      m.mode === 'pairwise'
        ? 'Mean win score of output_1: raw = original texts, original order; debiased = averaged over both ' +
          'orders, on the Markdown-stripped texts where judged.'
        : 'Mean score: raw = the response as given; debiased = the same response with its Markdown stripped ' +
          '(where the format probe ran).',
    columns: [
      ...keyColumns('judge', 'category'),
      N_COLUMN,
      numberColumn('raw_mean', 'Raw'),
      numberColumn('debiased_mean', 'Debiased'),
    ],
    rows: m.debiased.map((r) => ({
      ...r,
      raw_mean: num(r.raw_mean, 3),
      debiased_mean: num(r.debiased_mean, 3),
    })),
  });
  tables.push({
    id: 'audit',
    title: 'Variant audit',
    caption:
      `Rewrites checked for: not empty; every number of the source kept; length ratio inside the band ` +
      `(longer [${m.audit.checks.longer_band.join(', ')}], shorter [${m.audit.checks.shorter_band.join(', ')}], ` +
      `Markdown ±${Math.round(m.audit.checks.markdown_tolerance * 100)}% of the plain text). "None": the ` +
      'rewriter found no filler to cut.',
    columns: [
      ...keyColumns('variant'),
      col('made', 'Made', 'int'),
      col('flagged', 'Flagged', 'int'),
      col('none', 'None', 'int'),
    ],
    rows: m.audit.variants.map((r) => ({ ...r })),
  });
  if (m.audit.flagged.length)
    tables.push({
      id: 'flagged',
      title: 'Flagged variants',
      caption: 'Variants the audit flagged; the sensitivity table leaves their pairs out.',
      columns: [
        ...keyColumns('item_id'),
        col('response', 'Response', 'text'),
        ...keyColumns('variant'),
        col('reasons', 'Reasons', 'text'),
      ],
      rows: m.audit.flagged.map((f) => ({ ...f, reasons: f.reasons.join('; ') })),
    });
  tables.push(
    probeTable(
      'sensitivity',
      'Sensitivity: bias profile without flagged variants',
      m,
      m.sensitivity.probes,
      ' Pairs whose variant the audit flagged are left out.',
    ),
  );
  tables.push(usageTable(m.usage));
  // With one category "all" would repeat its rows: shown once, under the category's name.
  return tables.map((t) => withoutEchoedPools(t, 'category'));
}
