import type { ColumnChoice, ErrorCode, InputIssue } from '../../../shared/domain';
import { isRefusal, type Refusal } from '../../../shared/refusals';

/** The core's codes plus the ways a transport itself can fail. */
export type ApiErrorCode = ErrorCode | 'unauthorized' | 'http_error' | 'network_error';

/** An API failure as the renderer sees it, whichever door it came through. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly issues: InputIssue[];
  /** A dataset file's columns, when they do not name the fields its kind needs. */
  readonly columnChoice?: ColumnChoice;
  /** The message's stable key and params, which a page translates (src/shared/refusals.ts). */
  readonly refusal?: Refusal;

  constructor(
    code: ApiErrorCode,
    message: string,
    issues: InputIssue[] = [],
    columnChoice?: ColumnChoice,
    refusal?: Refusal,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.issues = issues;
    if (columnChoice) this.columnChoice = columnChoice;
    if (refusal) this.refusal = refusal;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function isIssue(v: unknown): v is InputIssue {
  return isRecord(v) && typeof v.file === 'string' && typeof v.message === 'string';
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The column choice of an error payload, if it has the shape the core sends. */
export function readColumnChoice(v: unknown): ColumnChoice | undefined {
  if (!isRecord(v) || !isStrings(v.columns) || typeof v.kind !== 'string') return undefined;
  if (!Array.isArray(v.kinds) || !Array.isArray(v.sample)) return undefined;
  return v as unknown as ColumnChoice;
}

/**
 * Turns whatever a door threw into an ApiError. Errors crossing Electron's
 * contextBridge lose their class, so code and issues are read off plain objects too.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isRecord(err)) {
    const payload = isRecord(err.error) ? err.error : err;
    const message = typeof payload.message === 'string' ? payload.message : String(err);
    const code = typeof payload.code === 'string' ? (payload.code as ApiErrorCode) : 'internal';
    const issues = (Array.isArray(payload.issues) ? payload.issues.filter(isIssue) : []).map(
      ({ refusal, ...issue }) => (isRefusal(refusal) ? { ...issue, refusal } : issue),
    );
    return new ApiError(
      code,
      message,
      issues,
      readColumnChoice(payload.columnChoice),
      isRefusal(payload.refusal) ? payload.refusal : undefined,
    );
  }
  return new ApiError('internal', String(err));
}
