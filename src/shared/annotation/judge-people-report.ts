// The judge-and-people tables (issue 36): corrected estimates, Gwet's AC1/AC2 and the alternative
// annotator test, in the report kit's tables so the agreement page, the CSV/XLSX exports and the
// LaTeX share them. English here; the page says the same in 中文 (renderer annotation i18n).
import { col, type Table } from '../report/table';
import { intervalTextColumn, keyColumns, N_COLUMN, numberColumn, countColumns } from '../report/columns';
import { toFixedText, undefinedText } from '../report/format';
import type { AgreementReport } from './agreement';
import { RARER_VERDICT_MIN } from './judge-people';
import type { Estimate, GwetResult, RoganGladenResult } from '../stats';

const num = (v: number | null | undefined, digits = 3): string =>
  typeof v === 'number' && Number.isFinite(v) ? toFixedText(v, digits) : '–';
const interval = (c: [number, number] | null | undefined, reason?: string): string =>
  c ? `[${num(c[0])}, ${num(c[1])}]` : reason ? undefinedText(reason) : '–';

export const METHOD_NAMES: Record<Estimate['method'], string> = {
  naive: 'Judge alone (naive)',
  'human-only': 'People alone',
  ppi: 'PPI',
  'ppi++': 'PPI++',
  'stratified ppi++': 'Stratified PPI++',
  'rogan-gladen': 'Rogan–Gladen',
};

function note(e: Estimate | RoganGladenResult, rarer: number): string {
  const parts: string[] = [];
  const min = RARER_VERDICT_MIN[e.method];
  if (min !== undefined && e.ci && rarer < min)
    parts.push(`${rarer} human labels of the rarer verdict, under ${min}: the interval may run short`);
  if (e.clipped) parts.push('clipped to [0, 1]');
  if (e.method === 'naive') parts.push("judge's sampling noise only, not its bias");
  if (e.method === 'rogan-gladen' && 'sensitivity' in e && e.sensitivity !== null)
    parts.push(`sensitivity ${num(e.sensitivity)}, specificity ${num(e.specificity)}`);
  if (e.undefined_reason && e.estimate === null) parts.push(`undefined (${e.undefined_reason})`);
  return parts.join('; ');
}

function gwetRow(who: string, g: GwetResult) {
  return {
    who,
    measure: g.name,
    n: g.n,
    value: num(g.coefficient),
    ci: interval(g.ci, g.undefined_reason),
    pa: num(g.pa),
    pe: num(g.pe),
  };
}

export const ESTIMATES_RULE =
  'PPI: θ = mean of the judge on unlabelled items − mean(judge − person) on labelled ones (Angelopoulos et al., Science 2023); ' +
  'PPI++ weighs the judge by λ = Cov(person, judge) / ((1 + n/N) Var(judge)) in [0, 1] (Angelopoulos, Duchi & Zrnic 2023); ' +
  'stratified PPI++ combines per-category estimates weighted by category size; Rogan–Gladen: θ = (p + specificity − 1) / ' +
  '(sensitivity + specificity − 1) with a delta-method CI over the test and the human-labelled items (Lee et al. 2025). ' +
  'CIs are 95%: normal for the judge alone, people alone and Rogan–Gladen; for PPI, PPI++ and stratified PPI++ with ' +
  'half an Agresti–Min pseudo-label at each (person, judge) corner in the rectifier and a t quantile with n − 1 df; n_eff = n · Var(people alone) / Var(estimator): the human labels the estimator is worth.';

