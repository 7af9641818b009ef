import type { ApiErrorPayload, ColumnChoice, ErrorCode, InputIssue } from '../../shared/domain';
import type { Refusal } from '../../shared/refusals';

/** An error meant for the user: it crosses the doors with its code and located issues. */
export class AppError extends Error {
  /**
   * Calls cannot go out for a provider reason (no key for it where the run is started): the
   * CLI's exit code 3, the same command runs once it is fixed. Nothing was written.
   */
  retryable = false;
  /** The message's stable key and params, for a page in another language (see `because`). */
  refusal?: Refusal;

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

  /** Gives the refusal its stable key and params (src/shared/refusals.ts); returns it. */
  because(key: Refusal['key'], params?: Refusal['params']): this {
    this.refusal = params ? { key, params } : { key };
    return this;
  }

  toPayload(): ApiErrorPayload {
    return {
      code: this.code,
      message: this.message,
      ...(this.refusal ? { refusal: this.refusal } : {}),
      ...(this.issues.length ? { issues: this.issues } : {}),
      ...(this.columnChoice ? { columnChoice: this.columnChoice } : {}),
    };
  }
}

/**
 * The CLI's exit code for a refusal (README, "Exit codes"): 1 a store, file-system or internal
 * problem; 3 calls that cannot go out for a provider reason; 2 bad input or config, and
 * requests refused as things stand (another process runs the experiment) — nothing written.
 */
export function exitCodeOf(err: AppError): 1 | 2 | 3 {
  if (err.code === 'internal') return 1;
  return err.retryable ? 3 : 2;
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
