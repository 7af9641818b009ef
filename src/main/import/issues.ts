import type { ColumnChoice, InputIssue } from '../../shared/domain';
import { AppError } from '../base/errors';

/** More than this many issues helps nobody: the rest is summarized in one closing issue. */
export const MAX_ISSUES = 100;

/** Where an issue is, without the file: `line 7: field "label": must be 1 or 2, got 3`. */
export function describeIssue(issue: InputIssue): string {
  const parts: string[] = [];
  if (issue.line !== undefined) parts.push(`line ${issue.line}`);
  else if (issue.row !== undefined) parts.push(`row ${issue.row}`);
  if (issue.field !== undefined) parts.push(`field "${issue.field}"`);
  parts.push(issue.message);
  return parts.join(': ');
}

function position(issue: InputIssue): number {
  return issue.line ?? issue.row ?? 0;
}

/**
 * Builds the error for a file with problems: issues in file order, capped, and a one-line
 * summary that leads with the count and the first problem.
 */
export function invalidInput(file: string, issues: InputIssue[], columnChoice?: ColumnChoice): AppError {
  // Readers and the validator report in separate passes; users read files top to bottom.
  const sorted = issues
    .map((issue, i) => ({ issue, i }))
    .sort((a, b) => position(a.issue) - position(b.issue) || a.i - b.i)
    .map((x) => x.issue);
  const total = sorted.length;
  const shown = sorted.slice(0, MAX_ISSUES);
  if (total > MAX_ISSUES) {
    shown.push({ file, message: `… and ${total - MAX_ISSUES} more problems not shown` });
  }
  const first = describeIssue(sorted[0]);
  const summary = total === 1 ? `${file}: ${first}` : `${file}: ${total} problems, first: ${first}`;
  return new AppError('invalid_input', summary, shown, columnChoice);
}

/** Shows a value in a message the way it appears in the file, cut short if long. */
export function showValue(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'nothing' : JSON.stringify(value);
  } catch {
    // Too deep or cyclic to print: its type still tells the user what is wrong.
    text = typeName(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Names a JSON value's type the way users know it (arrays and null are not "object"). */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
