// The annotation API's payload shapes (src/shared/api.ts names the methods), and the one rule
// both sides need to agree on (the mapping's floor).
import type { AnnotationView, RatingScale, RatingValue } from './types';
import type { AgreementReport } from './agreement';
import type { CalibratedRow } from './calibrate';
import type { LeastSureCriterion } from './least-sure';

export interface StratumCountView {
  stratum: string;
  available: number;
  sampled: number;
  /** In a set of the judge's least-sure units: the criterion this stratum counts. */
  criterion?: LeastSureCriterion;
}

export interface AnnotatorProgress {
  annotator: string;
  labelled: number;
  skipped: number;
  total: number;
}

export interface AnnotationSetSummary {
  id: number;
  uid: string;
  name: string;
  /** Null for a set opened from an annotation package (a colleague's copy). */
  experimentId: number | null;
  scale: RatingScale;
  seed: number;
  itemCount: number;
  strata: StratumCountView[];
  /**
   * How the items were chosen: a stratified random sample, or the judge's least-sure units (not
   * random: the corrected estimates, which need a random sample, are undefined for such a set).
   */
  selection: 'stratified' | 'least-sure';
  progress: AnnotatorProgress[];
  /** The current guidelines version (null: the set has no guidelines yet). */
  guidelinesVersion: number | null;
  /** Items settled by an adjudicated label. */
  adjudicated: number;
  createdAt: string;
}

/** One version of a set's annotation guidelines (each edit makes a new one). */
export interface GuidelinesVersion {
  version: number;
  text: string;
  createdAt: string;
}

/** An item people rated differently (or one already adjudicated), its labels side by side. */
export interface Disagreement {
  unitUid: string;
  view: AnnotationView;
  labels: {
    annotator: string;
    value: RatingValue;
    comment: string | null;
    /** The guidelines version the label was made under (null: none). */
    guidelinesVersion: number | null;
  }[];
  /** The median or majority of the labels (null: a tied majority). */
  majority: RatingValue | null;
  adjudication: { value: RatingValue; adjudicator: string; note: string | null; createdAt: string } | null;
}

/** One unit as an annotator sees it, with that annotator's own label (never anyone else's). */
export interface SessionItem {
  unitUid: string;
  view: AnnotationView;
  value: RatingValue | null;
  skipped: boolean;
  comment: string | null;
}

export interface AnnotationSession {
  set: AnnotationSetSummary;
  annotator: string;
  /** The units in this annotator's order (seeded by set and annotator). */
  items: SessionItem[];
  /** Where to resume: the first unit without a label or skip (items.length when done). */
  resumeAt: number;
  /** The set's current guidelines, shown on the rating screen (null: none written). */
  guidelines: GuidelinesVersion | null;
}

export interface AnnotationFile {
  fileName: string;
  mime: string;
  contentBase64: string;
}

/**
 * What opening a package did: imported (a new set, or labels merged into a set), or nothing yet
 * because the package's set is not one of this store's sets and the store holds others the person
 * may have meant: the caller asks, then sends `asNewSet` or `intoSetId`.
 */
/**
 * A package label that was not taken: the set holds a label of that unit by that annotator that
 * differs and is not older than the package's (or the package gives no time).
 */
export interface PackageLabelConflict {
  unit: string;
  annotator: string;
  ours: { value: RatingValue | null; skipped: boolean; time: string };
  package: { value: RatingValue | null; skipped: boolean; time: string | null };
}

export type PackageImport =
  | {
      outcome: 'imported';
      set: AnnotationSetSummary;
      created: boolean;
      labels: number;
      /** Labels kept because the set's are newer (none when `takePackageLabels` was sent). */
      conflicts: PackageLabelConflict[];
    }
  | {
      outcome: 'foreign-set';
      package: { uid: string; name: string; units: number; labels: number };
      /** The store's sets whose units are the package's (by id or by the text they show). */
      candidates: { id: number; name: string }[];
    };

export type { AgreementReport };

/**
 * The held-out ρ below which a calibration mapping is not applied unless the person insists
 * (`force`). 0.3: below it the cross-validated calibrated scores share under a tenth of their rank
 * variance with people's (ρ² < 0.09), and a negative ρ orders unseen items against people; an
 * isotonic fit of such data pools most scores into one level, so applying it flattens them.
 */
export const MAPPING_RHO_FLOOR = 0.3;

/** How well a judge's mapping did on held-out items (the calibration table's "ρ isotonic"). */
export interface MappingQuality {
  /** The lowest held-out ρ among the judge's mappings (the overall one and each category's); null = undefined. */
  rho: number | null;
  floor: number;
  /** rho is below the floor, or undefined (a constant held-out prediction). */
  below: boolean;
}

/** Why an experiment cannot take a mapping: a code the app words, and the detail in English. */
export interface MappingMismatch {
  code: 'protocol' | 'model' | 'rubric' | 'scale' | 'no_judge' | 'unreadable';
  detail: string;
  /** What differs, as values (protocol id, model, scale): the mapping's, and the target's. */
  ours?: string;
  theirs?: string;
}

export interface MappingTargets {
  quality: MappingQuality;
  /** Experiments that can take the mapping, with their judges that fit (same model, rubric, scale). */
  targets: { experimentId: number; name: string; judges: string[] }[];
  /** The others, each with every reason it cannot. */
  excluded: { experimentId: number; name: string; reasons: MappingMismatch[] }[];
}

export interface AppliedMapping {
  rows: CalibratedRow[];
  category: 'per-category' | 'all';
  /** The stored calibration_mappings row (knots, line, CV, rubric hash) behind the rows. */
  mappingId: number;
  quality: MappingQuality;
  /** Target scores whose calibrated value is also that of a different raw score. */
  flattened: number;
  /** Applied below the floor because the person insisted. */
  forced: boolean;
}
