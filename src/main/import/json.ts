import type { InputIssue } from '../../shared/domain';
import { jsonDepthExceeded } from '../base/input-limits';
import { typeName } from './issues';
import { tooDeep } from './jsonl';
import { locateJsonError, scanJson } from './json-scan';
import { LineIndex } from './position';
import { isPlainObject, type ReadResult, type SourceRecord } from './record';

/** A JSON array of item objects: the upstream LLMBar dataset.json or the normalized shape. */
export function readJson(file: string, text: string): ReadResult {
  const records: SourceRecord[] = [];
  const issues: InputIssue[] = [];
  const lines = new LineIndex(text);
  const deep = jsonDepthExceeded(text);
  if (deep !== undefined) {
    const { line, column } = lines.locate(deep);
    issues.push({ file, line, message: tooDeep(column) });
    return { records, issues };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const at = locateJsonError(text, err);
    const { line, column } = lines.locate(at.offset);
    const oneObjectPerLine = text.trimStart().startsWith('{') && line > 1 && /after/i.test(at.message);
    const hint = oneObjectPerLine ? '; if the file has one object per line, name it .jsonl' : '';
    issues.push({
      file,
      line,
      message: `not valid JSON: ${at.message} (line ${line}, column ${column})${hint}`,
    });
    return { records, issues };
  }
  if (!Array.isArray(data)) {
    // A wrapper like {"data": [...]} is common in exported files: point at the array inside.
    const arrayKey = isPlainObject(data) ? Object.keys(data).find((k) => Array.isArray(data[k])) : undefined;
    const hint =
      arrayKey === undefined
        ? ''
        : ` (its key ${JSON.stringify(arrayKey)} holds an array: save that array alone)`;
    issues.push({
      file,
      line: lines.line(text.length - text.trimStart().length),
      message: `top level must be an array of items, got ${typeName(data)}${hint}`,
    });
    return { records, issues };
  }
  const scan = scanJson(text);
  // JSON.parse accepted the text, so the scanner does too; without it we still have the index.
  const starts = scan.ok ? scan.elementStarts : [];
  data.forEach((value: unknown, i) => {
    const row = i + 1;
    const line = starts[i] === undefined ? undefined : lines.line(starts[i]);
    if (!isPlainObject(value)) {
      issues.push({ file, line, row, message: `item must be a JSON object, got ${typeName(value)}` });
      return;
    }
    records.push({ value, line, row });
  });
  return { records, issues };
}
