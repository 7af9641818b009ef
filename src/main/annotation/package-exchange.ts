// A rating set carried between stores as one package file: written with its units, labels,
// guidelines and adjudications; read back by merging into the set it came from (or one whose units
// match it), or opened as a new set. Later labels win; older ones come back as conflicts.
import type { PackageImport, PackageLabelConflict } from '../../shared/annotation/api-types';
import type { RatingValue } from '../../shared/annotation/types';
import { AppError } from '../base/errors';
import type { Database } from '../store/db';
import { readPackage, writePackage, type PackageContent } from './package';
import { setRow, setSummary } from './sets';
import {
  adjudicationsOf,
  ensureAnnotator,
  getSetByUid,
  guidelinesOf,
  insertSet,
  labelsOf,
  listSets,
  putGuidelinesVersion,
  saveAdjudication,
  saveLabels,
  setItems,
  type NewLabel,
  type SetItemRow,
  type SetRow,
} from './store';
import { annotatorName, describeScale, fileStem, normalizeValue } from './values';

/** How a package that is not simply its own set's is opened (see `importPackageFile`). */
export interface PackageChoice {
  asNewSet?: boolean;
  intoSetId?: number;
  takePackageLabels?: boolean;
}

/** The set as one package file: units as annotators see them, and the labels given so far. */
export function packageFile(
  db: Database,
  setId: number,
): { fileName: string; mime: string; contentBase64: string } {
  const set = setRow(db, setId);
  const items = setItems(db, set.id);
  const uidOf = new Map(items.map((i) => [i.itemKey, i.unitUid]));
  const content = writePackage({
    set: { uid: set.uid, name: set.name, scale: set.scale, seed: set.seed },
    items: items.map((i) => ({ unit: i.unitUid, view: i.view })),
    labels: labelsOf(db, set.id).map((l) => ({
      unit: uidOf.get(l.itemKey)!,
      annotator: l.annotator,
      value: l.value,
      skipped: l.skipped,
      comment: l.comment,
      time: l.updatedAt,
      ...(l.guidelinesVersion !== null ? { guidelines_version: l.guidelinesVersion } : {}),
    })),
    guidelines: guidelinesOf(db, set.id).map((g) => ({
      version: g.version,
      text: g.text,
      time: g.createdAt,
    })),
    adjudications: adjudicationsOf(db, set.id).map(({ itemKey, createdAt, value, adjudicator, note }) => ({
      unit: uidOf.get(itemKey)!,
      value,
      adjudicator,
      note,
      time: createdAt,
    })),
  });
  return {
    fileName: `${fileStem(set.name)}.annotation.json`,
    mime: 'application/json',
    contentBase64: Buffer.from(content, 'utf8').toString('base64'),
  };
}

/**
 * Opens a package. A known set (by uid) gets the package's labels merged in, provided its units
 * are exactly the set's units. A set this store has not seen is not opened silently while the
 * store holds sets the person may have meant: the answer is `foreign-set` (the package's set and
 * the sets whose units match it), and the caller asks; `asNewSet` opens it as a new set and
 * `intoSetId` merges its labels into that set when the units match (by id or by their text).
 * A package label replaces one the set holds only when it is later (its `time`); the others are
 * kept and returned as `conflicts`, unless `takePackageLabels` takes the package's anyway.
 */
export function importPackageFile(
  db: Database,
  fileName: string,
  bytes: Buffer,
  choice: PackageChoice = {},
): PackageImport {
  const pkg = readPackage(fileName, bytes);
  refuseUnreadableLabels(fileName, pkg);
  if (choice.asNewSet && choice.intoSetId !== undefined)
    throw new AppError('invalid_params', 'Choose one: open the package as a new set, or merge it into a set');
  const own = getSetByUid(db, pkg.set.uid);
  if (choice.asNewSet && own)
    throw new AppError(
      'conflict',
      `${fileName} comes from rating set ${own.id} "${own.name}" of this store: it merges there, it cannot be opened as a new set`,
    );
  const target = choice.intoSetId !== undefined ? setRow(db, choice.intoSetId) : own;
  if (!target && !choice.asNewSet) {
    const sets = listSets(db);
    if (sets.length > 0) return foreignSet(db, pkg, sets);
  }
  return db.transaction((): PackageImport => {
    const { setId, created, keyOf } = target
      ? { ...matchedTarget(db, fileName, pkg, target), created: false }
      : { ...insertPackageSet(db, pkg), created: true };
    mergeGuidelines(db, fileName, pkg, setId);
    const { saved, conflicts } = mergeLabels(db, pkg, setId, keyOf, choice.takePackageLabels === true);
    mergeAdjudications(db, fileName, pkg, setId, keyOf);
    return {
      outcome: 'imported',
      set: setSummary(db, setRow(db, setId)),
      created,
      labels: saved,
      conflicts,
    };
  })();
}

