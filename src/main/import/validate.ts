import type { InputIssue, Label } from '../../shared/domain';
import type { NewItem } from '../store/datasets';
import { controlCharProblem } from '../../shared/control-chars';
import { INPUT_LIMITS } from '../base/input-limits';
import { showValue, typeName } from './issues';
import type { SourceRecord } from './record';

interface Checked {
  record: SourceRecord;
  /** The id the item will carry, when it could be determined. */
  id?: string;
  generated: boolean;
  item?: NewItem;
}

function where(record: SourceRecord): string {
  if (record.line !== undefined) return `line ${record.line}`;
  return `row ${record.row}`;
}

/** Texts are kept exactly as written: LLMBar has fields whose edge whitespace is part of the data. */
export function readText(value: unknown, report: (message: string) => undefined): string | undefined {
  if (value === undefined) return report('is missing');
  if (typeof value !== 'string')
    return report(`must be a string, got ${typeName(value)} (${showValue(value)})`);
  if (value === '') return report('is empty');
  if (value.trim() === '') return report('is whitespace-only');
  if (value.length > INPUT_LIMITS.datasetTextChars) {
    const limit = INPUT_LIMITS.datasetTextChars.toLocaleString('en-US');
    return report(`is ${value.length.toLocaleString('en-US')} characters, above the limit of ${limit}`);
  }
  return value;
}

/** Integer 1/2, or the strings "1"/"2" (what CSV cells and some exports hold). */
function readLabel(value: unknown, report: (message: string) => undefined): Label | undefined {
  if (value === undefined) return report('is missing');
  if (value === '') return report('is empty');
  if (value === 1 || value === '1') return 1;
  if (value === 2 || value === '2') return 2;
  return report(`must be 1 or 2, got ${showValue(value)}`);
}

/** A subset or category: a name that labels tables and figures, so no control characters. */
export function readSubset(
  value: unknown,
  report: (message: string) => undefined,
): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string')
    return report(`must be a string, got ${typeName(value)} (${showValue(value)})`);
  const control = controlCharProblem(value);
  if (control) return report(control);
  return value.trim() === '' ? null : value;
}

/**
 * A source id as a string; `null` means the item has none (the key is absent, or a CSV cell is
 * empty: `cellText`) and one is generated. In JSON, `null` and `""` are refused: they look like
 * an id that was lost, and a generated one would hide that.
 */
export function readId(
  value: unknown,
  report: (message: string) => undefined,
  cellText = false,
): string | null | undefined {
  if (value === undefined || (cellText && value === '')) return null;
  if (value === null) return report('is null: give an id, or leave the key out to have one generated');
  if (value === '') return report('is empty: give an id, or leave the key out to have one generated');
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return report(`must be a string or a number, got ${typeName(value)}`);
  if (value.trim() === '') return report('is whitespace-only');
  const control = controlCharProblem(value);
  if (control) return report(control);
  return value;
}

/**
 * Checks every record and reports every problem (not just the first), then gives ids to items
 * that have none the way LLMBar names its own: `<subset>-<NNN>`, NNN the 1-based position
 * within that subset, or `item-<NNN>` without a subset.
 */
export function validateRecords(
  file: string,
  records: SourceRecord[],
  opts: { cellText?: boolean } = {},
): { items: NewItem[]; issues: InputIssue[] } {
  const issues: InputIssue[] = [];
  const checked: Checked[] = [];
  const perSubset = new Map<string, number>();

  for (const record of records) {
    const v = record.value;
    const at = { file, line: record.line, row: record.row };
    const reporter =
      (field: string) =>
      (message: string): undefined => {
        issues.push({ ...at, field, message });
        return undefined;
      };
    // JSON.parse keeps a "__proto__" key, but any copy of the record would silently drop it.
    if (Object.hasOwn(v, '__proto__')) reporter('__proto__')('is not allowed as a key; rename it');
    const instructionKey = 'instruction' in v ? 'instruction' : 'input' in v ? 'input' : undefined;
    const instruction =
      instructionKey === undefined
        ? reporter('instruction')('is missing (the upstream name "input" is accepted too)')
        : readText(v[instructionKey], reporter(instructionKey));
    const output1 = readText(v.output_1, reporter('output_1'));
    const output2 = readText(v.output_2, reporter('output_2'));
    const label = readLabel(v.label, reporter('label'));
    const subset = readSubset(v.subset, reporter('subset'));
    const sourceId = readId(v.id, reporter('id'), opts.cellText === true);
    // Optional: the models that wrote each output (MT-Bench's model_a / model_b, mapped), which
    // probes that name a response's model read (self-preference, identity).
    const model1 = readSubset(v.model_1, reporter('model_1'));
    const model2 = readSubset(v.model_2, reporter('model_2'));

    const entry: Checked = { record, generated: false };
    if (subset !== undefined) {
      const key = subset ?? 'item';
      const position = (perSubset.get(key) ?? 0) + 1;
      perSubset.set(key, position);
      if (sourceId === null) {
        entry.id = `${key}-${String(position).padStart(3, '0')}`;
        entry.generated = true;
      }
    }
    if (typeof sourceId === 'string') entry.id = sourceId;
    if (
      instruction !== undefined &&
      output1 !== undefined &&
      output2 !== undefined &&
      label !== undefined &&
      subset !== undefined &&
      model1 !== undefined &&
      model2 !== undefined &&
      entry.id !== undefined
    ) {
      entry.item = { sourceId: entry.id, subset, instruction, output1, output2, label };
      // Only where the file names a model: items without stay as they were stored before.
      if (model1 !== null || model2 !== null)
        entry.item.extra = {
          ...(model1 !== null ? { model_1: model1 } : {}),
          ...(model2 !== null ? { model_2: model2 } : {}),
        };
    }
    checked.push(entry);
  }

  const seen = new Map<string, Checked>();
  for (const entry of checked) {
    if (entry.id === undefined) continue;
    const first = seen.get(entry.id);
    if (!first) {
      seen.set(entry.id, entry);
      continue;
    }
    const id = JSON.stringify(entry.id);
    let message = `duplicate id ${id}: also used on ${where(first.record)}`;
    if (entry.generated) {
      message = `duplicate id ${id}: this item has no id and its generated id is already used on ${where(first.record)}`;
    } else if (first.generated) {
      message = `duplicate id ${id}: ${where(first.record)} has no id and was given ${id} by its position`;
    }
    issues.push({ file, line: entry.record.line, row: entry.record.row, field: 'id', message });
  }

  const items = issues.length === 0 ? checked.map((c) => c.item!) : [];
  return { items, issues };
}
