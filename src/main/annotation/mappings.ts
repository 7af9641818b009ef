// Calibration mappings carried to other experiments: which experiments and judges a set's mapping
// for a judge fits (the same protocol, model, rubric and scale), and applying it there, refused
// below the held-out ρ floor unless forced.
import { createHash } from 'node:crypto';
import type { MappingRow } from '../../shared/annotation/agreement';
import {
  MAPPING_RHO_FLOOR,
  type AppliedMapping,
  type MappingMismatch,
  type MappingQuality,
  type MappingTargets,
} from '../../shared/annotation/api-types';
import { applyMapping, type CalibratedRow } from '../../shared/annotation/calibrate';
import type { RatingScale } from '../../shared/annotation/types';
import { AppError } from '../base/errors';
import { loadExperiment, type LoadedExperiment } from '../experiments/load';
import type { Database } from '../store/db';
import { listExperiments } from '../store/experiments';
import { agreementOf } from './agreement';
import { experimentRatings } from './ratings';
import { setRow } from './sets';
import { recordMapping } from './store';

export interface MappingRequest {
  setId: number;
  judge: string;
  experimentId: number;
  targetJudge?: string;
  force?: boolean;
}

/** The set, its report and the judge's mappings; refused when the set cannot have any. */
function mappingSource(db: Database, setId: number, judge: string) {
  const set = setRow(db, setId);
  if (set.experimentId === null)
    throw new AppError('conflict', 'This set has no judge scores (it came from a package)');
  if (set.scale.kind !== 'score')
    throw new AppError('conflict', 'Calibration mappings exist for scores only');
  const report = agreementOf(db, setId);
  const mine = report.calibration_mapping.filter((m) => m.judge === judge);
  if (!mine.length)
    throw new AppError('not_found', `No calibration mapping for judge "${judge}" in this set`);
  const source = loadExperiment(db, set.experimentId);
  return { set, report, mine, source, quality: mappingQuality(mine) };
}

/**
 * What keeps `targetJudge` of `target` from taking `judge`'s mapping: the same protocol and
 * scale, the same model behind the judge, the same prompt templates (rubric), or it is refused.
 */
function mismatches(
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
export function mappingTargets(db: Database, setId: number, judge: string): MappingTargets {
  const { set, source, quality } = mappingSource(db, setId, judge);
  const targets: MappingTargets['targets'] = [];
  const excluded: MappingTargets['excluded'] = [];
  for (const row of listExperiments(db)) {
    let target: LoadedExperiment;
    try {
      target = loadExperiment(db, row.id);
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
    const fit = labels.filter((l) => mismatches(source, judge, set.scale, target, l).length === 0);
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
        reasons: mismatches(source, judge, set.scale, target, closest),
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
export function applyMappingTo(db: Database, p: MappingRequest): AppliedMapping {
  const { set, report, mine, source, quality } = mappingSource(db, p.setId, p.judge);
  const target = loadExperiment(db, p.experimentId);
  const targetJudge = p.targetJudge ?? p.judge;
  const differs = mismatches(source, p.judge, set.scale, target, targetJudge);
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
  const { ratings } = experimentRatings(db, p.experimentId);
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
  const mappingId = recordMapping(db, {
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