/** Labels naming a unit the package lacks, or a value off its scale: the whole package is refused. */
function refuseUnreadableLabels(fileName: string, pkg: PackageContent): void {
  const units = new Set(pkg.items.map((i) => i.unit));
  for (const [i, l] of pkg.labels.entries()) {
    if (!units.has(l.unit)) {
      throw new AppError(
        'invalid_input',
        `${fileName}: labels.${i}.unit "${l.unit}" is not one of the package's items`,
        [{ file: fileName, field: `labels.${i}.unit`, message: 'unknown unit' }],
      );
    }
    if (!l.skipped && (l.value === null || normalizeValue(pkg.set.scale, l.value) === null)) {
      throw new AppError(
        'invalid_input',
        `${fileName}: labels.${i}.value is out of the scale (${describeScale(pkg.set.scale)})`,
        [{ file: fileName, field: `labels.${i}.value`, message: 'out of the scale' }],
      );
    }
  }
}

/** The answer for a package of a set this store has not seen: it and the sets it could merge into. */
function foreignSet(db: Database, pkg: PackageContent, sets: readonly SetRow[]): PackageImport {
  return {
    outcome: 'foreign-set',
    package: {
      uid: pkg.set.uid,
      name: pkg.set.name,
      units: pkg.items.length,
      labels: pkg.labels.length,
    },
    candidates: sets
      .filter((set) => unitMatch(pkg, set, setItems(db, set.id)).ok)
      .map((set) => ({ id: set.id, name: set.name })),
  };
}

/** The set the package merges into, with each package unit's item key there; refused unless its units match. */
function matchedTarget(
  db: Database,
  fileName: string,
  pkg: PackageContent,
  target: SetRow,
): { setId: number; keyOf: Map<string, string> } {
  const match = unitMatch(pkg, target, setItems(db, target.id));
  if (!match.ok)
    throw new AppError(
      'conflict',
      `${fileName} does not match annotation set "${target.name}": ${match.detail}; nothing was imported`,
      [{ file: fileName, field: 'items', message: match.detail }],
    );
  return { setId: target.id, keyOf: match.keyOf };
}

/** The package opened as a set of its own: no experiment behind it, its units keyed by their ids. */
function insertPackageSet(db: Database, pkg: PackageContent): { setId: number; keyOf: Map<string, string> } {
  const setId = insertSet(
    db,
    {
      uid: pkg.set.uid,
      name: pkg.set.name,
      experimentId: null,
      scale: pkg.set.scale,
      seed: pkg.set.seed,
      strata: [],
    },
    pkg.items.map((i) => ({
      itemKey: i.unit,
      unitUid: i.unit,
      itemId: null,
      category: null,
      stratum: null,
      view: i.view,
    })),
  );
  return { setId, keyOf: new Map(pkg.items.map((i) => [i.unit, i.unit])) };
}

/**
 * Guidelines keep the package's numbering: a version this set holds with other text would make
 * labels point at the wrong rules, so the whole package is refused.
 */
function mergeGuidelines(db: Database, fileName: string, pkg: PackageContent, setId: number): void {
  const ours = new Map(guidelinesOf(db, setId).map((g) => [g.version, g.text]));
  for (const g of pkg.guidelines ?? []) {
    const text = ours.get(g.version);
    if (text !== undefined && text !== g.text)
      throw new AppError(
        'conflict',
        `${fileName}: its guidelines version ${g.version} differs from this set's version ${g.version}; nothing was imported`,
        [{ file: fileName, field: 'guidelines', message: `version ${g.version} differs` }],
      );
    if (text === undefined)
      putGuidelinesVersion(db, setId, { version: g.version, text: g.text, createdAt: g.time });
  }
}

/**
 * A label this set already holds is replaced only by a later one of the package: an older package
 * (or one without times) must not turn a colleague's newer labels back. Those are kept and listed
 * as conflicts unless the caller takes the package's labels anyway.
 */
function mergeLabels(
  db: Database,
  pkg: PackageContent,
  setId: number,
  keyOf: Map<string, string>,
  takePackageLabels: boolean,
): { saved: number; conflicts: PackageLabelConflict[] } {
  const held = new Map(labelsOf(db, setId).map((l) => [`${l.itemKey}\u0000${l.annotatorId}`, l]));
  const uidOf = new Map([...keyOf].map(([unit, key]) => [key, unit]));
  const conflicts: PackageLabelConflict[] = [];
  const labels: NewLabel[] = [];
  for (const l of pkg.labels) {
    const label = {
      itemKey: keyOf.get(l.unit)!,
      annotatorId: ensureAnnotator(db, annotatorName(l.annotator)),
      value: l.skipped ? null : normalizeValue(pkg.set.scale, l.value!),
      skipped: l.skipped,
      comment: l.comment,
      guidelinesVersion: l.guidelines_version ?? null,
      updatedAt: labelTime(l.time),
    };
    const have = held.get(`${label.itemKey}\u0000${label.annotatorId}`);
    if (have && sameLabel(have, label)) continue;
    const newer = label.updatedAt !== null && Date.parse(label.updatedAt) > Date.parse(have?.updatedAt ?? '');
    if (have && !newer && !takePackageLabels) {
      conflicts.push({
        unit: uidOf.get(label.itemKey)!,
        annotator: have.annotator,
        ours: { value: have.value, skipped: have.skipped, time: have.updatedAt },
        package: { value: label.value, skipped: label.skipped, time: l.time ?? null },
      });
      continue;
    }
    labels.push(label);
  }
  saveLabels(db, setId, labels);
  return { saved: labels.length, conflicts };
}

