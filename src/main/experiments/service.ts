// The experiments part of the core API: create, estimate, run control, results, exports.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiEvents } from '../../shared/api';
import type {
  CostEstimate,
  ExperimentDetail,
  ExperimentProgress,
  ExperimentSummary,
  FailedCallView,
  JudgmentView,
  PromptPreview,
  VariantView,
} from '../../shared/experiments';
import type { FlaggedItem } from '../../shared/protocols/judge-ls/types';
import { AppError } from '../core/errors';
import { RunLocks } from '../core/run-locks';
import { importDatasetFromPath } from '../core/datasets-service';
import { tableToCsv } from '../report/csv';
import { renderSvg, svgToPng } from '../report/figures';
import { tableToLatex } from '../report/latex';
import { buildWorkbook } from '../report/xlsx';
import {
  applyVariantEdit,
  flaggedOf,
  judgmentViews,
  promptPreview,
  variantViews,
  type JudgmentFilter,
} from '../protocols/judge-ls/views';
import { isLoopbackURL, providerConfigSchema, type KeyStore } from '../providers/config';
import { testConnection } from '../providers/test-connection';
import { getDataset, listDatasets } from '../store/datasets';
import type { Database } from '../store/db';
import {
  deleteExperiment,
  getExperiment,
  getExperimentByName,
  insertExperiment,
  listExperiments,
  markInterruptedRuns,
  planCounts,
  setExperimentConfig,
  setExperimentStatus,
  tasksOf,
  type ExperimentRow,
} from '../store/experiments';
import { getRequests, recoverInFlight, resetFailed } from '../store/ledger';
import { parseExperimentConfig, type ExperimentConfig } from './config';
import { estimateExperiment, estimateTasks } from './estimate';
import { endpointIds, loadExperiment, loadFrom, modelsOf, type LoadedExperiment } from './load';
import { computeResults, exportExperiment, failedCalls } from './results';
import { ExperimentRun, idleProgress, type RunnerDeps } from './runner';
import { recordPlan } from './stages';
import { getProtocol } from '../protocols';

type Emit = <E extends keyof ApiEvents>(event: E, payload: ApiEvents[E]) => void;

export interface ExperimentServiceOptions {
  db: Database;
  dataDir: string;
  keys: KeyStore;
  emit: Emit;
  engine?: RunnerDeps['engine'];
}

export class ExperimentService {
  private readonly runs = new Map<number, ExperimentRun>();
  /** The endpoint+models each live run sends to. */
  private readonly models = new Map<number, Set<string>>();
  private readonly locks: RunLocks;

  constructor(private readonly opts: ExperimentServiceOptions) {
    this.locks = new RunLocks(opts.dataDir);
    // A crash or quit left calls "in flight": they were never answered (or the answer was
    // lost with the process), so they go back to pending and their runs show as paused.
    // Calls another live process is sending keep their lease (store/leases.ts).
    const busy = this.locks.heldElsewhere();
    recoverInFlight(opts.db);
    markInterruptedRuns(opts.db, busy);
  }

  private get db(): Database {
    return this.opts.db;
  }

  // ---- config -> experiment ---------------------------------------------------------

  /** A dataset given as an id, a file path (imported once, by content) or a dataset name. */
  resolveDataset(dataset: string | number): number {
    if (typeof dataset === 'number') {
      if (!getDataset(this.db, dataset))
        throw new AppError('invalid_input', `dataset: no dataset with id ${dataset}`);
      return dataset;
    }
    if (existsSync(dataset)) return importDatasetFromPath(this.db, dataset).dataset.id;
    const byName = listDatasets(this.db).filter((d) => d.name === dataset);
    if (byName.length === 1) return byName[0].id;
    throw new AppError(
      'invalid_input',
      byName.length
        ? `dataset: ${byName.length} datasets are named "${dataset}"; give its id`
        : `dataset: "${dataset}" is neither a file nor an imported dataset`,
      [{ file: 'config', field: 'dataset', message: 'not found' }],
    );
  }

