// The Judge-LS export folder as the app writes it (experiments/results.ts hands a protocol's
// metrics keys, tables, figures and files to the generic writer), from hand-made metrics: the
// export tests exercise the real writer with Judge-LS's content without running a study.
import { FIGURE_BUILDERS, type FigureBuilder } from '../../src/shared/protocols/judge-ls/report/figures';
import { buildTables } from '../../src/shared/protocols/judge-ls/report/tables';
import type { JudgeLsMetrics, JudgmentRecord } from '../../src/shared/protocols/judge-ls/types';
import { judgeLsFiles, METRICS_KEYS } from '../../src/main/protocols/judge-ls/export';
import type { JudgmentTokens } from '../../src/main/protocols/judge-ls/judgments-csv';
import {
  metricsJson as writeMetricsJson,
  writeExportFolder,
  type ExportFolderOptions,
  type ExportFolderResult,
  type ManifestInput,
} from '../../src/main/report/export-folder';

export type ExportJudgeLsResult = ExportFolderResult;

export interface ExportJudgeLsInput {
  metrics: JudgeLsMetrics;
  judgments: readonly JudgmentRecord[];
  /** Parallel to `judgments`: the token usage of each judgment's call. */
  tokens?: readonly (JudgmentTokens | null | undefined)[];
  manifest: ManifestInput;
}

export interface ExportJudgeLsOptions extends ExportFolderOptions {
  /** Which figures to draw; defaults to all of section 8. */
  figures?: readonly FigureBuilder[];
}

export function metricsJson(metrics: JudgeLsMetrics): string {
  return writeMetricsJson(metrics, METRICS_KEYS);
}

/** Writes a Judge-LS export folder to `outDir` through the generic writer. */
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

export { METRICS_KEYS };
