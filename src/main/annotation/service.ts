// Human ratings behind the Core API (DESIGN.md section 5d): annotation sets sampled from an
// experiment, blinded sessions in a per-annotator order, labels saved one call = one row, label
// files and annotation packages in and out, and the agreement report.
import { createHash, randomUUID } from 'node:crypto';
import {
  computeAgreement,
  humanReference,
  numericValue,
  onScale,
  type AgreementReport,
  type HumanLabel,
  type MappingRow,
} from '../../shared/annotation/agreement';
import {
  MAPPING_RHO_FLOOR,
  type AnnotationSession,
  type AnnotationSetSummary,
  type AnnotatorProgress,
  type Disagreement,
  type GuidelinesVersion,
  type AppliedMapping,
  type MappingMismatch,
  type MappingQuality,
  type MappingTargets,
  type PackageImport,
  type PackageLabelConflict,
} from '../../shared/annotation/api-types';
import { applyMapping, type CalibratedRow } from '../../shared/annotation/calibrate';
import {
  LEAST_SURE_CRITERIA,
  leastSureStratum,
  selectLeastSure,
  type JudgeAsk,
  type LeastSureOptions,
  type LeastSureSelection,
} from '../../shared/annotation/least-sure';
import { seededRandom, shuffled } from '../../shared/annotation/random';
import type { AnnotationUnit, JudgeRating, RatingScale, RatingValue } from '../../shared/annotation/types';
import type { InputIssue } from '../../shared/domain';
import { AppError } from '../base/errors';
import { DECIMAL_NUMBER } from '../base/input-limits';
import { loadExperiment, type LoadedExperiment } from '../experiments/load';
import { metricsContext } from '../experiments/results';
import type { AnnotationHooks } from '../protocols/plugin';
import type { Database } from '../store/db';
import { listExperiments } from '../store/experiments';
import { labelIssues, readLabelFile } from './label-files';
import { labelTemplateCsv } from './label-template';
import { readPackage, writePackage, type PackageContent } from './package';
import { stratifiedSample } from './sampling';
import type { JudgeBand } from '../../shared/stats';
import {
  addGuidelines,
  adjudicationsOf,
  annotatorId,
  clearAdjudication,
  deleteSet,
  guidelinesOf,
  putGuidelinesVersion,
  saveAdjudication,
  ensureAnnotator,
  getSet,
  getSetByUid,
  insertSet,
  labelsOf,
  listAnnotators,
  listSets,
  recordMapping,
  saveLabel,
  saveLabels,
  setItems,
  type NewLabel,
  type SetItemRow,
  type SetRow,
  type StratumCount,
} from './store';

export const MAX_ANNOTATOR_NAME = 100;
/** Guidelines longer than this are a document to link, not instructions to show beside each item. */
export const MAX_GUIDELINES = 200_000;

function guidelinesText(raw: string): string {
  const text = raw.replace(/\r\n?/g, '\n').trim();
  if (text.length > MAX_GUIDELINES)
    throw new AppError('invalid_params', `Guidelines may hold up to ${MAX_GUIDELINES} characters`);
  return text;
}

function hooksOf(exp: LoadedExperiment): AnnotationHooks {
  const hooks = exp.protocol.annotation;
  if (!hooks) {
    throw new AppError('conflict', `The protocol "${exp.protocol.title}" offers nothing for people to rate`);
  }
  return hooks;
}

/**
 * The experiment's units and judge ratings, from its stored results; with `task`, the units and
 * automatic checks of that rating task of the protocol (refused when it has none or none to rate).
 */
export function experimentRatings(
  db: Database,
  experimentId: number,
  task?: string,
): { scale: RatingScale; units: AnnotationUnit[]; ratings: JudgeRating[]; asks: JudgeAsk[] } {
  const exp = loadExperiment(db, experimentId);
  const hooks = hooksOf(exp);
  const ctx = metricsContext(db, exp, false);
  if (task === undefined)
    return {
      scale: hooks.scale(exp.view),
      units: hooks.units(ctx),
      ratings: hooks.judgeRatings(ctx),
      asks: hooks.asks?.(ctx) ?? [],
    };
  const own = Object.hasOwn(hooks.tasks ?? {}, task) ? hooks.tasks![task] : undefined;
  if (!own || !own.available(exp.view)) {
    throw new AppError(
      'invalid_params',
      `The experiment "${exp.row.name}" has no rating task "${task}"` +
        (own ? ' (nothing to rate for it in this experiment)' : ''),
    );
  }
  // A task's "judges" are automatic checks asked once: no orders or repeats to doubt.
  return {
    scale: own.scale(exp.view),
    units: own.units(ctx, db),
    ratings: own.judgeRatings(ctx, db),
    asks: [],
  };
}

