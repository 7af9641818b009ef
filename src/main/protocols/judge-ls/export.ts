// The Judge-LS export folder of DESIGN.md section 8: its content (metrics keys, judgments.csv,
// tables, figures) handed to the generic writer of src/main/report/export-folder.ts.
import { FIGURE_BUILDERS, type FigureBuilder } from '../../../shared/protocols/judge-ls/report/figures';
import { buildTables } from '../../../shared/protocols/judge-ls/report/tables';
import type { JudgeLsMetrics, JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
import {
  metricsJson as writeMetricsJson,
  writeExportFolder,
  type ExportFolderOptions,
  type ExportFolderResult,
  type ManifestInput,
} from '../../report/export-folder';
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

export type JudgeLsManifestInput = ManifestInput;
export type ExportJudgeLsResult = ExportFolderResult;

export interface ExportJudgeLsInput {
  metrics: JudgeLsMetrics;
  judgments: readonly JudgmentRecord[];
  /** Parallel to `judgments`: the token usage of each judgment's call. */
  tokens?: readonly (JudgmentTokens | null | undefined)[];
  manifest: JudgeLsManifestInput;
}

export interface ExportJudgeLsOptions extends ExportFolderOptions {
  /** Which figures to draw; defaults to all of section 8. */
  figures?: readonly FigureBuilder[];
}

export function metricsJson(metrics: JudgeLsMetrics): string {
  return writeMetricsJson(metrics, METRICS_KEYS);
}

/** The Judge-LS export folder's files other than metrics, tables and figures. */
export function judgeLsFiles(
  judgments: readonly JudgmentRecord[],
  tokens?: ExportJudgeLsInput['tokens'],
  missing: readonly MissingJudgment[] = [],
) {
  return [{ name: 'judgments.csv', content: judgmentsCsv(judgments, tokens, missing) }];
}

/** Writes the Judge-LS export folder to `outDir` (see writeExportFolder). */
export async function exportJudgeLs(
  outDir: string,
  input: ExportJudgeLsInput,
  options: ExportJudgeLsOptions = {},
): Promise<ExportFolderResult> {
  return writeExportFolder(
    outDir,
    {
      protocol: 'judge-ls',
      metrics: input.metrics,
      metricsKeys: METRICS_KEYS,
      tables: buildTables(input.metrics),
      figures: (options.figures ?? FIGURE_BUILDERS).map((build) => build(input.metrics)),
      files: judgeLsFiles(input.judgments, input.tokens),
      manifest: input.manifest,
    },
    options,
  );
}
