// What keeps a set's labels consistent: versioned guidelines for annotators, the items where they
// disagree side by side, and an adjudicator's settled label, stored apart from theirs.
import { humanReference } from '../../shared/annotation/agreement';
import type { Disagreement, GuidelinesVersion } from '../../shared/annotation/api-types';
import type { RatingValue } from '../../shared/annotation/types';
import { AppError } from '../base/errors';
import type { Database } from '../store/db';
import { setRow } from './sets';
import {
  addGuidelines,
  adjudicationsOf,
  clearAdjudication,
  guidelinesOf,
  labelsOf,
  saveAdjudication,
  setItems,
} from './store';
import { annotatorName, describeScale, guidelinesText, normalizeValue } from './values';

/** Every version of the set's guidelines, oldest first. */
export function guidelineVersions(db: Database, setId: number): GuidelinesVersion[] {
  return guidelinesOf(db, setRow(db, setId).id);
}

/**
 * New guidelines for the set: stored as the next version (labels keep the version they were
 * made under); the current text again makes no version. Empty text is refused: a set's
 * guidelines can be rewritten, not withdrawn, so every label's version stays readable.
 */
export function newGuidelines(db: Database, setId: number, raw: string): GuidelinesVersion {
  const set = setRow(db, setId);
  const text = guidelinesText(raw);
  if (!text) throw new AppError('invalid_params', 'Guidelines need some text');
  return addGuidelines(db, set.id, text);
}

/**
 * Items where annotators gave different labels (skips left out), and items already
 * adjudicated, with every label side by side; in the set's item order.
 */
export function disagreementsOf(db: Database, setId: number): Disagreement[] {
  const set = setRow(db, setId);
  const labels = labelsOf(db, set.id).filter((l) => !l.skipped && l.value !== null);
  const adjudicated = new Map(adjudicationsOf(db, set.id).map((a) => [a.itemKey, a]));
  const out: Disagreement[] = [];
  for (const item of setItems(db, set.id)) {
    const mine = labels.filter((l) => l.itemKey === item.itemKey);
    const differ = new Set(mine.map((l) => JSON.stringify(l.value))).size > 1;
    const a = adjudicated.get(item.itemKey);
    if (!differ && !a) continue;
    const ref = humanReference(
      set.scale,
      mine.map((l) => l.value!),
    );
    out.push({
      unitUid: item.unitUid,
      view: item.view,
      labels: mine.map((l) => ({
        annotator: l.annotator,
        value: l.value!,
        comment: l.comment,
        guidelinesVersion: l.guidelinesVersion,
      })),
      majority: ref ? (set.scale.kind === 'score' ? ref.numeric : ref.category) : null,
      adjudication: a
        ? { value: a.value, adjudicator: a.adjudicator, note: a.note, createdAt: a.createdAt }
        : null,
    });
  }
  return out;
}

/**
 * Settles an item: the adjudicated label is stored apart from the annotators' labels, with who
 * gave it and when, and is the item's human reference from then on. A null value withdraws it.
 */
export function adjudicateItem(
  db: Database,
  p: { setId: number; unitUid: string; value: RatingValue | null; adjudicator: string; note?: string | null },
): Disagreement[] {
  const set = setRow(db, p.setId);
  const item = setItems(db, set.id).find((i) => i.unitUid === p.unitUid || i.itemKey === p.unitUid);
  if (!item) throw new AppError('not_found', `No unit "${p.unitUid}" in annotation set ${set.id}`);
  const adjudicator = annotatorName(p.adjudicator);
  if (p.value === null) {
    clearAdjudication(db, set.id, item.itemKey);
    return disagreementsOf(db, set.id);
  }
  const value = normalizeValue(set.scale, p.value);
  if (value === null)
    throw new AppError(
      'invalid_params',
      `"${String(p.value)}" is not on this set's scale (${describeScale(set.scale)})`,
    );
  saveAdjudication(db, set.id, {
    itemKey: item.itemKey,
    value,
    adjudicator,
    note: p.note?.trim() || null,
  });
  return disagreementsOf(db, set.id);
}
