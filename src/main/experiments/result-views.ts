// What an experiment shows and exports: results (metrics + tables), failures, the export
// folder and single files, and the protocol's own per-item views.
import type { FigureLanguage } from '../../shared/report/figure-i18n';
import type { CostEstimate, FailedCallView, PromptPreview } from '../../shared/experiments';
import type { ProtocolRow } from '../../shared/protocol-rows';
import type { FlaggedItem } from '../../shared/experiments';
import type { z } from 'zod';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { AppError } from '../base/errors';
import { tableToCsv } from '../report/csv';
import { renderSvg, svgToPng } from '../report/figures';
import { tableToLatex } from '../report/latex';
import { buildWorkbook } from '../report/xlsx';
import type { Table } from '../../shared/report/table';
import type { VerdictLink, VerdictList } from '../../shared/verdicts';
import type { Database } from '../store/db';
import type { ExperimentCatalogue } from './catalogue';
import { estimateTasks } from './estimate';
import { loadExperiment } from './load';
import type { CompareResult, CompareSide } from '../../shared/compare';
import { compareRuns } from './compare';
import {
  computeResults,
  experimentMethods,
  exportExperiment,
  failedCalls,
  metricsContext,
  reportFigures,
} from './results';
import type { MethodsFiles } from '../../shared/paper/methods';
import { exportBundle } from '../paper/bundle-write';
import { lockPreregistration, paperInputs, preregistrationView } from '../paper/preregistration';
import { preregistrationMarkdown } from '../paper/preregistration-text';
import { refuseTampered, tamperedBanner } from '../paper/prereg-locks';
import type { PaperInputs, PreregistrationView } from '../../shared/paper/preregistration';
import { recordPlan } from './stages';
import type { ServiceOptions } from './service-options';

/** Holds an experiment's run lock while an export reads the store (run-control.ts). */
export interface ExportLock {
  whileLocked<T>(id: number, work: () => Promise<T>): Promise<T>;
}

export class ResultViews {
  constructor(
    private readonly opts: ServiceOptions,
    private readonly catalogue: ExperimentCatalogue,
    private readonly lock: ExportLock,
  ) {}

  private get db(): Database {
    return this.opts.db;
  }

  results(id: number, excludeFlagged = false, verifiedOnly = false) {
    return computeResults(this.db, id, excludeFlagged, verifiedOnly);
  }

  /** Which tables' cells open verdicts: the protocol's declaration (none without one). */
  verdictLinks(id: number): { links: VerdictLink[] } {
    const exp = loadExperiment(this.db, id);
    return { links: [...(exp.protocol.verdicts?.links ?? [])] };
  }

  /** The usable verdicts behind the tables, from the same context the metrics are computed from. */
  verdicts(id: number, excludeFlagged = false, verifiedOnly = false): VerdictList {
    const exp = loadExperiment(this.db, id);
    const hook = exp.protocol.verdicts;
    if (!hook) return { fields: [], rows: [] };
    return hook.rows(metricsContext(this.db, exp, excludeFlagged, undefined, verifiedOnly));
  }

  /** The audit's flagged items, read from the stored variants (no metrics are computed). */
  flagged(id: number): { flagged: FlaggedItem[] } {
    const exp = loadExperiment(this.db, id);
    return { flagged: exp.protocol.flagged?.(exp.view, this.db) ?? [] };
  }

  /** The study bundle (`*.judgelab`), written while no run writes the experiment (like an export). */
  bundle(id: number): Promise<{ fileName: string; mime: string; contentBase64: string }> {
    return this.lock.whileLocked(id, () => exportBundle(this.db, this.opts.dataDir, id));
  }

  /** The preregistration and power plan the Methods files and the manifest state. */
  private paper(id: number): PaperInputs {
    const exp = loadExperiment(this.db, id);
    const inputs = paperInputs(this.db, exp);
    // Files that state a preregistration are not written from a lock changed after locking.
    refuseTampered(exp.row.name, inputs.preregistration.locks, `Export of "${exp.row.name}"`);
    return inputs;
  }