  /** What an experiment would be, without storing it (estimates, previews). */
  private draft(raw: unknown): LoadedExperiment {
    const config = parseExperimentConfig(raw);
    const datasetId = this.resolveDataset(config.dataset);
    const row: ExperimentRow = {
      id: 0,
      name: config.name,
      protocol: config.protocol,
      datasetId,
      configJson: JSON.stringify(config),
      status: 'draft',
      createdAt: '',
      updatedAt: '',
    };
    return loadFrom(this.db, row, config);
  }

  estimate(raw: unknown): CostEstimate {
    const exp = this.draft(raw);
    // The same name is the same experiment (the CLI resumes it): count what it has stored.
    const existing = getExperimentByName(this.db, exp.config.name);
    return estimateExperiment(
      this.db,
      exp,
      existing && existing.datasetId === exp.row.datasetId ? existing.id : null,
    );
  }

  /** Creates an experiment, or returns the one with that name when its config is the same (resume). */
  create(raw: unknown): ExperimentSummary {
    const config = parseExperimentConfig(raw);
    const datasetId = this.resolveDataset(config.dataset);
    const stored: ExperimentConfig = { ...config, dataset: datasetId };
    const existing = getExperimentByName(this.db, config.name);
    if (existing) {
      if (existing.datasetId !== datasetId || !sameConfig(existing.configJson, stored)) {
        throw new AppError(
          'conflict',
          `An experiment named "${config.name}" exists with a different config; choose another name.`,
          [
            {
              file: 'config',
              field: 'name',
              message: 'already used by an experiment with a different config',
            },
          ],
        );
      }
      return this.summary(existing);
    }
    // Load it as a draft first: the protocol's own checks (options, items, input files) fail
    // before anything is stored, so a refused config leaves the store unchanged.
    this.draft(raw);
    const id = insertExperiment(this.db, {
      name: config.name,
      protocol: config.protocol,
      datasetId,
      configJson: JSON.stringify(stored),
    });
    this.opts.emit('experiments.changed', { experimentId: id });
    return this.summary(loadExperiment(this.db, id).row);
  }

  /**
   * The CLI's create: the same name continues that experiment. A changed config (a judge
   * added, more items) replaces the stored one; plans are idempotent, so a run then sends
   * only what is missing.
   */
  createOrUpdate(raw: unknown): ExperimentSummary {
    const config = parseExperimentConfig(raw);
    const existing = getExperimentByName(this.db, config.name);
    if (!existing) return this.create(raw);
    const datasetId = this.resolveDataset(config.dataset);
    if (existing.datasetId !== datasetId) {
      throw new AppError(
        'conflict',
        `Experiment "${config.name}" was run on another dataset; choose another name.`,
        [
          {
            file: 'config',
            field: 'dataset',
            message: 'differs from the dataset this experiment was run on',
          },
        ],
      );
    }
    const stored: ExperimentConfig = { ...config, dataset: datasetId };
    if (!sameConfig(existing.configJson, stored))
      setExperimentConfig(this.db, existing.id, JSON.stringify(stored));
    return this.summary(loadExperiment(this.db, existing.id).row);
  }

  /** An experiment by id or name (CLI). */
  find(ref: string): ExperimentRow {
    const byName = getExperimentByName(this.db, ref);
    if (byName) return byName;
    const id = Number(ref);
    if (Number.isInteger(id) && id > 0) return loadExperiment(this.db, id).row;
    throw new AppError('not_found', `No experiment named "${ref}" (see judge-lab list)`);
  }

  list(): ExperimentSummary[] {
    return listExperiments(this.db).map((r) => this.summary(r));
  }

  get(id: number): ExperimentDetail {
    const exp = loadExperiment(this.db, id);
    return { ...this.summary(exp.row), config: exp.config, keys: this.keyStatus(exp.providers) };
  }

  delete(id: number): { deleted: boolean } {
    if (this.runs.has(id)) throw new AppError('conflict', 'Cancel the run before deleting the experiment.');
    const deleted = deleteExperiment(this.db, id);
    if (deleted) this.opts.emit('experiments.changed', { experimentId: id });
    return { deleted };
  }

