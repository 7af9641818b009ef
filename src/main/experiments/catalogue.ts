// The experiments catalogue: configs become experiments (validated, dataset resolved),
// listed, shown, estimated and deleted. Protocol-neutral: the protocol is looked up from
// the config.
import type {
  CostEstimate,
  ExperimentDetail,
  ExperimentStatus,
  ExperimentSummary,
} from '../../shared/experiments';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { importDatasetFromPath } from '../datasets/service';
import { AppError } from '../base/errors';
import { getProtocol } from '../protocols/registry';
import { anyRecorded, anySimulated } from '../providers/config';
import { sealRecorded } from './recorded';
import { allItems, getDataset, listDatasets } from '../store/datasets';
import type { Database } from '../store/db';
import {
  deleteExperiment,
  getExperimentByName,
  insertExperiment,
  listExperiments,
  planCounts,
  plannedCount,
  replaceExperimentSetup,
  pruneTasksToItems,
  setExperimentConfig,
  type ExperimentRow,
} from '../store/experiments';
import { parseExperimentConfig, parseStoredConfig, type ExperimentConfig } from './config';
import { estimateExperiment } from './estimate';
import { powerPlan } from '../paper/power-plan';
import { lockFromConfig } from '../paper/preregistration';
import { selectDatasetItems } from './item-selection';
import { configProblemText, loadExperiment, loadFrom, modelsOf, type LoadedExperiment } from './load';
import { keyStatus, missingKeys } from './provider-status';
import type { ServiceOptions } from './service-options';
import { shownStatus } from './unsent';

/** What the catalogue needs to know of live runs. */
export interface LiveRuns {
  statusOf(id: number): ExperimentStatus | undefined;
  isRunning(id: number): boolean;
}

export class ExperimentCatalogue {
  constructor(
    private readonly opts: ServiceOptions,
    private readonly runs: LiveRuns,
  ) {}

  private get db(): Database {
    return this.opts.db;
  }

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

  /** The config with its recorded files read, checked and sealed by hash (others as they are). */
  private sealed(raw: unknown, given: ExperimentConfig): ExperimentConfig {
    const config = (getProtocol(given.protocol).sealConfig?.(given) as ExperimentConfig | undefined) ?? given;
    return anyRecorded(config.providers) ? sealRecorded(this.db, this.draft(raw), config) : config;
  }

  /** What an experiment would be, without storing it (estimates, previews). */
  draft(raw: unknown): LoadedExperiment {
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

  /** Cost, time and (issue 24) the power plan; `effects`: effects typed for the power plan's inverse, by comparison id. */
  estimate(raw: unknown, effects: Readonly<Record<string, number>> = {}): CostEstimate {
    const exp = this.draft(raw);
    // The same name is the same experiment (the CLI resumes it): count what it has stored.
    const existing = getExperimentByName(this.db, exp.config.name);
    const estimate = estimateExperiment(
      this.db,
      exp,
      existing && existing.datasetId === exp.row.datasetId ? existing.id : null,
    );
    const power = powerPlan(this.db, exp, effects);
    return power ? { ...estimate, power } : estimate;
  }

  /**
   * Creates an experiment, or returns the one with that name when its config is the same (resume).
   * One transaction: a config refused by any check (a dataset file imported on the way included)
   * leaves the store as it was.
   */
  create(raw: unknown): ExperimentSummary {
    const { summary, created } = this.db.transaction(() => this.createIn(raw))();
    if (created) this.opts.emit('experiments.changed', { experimentId: summary.id });
    return summary;
  }

  private createIn(raw: unknown, beforeWrite?: (exp: LoadedExperiment) => void) {
    const config = parseExperimentConfig(raw);
    const datasetId = this.resolveDataset(config.dataset);
    // An unknown subset is refused before anything is stored.
    selectDatasetItems(allItems(this.db, datasetId), config);
    const stored = this.sealed(raw, { ...config, dataset: datasetId });
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
      return { summary: this.summary(existing), created: false };
    }
    // Load it as a draft first: the protocol's own checks (options, items, input files) fail
    // before the experiment is stored.
    beforeWrite?.(this.draft(raw));
    const id = insertExperiment(this.db, {
      name: config.name,
      protocol: config.protocol,
      datasetId,
      configJson: JSON.stringify(stored),
    });
    const exp = loadExperiment(this.db, id);
    // A plan in the config is locked with the experiment, before anything can run.
    lockFromConfig(this.db, exp);
    return { summary: this.summary(exp.row), created: true };
  }

  /**
   * The CLI's create: the same name continues that experiment. A changed config (a judge
   * added, more items) replaces the stored one; plans are idempotent, so a run then sends
   * only what is missing.
   */
  createOrUpdate(raw: unknown): ExperimentSummary {
    return this.createOrUpdateChecked(raw);
  }