  /** The experiment's locked plans, the one in force and the deviations from it. */
  preregistration(id: number, lang: FigureLanguage = 'en'): PreregistrationView & { markdown: string } {
    const exp = loadExperiment(this.db, id);
    const view = preregistrationView(this.db, exp);
    return {
      ...view,
      markdown: tamperedBanner(view, lang) + preregistrationMarkdown(exp.row.name, view, lang),
    };
  }

  /** Locks a plan (version 1), or supersedes the one in force with a reason; never edits one. */
  preregister(id: number, plan: unknown, reason: string | null): PreregistrationView {
    const exp = loadExperiment(this.db, id);
    this.db.transaction(() => lockPreregistration(this.db, exp, plan, reason))();
    this.opts.emit('experiments.changed', { experimentId: id });
    return preregistrationView(this.db, exp);
  }

  /** The Methods files, computed while no run writes the experiment (like an export). */
  methods(id: number, lang: FigureLanguage = 'en'): Promise<MethodsFiles> {
    return this.lock.whileLocked(id, async () => experimentMethods(this.db, id, lang, this.paper(id)));
  }

  failures(id: number): { rows: FailedCallView[] } {
    return { rows: failedCalls(this.db, id) };
  }

  async export(id: number, outDir?: string, lang: FigureLanguage = 'en') {
    const exp = loadExperiment(this.db, id);
    const dir = outDir ?? join(this.opts.dataDir, 'exports', exp.row.name);
    // Locked while it reads: a restore must not move the store from under the export.
    const r = await this.lock.whileLocked(id, () => exportExperiment(this.db, id, dir, lang, this.paper(id)));
    return { dir: r.outDir, files: r.files, figureFailures: r.figureFailures };
  }