  private summary(row: ExperimentRow): ExperimentSummary {
    const config = JSON.parse(row.configJson) as ExperimentConfig;
    const dataset = getDataset(this.db, row.datasetId);
    const itemCount = Math.min(dataset?.itemCount ?? 0, config.limit ?? Infinity);
    return {
      id: row.id,
      name: row.name,
      protocol: row.protocol,
      datasetId: row.datasetId,
      datasetName: dataset?.name ?? '(deleted)',
      status: this.runs.get(row.id)?.snapshot().status ?? row.status,
      judges: getProtocol(row.protocol)
        .models(config)
        .filter((m) => m.role === 'judge')
        .map((m) => m.label),
      itemCount,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      counts: planCounts(this.db, row.id),
    };
  }

  // ---- run control ------------------------------------------------------------------

  start(id: number): ExperimentProgress {
    const current = this.runs.get(id);
    if (current) return current.snapshot();
    const exp = loadExperiment(this.db, id);
    this.locks.acquire(id);
    // Runs that share an endpoint and model share its rate limit: one waits for the other
    // rather than both sending at the full limit and meeting a wall of 429s.
    const models = laneModelsOf(exp);
    const blockers = [...this.runs.entries()].filter(([other]) =>
      [...(this.models.get(other) ?? [])].some((m) => models.has(m)),
    );
    const run = new ExperimentRun(
      {
        db: this.db,
        keys: this.opts.keys,
        engine: this.opts.engine,
        onProgress: (p) => this.opts.emit('run.progress', p),
      },
      id,
    );
    this.runs.set(id, run);
    this.models.set(id, models);
    void run.done.then(() => {
      this.runs.delete(id);
      this.models.delete(id);
      this.locks.release(id);
      this.opts.emit('experiments.changed', { experimentId: id });
    });
    const names = blockers.map(([other]) => `"${getExperiment(this.db, other)?.name ?? other}"`).join(', ');
    run.start(
      blockers.length
        ? {
            until: Promise.all(blockers.map(([, r]) => r.done)),
            message: `Waiting for ${names} to finish: it uses the same model and rate limit.`,
          }
        : undefined,
    );
    return run.snapshot();
  }

  /** Runs the experiment to its end (the CLI's `run`). */
  async runToEnd(id: number): Promise<ExperimentProgress> {
    this.start(id);
    return this.runs.get(id)?.done ?? this.progress(id);
  }

  pause(id: number): ExperimentProgress {
    const run = this.runs.get(id);
    if (!run) return this.progress(id);
    run.pause();
    return run.snapshot();
  }

  resume(id: number): ExperimentProgress {
    const run = this.runs.get(id);
    if (run) {
      run.resume();
      return run.snapshot();
    }
    // After a restart there is no live run: resuming starts one, which only sends what is missing.
    return this.start(id);
  }

  async cancel(id: number): Promise<ExperimentProgress> {
    const run = this.runs.get(id);
    if (!run) return this.progress(id);
    await run.cancel();
    return run.done;
  }

  retryFailed(id: number): ExperimentProgress {
    if (this.runs.has(id))
      throw new AppError('conflict', 'The run is still going; retry failed calls when it ends.');
    // Take the experiment first: another process running it keeps its failed calls.
    this.locks.acquire(id);
    const ids = tasksOf(this.db, id).map((t) => t.requestId);
    resetFailed(this.db, ids);
    return this.start(id);
  }

