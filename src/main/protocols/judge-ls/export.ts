// The export folder of DESIGN.md section 8, written atomically: everything is built in a hidden
// sibling directory and only then moved into place, so a failure never leaves a half-written export.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { JudgeLsMetrics, JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
import { APP_VERSION } from '../../core/version';
import { FIGURE_BUILDERS, type FigureBuilder } from '../../../shared/protocols/judge-ls/report/figures';
import { tableToCsv } from '../../report/csv';
import { renderFigure, svgToPng } from '../../report/figures';
import { judgmentsCsv, type JudgmentTokens } from './judgments-csv';
import { tableToLatex } from '../../report/latex';
import { buildTables } from '../../../shared/protocols/judge-ls/report/tables';
import { writeXlsx } from '../../report/xlsx';

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
] as const satisfies readonly (keyof JudgeLsMetrics)[];

/** The entries of an export folder this module owns; anything else in the folder is left alone. */
export const OWNED_ENTRIES = ['metrics.json', 'judgments.csv', 'manifest.json', 'tables', 'figures'] as const;

export interface ManifestModel {
  /** 'judge' or 'transformer'. */
  role: string;
  label: string;
  provider: string;
  model: string;
  [extra: string]: unknown;
}

/** What the caller knows about the run; exportJudgeLs adds the export time and the file list. */
export interface JudgeLsManifestInput {
  /** Defaults to this app's version. */
  appVersion?: string;
  experiment?: { id?: number | string; name: string };
  /** The experiment config as run (DESIGN.md section 7), without secrets. */
  config: unknown;
  promptTemplates: Record<string, string>;
  models: ManifestModel[];
  counts: { items: number; requests: number; [extra: string]: number };
  time?: { startedAt?: string | null; finishedAt?: string | null };
}

export interface ExportJudgeLsInput {
  metrics: JudgeLsMetrics;
  judgments: readonly JudgmentRecord[];
  /** Parallel to `judgments`: the token usage of each judgment's call. */
  tokens?: readonly (JudgmentTokens | null | undefined)[];
  manifest: JudgeLsManifestInput;
}

export interface ExportJudgeLsOptions {
  /** Which figures to draw; defaults to all of section 8. */
  figures?: readonly FigureBuilder[];
  /** Also write PNGs (default true). */
  png?: boolean;
  /** Also write tables/tables.xlsx (default true). */
  xlsx?: boolean;
  /** Injected clock for the manifest's export time. */
  now?: () => Date;
}

export interface ExportJudgeLsResult {
  outDir: string;
  /** Paths relative to outDir, '/'-separated. */
  files: string[];
}

/** metrics.json text with exactly the contract keys; a missing or unknown key is an error, not a silent drop. */
export function metricsJson(metrics: JudgeLsMetrics): string {
  const actual = Object.keys(metrics);
  const missing = METRICS_KEYS.filter((k) => !(k in metrics));
  const unknown = actual.filter((k) => !(METRICS_KEYS as readonly string[]).includes(k));
  if (missing.length || unknown.length) {
    const parts = [
      missing.length ? `missing ${missing.join(', ')}` : '',
      unknown.length ? `not in the contract: ${unknown.join(', ')}` : '',
    ].filter(Boolean);
    throw new Error(
      `metrics.json: top-level keys must be exactly ${METRICS_KEYS.join(', ')} (${parts.join('; ')})`,
    );
  }
  const ordered = Object.fromEntries(METRICS_KEYS.map((k) => [k, metrics[k]]));
  return JSON.stringify(ordered, null, 2) + '\n';
}

export function manifestJson(input: JudgeLsManifestInput, exportedAt: Date, files: string[]): string {
  const manifest = {
    protocol: 'judge-ls',
    app_version: input.appVersion ?? APP_VERSION,
    experiment: input.experiment ?? null,
    time: {
      started_at: input.time?.startedAt ?? null,
      finished_at: input.time?.finishedAt ?? null,
      exported_at: exportedAt.toISOString(),
    },
    counts: input.counts,
    models: input.models,
    prompt_templates: input.promptTemplates,
    config: input.config,
    files,
  };
  return JSON.stringify(manifest, null, 2) + '\n';
}