  /**
   * `judge-lab run`'s create: createOrUpdate, refusing before anything is written (a new
   * experiment, or a changed config) when a provider its models call has no key here. That is
   * exit 3 (calls cannot go out for a provider reason; the same command runs once the key is set),
   * not a config error. An unchanged experiment goes on: what is stored needs no key, and the run
   * pauses a model without one.
   */
  createForRun(raw: unknown): ExperimentSummary {
    return this.createOrUpdateChecked(raw, (exp) => {
      const issues = missingKeys(this.opts.keys, exp.providers, modelsOf(exp));
      if (!issues.length) return;
      const err = new AppError(
        'invalid_input',
        `${issues.map((i) => i.message).join(' ')} Nothing was written; set the key and run the same command again.`,
        issues,
      );
      err.retryable = true;
      throw err;
    });
  }

  private createOrUpdateChecked(raw: unknown, beforeWrite?: (exp: LoadedExperiment) => void) {
    const { summary, created } = this.db.transaction(() => {
      const config = parseExperimentConfig(raw);
      const existing = getExperimentByName(this.db, config.name);
      if (!existing) return this.createIn(raw, beforeWrite);
      return { summary: this.updateIn(raw, config, existing, beforeWrite), created: false };
    })();
    if (created) this.opts.emit('experiments.changed', { experimentId: summary.id });
    return summary;
  }

