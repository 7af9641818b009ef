// People rating a set: a blinded session in the annotator's own order, one label (or skip, or
// comment) saved as one row, labels read in from CSV/JSONL all or nothing, and the empty labels
// CSV to fill in.
import type { AnnotationSession, AnnotatorProgress } from '../../shared/annotation/api-types';
import type { RatingValue } from '../../shared/annotation/types';
import type { InputIssue } from '../../shared/domain';
import { AppError } from '../base/errors';
import type { Database } from '../store/db';
import { labelIssues, readLabelFile } from './label-files';
import { labelTemplateCsv } from './label-template';
import { annotatorOrder, setRow, setSummary } from './sets';
import {
  annotatorCounts,
  ensureAnnotator,
  guidelinesOf,
  labelOf,
  labelsOf,
  saveLabel,
  saveLabels,
  setItemByUid,
  setItemCount,
  setItems,
} from './store';
import { annotatorName, describeScale, fileStem, normalizeValue } from './values';

export function annotatorSession(db: Database, setId: number, rawAnnotator: string): AnnotationSession {
  const set = setRow(db, setId);
  const annotator = annotatorName(rawAnnotator);
  const id = ensureAnnotator(db, annotator);
  const items = new Map(setItems(db, set.id).map((i) => [i.itemKey, i]));
  const own = new Map(labelsOf(db, set.id, id).map((l) => [l.itemKey, l]));
  const ordered = annotatorOrder(db, set, annotator).map((key) => {
    const it = items.get(key)!;
    const l = own.get(key);
    return {
      unitUid: it.unitUid,
      view: it.view,
      value: l?.value ?? null,
      skipped: l?.skipped ?? false,
      comment: l?.comment ?? null,
    };
  });
  const resumeAt = ordered.findIndex((i) => i.value === null && !i.skipped);
  return {
    set: setSummary(db, set),
    annotator,
    items: ordered,
    resumeAt: resumeAt < 0 ? ordered.length : resumeAt,
    guidelines: guidelinesOf(db, set.id).at(-1) ?? null,
  };
}

export interface GivenLabel {
  setId: number;
  annotator: string;
  unitUid: string;
  value?: RatingValue | null;
  skip?: boolean;
  comment?: string | null;
}

/** One label (or skip, or comment) given: stored at once, as one row. */
export function giveLabel(db: Database, p: GivenLabel): AnnotatorProgress {
  const set = setRow(db, p.setId);
  const annotator = annotatorName(p.annotator);
  // The one unit and label concerned, read alone: a person rates one unit at a time, and reading
  // the whole set at each label made a set's rating quadratic in its size.
  const item = setItemByUid(db, set.id, p.unitUid);
  if (!item) throw new AppError('not_found', `No unit "${p.unitUid}" in annotation set ${set.id}`);
  const id = ensureAnnotator(db, annotator);
  const previous = labelOf(db, set.id, item.itemKey, id);
  let value: RatingValue | null = previous?.value ?? null;
  if (p.value !== undefined && p.value !== null) {
    value = normalizeValue(set.scale, p.value);
    if (value === null) {
      throw new AppError(
        'invalid_params',
        `"${String(p.value)}" is not on this set's scale (${describeScale(set.scale)})`,
      );
    }
  }
  const skipped =
    p.skip === true ? true : p.value !== undefined && p.value !== null ? false : (previous?.skipped ?? false);
  const comment = p.comment !== undefined ? p.comment?.trim() || null : (previous?.comment ?? null);
  if (value === null && !skipped) {
    // A comment on an unrated unit waits for its label; nothing is stored without one.
    if (comment !== null)
      throw new AppError('invalid_params', 'Rate or skip the item before commenting on it');
    throw new AppError('invalid_params', 'Give a value, or skip');
  }
  saveLabel(db, set.id, {
    itemKey: item.itemKey,
    annotatorId: id,
    value: skipped ? null : value,
    skipped,
    comment,
  });
  return { annotator, ...annotatorCounts(db, set.id, id), total: setItemCount(db, set.id) };
}

/** Human labels from CSV/JSONL, all or nothing; every problem names its line. */
export function importLabelFile(
  db: Database,
  p: { setId: number; fileName: string; bytes: Buffer },
): { imported: number; annotators: string[] } {
  const set = setRow(db, p.setId);
  const rows = readLabelFile(p.fileName, p.bytes);
  const items = setItems(db, set.id);
  const byKey = new Map(items.map((i) => [i.itemKey, i]));
  const byUid = new Map(items.map((i) => [i.unitUid, i]));
  const existing = new Set(labelsOf(db, set.id).map((l) => `${l.itemKey}\u0000${l.annotator}`));
  const seen = new Map<string, number>();
  const issues: InputIssue[] = [];
  const good: { itemKey: string; annotator: string; value: RatingValue; comment: string | null }[] = [];
  for (const r of rows) {
    const issue = (field: string, message: string) =>
      issues.push({ file: p.fileName, line: r.line, field, message });
    const item = byKey.get(r.itemId) ?? byUid.get(r.itemId);
    if (!item) {
      issue('item_id', `unknown item "${r.itemId}" (not in this annotation set)`);
      continue;
    }
    const value = normalizeValue(set.scale, r.value);
    if (value === null) {
      issue(r.field, `"${r.value}" is out of the scale (${describeScale(set.scale)})`);
      continue;
    }
    const pair = `${item.itemKey}\u0000${r.annotator}`;
    if (seen.has(pair)) {
      issue(
        'item_id',
        `duplicate (item, annotator): "${r.itemId}" by "${r.annotator}" is also on line ${seen.get(pair)}`,
      );
      continue;
    }
    if (existing.has(pair)) {
      issue(
        'item_id',
        `duplicate (item, annotator): "${r.annotator}" already labelled "${r.itemId}" in this set`,
      );
      continue;
    }
    seen.set(pair, r.line);
    good.push({ itemKey: item.itemKey, annotator: r.annotator, value, comment: r.comment });
  }
  if (issues.length) throw labelIssues(p.fileName, issues);
  const names = [...new Set(good.map((g) => g.annotator))];
  db.transaction(() => {
    const ids = new Map(names.map((n) => [n, ensureAnnotator(db, annotatorName(n))]));
    saveLabels(
      db,
      set.id,
      good.map((g) => ({
        itemKey: g.itemKey,
        annotatorId: ids.get(g.annotator)!,
        value: g.value,
        skipped: false,
        comment: g.comment,
      })),
    );
  })();
  return { imported: good.length, annotators: names.sort() };
}

/**
 * The labels CSV for `import-labels`: every unit's opaque id and blinded text with an empty
 * value column, the annotator's name prefilled when given.
 */
export function labelTemplateFile(
  db: Database,
  setId: number,
  annotator?: string,
): { fileName: string; mime: string; contentBase64: string } {
  const set = setRow(db, setId);
  const name = annotator === undefined ? null : annotatorName(annotator);
  const csv = labelTemplateCsv(set.scale, setItems(db, set.id), name);
  return {
    fileName: `${fileStem(set.name)}${name ? `.${fileStem(name)}` : ''}.labels.csv`,
    mime: 'text/csv',
    contentBase64: Buffer.from(csv, 'utf8').toString('base64'),
  };
}
