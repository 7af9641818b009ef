// The experiment as this protocol reads it: its typed view, its items and the mode they set.
import type { Mode } from '../../../shared/protocols/self-consistency/types';
import type { JudgeEntry } from '../../judging/config';
import type { ExperimentView, MetricsContext } from '../plugin';
import type { SelfConsistencyConfig, SelfConsistencyOptions } from './config';
import { modeOf, scItem, type ScItem } from './item';
import type { MetricsInput } from './metrics';

export type ScExperiment = ExperimentView<SelfConsistencyConfig, SelfConsistencyOptions>;

export function experimentOf(view: ExperimentView): { exp: ScExperiment; items: ScItem[]; mode: Mode } {
  const exp = view as ScExperiment;
  const items = exp.items.map(scItem);
  return { exp, items, mode: modeOf(items) };
}

/** A judge's own temperature (the "own" condition), null when it sets none. */
export const conditionOwnTemperature = (j: JudgeEntry): number | null => j.temperature ?? null;

/** The metrics input from stored results (items the sensitivity switch excludes left out). */
export function metricsInput(ctx: MetricsContext<ScExperiment>): MetricsInput {
  const { exp, items, mode } = experimentOf(ctx.exp);
  return {
    opts: exp.options,
    mode,
    judges: exp.config.judges.map((j) => j.label),
    ownTemperature: Object.fromEntries(exp.config.judges.map((j) => [j.label, conditionOwnTemperature(j)])),
    items: items.filter((i) => !ctx.excluded.has(i.sourceId)),
    results: ctx.results,
    usage: ctx.usage,
    bootstrap: { seed: exp.config.seed as number | undefined },
  };
}
