// What an experiment offers people to rate (its protocol's annotation hooks read over its stored
// results): the units, the judges' ratings of them, its own rating tasks, and the units the judge
// is least sure about.
import {
  selectLeastSure,
  type JudgeAsk,
  type LeastSureOptions,
  type LeastSureSelection,
} from '../../shared/annotation/least-sure';
import type { AnnotationUnit, JudgeRating, RatingScale } from '../../shared/annotation/types';
import { AppError } from '../base/errors';
import { loadExperiment, type LoadedExperiment } from '../experiments/load';
import { metricsContext } from '../experiments/results';
import type { AnnotationHooks } from '../protocols/plugin';
import type { Database } from '../store/db';

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
export const taskOf = (scale: RatingScale): string | undefined =>
  scale.kind === 'label' ? scale.task : undefined;
