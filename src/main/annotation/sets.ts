// Rating sets: drawn from an experiment (a stratified sample, or the units the judge is least sure
// about), summarised with each annotator's progress, listed and deleted; and the order each
// annotator sees a set in.
import { createHash, randomUUID } from 'node:crypto';
import type { AnnotationSetSummary, AnnotatorProgress } from '../../shared/annotation/api-types';
import {
  LEAST_SURE_CRITERIA,
  leastSureStratum,
  type LeastSureOptions,
} from '../../shared/annotation/least-sure';
import { seededRandom, shuffled } from '../../shared/annotation/random';
import type { AnnotationUnit } from '../../shared/annotation/types';
import type { JudgeBand } from '../../shared/stats';
import { AppError } from '../base/errors';
import { loadExperiment, type LoadedExperiment } from '../experiments/load';
import type { Database } from '../store/db';
import { experimentRatings, leastSureOf } from './ratings';
import { stratifiedSample } from './sampling';
import {
  addGuidelines,
  adjudicationsOf,
  ensureAnnotator,
  getSet,
  guidelinesOf,
  insertSet,
  labelsOf,
  saveLabels,
  setItems,
  type NewLabel,
  type SetRow,
  type StratumCount,
} from './store';
import { annotatorName, guidelinesText } from './values';

export interface NewSet {
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
}

type SampledUnit = AnnotationUnit & { stratum: string };

export function setRow(db: Database, setId: number): SetRow {
  const set = getSet(db, setId);
  if (!set) throw new AppError('not_found', `No annotation set with id ${setId}`);
  return set;
}

export function setSummary(db: Database, set: SetRow): AnnotationSetSummary {
  const items = setItems(db, set.id);
  const progress = new Map<string, AnnotatorProgress>();
  for (const l of labelsOf(db, set.id)) {
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
    guidelinesVersion: guidelinesOf(db, set.id).at(-1)?.version ?? null,
    adjudicated: adjudicationsOf(db, set.id).length,
    createdAt: set.createdAt,
  };
}

const unitUid = (setUid: string, itemKey: string): string =>
  createHash('sha256').update(`${setUid}\u0000${itemKey}`).digest('hex').slice(0, 16);

/** Requests that mix ways of choosing units, or whose band counts miss the size. */
function refuseMixedChoice(p: NewSet): void {
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
}

/**
 * A stratified sample of the experiment's units. `goldAsAnnotator` stores pairwise items' gold
 * labels as that annotator's preferences (the bundled MT-Bench human set's majority votes).
 */
export function createSet(db: Database, p: NewSet): AnnotationSetSummary {
  const exp = loadExperiment(db, p.experimentId);
  refuseMixedChoice(p);
  const { scale, units, ratings } = experimentRatings(db, p.experimentId, p.task);
  if (units.length === 0) throw new AppError('conflict', 'The experiment has no units to rate yet');
  const seed = p.seed ?? 1;
  const sample = p.leastSure
    ? leastSureSample(db, p.experimentId, units, p.leastSure, p.size)
    : stratifiedSample(units, ratings, scale, p.size, seed, p.bandCounts);
  const uid = randomUUID();
  const gold = p.goldAsAnnotator !== undefined ? annotatorName(p.goldAsAnnotator) : null;
  if (gold && scale.kind !== 'preference') {
    throw new AppError('invalid_params', 'Gold labels count as an annotator only for pairwise preferences');
  }
  return db.transaction(() => {
    const id = insertSet(
      db,
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
    if (guidelines) addGuidelines(db, id, guidelines);
    if (gold) saveLabels(db, id, goldLabels(sample.units, exp.items, ensureAnnotator(db, gold)));
    return setSummary(db, setRow(db, id));
  })();
}

/** The sampled pairwise items' gold preferences, as labels of the gold annotator. */
function goldLabels(
  units: readonly SampledUnit[],
  items: LoadedExperiment['items'],
  annotatorId: number,
): NewLabel[] {
  const itemsById = new Map(items.map((i) => [i.id, i]));
  const labels: NewLabel[] = [];
  for (const u of units) {
    const label = itemsById.get(u.itemId)?.label;
    if (label === 1 || label === 2) {
      labels.push({ itemKey: u.itemKey, annotatorId, value: String(label), skipped: false, comment: null });
    }
  }
  return labels;
}

/**
 * The first `size` least-sure units, each with the criteria that chose it as its stratum; the
 * set's strata are the criteria (`criterion` marks the set as chosen, not drawn at random).
 */
function leastSureSample(
  db: Database,
  experimentId: number,
  units: readonly AnnotationUnit[],
  opts: LeastSureOptions,
  size: number,
): { units: SampledUnit[]; strata: StratumCount[] } {
  const sel = leastSureOf(db, experimentId, opts);
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
export function annotatorOrder(db: Database, set: SetRow, annotator: string): string[] {
  const keys = setItems(db, set.id).map((i) => i.itemKey);
  return shuffled(keys, seededRandom(`${set.uid}\u0000${set.seed}\u0000${annotator}`));
}
