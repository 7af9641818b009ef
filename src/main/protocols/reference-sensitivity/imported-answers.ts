// Answers a researcher already has, to judge beside or instead of generated ones: a JSONL, JSON
// or CSV file of {item_id, generator, answer, human_label?}. Checked line by line like datasets;
// any error rejects the whole file.
import { basename } from 'node:path';
import { controlCharProblem } from '../../../shared/control-chars';
import type { InputIssue, Item } from '../../../shared/domain';
import type { Verdict } from '../../../shared/protocols/reference-sensitivity/types';
import { INPUT_LIMITS, readRegularFile } from '../host';
import { decodeText } from '../host';
import { invalidInput, showValue, typeName } from '../host';
import { readCsv, type CsvColumns } from '../host';
import { readJson } from '../host';
import { readJsonl } from '../host';

export interface ImportedAnswer {
  itemId: string;
  generator: string;
  answer: string;
  humanLabel: Verdict | null;
  /** 1-based line in the file, for errors found later (unknown items). */
  line: number | null;
}

/** The answers of a path (read with the dataset limits) or of a file the app sent as text. */
export function readImportedAnswers(source: string | { fileName: string; text: string }): ImportedAnswer[] {
  const { fileName, text } = answersText(source);
  return parseImportedAnswers(fileName, text);
}

/** An answers file named by path, read in (with the dataset limits), as the config stores it. */
export function answersText(source: string | { fileName: string; text: string }): {
  fileName: string;
  text: string;
} {
  if (typeof source !== 'string') return { fileName: basename(source.fileName), text: source.text };
  const file = basename(source);
  const bytes = readRegularFile(source, INPUT_LIMITS.datasetFileBytes);
  const decoded = decodeText(file, bytes);
  if (!decoded.ok) throw invalidInput(file, [decoded.issue]);
  return { fileName: file, text: decoded.text };
}

const CSV_COLUMNS: CsvColumns = {
  columns: ['item_id', 'generator', 'answer', 'human_label'],
  missingColumns: (present) => ({
    missing: ['item_id', 'generator', 'answer'].filter((n) => !present.has(n)),
    note: '',
  }),
};

/** CSV by the file's extension; otherwise JSON when it opens with "[", JSONL else. */
function readRecords(file: string, text: string) {
  if (/\.csv$/i.test(file)) return readCsv(file, text, CSV_COLUMNS);
  return text.trimStart().startsWith('[') ? readJson(file, text) : readJsonl(file, text);
}

export function parseImportedAnswers(file: string, text: string): ImportedAnswer[] {
  const read = readRecords(file, text);
  const issues: InputIssue[] = [...read.issues];
  const out: ImportedAnswer[] = [];
  const seen = new Map<string, number | undefined>();
  for (const r of read.records) {
    const v = r.value;
    const at = { file, line: r.line, row: r.row };
    const bad = (field: string, message: string) => {
      issues.push({ ...at, field, message });
      return undefined;
    };
    // JSON.parse keeps a "__proto__" key, but any copy of the record would silently drop it.
    if (Object.hasOwn(v, '__proto__')) bad('__proto__', 'is not allowed as a key; rename it');
    const str = (field: string, name: boolean): string | undefined => {
      const x = v[field];
      if (x === undefined || x === null || x === '') return bad(field, 'is missing');
      if (typeof x === 'number' && field === 'item_id') return String(x);
      if (typeof x !== 'string') return bad(field, `must be a string, got ${typeName(x)}`);
      if (x.trim() === '') return bad(field, 'is whitespace-only');
      const control = name ? controlCharProblem(x) : undefined;
      if (control) return bad(field, control);
      if (x.length > INPUT_LIMITS.datasetTextChars)
        return bad(
          field,
          `is ${x.length.toLocaleString('en-US')} characters, above the limit of ${INPUT_LIMITS.datasetTextChars.toLocaleString('en-US')}`,
        );
      return x;
    };
    const itemId = str('item_id', true);
    const generator = str('generator', true);
    // The answer is text a judge reads: kept as written (exports show its control characters).
    const answer = str('answer', false);
    let humanLabel: Verdict | null = null;
    const h = v.human_label;
    if (h !== undefined && h !== null && h !== '') {
      const up = typeof h === 'string' ? h.trim().toUpperCase() : '';
      if (up === 'CORRECT' || up === 'INCORRECT') humanLabel = up;
      else bad('human_label', `must be CORRECT or INCORRECT, got ${showValue(h)}`);
    }
    if (itemId !== undefined && generator !== undefined) {
      const key = `${generator}\u0000${itemId}`;
      if (seen.has(key))
        bad(
          'item_id',
          `answer of "${generator}" to item "${itemId}" given twice (also on line ${seen.get(key)})`,
        );
      else seen.set(key, r.line);
    }
    if (itemId !== undefined && generator !== undefined && answer !== undefined)
      out.push({ itemId, generator, answer, humanLabel, line: r.line ?? r.row ?? null });
  }
  if (issues.length === 0 && out.length === 0)
    issues.push({ file, message: 'no answers: the file holds no records' });
  if (issues.length > 0) throw invalidInput(file, issues);
  return out;
}

/** Every imported answer must name an item of the dataset: an error per unknown one, with its line. */
export function checkImportedItems(
  file: string,
  answers: readonly ImportedAnswer[],
  items: readonly Item[],
): void {
  const ids = new Set(items.map((i) => i.sourceId));
  const issues: InputIssue[] = answers
    .filter((a) => !ids.has(a.itemId))
    .map((a) => ({
      file,
      ...(a.line !== null ? { line: a.line } : {}),
      field: 'item_id',
      message: `no item "${a.itemId}" in the dataset`,
    }));
  if (issues.length > 0) throw invalidInput(file, issues);
}
