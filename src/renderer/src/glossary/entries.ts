// Which glossary entry a table column is about, from its key in the shared table model (the same
// keys in every protocol's tables). Generic: statistics terms, no protocol.
export const GLOSSARY_IDS = [
  'wilson',
  'tieHalf',
  'mcnemar',
  'position',
  'multiple',
  'holm',
  'kappa',
  'flips',
] as const;
export type GlossaryId = (typeof GLOSSARY_IDS)[number];

const BY_KEY: [RegExp, GlossaryId][] = [
  [/_ci$/, 'wilson'],
  [/tie_half/, 'tieHalf'],
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
