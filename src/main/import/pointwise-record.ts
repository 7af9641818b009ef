// The pointwise dataset kind: `id`, `instruction`, `response`, optional `category`, `reference`
// `human_score` (a person's score of the response) and `model` (the model that wrote it). One response per item, scored alone
// (used by the bias-probes protocol); the generic importer knows it through ./kinds.ts.
import type { InputIssue } from '../../shared/domain';
import type { NewItem } from '../store/datasets';
import { DECIMAL_NUMBER } from '../base/input-limits';
import { typeName } from './issues';
import type { SourceRecord } from './record';
import { readOptionalText } from './qa-record';
import { validateIdRecords } from './id-records';
import { readSubset, readText } from './validate';

export const POINTWISE_COLUMNS = [
  'id',
  'instruction',
  'response',
  'category',
  'reference',
  'human_score',
  'model',
];
export const POINTWISE_REQUIRED = ['id', 'instruction', 'response'];

/** A finite number, or (CSV cells, `cellText`) a cell holding one in decimal; empty = none. */
function readScore(
  value: unknown,
  cellText: boolean,
  report: (message: string) => undefined,
): number | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  const cell = typeof value === 'string' && cellText ? value.trim() : undefined;
  // A padded empty cell says nothing, as an empty one (Number("  ") would have made it 0).
  if (cell === '') return null;
  if (cell !== undefined && !DECIMAL_NUMBER.test(cell))
    return report(`must be a decimal number (a human score), got ${JSON.stringify(value)}`);
  const n = cell !== undefined ? Number(cell) : value;
  if (typeof n !== 'number' || !Number.isFinite(n))
    return report(
      `must be a number (a human score), got ${typeof value === 'string' ? JSON.stringify(value) : typeName(value)}`,
    );
  return n;
}

export function validatePointwiseRecords(
  file: string,
  records: SourceRecord[],
  opts: { cellText?: boolean } = {},
): { items: NewItem[]; issues: InputIssue[] } {
  return validateIdRecords(file, records, 'pointwise', (v, reporter) => {
    const instruction = readText(v.instruction, reporter('instruction'));
    const response = readText(v.response, reporter('response'));
    const category = readSubset(v.category, reporter('category'));
    const reference = readOptionalText(v.reference, reporter('reference'));
    const human = readScore(v.human_score, opts.cellText === true, reporter('human_score'));
    // The model that wrote the response, where the file names it (probes that show or compare it).
    const model = readSubset(v.model, reporter('model'));
    if (
      model === undefined ||
      instruction === undefined ||
      response === undefined ||
      category === undefined ||
      reference === undefined ||
      human === undefined
    )
      return undefined;
    const extra: Record<string, unknown> = { response };
    if (category !== null) extra.category = category;
    if (reference !== null) extra.reference = reference;
    if (human !== null) extra.human_score = human;
    if (model !== null) extra.model = model;
    return { subset: category, instruction, output1: null, output2: null, label: null, extra };
  });
}
