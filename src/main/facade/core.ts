import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import {
  EVENT_NAMES,
  type ApiEvents,
  type EventName,
  type HandlersOf,
  type MethodName,
  type ResultOf,
} from '../../shared/api';
import { API_METHODS, type coreMethods } from '../../shared/api/methods';
import type { AppInfo } from '../../shared/domain';
import {
  deleteDataset,
  getDataset,
  getItem,
  listDatasets,
  listItems,
  renameDataset,
} from '../store/datasets';
import { DB_FILE_NAME, NewerStoreError, openDatabase, type Database } from '../store/db';
import { getExperiment } from '../store/experiments';
import { importDataset, importDatasetFromPath } from '../datasets/service';
import { AppError } from '../base/errors';
import { FORBIDDEN_KEY_MESSAGE, forbiddenKeyAt } from '../base/input-limits';
import { SAMPLES, samplePath } from '../datasets/samples';
import { APP_VERSION } from '../base/version';
import { ExperimentService, type ExperimentServiceOptions } from '../experiments/service';
import { exportAnswers, recordedTemplate } from '../experiments/recorded';
import { exportBatchFile, importBatchFile } from '../experiments/batch-files';
import { loadExperiment } from '../experiments/load';
import {
  EnvOnlyKeyStore,
  OwnerOnlyFileKeyStore,
  SERVE_KEYS_FILE,
  scopedKeyStore,
  type ManagedKeyStore,
} from '../providers/key-store';
import { checkPageDoorCall } from './page-door-checks';
// The composition root of main: the one generic module that imports the registering index, so
// every door's core has the built-in protocols (eslint.config.mjs refuses it elsewhere).
import { getProtocol } from '../protocols';
import { priceFor } from '../providers/pricing';
import { AnnotationService } from '../annotation/service';
import { annotationHandlers } from '../annotation/handlers';
import { reportCardHandlers } from '../report-card/handlers';
import { verifyBundleBytes } from '../paper/bundle';
import { BundleSessions } from '../paper/bundle-session';

// The date the comment above DEFAULT_PRICES in providers/pricing.ts names ("as known on ...");
// keep the two in step when the table is updated.
const SHIPPED_PRICES_AS_OF = '2025-11-30';

export interface CoreOptions {
  dataDir: string;
  door: AppInfo['door'];
  /** Where API keys come from (default: the environment variables named in the config). */
  keys?: ManagedKeyStore;
  /** Engine tuning for tests and benchmarks. */
  engine?: ExperimentServiceOptions['engine'];
  /** Open the store read-only (nothing is written; calls that write fail). */
  readOnly?: boolean;
  /** Open read-only, instead of refusing, a store a newer release made (commands that only read). */
  readOnlyIfNewer?: boolean;
  /** SQLite's page cache of the store's connection, KiB (store/db.ts `pageCacheKiB`). */
  pageCacheKiB?: number;
}

/**
 * The one implementation of the API. Doors call `call(method, rawParams)`; the core
 * validates, runs and emits events. It never imports electron.
 */
export class Core {
  readonly db: Database;
  readonly dataDir: string;
  private readonly events = new EventEmitter();
  private readonly handlers: HandlersOf<MethodName>;
  readonly experiments: ExperimentService;
  readonly annotation: AnnotationService;
  private readonly keys: ManagedKeyStore;
  /** The study bundle opened in the app, its replay kept for its pages (never the user's store). */
  private readonly bundles: BundleSessions;

  /** Why the store is open read-only, for the person; null when it is writable. */
  readonly readOnlyNote: string | null = null;

