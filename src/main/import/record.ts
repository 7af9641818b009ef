import type { InputIssue } from '../../shared/domain';

/** One item as read from the file, before validation, with where it starts. */
export interface SourceRecord {
  value: Record<string, unknown>;
  /** 1-based physical line where the record starts. */
  line?: number;
  /** 1-based element index (JSON) or data row (CSV). */
  row?: number;
}

export interface ReadResult {
  records: SourceRecord[];
  issues: InputIssue[];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
