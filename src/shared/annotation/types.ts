// Human ratings (DESIGN.md section 5d): what a protocol offers people to rate, what its judges
// said about the same units, and the shapes the annotation API returns. Types only.

/** What people give for a unit: a score on a scale, a preference between two outputs, or a label. */
export type RatingScale =
  | { kind: 'score'; min: number; max: number }
  /** A preference between the unit's two responses: '1', '2' or 'tie' (by the responses' order). */
  | { kind: 'preference' }
  | {
      kind: 'label';
      labels: string[];
      /**
       * A protocol's own rating task (its annotation hook's `tasks`, e.g. a translation study's
       * `translation_equivalence`); absent: the protocol's main units.
       */
      task?: string;
      /**
       * The label the set's automatic checks (its "judges") are meant to find: the report gives
       * their sensitivity and specificity for it.
       */
      positive?: string;
    };

export type RatingKind = RatingScale['kind'];

/** A rating value: a number for scores, '1' | '2' | 'tie' for preferences, the label otherwise. */
export type RatingValue = number | string;

/** What an annotator sees of one unit: no model names, no verdicts, no other people's labels. */
export interface AnnotationView {
  /** The instruction or question. */
  prompt: string;
  /** Supporting text shown above the responses (a QA context, a reference answer), if any. */
  context?: string | null;
  /** The responses to rate, in the order shown ("Response A", "Response B" for preferences). */
  responses: string[];
}

/** One rateable unit of an experiment (an item, or an item × generated answer). */
export interface AnnotationUnit {
  /** Unique within the experiment; stable across runs (built from source ids and labels). */
  itemKey: string;
  itemId: number;
  sourceId: string;
  category: string | null;
  view: AnnotationView;
  /**
   * The stratum the sample is drawn by, when the protocol sets it (e.g. an automatic check's pass
   * or fail × language); absent: the judges' tercile band × the category.
   */
  stratum?: string;
}

/** A judge's rating of a unit, on the same scale people use. */
export interface JudgeRating {
  itemKey: string;
  itemId: number;
  judge: string;
  category?: string | null;
  kind: RatingKind;
  value: RatingValue;
  /** The debiased score beside the raw one, where the protocol computes one. */
  debiased?: number | null;
}
