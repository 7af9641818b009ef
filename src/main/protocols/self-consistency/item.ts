// A dataset item as this protocol reads it: a pair (pairwise kind: two outputs and the better
// one) or one response (pointwise kind, with a human score where the dataset has one).
import type { Item } from '../../../shared/domain';
import type { Mode } from '../../../shared/protocols/self-consistency/types';
import { AppError } from '../host';

export interface ScItem {
  id: number;
  sourceId: string;
  instruction: string;
  category: string;
  /** Pairwise: output_1, output_2; pointwise: the response. */
  texts: string[];
  /** Pairwise: the better output; pointwise: the human score (gold), null when none. */
  gold: number | null;
}

export function scItem(item: Item): ScItem {
  const category = item.subset ?? 'none';
  if (item.output1 != null && item.output2 != null)
    return {
      id: item.id,
      sourceId: item.sourceId,
      instruction: item.instruction,
      category,
      texts: [item.output1, item.output2],
      gold: item.label ?? null,
    };
  const x = item.extra ?? {};
  if (typeof x.response === 'string')
    return {
      id: item.id,
      sourceId: item.sourceId,
      instruction: item.instruction,
      category,
      texts: [x.response],
      gold: typeof x.human_score === 'number' ? x.human_score : null,
    };
  throw new AppError(
    'invalid_input',
    `dataset: item "${item.sourceId}" has nothing to judge; self-consistency needs a pairwise dataset ` +
      '(instruction, output_1, output_2, label) or a pointwise one (id, instruction, response)',
    [{ file: 'config', field: 'dataset', message: 'self-consistency needs a pairwise or pointwise dataset' }],
  );
}

/** The mode the data sets: every item a pair, or every item one response. */
export function modeOf(items: readonly ScItem[]): Mode {
  if (items.length === 0) return 'pairwise';
  const mode: Mode = items[0].texts.length === 2 ? 'pairwise' : 'pointwise';
  const other = items.find((i) => (i.texts.length === 2) !== (mode === 'pairwise'));
  if (other)
    throw new AppError(
      'invalid_input',
      `dataset: item "${other.sourceId}" is not ${mode} like the first item; the dataset must be all pairs or all single responses`,
      [{ file: 'config', field: 'dataset', message: 'pairwise and pointwise items mixed' }],
    );
  return mode;
}