/** An adjudication travels with who gave it and when; the later of two for an item stays. */
function mergeAdjudications(
  db: Database,
  fileName: string,
  pkg: PackageContent,
  setId: number,
  keyOf: Map<string, string>,
): void {
  const settled = new Map(adjudicationsOf(db, setId).map((a) => [a.itemKey, a]));
  for (const [i, a] of (pkg.adjudications ?? []).entries()) {
    const itemKey = keyOf.get(a.unit);
    const value = normalizeValue(pkg.set.scale, a.value);
    if (itemKey === undefined || value === null)
      throw new AppError(
        'invalid_input',
        `${fileName}: adjudications.${i} ${itemKey === undefined ? `names unit "${a.unit}", not one of the package's items` : 'is out of the scale'}`,
        [
          {
            file: fileName,
            field: `adjudications.${i}`,
            message: itemKey === undefined ? 'unknown unit' : 'out of the scale',
          },
        ],
      );
    const have = settled.get(itemKey);
    if (!have || have.createdAt < a.time)
      saveAdjudication(db, setId, {
        itemKey,
        value,
        adjudicator: a.adjudicator,
        note: a.note,
        createdAt: a.time,
      });
  }
}

function normalizeView(v: { prompt: string; context?: string | null; responses: string[] }) {
  return { prompt: v.prompt, context: v.context ?? null, responses: v.responses };
}

/**
 * Whether a package's units are exactly a set's units, and each package unit's item key there.
 * Units match by their ids (the set the package came from), else by the text they show, one to
 * one (a set made again from the same items under another uid).
 */
function unitMatch(
  pkg: PackageContent,
  set: SetRow,
  items: readonly SetItemRow[],
): { ok: true; keyOf: Map<string, string> } | { ok: false; detail: string } {
  if (JSON.stringify(set.scale) !== JSON.stringify(pkg.set.scale))
    return { ok: false, detail: 'its scale differs' };
  const mine = new Map(items.map((i) => [i.unitUid, i]));
  const units = new Set(pkg.items.map((i) => i.unit));
  const missing = pkg.items.find((i) => !mine.has(i.unit));
  const extra = items.find((i) => !units.has(i.unitUid));
  if (!missing && !extra) {
    const changed = pkg.items.find(
      (i) => JSON.stringify(normalizeView(mine.get(i.unit)!.view)) !== JSON.stringify(normalizeView(i.view)),
    );
    if (changed) return { ok: false, detail: `its unit "${changed.unit}" shows different text` };
    return { ok: true, keyOf: new Map(items.map((i) => [i.unitUid, i.itemKey])) };
  }
  const idDetail = missing
    ? `its unit "${missing.unit}" is not in the set`
    : `the set's unit "${extra!.unitUid}" is missing from it`;
  if (pkg.items.length !== items.length) return { ok: false, detail: idDetail };
  const byText = new Map<string, SetItemRow[]>();
  for (const i of items) {
    const key = JSON.stringify(normalizeView(i.view));
    byText.set(key, [...(byText.get(key) ?? []), i]);
  }
  const keyOf = new Map<string, string>();
  for (const i of pkg.items) {
    const same = byText.get(JSON.stringify(normalizeView(i.view)));
    // Two units showing the same text could not be told apart: ids are then the only match.
    if (!same || same.length !== 1) return { ok: false, detail: idDetail };
    keyOf.set(i.unit, same[0].itemKey);
  }
  if (new Set(keyOf.values()).size !== items.length) return { ok: false, detail: idDetail };
  return { ok: true, keyOf };
}

/** A package label's time as the store writes times, or null when it has none or none readable. */
function labelTime(time: string | undefined): string | null {
  const t = time === undefined ? NaN : Date.parse(time);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** The same label (value, skip, comment): importing it changes nothing, so it is no conflict. */
function sameLabel(
  a: { value: RatingValue | null; skipped: boolean; comment: string | null },
  b: { value: RatingValue | null; skipped: boolean; comment: string | null },
): boolean {
  return (
    a.skipped === b.skipped && JSON.stringify(a.value) === JSON.stringify(b.value) && a.comment === b.comment
  );
}