/** The units of an experiment the judge is least sure about, most doubtful first, each with why. */
export function leastSureOf(
  db: Database,
  experimentId: number,
  opts: LeastSureOptions = {},
): LeastSureSelection {
  const { scale, units, ratings, asks } = experimentRatings(db, experimentId);
  if (opts.cuts?.length && scale.kind === 'score') {
    const off = opts.cuts.find((c) => !(c > scale.min && c <= scale.max));
    if (off !== undefined)
      throw new AppError(
        'invalid_params',
        `A cut of ${off} splits nothing on the ${scale.min}–${scale.max} scale: give one above ${scale.min} and at most ${scale.max}`,
      );
  }
  return selectLeastSure({ scale, units, ratings, asks }, opts);
}

/** The rating tasks an experiment offers beside its main units (ids of its protocol's `tasks`). */
export function experimentTasks(db: Database, experimentId: number): string[] {
  const exp = loadExperiment(db, experimentId);
  const tasks = exp.protocol.annotation?.tasks ?? {};
  return Object.keys(tasks).filter((k) => tasks[k].available(exp.view));
}

/** The task a set rates (its scale's), undefined for the protocol's main units. */
const taskOf = (scale: RatingScale): string | undefined => (scale.kind === 'label' ? scale.task : undefined);

const unitUid = (setUid: string, itemKey: string): string =>
  createHash('sha256').update(`${setUid}\u0000${itemKey}`).digest('hex').slice(0, 16);

function annotatorName(raw: string): string {
  const name = raw.trim();
  if (!name || name.length > MAX_ANNOTATOR_NAME) {
    throw new AppError('invalid_params', `An annotator name needs 1–${MAX_ANNOTATOR_NAME} characters`);
  }
  return name;
}

/** A value as stored: scores as numbers; preferences '1' | '2' | 'tie'; labels as on the scale. */
export function normalizeValue(scale: RatingScale, raw: RatingValue): RatingValue | null {
  if (scale.kind === 'score') {
    // Only decimal text counts as a score: Number() would read "0x5" as 5.
    const text = String(raw).trim();
    const n = typeof raw === 'number' ? raw : DECIMAL_NUMBER.test(text) ? Number(text) : NaN;
    return Number.isInteger(n) && onScale(scale, n) ? n : null;
  }
  const s = String(raw).trim();
  if (scale.kind === 'preference') {
    const v =
      s === '0' ? 'tie' : s.toLowerCase() === 'a' ? '1' : s.toLowerCase() === 'b' ? '2' : s.toLowerCase();
    return onScale(scale, v) ? v : null;
  }
  return scale.labels.find((l) => l.toLowerCase() === s.toLowerCase()) ?? null;
}

/** A set or annotator name as a file name part. */
function fileStem(name: string): string {
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'annotation-set';
}

function describeScale(scale: RatingScale): string {
  if (scale.kind === 'score') return `an integer ${scale.min}–${scale.max}`;
  if (scale.kind === 'preference') return '1, 2 or tie';
  return scale.labels.join(' or ');
}

export class AnnotationService {
  constructor(private readonly db: Database) {}

  private set(setId: number): SetRow {
    const set = getSet(this.db, setId);
    if (!set) throw new AppError('not_found', `No annotation set with id ${setId}`);
    return set;
  }

  summary(set: SetRow): AnnotationSetSummary {
    const items = setItems(this.db, set.id);
    const labels = labelsOf(this.db, set.id);
    const progress = new Map<string, AnnotatorProgress>();
    for (const l of labels) {
      const p = progress.get(l.annotator) ?? {
        annotator: l.annotator,
        labelled: 0,
        skipped: 0,
        total: items.length,
      };
      if (l.skipped) p.skipped++;
      else p.labelled++;
      progress.set(l.annotator, p);
    }
    return {
      id: set.id,
      uid: set.uid,
      name: set.name,
      experimentId: set.experimentId,
      scale: set.scale,
      seed: set.seed,
      itemCount: items.length,
      strata: set.strata,
      selection: set.strata.some((st) => st.criterion !== undefined) ? 'least-sure' : 'stratified',
      progress: [...progress.values()].sort((a, b) => a.annotator.localeCompare(b.annotator)),
      guidelinesVersion: guidelinesOf(this.db, set.id).at(-1)?.version ?? null,
      adjudicated: adjudicationsOf(this.db, set.id).length,
      createdAt: set.createdAt,
    };
  }

  list(experimentId?: number): AnnotationSetSummary[] {
    return listSets(this.db, experimentId).map((s) => this.summary(s));
  }

  get(setId: number): AnnotationSetSummary {
    return this.summary(this.set(setId));
  }

  delete(setId: number): { deleted: boolean } {
    return { deleted: deleteSet(this.db, setId) };
  }

  annotators(): { name: string; createdAt: string }[] {
    return listAnnotators(this.db).map((a) => ({ name: a.name, createdAt: a.createdAt }));
  }