  /**
   * The export folder as one zip, for a browser to download: written to a scratch folder in
   * the data folder (the same writer as Export all), zipped, and the scratch folder removed.
   */
  async exportZip(
    id: number,
    lang: FigureLanguage = 'en',
  ): Promise<{ fileName: string; mime: string; contentBase64: string }> {
    const exp = loadExperiment(this.db, id);
    const scratchRoot = join(this.opts.dataDir, 'exports');
    await mkdir(scratchRoot, { recursive: true });
    const scratch = await mkdtemp(join(scratchRoot, '.zip-'));
    try {
      const r = await this.lock.whileLocked(id, () =>
        exportExperiment(this.db, id, join(scratch, 'out'), lang, this.paper(id)),
      );
      const entries: Record<string, Uint8Array> = {};
      for (const f of r.files) entries[`${exp.row.name}/${f}`] = await readFile(join(r.outDir, f));
      // PNGs and XLSX are compressed already; level 6 keeps CSV/TeX/SVG small without much time.
      const zip = zipSync(entries, { level: 6, mtime: new Date() });
      return file(`${exp.row.name}.zip`, 'application/zip', Buffer.from(zip));
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async exportFile(p: {
    experimentId: number;
    target: { table: string; format: 'csv' | 'xlsx' | 'tex' } | { figure: string; format: 'svg' | 'png' };
    sensitivity?: boolean;
    lang?: FigureLanguage;
  }): Promise<{ fileName: string; mime: string; contentBase64: string }> {
    const exp = loadExperiment(this.db, p.experimentId);
    const { metrics, tables } = this.results(p.experimentId, p.sensitivity ?? false);
    const suffix = p.sensitivity ? '-without-flagged' : '';
    if ('table' in p.target) {
      const wanted = p.target;
      // The results' tables: marked as the page shows them (simulated, confirmatory rows).
      const table = tables.find((t) => t.id === wanted.table);
      if (!table) throw new AppError('not_found', `No table "${wanted.table}"`);
      return tableFile(table, exp.protocol.id, `${table.id}${suffix}.${wanted.format}`, wanted.format);
    }
    const target = p.target;
    const spec = reportFigures(exp, metrics, p.lang).find((f) => f.id === target.figure);
    if (!spec) throw new AppError('not_found', `No figure "${target.figure}"`);
    const svg = renderSvg(spec);
    if (target.format === 'svg')
      return file(`${spec.id}${suffix}.svg`, 'image/svg+xml', Buffer.from(svg, 'utf8'));
    return file(`${spec.id}${suffix}.png`, 'image/png', await svgToPng(svg, spec.width));
  }

  compare(a: CompareSide, b: CompareSide): CompareResult {
    return compareRuns(this.db, a, b);
  }

  /** The comparison's table as CSV, XLSX or LaTeX (the report kit's writers). */
  async compareFile(
    a: CompareSide,
    b: CompareSide,
    format: 'csv' | 'xlsx' | 'tex',
  ): Promise<{ fileName: string; mime: string; contentBase64: string }> {
    const { table, protocol } = this.compare(a, b);
    const stem = `compare-${a.experimentId}${a.judge ? '-a' : ''}-vs-${b.experimentId}${b.judge ? '-b' : ''}`;
    return tableFile(table, protocol, `${stem}.${format}`, format);
  }

  /** A protocol's own view by name, its query checked by the view's schema (errors name the field). */
  protocolView(id: number, name: string, query: Record<string, unknown>): unknown {
    const exp = loadExperiment(this.db, id);
    const view = exp.protocol.views?.custom?.[name];
    if (!view)
      throw new AppError('invalid_params', `The ${exp.protocol.title} protocol offers no "${name}" view`);
    return view.run(this.db, exp.view, checkQuery(view.query, query, 'query'));
  }

  /**
   * A person's edit of a protocol's row, by the edit's name: the protocol stores it and names the
   * tasks whose prompt changed; those are re-planned in the same transaction (the old answers
   * stay in the ledger), and the estimate covers only them.
   */
  protocolEdit(
    id: number,
    name: string,
    fields: Record<string, unknown>,
  ): { row: ProtocolRow; replanned: number; estimate: CostEstimate } {
    const exp = loadExperiment(this.db, id);
    const edit = exp.protocol.views?.edits?.[name];
    if (!edit)
      throw new AppError('invalid_params', `The ${exp.protocol.title} protocol offers no "${name}" edit`);
    const result = this.db.transaction(() => {
      const { tasks, row } = edit.apply(this.db, exp.view, checkQuery(edit.fields, fields, 'edit'));
      const stages = new Map(exp.protocol.stages.map((s) => [s.name, s]));
      const { changed } = recordPlan(this.db, exp, tasks, (t) => stages.get(t.stage)!.group(t));
      return { tasks, changed, row };
    })();
    const estimate = estimateTasks(
      this.db,
      exp,
      result.tasks,
      'Only tasks whose prompt changed are sent again.',
    );
    this.opts.emit('experiments.changed', { experimentId: id });
    return { row: result.row, replanned: result.changed, estimate };
  }

  previewPrompts(raw: unknown, itemId?: number): PromptPreview {
    const exp = this.catalogue.draft(raw);
    const preview = exp.protocol.views?.previewPrompts;
    if (!preview)
      throw new AppError('invalid_params', `The ${exp.protocol.title} protocol offers no prompt preview`);
    return preview(exp.view, itemId);
  }
}

/** A view's parameters checked by the protocol's schema (none: as given); errors name the field. */
function checkQuery(
  schema: z.ZodType<Record<string, unknown>> | undefined,
  query: Record<string, unknown>,
  what: string,
): Record<string, unknown> {
  if (!schema) return query;
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({
    file: what,
    field: i.path.join('.'),
    message: i.message,
  }));
  throw new AppError(
    'invalid_params',
    issues.map((i) => `${i.field || what}: ${i.message}`).join('; '),
    issues,
  );
}

/** One table as a file in one of the report kit's formats. */
async function tableFile(
  table: Table,
  protocol: string,
  fileName: string,
  format: 'csv' | 'xlsx' | 'tex',
): Promise<{ fileName: string; mime: string; contentBase64: string }> {
  if (format === 'csv') return file(fileName, 'text/csv', Buffer.from(tableToCsv(table), 'utf8'));
  if (format === 'tex')
    return file(fileName, 'application/x-tex', Buffer.from(tableToLatex(table, protocol), 'utf8'));
  const buf = Buffer.from(await buildWorkbook([table]).xlsx.writeBuffer());
  return file(fileName, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buf);
}

function file(fileName: string, mime: string, buf: Buffer) {
  return { fileName, mime, contentBase64: buf.toString('base64') };
}