  constructor(private readonly opts: CoreOptions) {
    this.dataDir = opts.dataDir;
    const file = join(opts.dataDir, DB_FILE_NAME);
    if (opts.readOnly) {
      this.db = openDatabase(file, { readOnly: true });
      this.readOnlyNote = `The data store ${file} is open read-only (--read-only): nothing is written.`;
    } else {
      try {
        this.db = openDatabase(file, { pageCacheKiB: opts.pageCacheKiB });
      } catch (err) {
        if (!(err instanceof NewerStoreError) || !opts.readOnlyIfNewer) throw err;
        this.db = openDatabase(file, { readOnly: true });
        this.readOnlyNote = `The data store ${file} ${err.madeBy}: opened read-only, nothing is written.`;
      }
    }
    this.events.setMaxListeners(100);
    // `serve` keeps keys entered on its page in the data folder (key-store.ts); the CLI runs the
    // user's own config files with the environment's keys only.
    const keys =
      opts.keys ??
      (opts.door === 'web'
        ? new OwnerOnlyFileKeyStore(join(opts.dataDir, SERVE_KEYS_FILE))
        : new EnvOnlyKeyStore());
    // The command line runs the user's own config files; a page's calls may come from anyone
    // holding the web token, or from a page compromised by hostile text.
    this.keys = opts.door === 'cli' ? keys : scopedKeyStore(keys);
    this.experiments = new ExperimentService({
      db: this.db,
      dataDir: opts.dataDir,
      keys: this.keys,
      emit: (event, payload) => this.emit(event, payload),
      engine: opts.engine,
    });
    this.annotation = new AnnotationService(this.db);
    this.bundles = new BundleSessions(opts.dataDir);
    this.handlers = this.buildHandlers();
    // The app and the web door pick up provider batches left open when they last quit; a CLI
    // run resumes its own when it is run again.
    if (opts.door !== 'cli') this.experiments.runs.resumeOpenBatches();
  }

