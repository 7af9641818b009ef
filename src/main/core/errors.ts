import type { ApiErrorPayload, ErrorCode, InputIssue } from '../../shared/domain';

/** An error meant for the user: it crosses the doors with its code and located issues. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues: InputIssue[] = [],
  ) {
    super(message);
    this.name = 'AppError';
  }

  toPayload(): ApiErrorPayload {
    return this.issues.length
      ? { code: this.code, message: this.message, issues: this.issues }
      : { code: this.code, message: this.message };
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