  /** Live progress, or the state stored in the ledger when nothing runs. */
  progress(id: number): ExperimentProgress {
    const run = this.runs.get(id);
    if (run) return run.snapshot();
    const exp = loadExperiment(this.db, id);
    const p = idleProgress(id, exp.row.status);
    // Judges in config order, as the wizard and the dashboard list them.
    for (const m of modelsOf(exp)) if (m.role === 'judge') p.judges[m.label] = emptyCounts();
    const stages = new Map(exp.protocol.stages.map((s) => [s.name, s]));
    const tasks = tasksOf(this.db, id);
    const rows = getRequests(
      this.db,
      tasks.map((t) => t.requestId),
    );
    const counted = new Set<number>();
    for (const t of tasks) {
      const row = rows.get(t.requestId);
      const status = row?.status ?? 'pending';
      const stage = stages.get(t.stage);
      const target = [(p.phases[t.stage] ??= emptyCounts())];
      const who = stage?.describe(t);
      if (who?.role === 'judge') target.push((p.judges[who.label] ??= emptyCounts()));
      for (const g of target) {
        g.total++;
        if (status === 'done') g.done++;
        else if (status === 'failed') g.failed++;
        else g.pending++;
      }
      // Spend and tokens as stored in the ledger, each request once.
      if (!row || counted.has(row.id)) continue;
      counted.add(row.id);
      p.tokens.input += row.inputTokens ?? 0;
      p.tokens.output += row.outputTokens ?? 0;
      p.tokens.cached += row.cachedTokens ?? 0;
      p.costUsd += row.costUsd ?? 0;
      if (status === 'failed') {
        const kind = (row.failureReason ?? 'failed').split(':')[0];
        p.failuresByReason[kind] = (p.failuresByReason[kind] ?? 0) + 1;
      }
    }
    p.phase = [...exp.protocol.stages].reverse().find((s) => p.phases[s.name])?.name ?? null;
    return p;
  }

  /**
   * Stops a run because the app or the CLI is going away (quit, Ctrl+C): calls on the wire
   * settle and are recorded, and the experiment shows as paused, to be resumed later.
   */
  async interrupt(id: number): Promise<ExperimentProgress> {
    const run = this.runs.get(id);
    if (!run) return this.progress(id);
    await run.cancel();
    await run.done;
    setExperimentStatus(this.db, id, 'paused');
    const p = { ...run.snapshot(), status: 'paused' as const, message: 'Interrupted; resume to continue.' };
    this.opts.emit('run.progress', p);
    return p;
  }

