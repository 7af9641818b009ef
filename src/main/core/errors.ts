import type { ApiErrorPayload, ColumnChoice, ErrorCode, InputIssue } from '../../shared/domain';

/** An error meant for the user: it crosses the doors with its code and located issues. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues: InputIssue[] = [],
    /** A dataset file's columns, when they do not name the fields its kind needs. */
    readonly columnChoice?: ColumnChoice,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toPayload(): ApiErrorPayload {
    return {
      code: this.code,
      message: this.message,
      ...(this.issues.length ? { issues: this.issues } : {}),
      ...(this.columnChoice ? { columnChoice: this.columnChoice } : {}),
    };
  }
}

/** Formats an issue the way every door prints it: `file:line: field: message`. */
export function formatIssue(issue: InputIssue): string {
  let where = issue.file;
  if (issue.line !== undefined) where += `:${issue.line}`;
  else if (issue.row !== undefined) where += ` row ${issue.row}`;
  return issue.field ? `${where}: field "${issue.field}": ${issue.message}` : `${where}: ${issue.message}`;
}

export function toErrorPayload(err: unknown): ApiErrorPayload {
  if (err instanceof AppError) return err.toPayload();
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}
