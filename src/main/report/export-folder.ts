// An export folder (DESIGN.md section 8) written atomically: everything is built in a hidden
// sibling directory and only then moved into place, so a failure never leaves a half-written
// export. Protocols supply the content (metrics, tables, figures, extra files); this module
// writes every format the same way for all of them.
import { existsSync } from 'node:fs';
import { writeFailure } from '../base/write-files';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { FigureSpec } from '../../shared/report/chart-kit';
import type { Table } from '../../shared/report/table';
import { collectGarbage } from '../base/heap';
import { APP_VERSION } from '../base/version';
import { tableToCsv } from './csv';
import { renderFigure } from './figures';
import { svgToPngSync } from './png';
import { pngsOnThisThread, renderPng } from './png-pool';
import { tableToLatex } from './latex';
import { writeXlsx } from './xlsx';

/** The entries of an export folder this module owns; anything else in the folder is left alone. */
export const OWNED_ENTRIES = ['metrics.json', 'manifest.json', 'tables', 'figures'] as const;

export interface ManifestModel {
  /** 'judge' or 'transformer'. */
  role: string;
  label: string;
  provider: string;
  model: string;
  [extra: string]: unknown;
}

/** What the caller knows about the run; the writer adds the export time and the file list. */
export interface ManifestInput {
  /** Defaults to this app's version. */
  appVersion?: string;
  experiment?: { id?: number | string; name: string };
  /** Answered by the built-in simulated provider (a demo): recorded so no one cites it. */
  simulated?: boolean;
  /** Answered from recorded files: each file's name, hash, missing and unmatched rows. */
  recorded?: unknown;
  /** The experiment config as run (DESIGN.md section 7), without secrets. */
  config: unknown;
  promptTemplates: Record<string, string>;
  models: ManifestModel[];
  counts: { items: number; requests: number; [extra: string]: number };
  time?: { startedAt?: string | null; finishedAt?: string | null };
  /** The locked analysis plan in force, its hash and time (issue 24 part 2); absent when none was locked. */
  preregistration?: object;
}

export interface ExportFile {
  name: string;
  content: string | Buffer;
}

export interface ExportFolderInput {
  /** The protocol id, recorded in the manifest. */
  protocol: string;
  metrics: object;
  /** metrics.json's top-level keys in file order: exactly these (`name?`: only when present), or the export fails. */
  metricsKeys: readonly string[];
  tables: readonly Table[];
  figures: readonly FigureSpec[];
  /**
   * Files beside metrics.json (e.g. judgments.csv); names are relative, '/'-separated, top level.
   * A function is called once, when they are written: after the figures drawn on this thread, so
   * their text is not held under resvg's canvases.
   */
  files?: readonly ExportFile[] | (() => readonly ExportFile[]);
  manifest: ManifestInput;
}

export interface ExportFolderOptions {
  /** Also write PNGs (default true). */
  png?: boolean;
  /** Also write tables/tables.xlsx (default true). */
  xlsx?: boolean;
  /** Injected clock for the manifest's export time. */
  now?: () => Date;
}

/** A figure (or one of its formats) that could not be drawn; the rest of the export was written. */
export interface FigureFailure {
  id: string;
  format: 'svg' | 'png';
  error: string;
}

export interface ExportFolderResult {
  outDir: string;
  /** Paths relative to outDir, '/'-separated. */
  files: string[];
  /** Figures not written (also listed in manifest.json as `figures_failed`); empty when all were. */
  figureFailures: FigureFailure[];
}

/**
 * metrics.json text with exactly the contract keys; a missing or unknown key is an error, not a
 * silent drop. A key written `name?` is optional: present only when an option asked for it (e.g.
 * a protocol's `noiseFloor`), so the file is byte-identical to before when the option is off.
 */
