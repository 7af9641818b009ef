// The QA dataset kind: `id`, `question`, `answers` (gold strings), `language` (BCP-47),
// optional `context` and `category`. Used by reference-sensitivity studies; the generic
// importer only knows it through the kind table in ./kinds.ts.
import type { InputIssue } from '../../shared/domain';
import type { NewItem } from '../store/datasets';
import { INPUT_LIMITS } from '../base/input-limits';
import { showValue, typeName } from './issues';
import type { SourceRecord } from './record';
import { validateIdRecords } from './id-records';
import { readSubset, readText } from './validate';

/** The fields a QA item keeps in `items.extra_json`. */
export interface QaFields {
  answers: string[];
  /** Canonical BCP-47 tag (`EN` is stored as `en`). */
  language: string;
  context?: string;
  category?: string;
}

export const QA_COLUMNS = ['id', 'question', 'answers', 'language', 'context', 'category'];
export const QA_REQUIRED = ['id', 'question', 'answers', 'language'];

// Made on first use: a DisplayNames pages in ~4 MiB of ICU data, which a process that never
// reads a QA dataset (a one-study run of another protocol) then kept (issue 39).
let languageNames: Intl.DisplayNames | undefined;

/**
 * A well-formed BCP-47 tag whose language subtag the runtime's CLDR data knows (so `xx` or
 * `english` are refused). Returns the canonical tag, or the reason it is not one.
 */
export function canonicalLanguage(tag: string): { ok: true; tag: string } | { ok: false; error: string } {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0];
  } catch {
    return { ok: false, error: `"${tag}" is not a BCP-47 language tag (e.g. en, ar, te, pt-BR)` };
  }
  const primary = canonical.split('-')[0];
  if (
    primary === 'und' ||
    (languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })).of(primary) ===
      undefined
  )
    return { ok: false, error: `unknown language code "${primary}" (use a BCP-47 tag such as en, ar, te)` };
  return { ok: true, tag: canonical };
}

/** A JSON array of strings, or (CSV cells, `cellText`) a cell holding a JSON array or `|`-separated answers. */
function readAnswers(
  value: unknown,
  cellText: boolean,
  report: (message: string) => undefined,
): string[] | undefined {
  if (value === undefined || value === null) return report('is missing');
  let list: unknown = value;
  if (typeof value === 'string' && cellText) {
    const cell = value.trim();
    if (cell === '') return report('is empty: give at least one gold answer');
    if (cell.startsWith('[')) {
      try {
        list = JSON.parse(cell);
      } catch {
        return report(`starts with "[" but is not a JSON array of strings: ${showValue(value)}`);
      }
    } else list = cell.split('|').map((a) => a.trim());
  }
  if (!Array.isArray(list))
    return report(
      `must be an array of strings (in CSV a JSON array or "|"-separated), got ${typeName(list)}`,
    );
  if (list.length === 0) return report('is an empty array: give at least one gold answer');
  if (list.length > INPUT_LIMITS.datasetListItems)
    return report(
      `holds ${list.length.toLocaleString('en-US')} answers, above the limit of ${INPUT_LIMITS.datasetListItems.toLocaleString('en-US')}`,
    );
  const answers: string[] = [];
  for (const [i, a] of list.entries()) {
    if (typeof a !== 'string') return report(`answer ${i + 1} must be a string, got ${typeName(a)}`);
    if (a.trim() === '') return report(`answer ${i + 1} is empty`);
    if (a.length > INPUT_LIMITS.datasetTextChars)
      return report(
        `answer ${i + 1} is ${a.length.toLocaleString('en-US')} characters, above the limit of ${INPUT_LIMITS.datasetTextChars.toLocaleString('en-US')}`,
      );
    answers.push(a);
  }
  return answers;
}

function readLanguage(value: unknown, report: (message: string) => undefined): string | undefined {
  if (value === undefined || value === null || value === '') return report('is missing');
  if (typeof value !== 'string') return report(`must be a string, got ${typeName(value)}`);
  const lang = canonicalLanguage(value.trim());
  return lang.ok ? lang.tag : report(lang.error);
}

export function readOptionalText(
  value: unknown,
  report: (message: string) => undefined,
): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return report(`must be a string, got ${typeName(value)}`);
  if (value.length > INPUT_LIMITS.datasetTextChars)
    return report(
      `is ${value.length.toLocaleString('en-US')} characters, above the limit of ${INPUT_LIMITS.datasetTextChars.toLocaleString('en-US')}`,
    );
  return value.trim() === '' ? null : value;
}

/** Checks every QA record and reports every problem, each with its line or row and field. */
export function validateQaRecords(
  file: string,
  records: SourceRecord[],
  opts: { cellText?: boolean } = {},
): { items: NewItem[]; issues: InputIssue[] } {
  return validateIdRecords(file, records, 'QA', (v, reporter) => {
    const question = readText(v.question, reporter('question'));
    const answers = readAnswers(v.answers, opts.cellText === true, reporter('answers'));
    const language = readLanguage(v.language, reporter('language'));
    const context = readOptionalText(v.context, reporter('context'));
    const category = readSubset(v.category, reporter('category'));
    if (
      question === undefined ||
      answers === undefined ||
      language === undefined ||
      context === undefined ||
      category === undefined
    )
      return undefined;
    const extra: QaFields = { answers, language };
    if (context !== null) extra.context = context;
    if (category !== null) extra.category = category;
    return {
      subset: category,
      instruction: question,
      output1: null,
      output2: null,
      label: null,
      extra: { ...extra },
    };
  });
}