  /** Validates raw (untrusted) parameters, then runs the method. */
  async call<M extends MethodName>(method: M, rawParams: unknown): Promise<ResultOf<M>> {
    if (!Object.hasOwn(this.handlers, method))
      throw new AppError('invalid_params', `Unknown method "${method}"`);
    // Before the schema, whose copies drop an own "__proto__" without a word (a plan's key would
    // vanish from its lock): every door's parameters, as every file read, refuse these keys.
    const forbidden = forbiddenKeyAt(rawParams);
    if (forbidden) {
      const field = forbidden.reduce<string>(
        (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p),
        '',
      );
      throw new AppError('invalid_input', `${field}: ${FORBIDDEN_KEY_MESSAGE}`, [
        { file: method, field, message: FORBIDDEN_KEY_MESSAGE },
      ]).because('input.forbiddenKey', { field });
    }
    const parsed = API_METHODS[method].params.safeParse(rawParams ?? undefined);
    if (!parsed.success) {
      const detail = parsed.error.issues
        .map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`)
        .join('; ');
      throw new AppError('invalid_params', `Invalid parameters for ${method}: ${detail}`);
    }
    if (this.opts.door !== 'cli') {
      checkPageDoorCall(method, parsed.data, {
        dataDir: this.dataDir,
        keys: this.keys,
        storedProviders: (id) => storedProviders(this.db, id),
      });
    }
    const handler = this.handlers[method] as (p: unknown) => ResultOf<M> | Promise<ResultOf<M>>;
    return handler(parsed.data);
  }

  on<E extends EventName>(event: E, listener: (payload: ApiEvents[E]) => void): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
  }

  /** Every event, for doors that forward all of them (IPC, WebSocket). */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void {
    const offs = EVENT_NAMES.map((n) => this.on(n, (p) => listener(n, p)));
    return () => offs.forEach((off) => off());
  }

  emit<E extends EventName>(event: E, payload: ApiEvents[E]): void {
    this.events.emit(event, payload);
  }

  /** Import straight from a path: `datasets.importFile` (the command line), the samples and tests. */
  importFile(path: string, name?: string, columns?: Record<string, string>) {
    const result = importDatasetFromPath(this.db, path, name, columns);
    if (!result.duplicate) this.emit('datasets.changed', { datasetId: result.dataset.id });
    return result;
  }

  /** Stops live runs (their in-flight calls settle and are recorded), then closes the store. */
  async shutdown(): Promise<void> {
    await this.bundles.close();
    await this.experiments.shutdown();
    this.close();
  }

  close(): void {
    // A bundle still open has its replay closed and its scratch folder removed, in the background.
    void this.bundles.close().catch(() => undefined);
    this.events.removeAllListeners();
    if (this.db.open) this.db.close();
    // Locks kept for the whole command (keepLocked) go once the store is closed.
    this.experiments.runs.releaseKept();
  }

  private buildHandlers(): HandlersOf<MethodName> {
    return {
      ...this.coreHandlers(),
      ...annotationHandlers(this.db, this.annotation),
      ...reportCardHandlers(this.db, this.dataDir, this.annotation),
    };
  }

  private coreHandlers(): HandlersOf<keyof typeof coreMethods> {
    const db = this.db;
    const ex = this.experiments;
    return {
      'app.info': () => ({
        version: APP_VERSION,
        dataDir: this.dataDir,
        door: this.opts.door,
        samples: SAMPLES.map((s) => ({ id: s.id, name: s.name, itemCount: s.itemCount, kind: s.kind })),
      }),
      'datasets.list': () => listDatasets(db),
      'datasets.import': ({ fileName, contentBase64, name, columns }) => {
        const bytes = Buffer.from(contentBase64, 'base64');
        const result = importDataset(db, { fileName, bytes, name, columns });
        if (!result.duplicate) this.emit('datasets.changed', { datasetId: result.dataset.id });
        return result;
      },
      'datasets.importFile': ({ path, name, columns }) => this.importFile(path, name, columns),
      'datasets.loadSample': ({ sampleId }) => {
        const sample = SAMPLES.find((s) => s.id === sampleId);
        if (!sample) throw new AppError('not_found', `No bundled sample "${sampleId}"`);
        return this.importFile(samplePath(sample), `${sample.name} (sample)`);
      },
      'datasets.rename': ({ datasetId, name }) => {
        const next = name.trim();
        if (!next) throw new AppError('invalid_params', 'name: a dataset needs a name.');
        if (next.length > 200) throw new AppError('invalid_params', 'name: at most 200 characters.');
        // Configs may name a dataset: two with one name would make such a config ambiguous.
        const clash = listDatasets(db).find((d) => d.id !== datasetId && d.name === next);
        if (clash)
          throw new AppError('conflict', `name: another dataset is called "${next}"; pick another name.`);
        if (!renameDataset(db, datasetId, next)) throw new AppError('not_found', `No dataset ${datasetId}`);
        this.emit('datasets.changed', { datasetId });
        return getDataset(db, datasetId)!;
      },
      'datasets.delete': ({ datasetId }) => {
        const users = ex.catalogue.list().filter((e) => e.datasetId === datasetId);
        if (users.length) {
          throw new AppError(
            'conflict',
            `This dataset is used by ${users.length === 1 ? 'the experiment' : 'the experiments'} ${users
              .map((e) => `"${e.name}"`)
              .join(', ')}; delete ${users.length === 1 ? 'it' : 'them'} first.`,
          );
        }
        const deleted = deleteDataset(db, datasetId);
        if (deleted) this.emit('datasets.changed', { datasetId });
        return { deleted };
      },
      'items.list': ({ datasetId, subset, search }) => listItems(db, datasetId, { subset, search }),
      'items.get': ({ itemId }) => {
        const item = getItem(db, itemId);
        if (!item) throw new AppError('not_found', `No item with id ${itemId}`);
        return item;
      },
      'experiments.estimate': ({ config, effects }) => ex.catalogue.estimate(config, effects),
      'experiments.create': ({ config }) => ex.catalogue.create(config),
      'experiments.createForRun': ({ config }) => {
        const summary = ex.catalogue.createForRun(config);
        // Held until the store is closed (the run's export included): a restore waits for all of it.
        ex.runs.keepLocked(summary.id);
        return summary;
      },
      'experiments.find': ({ ref }) => ex.catalogue.findSummary(ref),
      'experiments.list': () => ex.catalogue.list(),
      'experiments.get': ({ experimentId }) => ex.catalogue.get(experimentId),
      'experiments.duplicate': ({ experimentId, name }) => ex.catalogue.duplicate(experimentId, name),
      'experiments.editSetup': ({ experimentId, config }) => ex.catalogue.editSetup(experimentId, config),
      'experiments.cliConfig': ({ experimentId }) => ex.catalogue.cliConfig(experimentId),
      'experiments.delete': ({ experimentId }) => ex.catalogue.delete(experimentId),
      'experiments.start': ({ experimentId }) => ex.runs.start(experimentId),
      'experiments.pause': ({ experimentId }) => ex.runs.pause(experimentId),
      'experiments.resume': ({ experimentId }) => ex.runs.resume(experimentId),
      'experiments.cancel': ({ experimentId }) => ex.runs.cancel(experimentId),
      'experiments.resumeJudge': ({ experimentId, judge }) => ex.runs.resumeJudge(experimentId, judge),
      'experiments.retryFailed': ({ experimentId }) => ex.runs.retryFailed(experimentId),
      'experiments.runToEnd': ({ experimentId, resumeJudges }) =>
        ex.runs.runToEnd(experimentId, resumeJudges),
      'experiments.interrupt': ({ experimentId }) => ex.runs.interrupt(experimentId),
      'experiments.progress': ({ experimentId }) => ex.runs.progress(experimentId),
      'experiments.results': ({ experimentId, excludeFlagged, verifiedOnly }) =>
        ex.views.results(experimentId, excludeFlagged, verifiedOnly),
      'experiments.verdictLinks': ({ experimentId }) => ex.views.verdictLinks(experimentId),
      'experiments.verdicts': ({ experimentId, excludeFlagged, verifiedOnly }) =>
        ex.views.verdicts(experimentId, excludeFlagged ?? false, verifiedOnly ?? false),
      'experiments.flagged': ({ experimentId }) => ex.views.flagged(experimentId),
      'experiments.failures': ({ experimentId }) => ex.views.failures(experimentId),
      'experiments.export': ({ experimentId, outDir, lang }) => ex.views.export(experimentId, outDir, lang),
      'experiments.previewPrompts': ({ config, itemId }) => ex.views.previewPrompts(config, itemId),
      'experiments.protocolView': ({ experimentId, view, query }) =>
        ex.views.protocolView(experimentId, view, query ?? {}),
      'experiments.protocolEdit': ({ experimentId, edit, fields }) =>
        ex.views.protocolEdit(experimentId, edit, fields),
      'experiments.exportFile': (p) => ex.views.exportFile(p),
      'experiments.exportZip': ({ experimentId, lang }) => ex.views.exportZip(experimentId, lang),
      'experiments.methods': ({ experimentId, lang }) => ex.views.methods(experimentId, lang),
      'experiments.preregistration': ({ experimentId, lang }) => ex.views.preregistration(experimentId, lang),
      'experiments.preregister': ({ experimentId, plan, reason }) =>
        ex.views.preregister(experimentId, plan, reason ?? null),
      'experiments.exportBundle': ({ experimentId }) => ex.views.bundle(experimentId),
      'bundles.verify': ({ fileName, contentBase64 }) =>
        verifyBundleBytes(this.dataDir, fileName, Buffer.from(contentBase64, 'base64')),
      'bundles.open': ({ fileName, contentBase64 }) =>
        this.bundles.open(fileName, Buffer.from(contentBase64, 'base64')),
      'bundles.read': ({ session, method, params }) => this.bundles.read(session, method, params),
      'bundles.close': ({ session }) => this.bundles.close(session),
      'experiments.compare': ({ a, b }) => ex.views.compare(a, b),
      'experiments.compareFile': ({ a, b, format }) => ex.views.compareFile(a, b, format),
      'experiments.recordedTemplate': ({ config, format }) =>
        recordedTemplate(db, ex.catalogue.draft(config), format),
      'experiments.exportAnswers': ({ experimentId, format }) =>
        exportAnswers(db, loadExperiment(db, experimentId), format),
      'experiments.createForExport': ({ config }) => {
        const summary = ex.catalogue.createOrUpdate(config);
        // Held until the store is closed, as a run's create is.
        ex.runs.keepLocked(summary.id);
        return summary;
      },
      'experiments.batchExport': ({ experimentId, model }) =>
        exportBatchFile(db, loadExperiment(db, experimentId), { model }),
      'experiments.batchImport': ({ experimentId, file, text }) =>
        importBatchFile(db, loadExperiment(db, experimentId), file, text),
      'providers.keyStatus': ({ providers }) => ex.keyStatus(providers),
      'protocols.defaults': ({ protocol }) => ({
        templates: getProtocol(protocol).defaultTemplates?.() ?? {},
      }),
      'keys.status': () => this.keys.status(),
      'keys.set': ({ name, value, baseURL }) => {
        this.keys.set(name, value, baseURL);
        return { stored: this.keys.status().stored };
      },
      'keys.delete': ({ name }) => {
        this.keys.remove(name);
        return { stored: this.keys.status().stored };
      },
      'providers.testConnection': ({ provider, name, model }) => ex.testConnection(name, provider, model),
      'prices.get': ({ models }) => ({
        rows: models.map((model) => {
          const p = priceFor(model);
          return p
            ? {
                model,
                price: { input: p.input, cachedInput: p.cachedInput, output: p.output },
                source: 'shipped' as const,
              }
            : { model, price: null, source: 'unpriced' as const };
        }),
        asOf: SHIPPED_PRICES_AS_OF,
      }),
    };
  }
}

/** The providers block of a stored experiment's config (undefined when there is none). */
function storedProviders(db: Database, experimentId: number): unknown {
  const row = getExperiment(db, experimentId);
  return row ? (JSON.parse(row.configJson) as { providers?: unknown }).providers : undefined;
}
