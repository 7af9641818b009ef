// Reference-sensitivity tables (metrics.json → the generic table model; dashboard and exports).
import { fixedIntervalText, fixedText } from '../../../report/format';
import { col, intervalCell, type Table, type TableRow } from '../../../report/table';
import { rateColumns, keyColumns, N_COLUMN } from '../../../report/columns';
import { repeatFloorColumns, repeatFloorMethods } from '../../../report/paired-tables';
import { usageTable } from '../../../report/usage';
import { POOLED, withoutEchoedPools } from '../../../report/pooled';
import type { RefSensMetrics } from '../types';

/** The noise floor's NR-against-repeat rows, as the table names their transition (the verdict browser filters by it). */
export const REPEAT_TRANSITION = 'NR-NR (repeat)';

/** The noise floor (only with `noiseFloor` on): NR-NR repeat rows, then each transition's excess. */
function noiseFloorTable(nf: NonNullable<RefSensMetrics['noise_floor']>): Table {
  const rows: TableRow[] = [];
  for (const r of nf.repeat) {
    rows.push({ ...r, transition: REPEAT_TRANSITION });
    for (const x of nf.excess)
      if (x.judge === r.judge && x.generator === r.generator && x.language === r.language)
        rows.push({ ...x });
  }
  return {
    id: 'noise_floor',
    title: 'Noise floor: reference flips beyond repeat flips',
    caption:
      'Each NR verdict asked a second time (same prompt): NR-NR is how often the judge changes its ' +
      'CORRECT/INCORRECT verdict when nothing changes (Wilson 95% CI). NR-RV and NR-RC rows compare, on the ' +
      'answers valid in all three verdicts, the flip rate with the repeat flip rate (Wilson 95% CIs); ' +
      repeatFloorMethods({ excess: 'flip − repeat flip', under: 'the reference', only: 'reference' }) +
      ' (the question as the unit); Holm: adjusted across the NR-RV and NR-RC rows of single ' +
      'generators (every judge, generator and language: each test once). Generator "all" pools the ' +
      'generators: its rows are summaries outside that family and have no Holm p.',
    columns: [
      ...keyColumns('judge', 'generator', 'language', 'transition'),
      ...repeatFloorColumns({
        flipHeader: 'Flip rate',
        onlyKey: 'change_only',
        onlyHeader: 'Reference only',
      }),
    ],
    rows,
    // NR-NR rows have no test; generator "all" pools its members: neither is in the family.
    families: [
      {
        name: 'noise_floor',
        method: 'holm',
        p: 'mcnemar_p',
        adjusted: 'mcnemar_p_holm',
        by: [],
        hypothesis: ['judge', 'generator', 'language', 'transition'],
        outside: { generator: POOLED },
      },
    ],
  };
}

