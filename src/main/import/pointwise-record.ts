// The pointwise dataset kind: `id`, `instruction`, `response`, optional `category`, `reference`
// and `human_score` (a person's score of the response). One response per item, scored alone
// (used by the bias-probes protocol); the generic importer knows it through ./kinds.ts.
import type { InputIssue } from '../../shared/domain';
import type { NewItem } from '../store/datasets';
import { typeName } from './issues';
import type { SourceRecord } from './record';
import { readOptionalText } from './qa-record';
import { readId, readText } from './validate';

export const POINTWISE_COLUMNS = ['id', 'instruction', 'response', 'category', 'reference', 'human_score'];
export const POINTWISE_REQUIRED = ['id', 'instruction', 'response'];

/** A finite number, or (CSV cells, `cellText`) a cell holding one; empty = none. */
function readScore(
  value: unknown,
  cellText: boolean,
  report: (message: string) => undefined,
): number | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'string' && cellText ? Number(value.trim()) : value;
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
  const issues: InputIssue[] = [];
  const items: NewItem[] = [];
  const seen = new Map<string, SourceRecord>();
  for (const record of records) {
    const v = record.value;
    const at = { file, line: record.line, row: record.row };
    const reporter =
      (field: string) =>
      (message: string): undefined => {
        issues.push({ ...at, field, message });
        return undefined;
      };
    if (Object.hasOwn(v, '__proto__')) reporter('__proto__')('is not allowed as a key; rename it');
    const id = readId(v.id, reporter('id'));
    if (id === null) reporter('id')('is missing (every pointwise item needs an id)');
    const instruction = readText(v.instruction, reporter('instruction'));
    const response = readText(v.response, reporter('response'));
    const category = readOptionalText(v.category, reporter('category'));
    const reference = readOptionalText(v.reference, reporter('reference'));
    const human = readScore(v.human_score, opts.cellText === true, reporter('human_score'));
    if (typeof id === 'string') {
      const first = seen.get(id);
      if (first) {
        const where = first.line !== undefined ? `line ${first.line}` : `row ${first.row}`;
        reporter('id')(`duplicate id ${JSON.stringify(id)}: also used on ${where}`);
      } else seen.set(id, record);
    }
    if (
      typeof id === 'string' &&
      instruction !== undefined &&
      response !== undefined &&
      category !== undefined &&
      reference !== undefined &&
      human !== undefined
    ) {
      const extra: Record<string, unknown> = { response };
      if (category !== null) extra.category = category;
      if (reference !== null) extra.reference = reference;
      if (human !== null) extra.human_score = human;
      items.push({
        sourceId: id,
        subset: category,
        instruction,
        output1: null,
        output2: null,
        label: null,
        extra,
      });
    }
  }
  return { items: issues.length === 0 ? items : [], issues };
}
