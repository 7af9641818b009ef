// Judge-LS works on pairwise items only (instruction, output_1, output_2, gold 1|2). Items of
// other dataset kinds keep those fields empty; these helpers refuse them with a clear error
// instead of judging empty texts.
import type { Item, Label } from '../../../shared/domain';
import { AppError } from '../host';

export interface PairwiseFields {
  instruction: string;
  output1: string;
  output2: string;
  label: Label;
}

function notPairwise(item: Item): AppError {
  return new AppError(
    'invalid_input',
    `dataset: item "${item.sourceId}" is not a pairwise item (instruction, output_1, output_2, label); ` +
      'Judge-LS needs a pairwise dataset such as LLMBar',
    [{ file: 'config', field: 'dataset', message: 'Judge-LS needs a pairwise dataset' }],
  );
}

export function pairwiseFields(item: Item): PairwiseFields {
  if (item.output1 == null || item.output2 == null || item.label == null) throw notPairwise(item);
  return { instruction: item.instruction, output1: item.output1, output2: item.output2, label: item.label };
}

/** Throws on the first item that is not pairwise. */
export function requirePairwise(items: readonly Item[]): void {
  for (const item of items) pairwiseFields(item);
}