  private updateIn(
    raw: unknown,
    config: ExperimentConfig,
    existing: ExperimentRow,
    beforeWrite?: (exp: LoadedExperiment) => void,
  ): ExperimentSummary {
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
    selectDatasetItems(allItems(this.db, datasetId), config);
    const stored = this.sealed(raw, { ...config, dataset: datasetId });
    if (!sameConfig(existing.configJson, stored)) {
      // The new config passes every check (the protocol's too) before it replaces the old one.
      const draft = this.draft(raw);
      beforeWrite?.(draft);
      setExperimentConfig(this.db, existing.id, JSON.stringify(stored));
      // Results, exports and bundles describe the experiment as now configured: slots of items
      // it no longer uses (a lower limit) leave the plan; their answers stay in the ledger and
      // serve a later plan that takes those items again.
      pruneTasksToItems(
        this.db,
        existing.id,
        loadExperiment(this.db, existing.id).items.map((i) => i.id),
      );
      // In the same transaction: a changed plan without its amendment undoes the update too.
      const before = (JSON.parse(existing.configJson) as { preregistration?: unknown }).preregistration;
      lockFromConfig(this.db, loadExperiment(this.db, existing.id), before);
    }
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

  /** `find`, as the list shows the experiment (the API's `experiments.find`). */
  findSummary(ref: string): ExperimentSummary {
    return this.summary(this.find(ref));
  }

  list(): ExperimentSummary[] {
    return listExperiments(this.db).map((r) => this.summary(r));
  }

  get(id: number): ExperimentDetail {
    const exp = loadExperiment(this.db, id);
    return { ...this.summary(exp.row), config: exp.config, keys: keyStatus(this.opts.keys, exp.providers) };
  }

  /** The same config under a new name, as a draft: nothing is sent until it is started. */
  duplicate(id: number, name?: string): ExperimentSummary {
    const exp = loadExperiment(this.db, id);
    const taken = new Set(listExperiments(this.db).map((e) => e.name));
    let newName = name;
    if (newName === undefined) {
      newName = `${exp.row.name} copy`;
      for (let n = 2; taken.has(newName); n++) newName = `${exp.row.name} copy ${n}`;
    }
    return this.create({ ...exp.config, name: newName, dataset: exp.row.datasetId });
  }

  /**
   * A new setup for an experiment that has not started (issue 38: a duplicate is changed before
   * it runs): nothing is planned or sent, so nothing stored depends on the old setup, and name,
   * dataset and protocol may change too. Every check of `create` runs first, in one transaction:
   * a refused setup leaves the old one. Once anything is planned the setup stays with its answers
   * (`judge-lab run` with the same name is the way to widen a started one).
   */
  editSetup(id: number, raw: unknown): ExperimentSummary {
    const summary = this.db.transaction(() => {
      const existing = loadExperiment(this.db, id).row;
      if (this.runs.isRunning(id) || existing.status !== 'draft' || plannedCount(this.db, id) > 0)
        throw new AppError(
          'conflict',
          `"${existing.name}" has started, so its setup stays as it ran. Duplicate it to run a changed setup.`,
        );
      const config = parseExperimentConfig(raw);
      const other = getExperimentByName(this.db, config.name);
      if (other && other.id !== id)
        throw new AppError('conflict', `An experiment named "${config.name}" exists; choose another name.`, [
          { file: 'config', field: 'name', message: 'already used by another experiment' },
        ]);
      const datasetId = this.resolveDataset(config.dataset);
      selectDatasetItems(allItems(this.db, datasetId), config);
      const stored = this.sealed(raw, { ...config, dataset: datasetId });
      // The protocol's own checks (options, items, input files) before anything is written.
      this.draft(raw);
      replaceExperimentSetup(this.db, id, {
        name: config.name,
        protocol: config.protocol,
        datasetId,
        configJson: JSON.stringify(stored),
      });
      // A plan locked with the draft is superseded only as the CLI's update does: with an amendment.
      const before = (JSON.parse(existing.configJson) as { preregistration?: unknown }).preregistration;
      lockFromConfig(this.db, loadExperiment(this.db, id), before);
      return this.summary(loadExperiment(this.db, id).row);
    })();
    this.opts.emit('experiments.changed', { experimentId: id });
    return summary;
  }

  /**
   * The config `judge-lab run` accepts as is (same name: it continues this experiment and pays
   * for nothing stored). The dataset is named, since ids mean nothing outside this data folder;
   * a name two datasets share falls back to the file it was imported from.
   */
  cliConfig(id: number): { fileName: string; mime: string; contentBase64: string } {
    const exp = loadExperiment(this.db, id);
    const dataset = getDataset(this.db, exp.row.datasetId);
    if (!dataset) throw new AppError('not_found', `The dataset of "${exp.row.name}" was deleted.`);
    const sameName = listDatasets(this.db).filter((d) => d.name === dataset.name).length;
    let ref = dataset.name;
    if (sameName > 1) {
      if (!isAbsolute(dataset.sourceFile) || !existsSync(dataset.sourceFile))
        throw new AppError(
          'conflict',
          `${sameName} datasets are named "${dataset.name}" and its file ${dataset.sourceFile} is not at hand: the config could not name it.`,
        );
      ref = dataset.sourceFile;
    }
    const config = { ...exp.config, dataset: ref };
    const text = `${JSON.stringify(config, null, 2)}\n`;
    return {
      fileName: `${exp.row.name}.json`,
      mime: 'application/json',
      contentBase64: Buffer.from(text, 'utf8').toString('base64'),
    };
  }

  delete(id: number): { deleted: boolean } {
    if (this.runs.isRunning(id))
      throw new AppError('conflict', 'Cancel the run before deleting the experiment.');
    const deleted = deleteExperiment(this.db, id);
    if (deleted) this.opts.emit('experiments.changed', { experimentId: id });
    return { deleted };
  }

  private summary(row: ExperimentRow): ExperimentSummary {
    const config = JSON.parse(row.configJson) as ExperimentConfig;
    const dataset = getDataset(this.db, row.datasetId);
    // With subsets the pool is smaller than the dataset: count it (only then, it reads the items).
    const pool = config.subsets?.length
      ? selectDatasetItems(allItems(this.db, row.datasetId), { subsets: config.subsets }).length
      : (dataset?.itemCount ?? 0);
    const itemCount = Math.min(pool, config.limit ?? Infinity);
    const counts = planCounts(this.db, row.id);
    return {
      id: row.id,
      name: row.name,
      protocol: row.protocol,
      datasetId: row.datasetId,
      datasetName: dataset?.name ?? '(deleted)',
      status:
        this.runs.statusOf(row.id) ?? shownStatus(row.status, counts.planned - counts.done - counts.failed),
      judges: judgeLabels(row.protocol, config),
      itemCount,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      counts,
      simulated: anySimulated(config.providers),
      configProblem: this.configProblem(row),
    };
  }

  /** Why a stored config may not run (a rule added since refuses a field), or nothing. */
  private configProblem(row: ExperimentRow): string | undefined {
    try {
      return configProblemText(
        parseStoredConfig(JSON.parse(row.configJson), `experiment "${row.name}"`).problems,
      );
    } catch (err) {
      // Beyond what a stored config may break: the list still shows the experiment, with why.
      return err instanceof Error ? err.message : String(err);
    }
  }
}

function sameConfig(storedJson: string, config: ExperimentConfig): boolean {
  return storedJson === JSON.stringify(config);
}

/** The judges' labels; none for a stored config too broken to read (the list still shows it). */
function judgeLabels(protocol: string, config: ExperimentConfig): string[] {
  try {
    return getProtocol(protocol)
      .models(config)
      .filter((m) => m.role === 'judge')
      .map((m) => m.label);
  } catch {
    return [];
  }
}
