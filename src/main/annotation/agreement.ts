// A set's human labels held against its experiment's judges: the agreement report, and the human
// reference per item that exports carry.
import {
  computeAgreement,
  humanReference,
  numericValue,
  type AgreementReport,
  type HumanLabel,
} from '../../shared/annotation/agreement';
import type { JudgeRating, RatingValue } from '../../shared/annotation/types';
import type { Database } from '../store/db';
import { experimentRatings, taskOf } from './ratings';
import { setRow } from './sets';
import { adjudicationsOf, labelsOf, setItems, type SetRow } from './store';

export interface AgreementInput {
  set: SetRow;
  human: HumanLabel[];
  judges: JudgeRating[];
  adjudicated: { itemKey: string; value: RatingValue }[];
  unlabelledJudges: JudgeRating[];
}

/** Human labels (skips left out) and, for a set of an experiment, its judges' ratings. */
export function agreementInput(db: Database, setId: number): AgreementInput {
  const set = setRow(db, setId);
  const keys = new Set(setItems(db, set.id).map((i) => i.itemKey));
  const human = labelsOf(db, set.id)
    .filter((l) => !l.skipped && l.value !== null)
    .map((l) => ({ itemKey: l.itemKey, annotator: l.annotator, value: l.value! }));
  const all =
    set.experimentId === null ? [] : experimentRatings(db, set.experimentId, taskOf(set.scale)).ratings;
  const judges = all.filter((r) => keys.has(r.itemKey));
  // The experiment's units no one was asked to rate: PPI's unlabelled items.
  const unlabelledJudges = all.filter((r) => !keys.has(r.itemKey));
  const adjudicated = adjudicationsOf(db, set.id).map((a) => ({ itemKey: a.itemKey, value: a.value }));
  return { set, human, judges, adjudicated, unlabelledJudges };
}

export function agreementOf(
  db: Database,
  setId: number,
  threshold?: number,
  altTestEpsilon?: number,
): AgreementReport {
  const { set, human, judges, adjudicated, unlabelledJudges } = agreementInput(db, setId);
  return computeAgreement({
    scale: set.scale,
    items: setItems(db, set.id).map((i) => ({
      itemKey: i.itemKey,
      category: i.category,
      stratum: i.stratum,
    })),
    human,
    adjudicated,
    judges,
    unlabelledJudges,
    threshold,
    altTestEpsilon,
    seed: set.uid,
    chosenNotRandom: set.strata.some((st) => st.criterion !== undefined),
  });
}

/** The human reference per item (adjudicated, else median or majority), for exports. */
export function humanReferences(db: Database, setId: number): Map<string, RatingValue> {
  const { set, human, adjudicated } = agreementInput(db, setId);
  const by = new Map<string, RatingValue[]>();
  for (const h of human) by.set(h.itemKey, [...(by.get(h.itemKey) ?? []), h.value]);
  const out = new Map<string, RatingValue>();
  for (const [k, v] of by) {
    const r = humanReference(set.scale, v);
    if (r) out.set(k, r.numeric);
  }
  for (const a of adjudicated) {
    const n = numericValue(set.scale, a.value);
    if (n !== null) out.set(a.itemKey, n);
  }
  return out;
}