export function metricsJson(metrics: object, keys: readonly string[]): string {
  const optional = new Set(keys.filter((k) => k.endsWith('?')).map((k) => k.slice(0, -1)));
  const names = keys.map((k) => (k.endsWith('?') ? k.slice(0, -1) : k));
  const actual = Object.keys(metrics);
  const missing = names.filter((k) => !(k in metrics) && !optional.has(k));
  const unknown = actual.filter((k) => !names.includes(k));
  if (missing.length || unknown.length) {
    const parts = [
      missing.length ? `missing ${missing.join(', ')}` : '',
      unknown.length ? `not in the contract: ${unknown.join(', ')}` : '',
    ].filter(Boolean);
    throw new Error(`metrics.json: top-level keys must be exactly ${names.join(', ')} (${parts.join('; ')})`);
  }
  const present = names.filter((k) => k in metrics);
  const ordered = Object.fromEntries(present.map((k) => [k, (metrics as Record<string, unknown>)[k]]));
  return JSON.stringify(ordered, null, 2) + '\n';
}

export function manifestJson(
  protocol: string,
  input: ManifestInput,
  exportedAt: Date,
  files: string[],
  figuresFailed: readonly FigureFailure[] = [],
): string {
  const manifest = {
    protocol,
    app_version: input.appVersion ?? APP_VERSION,
    experiment: input.experiment ?? null,
    simulated: input.simulated ?? false,
    ...(input.recorded === undefined ? {} : { recorded: input.recorded }),
    ...(input.preregistration === undefined ? {} : { preregistration: input.preregistration }),
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
    figures_failed: figuresFailed,
  };
  return JSON.stringify(manifest, null, 2) + '\n';
}

/** Writes every file into `dir` (an empty staging directory) and returns their relative paths. */
async function writeAll(
  dir: string,
  input: ExportFolderInput,
  options: ExportFolderOptions,
): Promise<{ files: string[]; figureFailures: FigureFailure[] }> {
  const files: string[] = [];
  const failed: FigureFailure[] = [];
  const put = async (rel: string, data: string | Buffer) => {
    await writeFile(join(dir, rel), data);
    files.push(rel);
  };
  // A figure that cannot be drawn never costs the tables (the calls behind them are paid): it is
  // left out, named in the manifest and in the result, and everything else is written.
  const fail = (id: string, format: FigureFailure['format'], err: unknown) =>
    failed.push({ id, format, error: err instanceof Error ? err.message : String(err) });
  // PNGs are drawn in a worker (png-pool.ts) one at a time, after the workbook: sent as soon as
  // each SVG was ready, they overlapped the workbook, and the worker's pixmaps, the PNG buffers
  // waiting to be written and the workbook made the export the one-shot run's peak (issue 39:
  // +55 MiB at the position study's export). Files are written (and listed) in the same order.
  const ids = new Set<string>();
  for (const spec of input.figures) {
    if (ids.has(spec.id)) throw new Error(`two figures share the id "${spec.id}"`);
    ids.add(spec.id);
  }
  const figures = input.figures.flatMap((spec) => {
    let figure: ReturnType<typeof renderFigure>;
    try {
      figure = renderFigure(spec);
    } catch (err) {
      fail(spec.id, 'svg', err);
      return [];
    }
    return [figure];
  });

  // Drawing the SVGs leaves tens of MB of ECharts' garbage, which V8 would otherwise keep until its
  // limit, beside the PNG worker's figures and the workbook still to come: collected now (a full
  // collection, ~50 ms; the study's export peaked ~20 MiB lower, bench:overhead study).
  collectGarbage();
  // A few figures drawn on this thread (pngsOnThisThread) are drawn now, before the tables and the
  // workbook: the workbook leaves the C library's main arena ~12 MiB larger (memory it does not hand
  // back), and resvg's canvases, ~30–40 MiB for a moment, would come on top of it (issue 39: the
  // position study's export, its peak). Their bytes wait here (~0.2 MB a figure) to be written in
  // their place, so the files and the manifest stay in the same order.
  const onThisThread = options.png !== false && pngsOnThisThread(figures.length);
  const drawnHere = new Map<string, Buffer>();
  if (onThisThread) {
    for (const figure of figures) {
      try {
        drawnHere.set(figure.id, svgToPngSync(figure.svg, figure.width));
      } catch (err) {
        fail(figure.id, 'png', err);
      }
      // resvg's pixmap is freed when its wrapper is collected (as in png-worker.ts): gone before
      // the next figure is drawn, and before the workbook.
      collectGarbage();
    }
  }
  await put('metrics.json', metricsJson(input.metrics, input.metricsKeys));
  for (const f of typeof input.files === 'function' ? input.files() : (input.files ?? []))
    await put(f.name, f.content);

  await mkdir(join(dir, 'tables'));
  const tables = input.tables;
  for (const table of tables) {
    await put(`tables/${table.id}.tex`, tableToLatex(table, input.protocol));
    await put(`tables/${table.id}.csv`, tableToCsv(table));
  }
  if (options.xlsx !== false) {
    await writeXlsx(tables, join(dir, 'tables', 'tables.xlsx'));
    files.push('tables/tables.xlsx');
  }

  // The workbook's garbage goes before the worker's pixmaps come (the same reason as above).
  if (options.png !== false && !onThisThread && figures.length > 0) collectGarbage();
  await mkdir(join(dir, 'figures'));
  for (const figure of figures) {
    await put(`figures/${figure.id}.svg`, figure.svg);
    if (options.png === false) continue;
    let pixels: Buffer | undefined;
    if (onThisThread) {
      pixels = drawnHere.get(figure.id);
    } else {
      try {
        pixels = await renderPng(figure.svg, figure.width);
      } catch (err) {
        fail(figure.id, 'png', err);
      }
    }
    if (pixels) await put(`figures/${figure.id}.png`, pixels);
  }

  const now = options.now?.() ?? new Date();
  files.push('manifest.json');
  await writeFile(
    join(dir, 'manifest.json'),
    manifestJson(input.protocol, input.manifest, now, files, failed),
  );
  return { files, figureFailures: failed };
}

