import type { InputIssue } from '../../shared/domain';
import { INPUT_LIMITS, jsonDepthExceeded } from '../base/input-limits';
import { typeName } from './issues';
import { locateJsonError } from './json-scan';
import { isPlainObject, type ReadResult, type SourceRecord } from './record';

/** The issue message for nesting beyond the limit, at a 1-based column of the issue's line. */
export function tooDeep(column: number): string {
  return `JSON nested deeper than ${INPUT_LIMITS.jsonDepth} levels (the limit), at column ${column}`;
}

/** JSON Lines: one object per line; blank lines are skipped; every bad line is reported. */
export function readJsonl(file: string, text: string): ReadResult {
  const records: SourceRecord[] = [];
  const issues: InputIssue[] = [];
  if (text.trimStart().startsWith('[')) {
    // A JSON array saved as .jsonl would otherwise give one confusing error per line.
    return {
      records,
      issues: [
        {
          file,
          line: 1,
          message:
            'starts with "[": this looks like a JSON array, not JSON Lines (one object per line); ' +
            'rename the file to .json',
        },
      ],
    };
  }
  // Only LF ends a line: a CR before it is JSON whitespace, and a CR inside a string is escaped.
  const lines = text.split('\n');
  lines.forEach((lineText, i) => {
    const line = i + 1;
    if (lineText.trim() === '') return;
    const deep = jsonDepthExceeded(lineText);
    if (deep !== undefined) {
      issues.push({ file, line, message: tooDeep(deep + 1) });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch (err) {
      const at = locateJsonError(lineText, err);
      issues.push({ file, line, message: `not valid JSON: ${at.message} (column ${at.offset + 1})` });
      return;
    }
    if (!isPlainObject(value)) {
      issues.push({ file, line, message: `must be a JSON object, got ${typeName(value)}` });
      return;
    }
    records.push({ value, line });
  });
  return { records, issues };
}
