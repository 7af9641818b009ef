// texts.csv: the texts each bias-probe verdict was given (issue 26 item 3), beside judgments.csv
// and keyed like it: a pointwise verdict joins on (item_id, response, condition); a pairwise one
// on (item_id, condition), two rows (output_1, output_2) before the order swap. Rewrites are
// marked `rewritten = 1`; the instruction is on every row so a spreadsheet needs one join.
import { toCsv } from '../host';
import type { TaskResult } from '../plugin';
import type { BiasOptions } from './config';
import type { BiasItem } from './item';
import { pairwiseTexts, pointwiseTexts, variantTexts } from './plan';

export const BIAS_TEXTS_HEADER = [
  'item_id',
  'response',
  'condition',
  'rewritten',
  'instruction',
  'text',
] as const;

export function biasTextsCsv(
  items: readonly BiasItem[],
  opts: BiasOptions,
  results: readonly TaskResult[],
): string {
  // The rewrites as stored: a condition whose rewrite is missing (failed, `none`) had no verdict.
  const texts = variantTexts(results);
  const rows: string[][] = [];
  for (const item of items) {
    if (opts.mode === 'pairwise')
      for (const p of pairwiseTexts(item, opts, texts))
        for (const [slot, text] of [
          ['output_1', p.t1],
          ['output_2', p.t2],
        ] as const)
          rows.push([
            item.sourceId,
            slot,
            p.condition,
            p.rewritten === slot ? '1' : '0',
            item.instruction,
            text,
          ]);
    else
      for (const t of pointwiseTexts(item, opts, texts))
        rows.push([item.sourceId, t.slot, t.condition, t.rewritten ? '1' : '0', item.instruction, t.text]);
  }
  return toCsv(BIAS_TEXTS_HEADER, rows);
}