  createAnnotator(name: string): { name: string; createdAt: string }[] {
    ensureAnnotator(this.db, annotatorName(name));
    return this.annotators();
  }

  /**
   * A stratified sample of the experiment's units. `goldAsAnnotator` stores pairwise items' gold
   * labels as that annotator's preferences (the bundled MT-Bench human set's majority votes).
   */
  create(p: {
    experimentId: number;
    size: number;
    seed?: number;
    name?: string;
    goldAsAnnotator?: string;
    /** The set's first guidelines version (what annotators are told to look for). */
    guidelines?: string;
    /**
     * Instead of a random sample, the units the judge is least sure about (at most `size`, most
     * doubtful first): the hybrid where the judge screens and people refine.
     */
    leastSure?: LeastSureOptions;
    /** One of the protocol's own rating tasks (`experimentTasks`); absent: its main units. */
    task?: string;
    /** Labels per judge-score band (the label budget's allocation); they sum to `size`. */
    bandCounts?: Partial<Record<JudgeBand, number>>;
  }): AnnotationSetSummary {
    const exp = loadExperiment(this.db, p.experimentId);
    if (p.leastSure && p.task !== undefined)
      throw new AppError(
        'invalid_params',
        `Least-sure units are the judges' own units: a rating task ("${p.task}") takes a sample instead`,
      );
    if (p.bandCounts && p.leastSure)
      throw new AppError(
        'invalid_params',
        'Band counts shape a stratified sample, not a set of least-sure units',
      );
    if (p.bandCounts && Object.values(p.bandCounts).reduce((a, b) => a + (b ?? 0), 0) !== p.size)
      throw new AppError('invalid_params', 'The band counts must add up to the set size');
    const { scale, units, ratings } = experimentRatings(this.db, p.experimentId, p.task);
    if (units.length === 0) throw new AppError('conflict', 'The experiment has no units to rate yet');
    const seed = p.seed ?? 1;
    const sample = p.leastSure
      ? this.leastSureSample(p.experimentId, units, p.leastSure, p.size)
      : stratifiedSample(units, ratings, scale, p.size, seed, p.bandCounts);
    const uid = randomUUID();
    const gold = p.goldAsAnnotator !== undefined ? annotatorName(p.goldAsAnnotator) : null;
    if (gold && scale.kind !== 'preference') {
      throw new AppError('invalid_params', 'Gold labels count as an annotator only for pairwise preferences');
    }
    const itemsById = new Map(exp.items.map((i) => [i.id, i]));
    return this.db.transaction(() => {
      const id = insertSet(
        this.db,
        {
          uid,
          name:
            p.name?.trim() ||
            `${exp.row.name} — ${sample.units.length} ${p.leastSure ? 'least-sure items' : 'items'}`,
          experimentId: p.experimentId,
          scale,
          seed,
          strata: sample.strata,
        },
        sample.units.map((u) => ({
          itemKey: u.itemKey,
          unitUid: unitUid(uid, u.itemKey),
          itemId: u.itemId,
          category: u.category,
          stratum: u.stratum,
          view: u.view,
        })),
      );
      const guidelines = p.guidelines === undefined ? '' : guidelinesText(p.guidelines);
      if (guidelines) addGuidelines(this.db, id, guidelines);
      if (gold) {
        const annotator = ensureAnnotator(this.db, gold);
        const labels: NewLabel[] = [];
        for (const u of sample.units) {
          const label = itemsById.get(u.itemId)?.label;
          if (label === 1 || label === 2) {
            labels.push({
              itemKey: u.itemKey,
              annotatorId: annotator,
              value: String(label),
              skipped: false,
              comment: null,
            });
          }
        }
        saveLabels(this.db, id, labels);
      }
      return this.summary(this.set(id));
    })();
  }

  /**
   * The first `size` least-sure units, each with the criteria that chose it as its stratum; the
   * set's strata are the criteria (`criterion` marks the set as chosen, not drawn at random).
   */
  private leastSureSample(
    experimentId: number,
    units: readonly AnnotationUnit[],
    opts: LeastSureOptions,
    size: number,
  ): { units: (AnnotationUnit & { stratum: string })[]; strata: StratumCount[] } {
    const sel = leastSureOf(this.db, experimentId, opts);
    const chosen = sel.items.slice(0, size);
    if (!chosen.length) {
      const why = sel.unavailable.map((u) => `${u.criterion}: ${u.reason}`).join('; ');
      throw new AppError(
        'conflict',
        `The judge is not unsure about any unit by ${sel.criteria.join(', ') || 'no criterion'}${why ? ` (${why})` : ''}: nothing to send to people`,
      );
    }
    const byKey = new Map(units.map((u) => [u.itemKey, u]));
    return {
      units: chosen.map((i) => ({ ...byKey.get(i.itemKey)!, stratum: leastSureStratum(i) })),
      strata: LEAST_SURE_CRITERIA.filter((c) => sel.criteria.includes(c)).map((c) => ({
        stratum: `least sure: ${c}`,
        criterion: c,
        available: sel.counts[c],
        sampled: chosen.filter((i) => i.reasons.some((r) => r.criterion === c)).length,
      })),
    };
  }

