// The Judge-LS export folder of DESIGN.md section 8: its metrics keys and the files beside
// metrics, tables and figures; the generic writer (src/main/report/export-folder.ts) writes them.
import type { JudgeLsMetrics, JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
import { judgmentsCsv, type JudgmentTokens, type MissingJudgment } from './judgments-csv';

/** The top-level keys of metrics.json, in file order (DESIGN.md section 8). */
export const METRICS_KEYS = [
  'quality',
  'language_invariance',
  'position',
  'tie_probe',
  'subset_quality',
  'subset_flip',
  'audit',
  'sensitivity',
  'usage',
  'failures',
  'statistics',
] as const satisfies readonly (keyof JudgeLsMetrics)[];

/** The Judge-LS export folder's files other than metrics, tables and figures. */
export function judgeLsFiles(
  judgments: readonly JudgmentRecord[],
  tokens?: readonly (JudgmentTokens | null | undefined)[],
  missing: readonly MissingJudgment[] = [],
) {
  return [{ name: 'judgments.csv', content: judgmentsCsv(judgments, tokens, missing) }];
}