export function judgePeopleTables(report: AgreementReport): Table[] {
  const jp = report.judge_and_people;
  if (!jp) return [];
  const tables: Table[] = [];
  const ordered = report.scale.kind !== 'label';
  tables.push({
    id: 'gwet',
    title: "Gwet's AC1/AC2",
    caption:
      `${ordered ? 'AC2 with quadratic weights (ordered scale)' : 'AC1 (nominal labels)'} among people and between each judge ` +
      'and the human reference (Gwet 2008); 95% t interval from Gwet’s variance (as irrCAC), bounded to [−1, 1]. ' +
      'Unlike κ it does not collapse when one category dominates.',
    columns: [
      col('who', 'Raters', 'text'),
      col('measure', 'Measure', 'text'),
      N_COLUMN,
      numberColumn('value', 'Coefficient'),
      intervalTextColumn('gwet_ci', '95% CI'),
      numberColumn('pa', 'Observed agreement'),
      numberColumn('pe', 'Chance agreement'),
    ],
    rows: [
      gwetRow('people', jp.people_gwet),
      ...jp.judges.map((j) => gwetRow(`${j.judge} vs people`, j.gwet)),
    ].map(({ ci, ...r }) => ({ ...r, gwet_ci: ci })),
  });
  if (jp.judges.length) {
    tables.push({
      id: 'estimates',
      title: `Corrected estimates: ${jp.target.text}`,
      caption:
        `The ${jp.target.text} over all items the judge rated: the judge alone, people alone (labelled items), and the ` +
        `judge corrected with people's labels. ${ESTIMATES_RULE}`,
      columns: [
        ...keyColumns('judge'),
        col('method', 'Estimator', 'text'),
        ...countColumns({ labelled: 'Labelled', unlabelled: 'Unlabelled' }),
        numberColumn('estimate', 'Estimate'),
        intervalTextColumn('est_ci', '95% CI'),
        numberColumn('width', 'CI width'),
        numberColumn('n_eff', 'n_eff'),
        numberColumn('lambda', 'λ'),
        col('note', 'Note', 'text'),
      ],
      rows: jp.judges.flatMap((j) =>
        [...j.estimates, ...(j.stratified ? [j.stratified] : [])].map((e) => ({
          judge: j.judge,
          method: METHOD_NAMES[e.method],
          labelled: j.n_labelled,
          unlabelled: j.n_unlabelled,
          estimate: num(e.estimate),
          est_ci: interval(e.ci, e.estimate !== null ? e.undefined_reason : undefined),
          width: e.ci ? num(e.ci[1] - e.ci[0]) : '–',
          n_eff: num(e.n_eff, 1),
          lambda: 'lambda' in e && typeof e.lambda === 'number' ? num(e.lambda) : '',
          note: note(e, j.rarer_verdict_labels),
        })),
      ),
    });
    const eps = jp.judges[0].alt_test.epsilon;
    tables.push({
      id: 'alt_test',
      title: 'Can this judge replace a rater? (alternative annotator test)',
      caption:
        `Calderon, Reichart & Dror (ACL 2025): each annotator left out in turn; the judge "wins" against them when a ` +
        `one-sided t-test rejects that its advantage probability trails theirs by ε = ${eps} or more ` +
        '(Benjamini–Yekutieli over annotators, q = 0.05). Passed when it wins against at least half (ω ≥ 0.5). ' +
        'ρ: the mean probability that the judge matches the other annotators at least as well as the left-out one. ' +
        'ε is the cost–benefit allowance: the authors suggest 0.2 for experts, 0.15 for skilled annotators, 0.1 for crowd ' +
        'workers. It needs at least 3 annotators and 30 items per annotator; the ρ ≥ threshold decision stays beside it.',
      columns: [
        ...keyColumns('judge'),
        numberColumn('epsilon', 'ε'),
        col('tested', 'Annotators tested', 'int'),
        numberColumn('omega', 'Winning rate ω'),
        numberColumn('adv', 'Advantage ρ'),
        col('result', 'Result', 'text'),
        col('per_annotator', 'Per annotator (p, won)', 'text'),
      ],
      rows: jp.judges.map((j) => {
        const a = j.alt_test;
        return {
          judge: j.judge,
          epsilon: num(a.epsilon, 2),
          tested: a.annotators.length,
          omega: num(a.winning_rate, 2),
          adv: num(a.advantage_probability),
          result: a.passed === null ? `undefined (${a.undefined_reason})` : a.passed ? 'passed' : 'failed',
          per_annotator: [
            ...a.annotators.map(
              (r) =>
                `${r.annotator}: p = ${r.p_value === null ? '–' : num(r.p_value, 4)}${r.rejected ? ', won' : ''}`,
            ),
            ...a.skipped.map((s) => `${s.annotator}: ${s.n} items, skipped`),
          ].join('; '),
        };
      }),
    });
  }
  return tables;
}