  /** The order an annotator sees the set in: a shuffle seeded by the set and the annotator. */
  order(set: SetRow, annotator: string): string[] {
    const keys = setItems(this.db, set.id).map((i) => i.itemKey);
    return shuffled(keys, seededRandom(`${set.uid}\u0000${set.seed}\u0000${annotator}`));
  }

  session(setId: number, rawAnnotator: string): AnnotationSession {
    const set = this.set(setId);
    const annotator = annotatorName(rawAnnotator);
    const id = ensureAnnotator(this.db, annotator);
    const items = new Map(setItems(this.db, set.id).map((i) => [i.itemKey, i]));
    const own = new Map(labelsOf(this.db, set.id, id).map((l) => [l.itemKey, l]));
    const ordered = this.order(set, annotator).map((key) => {
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
      set: this.summary(set),
      annotator,
      items: ordered,
      resumeAt: resumeAt < 0 ? ordered.length : resumeAt,
      guidelines: guidelinesOf(this.db, set.id).at(-1) ?? null,
    };
  }

  /** Every version of the set's guidelines, oldest first. */
  guidelines(setId: number): GuidelinesVersion[] {
    return guidelinesOf(this.db, this.set(setId).id);
  }

  /**
   * New guidelines for the set: stored as the next version (labels keep the version they were
   * made under); the current text again makes no version. Empty text is refused: a set's
   * guidelines can be rewritten, not withdrawn, so every label's version stays readable.
   */
  setGuidelines(setId: number, raw: string): GuidelinesVersion {
    const set = this.set(setId);
    const text = guidelinesText(raw);
    if (!text) throw new AppError('invalid_params', 'Guidelines need some text');
    return addGuidelines(this.db, set.id, text);
  }

  /**
   * Items where annotators gave different labels (skips left out), and items already
   * adjudicated, with every label side by side; in the set's item order.
   */
  disagreements(setId: number): Disagreement[] {
    const set = this.set(setId);
    const labels = labelsOf(this.db, set.id).filter((l) => !l.skipped && l.value !== null);
    const adjudicated = new Map(adjudicationsOf(this.db, set.id).map((a) => [a.itemKey, a]));
    const out: Disagreement[] = [];
    for (const item of setItems(this.db, set.id)) {
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
  adjudicate(p: {
    setId: number;
    unitUid: string;
    value: RatingValue | null;
    adjudicator: string;
    note?: string | null;
  }): Disagreement[] {
    const set = this.set(p.setId);
    const item = setItems(this.db, set.id).find((i) => i.unitUid === p.unitUid || i.itemKey === p.unitUid);
    if (!item) throw new AppError('not_found', `No unit "${p.unitUid}" in annotation set ${set.id}`);
    const adjudicator = annotatorName(p.adjudicator);
    if (p.value === null) {
      clearAdjudication(this.db, set.id, item.itemKey);
      return this.disagreements(set.id);
    }
    const value = normalizeValue(set.scale, p.value);
    if (value === null)
      throw new AppError(
        'invalid_params',
        `"${String(p.value)}" is not on this set's scale (${describeScale(set.scale)})`,
      );
    saveAdjudication(this.db, set.id, {
      itemKey: item.itemKey,
      value,
      adjudicator,
      note: p.note?.trim() || null,
    });
    return this.disagreements(set.id);
  }

  /** One label (or skip, or comment) given: stored at once, as one row. */
  label(p: {
    setId: number;
    annotator: string;
    unitUid: string;
    value?: RatingValue | null;
    skip?: boolean;
    comment?: string | null;
  }): AnnotatorProgress {
    const set = this.set(p.setId);
    const annotator = annotatorName(p.annotator);
    const item = setItems(this.db, set.id).find((i) => i.unitUid === p.unitUid);
    if (!item) throw new AppError('not_found', `No unit "${p.unitUid}" in annotation set ${set.id}`);
    const id = ensureAnnotator(this.db, annotator);
    const previous = labelsOf(this.db, set.id, id).find((l) => l.itemKey === item.itemKey);
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
      p.skip === true
        ? true
        : p.value !== undefined && p.value !== null
          ? false
          : (previous?.skipped ?? false);
    const comment = p.comment !== undefined ? p.comment?.trim() || null : (previous?.comment ?? null);
    if (value === null && !skipped) {
      // A comment on an unrated unit waits for its label; nothing is stored without one.
      if (comment !== null)
        throw new AppError('invalid_params', 'Rate or skip the item before commenting on it');
      throw new AppError('invalid_params', 'Give a value, or skip');
    }
    saveLabel(this.db, set.id, {
      itemKey: item.itemKey,
      annotatorId: id,
      value: skipped ? null : value,
      skipped,
      comment,
    });
    return this.summary(set).progress.find((x) => x.annotator === annotator)!;
  }

  /** Human labels from CSV/JSONL, all or nothing; every problem names its line. */
  importLabels(p: { setId: number; fileName: string; bytes: Buffer }): {
    imported: number;
    annotators: string[];
  } {
    const set = this.set(p.setId);
    const rows = readLabelFile(p.fileName, p.bytes);
    const items = setItems(this.db, set.id);
    const byKey = new Map(items.map((i) => [i.itemKey, i]));
    const byUid = new Map(items.map((i) => [i.unitUid, i]));
    const existing = new Set(labelsOf(this.db, set.id).map((l) => `${l.itemKey}\u0000${l.annotator}`));
    const seen = new Map<string, number>();
    const issues: InputIssue[] = [];
    const good: { itemKey: string; annotator: string; value: RatingValue; comment: string | null }[] = [];
    for (const r of rows) {
      const item = byKey.get(r.itemId) ?? byUid.get(r.itemId);
      if (!item) {
        issues.push({
          file: p.fileName,
          line: r.line,
          field: 'item_id',
          message: `unknown item "${r.itemId}" (not in this annotation set)`,
        });
        continue;
      }
      const value = normalizeValue(set.scale, r.value);
      if (value === null) {
        issues.push({
          file: p.fileName,
          line: r.line,
          field: r.field,
          message: `"${r.value}" is out of the scale (${describeScale(set.scale)})`,
        });
        continue;
      }
      const pair = `${item.itemKey}\u0000${r.annotator}`;
      if (seen.has(pair)) {
        issues.push({
          file: p.fileName,
          line: r.line,
          field: 'item_id',
          message: `duplicate (item, annotator): "${r.itemId}" by "${r.annotator}" is also on line ${seen.get(pair)}`,
        });
        continue;
      }
      if (existing.has(pair)) {
        issues.push({
          file: p.fileName,
          line: r.line,
          field: 'item_id',
          message: `duplicate (item, annotator): "${r.annotator}" already labelled "${r.itemId}" in this set`,
        });
        continue;
      }
      seen.set(pair, r.line);
      good.push({ itemKey: item.itemKey, annotator: r.annotator, value, comment: r.comment });
    }
    if (issues.length) throw labelIssues(p.fileName, issues);
    const names = [...new Set(good.map((g) => g.annotator))];
    this.db.transaction(() => {
      const ids = new Map(names.map((n) => [n, ensureAnnotator(this.db, annotatorName(n))]));
      saveLabels(
        this.db,
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

  /** The set as one package file: units as annotators see them, and the labels given so far. */
  exportPackage(setId: number): { fileName: string; mime: string; contentBase64: string } {
    const set = this.set(setId);
    const items = setItems(this.db, set.id);
    const uidOf = new Map(items.map((i) => [i.itemKey, i.unitUid]));
    const content = writePackage({
      set: { uid: set.uid, name: set.name, scale: set.scale, seed: set.seed },
      items: items.map((i) => ({ unit: i.unitUid, view: i.view })),
      labels: labelsOf(this.db, set.id).map((l) => ({
        unit: uidOf.get(l.itemKey)!,
        annotator: l.annotator,
        value: l.value,
        skipped: l.skipped,
        comment: l.comment,
        time: l.updatedAt,
        ...(l.guidelinesVersion !== null ? { guidelines_version: l.guidelinesVersion } : {}),
      })),
      guidelines: guidelinesOf(this.db, set.id).map((g) => ({
        version: g.version,
        text: g.text,
        time: g.createdAt,
      })),
      adjudications: adjudicationsOf(this.db, set.id).map((a) => ({
        unit: uidOf.get(a.itemKey)!,
        value: a.value,
        adjudicator: a.adjudicator,
        note: a.note,
        time: a.createdAt,
      })),
    });
    return {
      fileName: `${fileStem(set.name)}.annotation.json`,
      mime: 'application/json',
      contentBase64: Buffer.from(content, 'utf8').toString('base64'),
    };
  }

  /**
   * The labels CSV for `import-labels`: every unit's opaque id and blinded text with an empty
   * value column, the annotator's name prefilled when given.
   */
  labelTemplate(
    setId: number,
    annotator?: string,
  ): { fileName: string; mime: string; contentBase64: string } {
    const set = this.set(setId);
    const name = annotator === undefined ? null : annotatorName(annotator);
    const csv = labelTemplateCsv(set.scale, setItems(this.db, set.id), name);
    return {
      fileName: `${fileStem(set.name)}${name ? `.${fileStem(name)}` : ''}.labels.csv`,
      mime: 'text/csv',
      contentBase64: Buffer.from(csv, 'utf8').toString('base64'),
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
  importPackage(
    fileName: string,
    bytes: Buffer,
    choice: { asNewSet?: boolean; intoSetId?: number; takePackageLabels?: boolean } = {},
  ): PackageImport {
    const pkg = readPackage(fileName, bytes);
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
    if (choice.asNewSet && choice.intoSetId !== undefined)
      throw new AppError(
        'invalid_params',
        'Choose one: open the package as a new set, or merge it into a set',
      );
    const own = getSetByUid(this.db, pkg.set.uid);
    if (choice.asNewSet && own)
      throw new AppError(
        'conflict',
        `${fileName} comes from rating set ${own.id} "${own.name}" of this store: it merges there, it cannot be opened as a new set`,
      );
    const target = choice.intoSetId !== undefined ? this.set(choice.intoSetId) : own;
    if (!target && !choice.asNewSet) {
      const sets = listSets(this.db);
      if (sets.length > 0)
        return {
          outcome: 'foreign-set',
          package: {
            uid: pkg.set.uid,
            name: pkg.set.name,
            units: pkg.items.length,
            labels: pkg.labels.length,
          },
          candidates: sets
            .filter((set) => unitMatch(pkg, set, setItems(this.db, set.id)).ok)
            .map((set) => ({ id: set.id, name: set.name })),
        };
    }
    return this.db.transaction((): PackageImport => {
      let setId: number;
      let created = false;
      let keyOf: Map<string, string>;
      if (target) {
        const match = unitMatch(pkg, target, setItems(this.db, target.id));
        if (!match.ok)
          throw new AppError(
            'conflict',
            `${fileName} does not match annotation set "${target.name}": ${match.detail}; nothing was imported`,
            [{ file: fileName, field: 'items', message: match.detail }],
          );
        setId = target.id;
        keyOf = match.keyOf;
      } else {
        setId = insertSet(
          this.db,
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
        created = true;
        keyOf = new Map(pkg.items.map((i) => [i.unit, i.unit]));
      }
      // Guidelines keep the package's numbering: a version this set holds with other text would
      // make labels point at the wrong rules, so the whole package is refused.
      const ours = new Map(guidelinesOf(this.db, setId).map((g) => [g.version, g.text]));
      for (const g of pkg.guidelines ?? []) {
        const text = ours.get(g.version);
        if (text !== undefined && text !== g.text)
          throw new AppError(
            'conflict',
            `${fileName}: its guidelines version ${g.version} differs from this set's version ${g.version}; nothing was imported`,
            [{ file: fileName, field: 'guidelines', message: `version ${g.version} differs` }],
          );
        if (text === undefined)
          putGuidelinesVersion(this.db, setId, { version: g.version, text: g.text, createdAt: g.time });
      }
      // A label this set already holds is replaced only by a later one of the package: an older
      // package (or one without times) must not turn a colleague's newer labels back. Those are
      // kept and listed as conflicts unless the caller takes the package's labels anyway.
      const held = new Map(labelsOf(this.db, setId).map((l) => [`${l.itemKey}\u0000${l.annotatorId}`, l]));
      const uidOf = new Map([...keyOf].map(([unit, key]) => [key, unit]));
      const conflicts: PackageLabelConflict[] = [];
      const labels: NewLabel[] = [];
      for (const l of pkg.labels) {
        const label = {
          itemKey: keyOf.get(l.unit)!,
          annotatorId: ensureAnnotator(this.db, annotatorName(l.annotator)),
          value: l.skipped ? null : normalizeValue(pkg.set.scale, l.value!),
          skipped: l.skipped,
          comment: l.comment,
          guidelinesVersion: l.guidelines_version ?? null,
          updatedAt: labelTime(l.time),
        };
        const have = held.get(`${label.itemKey}\u0000${label.annotatorId}`);
        if (have && sameLabel(have, label)) continue;
        const newer =
          label.updatedAt !== null && Date.parse(label.updatedAt) > Date.parse(have?.updatedAt ?? '');
        if (have && !newer && !choice.takePackageLabels) {
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
      saveLabels(this.db, setId, labels);
      // An adjudication travels with who gave it and when; the later of two for an item stays.
      const settled = new Map(adjudicationsOf(this.db, setId).map((a) => [a.itemKey, a]));
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
          saveAdjudication(this.db, setId, {
            itemKey,
            value,
            adjudicator: a.adjudicator,
            note: a.note,
            createdAt: a.time,
          });
      }
      return {
        outcome: 'imported',
        set: this.summary(this.set(setId)),
        created,
        labels: labels.length,
        conflicts,
      };
    })();
  }

  /** Human labels (skips left out) and, for a set of an experiment, its judges' ratings. */
  agreementInput(setId: number): {
    set: SetRow;
    human: HumanLabel[];
    judges: JudgeRating[];
    adjudicated: { itemKey: string; value: RatingValue }[];
    unlabelledJudges: JudgeRating[];
  } {
    const set = this.set(setId);
    const keys = new Set(setItems(this.db, set.id).map((i) => i.itemKey));
    const human = labelsOf(this.db, set.id)
      .filter((l) => !l.skipped && l.value !== null)
      .map((l) => ({ itemKey: l.itemKey, annotator: l.annotator, value: l.value! }));
    const all =
      set.experimentId === null
        ? []
        : experimentRatings(this.db, set.experimentId, taskOf(set.scale)).ratings;
    const judges = all.filter((r) => keys.has(r.itemKey));
    // The experiment's units no one was asked to rate: PPI's unlabelled items.
    const unlabelledJudges = all.filter((r) => !keys.has(r.itemKey));
    const adjudicated = adjudicationsOf(this.db, set.id).map((a) => ({ itemKey: a.itemKey, value: a.value }));
    return { set, human, judges, adjudicated, unlabelledJudges };
  }

  agreement(setId: number, threshold?: number, altTestEpsilon?: number): AgreementReport {
    const { set, human, judges, adjudicated, unlabelledJudges } = this.agreementInput(setId);
    return computeAgreement({
      scale: set.scale,
      items: setItems(this.db, set.id).map((i) => ({
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
  references(setId: number): Map<string, RatingValue> {
    const { set, human, adjudicated } = this.agreementInput(setId);
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

  /** The set, its report and the judge's mappings; refused when the set cannot have any. */
  private mappingSource(setId: number, judge: string) {
    const set = this.set(setId);
    if (set.experimentId === null)
      throw new AppError('conflict', 'This set has no judge scores (it came from a package)');
    if (set.scale.kind !== 'score')
      throw new AppError('conflict', 'Calibration mappings exist for scores only');
    const report = this.agreement(setId);
    const mine = report.calibration_mapping.filter((m) => m.judge === judge);
    if (!mine.length)
      throw new AppError('not_found', `No calibration mapping for judge "${judge}" in this set`);
    const source = loadExperiment(this.db, set.experimentId);
    return { set, report, mine, source, quality: mappingQuality(mine) };
  }

  /**
   * What keeps `targetJudge` of `target` from taking `judge`'s mapping: the same protocol and
   * scale, the same model behind the judge, the same prompt templates (rubric), or it is refused.
   */
  private mismatches(
    source: LoadedExperiment,
    judge: string,
    scale: RatingScale,
    target: LoadedExperiment,
    targetJudge: string,
  ): MappingMismatch[] {
    const out: MappingMismatch[] = [];
    if (source.protocol.id !== target.protocol.id)
      out.push({
        code: 'protocol',
        detail: `protocol ${source.protocol.id} vs ${target.protocol.id}`,
        ours: source.protocol.id,
        theirs: target.protocol.id,
      });
    const sourceModel = judgeModel(source, judge);
    const targetModel = judgeModel(target, targetJudge);
    if (targetModel === undefined)
      out.push({ code: 'no_judge', detail: `no judge "${targetJudge}" in experiment "${target.row.name}"` });
    else if (sourceModel !== targetModel)
      out.push({
        code: 'model',
        detail: `model ${sourceModel} vs ${targetModel}`,
        ours: sourceModel,
        theirs: targetModel,
      });
    if (
      JSON.stringify(source.protocol.promptTemplates(source.view)) !==
      JSON.stringify(target.protocol.promptTemplates(target.view))
    )
      out.push({ code: 'rubric', detail: 'prompt templates (rubric)' });
    const targetScale = target.protocol.annotation?.scale(target.view);
    if (JSON.stringify(targetScale) !== JSON.stringify(scale))
      out.push({
        code: 'scale',
        detail: `rating scale ${describeScaleShort(scale)} vs ${describeScaleShort(targetScale)}`,
        ours: describeScaleShort(scale),
        theirs: describeScaleShort(targetScale),
      });
    return out;
  }

  /**
   * Every experiment the judge's mapping can be applied to (with its judges that fit), and the
   * others with every reason each cannot; plus the mapping's held-out ρ against the floor.
   */
  mappingTargets(setId: number, judge: string): MappingTargets {
    const { set, source, quality } = this.mappingSource(setId, judge);
    const targets: MappingTargets['targets'] = [];
    const excluded: MappingTargets['excluded'] = [];
    for (const row of listExperiments(this.db)) {
      let target: LoadedExperiment;
      try {
        target = loadExperiment(this.db, row.id);
      } catch (e) {
        excluded.push({
          experimentId: row.id,
          name: row.name,
          reasons: [{ code: 'unreadable', detail: (e as Error).message }],
        });
        continue;
      }
      const labels = target.protocol
        .models(target.config)
        .filter((m) => m.role === 'judge')
        .map((m) => m.label);
      const fit = labels.filter((l) => this.mismatches(source, judge, set.scale, target, l).length === 0);
      if (fit.length) {
        // The judge of the same label first: it is the default target judge.
        targets.push({
          experimentId: row.id,
          name: row.name,
          judges: [...fit.filter((l) => l === judge), ...fit.filter((l) => l !== judge)],
        });
      } else {
        // Reasons against the judge of the same label, else against the judge of the same model.
        const model = judgeModel(source, judge);
        const closest =
          labels.find((l) => l === judge) ?? labels.find((l) => judgeModel(target, l) === model) ?? judge;
        excluded.push({
          experimentId: row.id,
          name: row.name,
          reasons: this.mismatches(source, judge, set.scale, target, closest),
        });
      }
    }
    return { quality, targets, excluded };
  }

  /**
   * The set's mapping for `judge`, applied to `targetJudge`'s scores in another experiment. Same
   * judge and rubric only (see `mismatches`); anything else is refused, naming what differs. A
   * mapping whose held-out ρ is below MAPPING_RHO_FLOOR (or undefined) is refused unless `force`.
   */
  applyMapping(p: {
    setId: number;
    judge: string;
    experimentId: number;
    targetJudge?: string;
    force?: boolean;
  }): AppliedMapping {
    const { set, report, mine, source, quality } = this.mappingSource(p.setId, p.judge);
    const target = loadExperiment(this.db, p.experimentId);
    const targetJudge = p.targetJudge ?? p.judge;
    const differs = this.mismatches(source, p.judge, set.scale, target, targetJudge);
    const missing = differs.find((d) => d.code === 'no_judge');
    if (missing)
      throw new AppError('not_found', `No judge "${targetJudge}" in experiment "${target.row.name}"`);
    if (differs.length) {
      throw new AppError(
        'conflict',
        `The mapping is for another judge or rubric: ${differs.map((d) => d.detail).join('; ')}`,
      );
    }
    if (quality.below && !p.force) {
      throw new AppError(
        'conflict',
        `The mapping of "${p.judge}" has a held-out ρ of ${quality.rho === null ? 'undefined (its held-out predictions are constant)' : quality.rho.toFixed(2)}, ` +
          `below the floor of ${MAPPING_RHO_FLOOR}: it would flatten or reverse the scores rather than calibrate them. ` +
          'Nothing was applied; insist with --force (CLI) or confirm in the app to apply it anyway.',
      );
    }
    const { ratings } = experimentRatings(this.db, p.experimentId);
    const rubricHash = createHash('sha256')
      .update(
        JSON.stringify([
          source.protocol.id,
          set.scale,
          judgeModel(source, p.judge),
          source.protocol.promptTemplates(source.view),
        ]),
      )
      .digest('hex');
    const mappingId = recordMapping(this.db, {
      setId: set.id,
      judge: p.judge,
      protocol: source.protocol.id,
      rubricHash,
      mapping: mine,
    });
    const rows = applyMapping(
      report.calibration_mapping,
      p.judge,
      ratings
        .filter((r) => r.judge === targetJudge && typeof r.value === 'number')
        .map((r) => ({
          itemKey: r.itemKey,
          judge: r.judge,
          category: r.category ?? null,
          raw: r.value as number,
        })),
    );
    return {
      rows,
      category: mine.length > 1 ? 'per-category' : 'all',
      mappingId,
      quality,
      flattened: flattenedCount(rows),
      forced: quality.below && p.force === true,
    };
  }

  annotatorExists(name: string): boolean {
    return annotatorId(this.db, name) !== null;
  }
}

const judgeModel = (e: LoadedExperiment, label: string): string | undefined =>
  e.protocol.models(e.config).find((m) => m.role === 'judge' && m.label === label)?.model;

function describeScaleShort(scale: RatingScale | undefined): string {
  if (!scale) return 'none';
  return scale.kind === 'score' ? `${scale.min}–${scale.max}` : scale.kind;
}

/** The lowest held-out ρ of the judge's mappings; undefined (null) counts as below the floor. */
export function mappingQuality(mine: readonly MappingRow[]): MappingQuality {
  const rhos = mine.map((m) => m.rho_after);
  const rho = rhos.some((r) => r === null) ? null : Math.min(...(rhos as number[]));
  return { rho, floor: MAPPING_RHO_FLOOR, below: rho === null || rho < MAPPING_RHO_FLOOR };
}

/** Rows whose calibrated value is shared with a row of another raw score: what the mapping pooled. */
export function flattenedCount(rows: readonly CalibratedRow[]): number {
  const raws = new Map<string, Set<number>>();
  const key = (r: CalibratedRow) => `${r.mapping}\u0000${r.calibrated.toFixed(9)}`;
  for (const r of rows) raws.set(key(r), (raws.get(key(r)) ?? new Set()).add(r.raw));
  return rows.filter((r) => raws.get(key(r))!.size > 1).length;
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
