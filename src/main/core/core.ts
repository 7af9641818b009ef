import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import {
  EVENT_NAMES,
  type ApiEvents,
  type EventName,
  type MethodName,
  type ParamsOf,
  type ResultOf,
} from '../../shared/api';
import type { AppInfo } from '../../shared/domain';
import { deleteDataset, getItem, listDatasets, listItems } from '../store/datasets';
import { DB_FILE_NAME, openDatabase, type Database } from '../store/db';
import { importDataset, importDatasetFromPath } from './datasets-service';
import { AppError } from './errors';
import { SAMPLES, samplePath } from './samples';
import { paramSchemas } from './schemas';
import { APP_VERSION } from './version';

export interface CoreOptions {
  dataDir: string;
  door: AppInfo['door'];
}

type Handlers = { [M in MethodName]: (params: ParamsOf<M>) => ResultOf<M> | Promise<ResultOf<M>> };

/**
 * The one implementation of the API. Doors call `call(method, rawParams)`; the core
 * validates, runs and emits events. It never imports electron.
 */
export class Core {
  readonly db: Database;
  readonly dataDir: string;
  private readonly events = new EventEmitter();
  private readonly handlers: Handlers;

  constructor(private readonly opts: CoreOptions) {
    this.dataDir = opts.dataDir;
    this.db = openDatabase(join(opts.dataDir, DB_FILE_NAME));
    this.events.setMaxListeners(100);
    this.handlers = this.buildHandlers();
  }

  /** Validates raw (untrusted) parameters, then runs the method. */
  async call<M extends MethodName>(method: M, rawParams: unknown): Promise<ResultOf<M>> {
    if (!Object.hasOwn(this.handlers, method))
      throw new AppError('invalid_params', `Unknown method "${method}"`);
    const schema = paramSchemas[method];
    const parsed = schema.safeParse(rawParams ?? undefined);
    if (!parsed.success) {
      const detail = parsed.error.issues
        .map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`)
        .join('; ');
      throw new AppError('invalid_params', `Invalid parameters for ${method}: ${detail}`);
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

  /** CLI convenience: import straight from a path (the API takes bytes). */
  importFile(path: string, name?: string) {
    const result = importDatasetFromPath(this.db, path, name);
    if (!result.duplicate) this.emit('datasets.changed', { datasetId: result.dataset.id });
    return result;
  }

  close(): void {
    this.events.removeAllListeners();
    if (this.db.open) this.db.close();
  }

  private buildHandlers(): Handlers {
    const db = this.db;
    return {
      'app.info': () => ({
        version: APP_VERSION,
        dataDir: this.dataDir,
        door: this.opts.door,
        samples: SAMPLES.map((s) => ({ id: s.id, name: s.name, itemCount: s.itemCount })),
      }),
      'datasets.list': () => listDatasets(db),
      'datasets.import': ({ fileName, contentBase64, name }) => {
        const result = importDataset(db, { fileName, bytes: Buffer.from(contentBase64, 'base64'), name });
        if (!result.duplicate) this.emit('datasets.changed', { datasetId: result.dataset.id });
        return result;
      },
      'datasets.loadSample': ({ sampleId }) => {
        const sample = SAMPLES.find((s) => s.id === sampleId);
        if (!sample) throw new AppError('not_found', `No bundled sample "${sampleId}"`);
        return this.importFile(samplePath(sample), `${sample.name} (sample)`);
      },
      'datasets.delete': ({ datasetId }) => {
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
    };
  }
}
