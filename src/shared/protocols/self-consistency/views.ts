// The unstable-items browser's rows (API `experiments.protocolView`, view "repeats"): one
// question (judge × condition × item × order) with every repeat's verdict and reason side by
// side. Types only; model text travels as plain strings and is shown as text.

export const REPEATS_VIEW = 'repeats';

export interface RepeatView {
  sample: number;
  status: 'ok' | 'failed' | 'pending';
  /** What the judge said: A / B / tie, or the score; null when there is no usable answer. */
  verdict: string | null;
  confidence: number | null;
  reason: string | null;
  /** Why there is no verdict (failed). */
  failure: string | null;
}

export interface QuestionView {
  judge: string;
  condition: string;
  temperature: number | null;
  itemId: string;
  category: string;
  order: string;
  instruction: string;
  /** Pairwise: the texts shown as A and B (in this order); pointwise: the response. */
  shown: string[];
  /** Pairwise: the response shown at the gold output's place (A | B); pointwise: the human score. */
  gold: string | null;
  repeats: RepeatView[];
  /** Distinct valid verdicts (1 = unanimous). */
  distinct: number;
}

export interface RepeatsQuery {
  judge?: string;
  condition?: string;
  category?: string;
  /** Default true: only questions whose valid repeats disagree. */
  unstableOnly?: boolean;
  offset?: number;
  limit?: number;
}

export interface RepeatsViewResult {
  rows: QuestionView[];
  total: number;
  judges: string[];
  conditions: string[];
  categories: string[];
  mode: 'pairwise' | 'pointwise';
}

/** Reads the view's answer, checking its shape (a row of another protocol fails naming the field). */
export function readRepeatsView(value: unknown): RepeatsViewResult {
  const v = value as Partial<RepeatsViewResult> | null;
  if (!v || !Array.isArray(v.rows)) throw new Error('not a self-consistency repeats view: "rows" is missing');
  v.rows.forEach((row, i) => {
    for (const f of ['judge', 'itemId', 'repeats', 'shown'] as const)
      if (!(f in row)) throw new Error(`rows[${i}] is not a self-consistency row: field "${f}" is missing`);
  });
  return v as RepeatsViewResult;
}
