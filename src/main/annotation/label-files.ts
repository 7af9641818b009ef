// Reading human labels from CSV or JSONL (item_id, annotator, score | preference | label,
// optional comment) into located rows; what the rows must satisfy is checked by the service,
// which knows the set. Every problem names the file and line.
import { parse } from 'csv-parse/sync';
import { controlCharProblem } from '../../shared/control-chars';
import type { InputIssue } from '../../shared/domain';
import { AppError } from '../base/errors';
import { decodeText } from '../import/decode';

export interface LabelFileRow {
  line: number;
  itemId: string;
  annotator: string;
  /** The raw value of whichever of score / preference / label the row has. */
  value: string;
  field: 'score' | 'preference' | 'label';
  comment: string | null;
}

const VALUE_FIELDS = ['score', 'preference', 'label'] as const;

/** UTF-8 text (a BOM dropped); otherwise the error names the line and byte, as for datasets. */
function decode(file: string, bytes: Buffer): string {
  const decoded = decodeText(file, bytes);
  if (decoded.ok) return decoded.text.replace(/^\uFEFF/, '');
  throw labelIssues(file, [decoded.issue]);
}

function rowOf(
  file: string,
  line: number,
  rec: Record<string, unknown>,
  issues: InputIssue[],
): LabelFileRow | null {
  // JSON.parse keeps a "__proto__" key, but any copy of the record would silently drop it.
  if (Object.hasOwn(rec, '__proto__'))
    issues.push({ file, line, field: '__proto__', message: 'is not allowed as a key; rename it' });
  const str = (k: string): string | null => {
    const v = rec[k];
    if (v === undefined || v === null || v === '') return null;
    return typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : null;
  };
  const name = (k: 'item_id' | 'annotator'): string | null => {
    const v = str(k);
    const control = v ? controlCharProblem(v) : undefined;
    if (control) issues.push({ file, line, field: k, message: control });
    else if (!v) issues.push({ file, line, field: k, message: `missing ${k}` });
    return control ? null : v;
  };
  const itemId = name('item_id');
  const annotator = name('annotator');
  const present = VALUE_FIELDS.filter((f) => str(f) !== null);
  if (present.length !== 1) {
    // The column the row leaves empty (a template has exactly one), so the message names it.
    const column = present[0] ?? VALUE_FIELDS.find((f) => Object.hasOwn(rec, f)) ?? 'score';
    issues.push({
      file,
      line,
      field: present.length > 1 ? present.join(', ') : column,
      message:
        present.length === 0
          ? 'give one of score, preference or label'
          : `give only one of score, preference or label (got ${present.join(', ')})`,
    });
  }
  if (!itemId || !annotator || present.length !== 1) return null;
  return { line, itemId, annotator, value: str(present[0])!, field: present[0], comment: str('comment') };
}

export function readLabelFile(fileName: string, bytes: Buffer): LabelFileRow[] {
  const text = decode(fileName, bytes);
  const issues: InputIssue[] = [];
  const rows: LabelFileRow[] = [];
  if (/\.jsonl$/i.test(fileName) || /^\s*\{/.test(text)) {
    text.split(/\r?\n/).forEach((raw, i) => {
      if (!raw.trim()) return;
      let rec: unknown;
      try {
        rec = JSON.parse(raw);
      } catch (e) {
        issues.push({ file: fileName, line: i + 1, message: `not JSON: ${(e as Error).message}` });
        return;
      }
      if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) {
        issues.push({ file: fileName, line: i + 1, message: 'each line must be a JSON object' });
        return;
      }
      const r = rowOf(fileName, i + 1, rec as Record<string, unknown>, issues);
      if (r) rows.push(r);
    });
  } else {
    let records: { record: Record<string, string>; info: { lines: number } }[];
    try {
      records = parse(text, {
        columns: true,
        skip_empty_lines: true,
        info: true,
        trim: true,
      }) as typeof records;
    } catch (e) {
      throw new AppError('invalid_input', `${fileName}: ${(e as Error).message}`, [
        { file: fileName, message: (e as Error).message },
      ]);
    }
    const header = text
      .split(/\r?\n/, 1)[0]
      .split(',')
      .map((h) => h.trim().replace(/^"|"$/g, ''));
    // csv-parse would make a "__proto__" column the record's prototype: its values would vanish.
    if (header.includes('__proto__')) {
      throw labelIssues(fileName, [
        {
          file: fileName,
          line: 1,
          field: '__proto__',
          message: 'a column named "__proto__" is not allowed; rename it',
        },
      ]);
    }
    if (!header.includes('item_id') || !header.includes('annotator')) {
      throw new AppError('invalid_input', `${fileName}:1: the header needs item_id and annotator columns`, [
        { file: fileName, line: 1, message: 'the header needs item_id and annotator columns' },
      ]);
    }
    for (const { record, info } of records) {
      const r = rowOf(fileName, info.lines, record, issues);
      if (r) rows.push(r);
    }
  }
  if (issues.length) throw labelIssues(fileName, issues);
  return rows;
}

export function labelIssues(fileName: string, issues: InputIssue[]): AppError {
  const first = issues[0];
  const where = first.line !== undefined ? `${fileName}:${first.line}` : fileName;
  return new AppError(
    'invalid_input',
    `${where}: ${first.field ? `field "${first.field}": ` : ''}${first.message}` +
      (issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '') +
      '; nothing was imported',
    issues.slice(0, 200),
  );
}