/**
 * Moves the staged entries into `target`. The old entries are parked in a backup directory first
 * and put back if any move fails, so `target` ends with either the old or the new export.
 */
async function commit(stage: string, target: string, owned: readonly string[]): Promise<void> {
  if (!existsSync(target)) {
    await rename(stage, target);
    return;
  }
  const backup = await mkdtemp(join(dirname(target), `.${basename(target)}.previous-`));
  const parked: string[] = [];
  const placed: string[] = [];
  try {
    for (const name of owned) {
      if (!existsSync(join(target, name))) continue;
      await rename(join(target, name), join(backup, name));
      parked.push(name);
    }
    for (const name of owned) {
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
 * Writes an export folder to `outDir`: metrics.json, the protocol's extra files, tables/
 * (.tex, .csv, tables.xlsx), figures/ (.svg, .png) and manifest.json. Other files already in
 * `outDir` are kept; the owned entries are replaced as a whole.
 */
export async function writeExportFolder(
  outDir: string,
  input: ExportFolderInput,
  options: ExportFolderOptions = {},
): Promise<ExportFolderResult> {
  const target = resolve(outDir);
  if (existsSync(target) && !(await stat(target)).isDirectory()) {
    throw new Error(`export folder ${target} exists and is not a directory`);
  }
  await mkdir(dirname(target), { recursive: true });
  const stage = await mkdtemp(join(dirname(target), `.${basename(target)}.export-`));
  let written: Awaited<ReturnType<typeof writeAll>>;
  try {
    written = await writeAll(stage, input, options);
  } catch (err) {
    await rm(stage, { recursive: true, force: true });
    // The export folder's disk, not the data folder's, is the one that failed (often full).
    throw writeFailure(target, err);
  }
  // The protocol's files are among those written: their top-level entries are replaced too.
  const owned = [...new Set([...OWNED_ENTRIES, ...written.files.map((f) => f.split('/')[0])])];
  try {
    await commit(stage, target, owned);
  } catch (err) {
    throw writeFailure(target, err);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  return { outDir: target, ...written };
}