export function buildRefSensTables(m: RefSensMetrics): Table[] {
  const tables: Table[] = [
    {
      id: 'calibration',
      title: 'Calibration: acceptance of gold (C1) and wrong (C2) answers without a reference',
      caption:
        'Per judge and language, on questions with both verdicts valid. C1: a gold answer shown as the ' +
        'generated answer; C2: another question’s gold answer in the same language sharing nothing with ' +
        'this one’s. Wilson 95% CIs; CGP = C1 − C2 with Newcombe’s paired-difference 95% CI (method 10).',
      columns: [
        ...keyColumns('judge', 'language'),
        N_COLUMN,
        ...rateColumns('c1_accept', 'C1 accept', { ciHeader: 'C1 95% CI' }),
        ...rateColumns('c2_accept', 'C2 accept', { ciHeader: 'C2 95% CI' }),
        ...rateColumns('cgp', 'CGP', { ciHeader: 'CGP 95% CI' }),
      ],
      rows: m.calibration.map((r) => ({
        ...r,
        c1_accept_ci: intervalCell(r.c1_accept_ci, r.ci_undefined_reason),
        c2_accept_ci: intervalCell(r.c2_accept_ci, r.ci_undefined_reason),
        cgp_ci: intervalCell(r.cgp_ci, r.ci_undefined_reason),
      })),
    },
    {
      id: 'acceptance',
      title: 'Acceptance by setting',
      caption:
        'Share of generated answers judged CORRECT: NR no reference, RV reference visible, RC reference ' +
        'visible and compared. Generator "all" pools the generators (shown with two or more). Wilson 95% CIs.',
      columns: [
        ...keyColumns('judge', 'generator', 'language', 'setting'),
        N_COLUMN,
        ...rateColumns('accept_rate', 'Accept'),
      ],
      rows: m.acceptance.map((r) => ({ ...r })),
    },
    {
      id: 'flips',
      title: 'Decision flips between settings',
      caption:
        'Pairs (answer judged in both settings, both valid). Flip rate with Wilson 95% CI; C→I and I→C ' +
        'count flips by direction; McNemar: exact two-sided test of C→I vs I→C, item-clustered (the question ' +
        'as the unit: generator "all" holds several answers per question); extraction change: share ' +
        'of pairs whose extracted answers differ after normalization.',
      columns: [
        ...keyColumns('judge', 'generator', 'language', 'transition'),
        N_COLUMN,
        ...rateColumns('flip_rate', 'Flip rate'),
        col('correct_to_incorrect', 'C→I', 'int'),
        col('incorrect_to_correct', 'I→C', 'int'),
        col('mcnemar_p', 'McNemar p', 'p'),
        col('extraction_change_rate', 'Extraction change', 'pct'),
      ],
      rows: m.flips.map((r) => ({ ...r })),
    },
    {
      id: 'string_baseline',
      title: 'String baseline: exact match and token F1 against the gold answers',
      caption: 'SQuAD/TyDi QA normalization; the best over each question’s gold answers, averaged.',
      columns: [
        ...keyColumns('generator', 'language'),
        N_COLUMN,
        col('exact_match', 'EM', 'pct'),
        col('token_f1', 'Token F1', 'pct'),
      ],
      rows: m.string_baseline.answers.map((r) => ({ ...r })),
    },
    {
      id: 'em_agreement',
      title: 'Agreement of verdicts with exact match',
      caption:
        'Share of valid verdicts where CORRECT coincides with an exact match (and INCORRECT with none).',
      columns: [
        ...keyColumns('judge', 'generator', 'language', 'setting'),
        N_COLUMN,
        col('em_agreement', 'Agreement with EM', 'pct'),
      ],
      rows: m.string_baseline.em_agreement.map((r) => ({ ...r })),
    },
  ];
  if (m.human.settings.length > 0)
    tables.push({
      id: 'human',
      title: 'Verdicts against human labels',
      caption:
        'Accuracy (Wilson 95% CI) and Cohen’s κ (95% CI, large-sample SE of Fleiss, Cohen & Everitt, ' +
        'clipped to κ’s range [−1, 1]) ' +
        'of each setting’s verdicts against the imported human labels. κ’s CI is undefined when one side ' +
        'is constant (its variance is 0).',
      columns: [
        ...keyColumns('judge', 'setting'),
        N_COLUMN,
        ...rateColumns('accuracy', 'Accuracy'),
        col('kappa', 'κ', 'text'),
        col('kappa_ci', 'κ 95% CI', 'text'),
      ],
      rows: m.human.settings.map((r) => ({
        ...r,
        kappa: fixedText(r.kappa, 3),
        kappa_ci: fixedIntervalText(r.kappa_ci, 3, r.kappa_ci_undefined_reason),
      })),
    });
  if (m.noise_floor) tables.push(noiseFloorTable(m.noise_floor));
  tables.push(usageTable(m.usage));
  // With one generator, "all" would repeat its rows: shown once, under the generator's name.
  return tables.map((t) => withoutEchoedPools(t, 'generator', ['mcnemar_p_holm']));
}
