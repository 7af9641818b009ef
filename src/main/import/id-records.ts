// The loop every dataset kind with its own `id` column shares (QA, pointwise): each record's
// fields read with a reporter that names its line or row and field, ids required and unique,
// and no items at all when anything was wrong (an import is all or nothing).
import type { InputIssue } from '../../shared/domain';
import type { NewItem } from '../store/datasets';
import type { SourceRecord } from './record';
import { readId } from './validate';

export type FieldReporter = (field: string) => (message: string) => undefined;

/**
 * `read` returns the item's content (all but its id), or undefined when a field was reported.
 * `kind` names the items in the missing-id message ("every QA item needs an id").
 */
export function validateIdRecords(
  file: string,
  records: SourceRecord[],
  kind: string,
  read: (v: Record<string, unknown>, reporter: FieldReporter) => Omit<NewItem, 'sourceId'> | undefined,
): { items: NewItem[]; issues: InputIssue[] } {
  const issues: InputIssue[] = [];
  const items: NewItem[] = [];
  const seen = new Map<string, SourceRecord>();
  for (const record of records) {
    const v = record.value;
    const at = { file, line: record.line, row: record.row };
    const reporter: FieldReporter = (field) => (message) => {
      issues.push({ ...at, field, message });
      return undefined;
    };
    if (Object.hasOwn(v, '__proto__')) reporter('__proto__')('is not allowed as a key; rename it');
    const id =
      v.id === undefined || v.id === null || v.id === ''
        ? reporter('id')(
            `is ${v.id === undefined ? 'missing' : v.id === null ? 'null' : 'empty'} (every ${kind} item needs an id)`,
          )
        : readId(v.id, reporter('id'));
    const content = read(v, reporter);
    if (typeof id === 'string') {
      const first = seen.get(id);
      if (first) {
        const where = first.line !== undefined ? `line ${first.line}` : `row ${first.row}`;
        reporter('id')(`duplicate id ${JSON.stringify(id)}: also used on ${where}`);
      } else seen.set(id, record);
      if (content) items.push({ sourceId: id, ...content });
    }
  }
  return { items: issues.length === 0 ? items : [], issues };
}
