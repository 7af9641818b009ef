// The annotation API's payload shapes (src/shared/api.ts names the methods). Types only.
import type { AnnotationView, RatingScale, RatingValue } from './types';
import type { AgreementReport } from './agreement';

export interface StratumCountView {
  stratum: string;
  available: number;
  sampled: number;
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
  progress: AnnotatorProgress[];
  createdAt: string;
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
export type PackageImport =
  | { outcome: 'imported'; set: AnnotationSetSummary; created: boolean; labels: number }
  | {
      outcome: 'foreign-set';
      package: { uid: string; name: string; units: number; labels: number };
      /** The store's sets whose units are the package's (by id or by the text they show). */
      candidates: { id: number; name: string }[];
    };

export type { AgreementReport };
