// Which glossary entry a table column is about, from its key in the shared table model (the same
// keys in every protocol's tables). Generic: statistics terms, no protocol.
export const GLOSSARY_IDS = [
  'wilson',
  'tieHalfCi',
  'newcombe',
  'tMeanCi',
  'kappaCi',
  'fisherZ',
  'tieHalf',
  'mcnemar',
  'position',
  'multiple',
  'holm',
  'kappa',
  'flips',
  'power',
] as const;
export type GlossaryId = (typeof GLOSSARY_IDS)[number];

/** Where each entry's behaviour is measured: its rows of docs/VALIDATION.md, by their anchors. */
export const VALIDATION_REPORT = 'docs/VALIDATION.md';

/**
 * The anchors of each entry's rows in VALIDATION.md (`npm run validate` writes one per check id,
 * `npm run validate:e2e` one per end-to-end check): the first is the method's own row; the others
 * where it is also proven (e.g. end to end, through the real runner). A test holds every anchor
 * to the report, so a renamed check cannot leave an entry pointing nowhere.
 */
export const VALIDATION_ROWS: Record<GlossaryId, readonly string[]> = {
  wilson: ['wilson', 'wilson-clustered'],
  tieHalfCi: ['wilson-mean'],
  newcombe: ['newcombe', 'position-rate-newcombe'],
  tMeanCi: ['t-interval'],
  kappaCi: ['cohen-kappa', 'e2e-human-agreement-coverage'],
  fisherZ: [
    'spearman-fisher-z',
    'correlation-type1',
    'e2e-human-agreement-coverage',
    'e2e-human-agreement-null',
  ],
  tieHalf: ['wilson-mean'],
  mcnemar: ['mcnemar-type1'],
  position: ['position-mcnemar-type1', 'e2e-bias-position-power', 'e2e-bias-position-null'],
  multiple: ['holm-fwer'],
  holm: ['holm-fwer', 'e2e-judge-ls-position-power'],
  kappa: ['cohen-kappa'],
  flips: ['e2e-judge-ls-flip-coverage', 'e2e-judge-ls-noise-floor-null'],
  power: ['power-planner', 'e2e-bias-position-power', 'e2e-bias-length-power', 'e2e-human-agreement-power'],
};

// An interval column's entry names its method: the specific ones first, Wilson for the rates.
const BY_KEY: [RegExp, GlossaryId][] = [
  [/tie_half_ci$/, 'tieHalfCi'],
  // Differences of two paired rates (the noise floor's excess flip rate among them).
  [/^(accuracy_change|cgp|excess_flip_rate)_ci$/, 'newcombe'],
  // The first-position rate's interval is Newcombe's on the items' two orders (a paired difference).
  [/^first_rate_ci$/, 'newcombe'],
  // The paired position test: both-first against both-second items.
  [/^(lean_p|both_first|both_second)$/, 'position'],
  // Mean paired differences of scores (bias probes' effects and their excess over the noise floor).
  [/^(mean|excess)_ci$/, 'tMeanCi'],
  [/^kappa_ci$/, 'kappaCi'],
  [/(^|_)rho_ci$/, 'fisherZ'],
  [/_ci$/, 'wilson'],
  [/tie_half/, 'tieHalf'],
  // A Holm-adjusted p (mcnemar_p_holm, binomial_p_holm, p_holm) is about the adjustment, not the
  // test it adjusts: before the test names below, which its key also contains.
  [/holm/, 'holm'],
  [/mcnemar/, 'mcnemar'],
  // A bare p column is one of many tests: the entry on many comparisons (and Holm) applies.
  [/^p$|_p$/, 'multiple'],
  [/inconsisten/, 'position'],
  [/kappa/, 'kappa'],
  [/flip/, 'flips'],
];

export function glossaryFor(columnKey: string): GlossaryId | null {
  return BY_KEY.find(([re]) => re.test(columnKey))?.[1] ?? null;
}