/** Writes every file into `dir` (an empty staging directory) and returns their relative paths. */
async function writeAll(
  dir: string,
  input: ExportJudgeLsInput,
  options: ExportJudgeLsOptions,
): Promise<string[]> {
  const files: string[] = [];
  const put = async (rel: string, data: string | Buffer) => {
    await writeFile(join(dir, rel), data);
    files.push(rel);
  };
  await put('metrics.json', metricsJson(input.metrics));
  await put('judgments.csv', judgmentsCsv(input.judgments, input.tokens));

  await mkdir(join(dir, 'tables'));
  const tables = buildTables(input.metrics);
  for (const table of tables) {
    await put(`tables/${table.id}.tex`, tableToLatex(table));
    await put(`tables/${table.id}.csv`, tableToCsv(table));
  }
  if (options.xlsx !== false) {
    await writeXlsx(tables, join(dir, 'tables', 'tables.xlsx'));
    files.push('tables/tables.xlsx');
  }

  await mkdir(join(dir, 'figures'));
  const ids = new Set<string>();
  for (const build of options.figures ?? FIGURE_BUILDERS) {
    const figure = renderFigure(build(input.metrics));
    if (ids.has(figure.id)) throw new Error(`two figures share the id "${figure.id}"`);
    ids.add(figure.id);
    await put(`figures/${figure.id}.svg`, figure.svg);
    if (options.png !== false)
      await put(`figures/${figure.id}.png`, await svgToPng(figure.svg, figure.width));
  }

  const now = options.now?.() ?? new Date();
  files.push('manifest.json');
  await writeFile(join(dir, 'manifest.json'), manifestJson(input.manifest, now, files));
  return files;
}

/**
 * Moves the staged entries into `target`. The old entries are parked in a backup directory first
 * and put back if any move fails, so `target` ends with either the old or the new export.
 */
async function commit(stage: string, target: string): Promise<void> {
  if (!existsSync(target)) {
    await rename(stage, target);
    return;
  }
  const backup = await mkdtemp(join(dirname(target), `.${basename(target)}.previous-`));
  const parked: string[] = [];
  const placed: string[] = [];
  try {
    for (const name of OWNED_ENTRIES) {
      if (!existsSync(join(target, name))) continue;
      await rename(join(target, name), join(backup, name));
      parked.push(name);
    }
    for (const name of OWNED_ENTRIES) {
      if (!existsSync(join(stage, name))) continue;
      await rename(join(stage, name), join(target, name));
      placed.push(name);
    }
  } catch (err) {
    try {
      for (const name of placed) await rm(join(target, name), { recursive: true, force: true });
      for (const name of parked) await rename(join(backup, name), join(target, name));
    } catch (rollbackErr) {
      throw new AggregateError(
        [err, rollbackErr],
        `export to ${target} failed (${String(err)}) and restoring the previous files failed ` +
          `(${String(rollbackErr)}); they are kept in ${backup}`,
        { cause: rollbackErr },
      );
    }
    await rm(backup, { recursive: true, force: true });
    throw err;
  }
  await rm(backup, { recursive: true, force: true });
  await rm(stage, { recursive: true, force: true });
}

/**
 * Writes the Judge-LS export folder of DESIGN.md section 8 to `outDir`: metrics.json,
 * judgments.csv, tables/ (.tex, .csv, tables.xlsx), figures/ (.svg, .png) and manifest.json.
 * Other files already in `outDir` are kept; the owned entries are replaced as a whole.
 */
export async function exportJudgeLs(
  outDir: string,
  input: ExportJudgeLsInput,
  options: ExportJudgeLsOptions = {},
): Promise<ExportJudgeLsResult> {
  const target = resolve(outDir);
  if (existsSync(target) && !(await stat(target)).isDirectory()) {
    throw new Error(`export folder ${target} exists and is not a directory`);
  }
  await mkdir(dirname(target), { recursive: true });
  const stage = await mkdtemp(join(dirname(target), `.${basename(target)}.export-`));
  let files: string[];
  try {
    files = await writeAll(stage, input, options);
  } catch (err) {
    await rm(stage, { recursive: true, force: true });
    throw err;
  }
  try {
    await commit(stage, target);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  return { outDir: target, files };
}