  /** Interrupts every live run (quitting). */
  async shutdown(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((id) => this.interrupt(id)));
  }

  // ---- results ----------------------------------------------------------------------

  results(id: number, excludeFlagged = false) {
    return computeResults(this.db, id, excludeFlagged);
  }

  variants(id: number, flaggedOnly = false): VariantView[] {
    return variantViews(this.db, loadExperiment(this.db, id), flaggedOnly);
  }

  editVariant(p: {
    experimentId: number;
    itemId: number;
    language: 'ZH' | 'LS';
    instruction: string;
    output1: string;
    output2: string;
  }) {
    const exp = loadExperiment(this.db, p.experimentId);
    const result = this.db.transaction(() => {
      const judgeTasks = applyVariantEdit(this.db, exp, p);
      const judge = exp.protocol.stages.find((s) => s.name === 'judge')!;
      const { changed } = recordPlan(this.db, exp, judgeTasks, (t) => judge.group(t));
      return { judgeTasks, changed };
    })();
    const variant = this.variants(p.experimentId).find(
      (v) => v.itemId === p.itemId && v.language === p.language,
    )!;
    const estimate = estimateTasks(
      this.db,
      exp,
      result.judgeTasks,
      'Only judgments whose prompt changed are sent again.',
    );
    this.opts.emit('experiments.changed', { experimentId: p.experimentId });
    return { variant, replanned: result.changed, estimate };
  }

  judgments(p: { experimentId: number } & JudgmentFilter): JudgmentView[] {
    return judgmentViews(this.db, loadExperiment(this.db, p.experimentId), p);
  }

  /** The audit's flagged items, read from the stored variants (no metrics are computed). */
  flagged(id: number): { flagged: FlaggedItem[] } {
    return { flagged: flaggedOf(this.db, loadExperiment(this.db, id)) };
  }

  failures(id: number): { rows: FailedCallView[] } {
    return { rows: failedCalls(this.db, id) };
  }

  async export(id: number, outDir?: string) {
    const exp = loadExperiment(this.db, id);
    const dir = outDir ?? join(this.opts.dataDir, 'exports', exp.row.name);
    const r = await exportExperiment(this.db, id, dir);
    return { dir: r.outDir, files: r.files };
  }

  async exportFile(p: {
    experimentId: number;
    target: { table: string; format: 'csv' | 'xlsx' | 'tex' } | { figure: string; format: 'svg' | 'png' };
    sensitivity?: boolean;
  }): Promise<{ fileName: string; mime: string; contentBase64: string }> {
    const exp = loadExperiment(this.db, p.experimentId);
    const { metrics } = this.results(p.experimentId, p.sensitivity ?? false);
    const suffix = p.sensitivity ? '-without-flagged' : '';
    if ('table' in p.target) {
      const wanted = p.target;
      const table = exp.protocol.tables(metrics).find((t) => t.id === wanted.table);
      if (!table) throw new AppError('not_found', `No table "${wanted.table}"`);
      const fileName = `${table.id}${suffix}.${wanted.format}`;
      if (wanted.format === 'csv') return file(fileName, 'text/csv', Buffer.from(tableToCsv(table), 'utf8'));
      if (wanted.format === 'tex')
        return file(fileName, 'application/x-tex', Buffer.from(tableToLatex(table), 'utf8'));
      const buf = Buffer.from(await buildWorkbook([table]).xlsx.writeBuffer());
      return file(fileName, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buf);
    }
    const target = p.target;
    const spec = exp.protocol.figures(metrics).find((f) => f.id === target.figure);
    if (!spec) throw new AppError('not_found', `No figure "${target.figure}"`);
    const svg = renderSvg(spec);
    if (target.format === 'svg')
      return file(`${spec.id}${suffix}.svg`, 'image/svg+xml', Buffer.from(svg, 'utf8'));
    return file(`${spec.id}${suffix}.png`, 'image/png', await svgToPng(svg, spec.width));
  }

  previewPrompts(raw: unknown, itemId?: number): PromptPreview {
    return promptPreview(this.draft(raw), itemId);
  }

  // ---- providers --------------------------------------------------------------------

  keyStatus(providers: Record<string, unknown>): Record<string, 'set' | 'missing' | 'not_needed'> {
    const out: Record<string, 'set' | 'missing' | 'not_needed'> = {};
    for (const [name, raw] of Object.entries(providers)) {
      const cfg = providerConfigSchema.parse(raw);
      if (!cfg.apiKeyEnv && cfg.baseURL && isLoopbackURL(cfg.baseURL)) out[name] = 'not_needed';
      else out[name] = this.opts.keys.get(name, cfg) ? 'set' : 'missing';
    }
    return out;
  }

  async testConnection(name: string, raw: unknown, model?: string) {
    const parsed = providerConfigSchema.safeParse(raw);
    if (!parsed.success) {
      throw new AppError(
        'invalid_params',
        `Provider "${name}": ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    const key = this.opts.keys.get(name, parsed.data);
    if (!key) {
      return {
        ok: false,
        kind: 'auth',
        message: `No API key for "${name}": set ${parsed.data.apiKeyEnv ?? 'its key'} first.`,
      };
    }
    const r = await testConnection(parsed.data, key, model);
    return r.ok ? { ok: true, message: r.detail } : { ok: false, kind: r.kind, message: r.message };
  }
}

/** Endpoint and model of the transformer and every judge: what shares a rate limit. */
function laneModelsOf(exp: LoadedExperiment): Set<string> {
  const endpoints = endpointIds(exp.providers);
  return new Set(modelsOf(exp).map((e) => `${endpoints.get(e.provider)}\u0000${e.model}`));
}

function emptyCounts() {
  return { total: 0, done: 0, failed: 0, cacheHits: 0, inFlight: 0, pending: 0 };
}

function file(fileName: string, mime: string, buf: Buffer) {
  return { fileName, mime, contentBase64: buf.toString('base64') };
}

function sameConfig(storedJson: string, config: ExperimentConfig): boolean {
  return storedJson === JSON.stringify(config);
}
