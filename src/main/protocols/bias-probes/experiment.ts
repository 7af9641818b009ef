// A bias-probes experiment as the plug-in, its views, annotation and export read it: its items
// and the metrics input built from stored results. Below plugin.ts, which assembles them.
import type { ItemScore, UsageRow } from '../../../shared/protocols/bias-probes/types';
import type { ExperimentView, MetricsContext } from '../plugin';
import { type BiasConfig, type BiasOptions } from './config';
import { biasItem, type BiasItem } from './item';
import { itemScoresOf, type MetricsInput } from './metrics';

export type BiasExperiment = ExperimentView<BiasConfig, BiasOptions>;

export const biasItems = (exp: Pick<BiasExperiment, 'items'>): BiasItem[] => exp.items.map(biasItem);

/** The metrics input from stored results (items the sensitivity switch excludes left out). */
export function metricsInput(
  ctx: Pick<MetricsContext<BiasExperiment>, 'exp' | 'results' | 'usage'> & { excluded?: ReadonlySet<string> },
): MetricsInput {
  const excluded = ctx.excluded ?? new Set<string>();
  return {
    opts: ctx.exp.options,
    judges: ctx.exp.config.judges.map((j) => j.label),
    judgeModels: Object.fromEntries(ctx.exp.config.judges.map((j) => [j.label, j.model])),
    items: biasItems(ctx.exp).filter((i) => !excluded.has(i.sourceId)),
    results: ctx.results,
    usage: ctx.usage as UsageRow[],
  };
}

/**
 * Raw and debiased score per judge × item × response (see metrics.ts itemScoresOf): the rows the
 * human-agreement module compares with human ratings.
 */
export function itemScores(ctx: Pick<MetricsContext<BiasExperiment>, 'exp' | 'results'>): ItemScore[] {
  return itemScoresOf(metricsInput({ ...ctx, usage: [] }));
}
