// The experiment as this protocol reads it: its typed view, its items and the mode they set.
import type { Mode } from '../../../shared/protocols/self-consistency/types';
import type { JudgeEntry } from '../../judging/config';
import type { ExperimentView } from '../plugin';
import type { SelfConsistencyConfig, SelfConsistencyOptions } from './config';
import { modeOf, scItem, type ScItem } from './item';

export type ScExperiment = ExperimentView<SelfConsistencyConfig, SelfConsistencyOptions>;

export function experimentOf(view: ExperimentView): { exp: ScExperiment; items: ScItem[]; mode: Mode } {
  const exp = view as ScExperiment;
  const items = exp.items.map(scItem);
  return { exp, items, mode: modeOf(items) };
}

/** A judge's own temperature (the "own" condition), null when it sets none. */
export const conditionOwnTemperature = (j: JudgeEntry): number | null => j.temperature ?? null;
