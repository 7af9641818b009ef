// The API contract: every door (Electron IPC, local web, CLI) exposes exactly these
// methods and events, and the renderer talks to nothing else.
import type { AppInfo, DatasetSummary, ImportResult, Item, ItemRow } from './domain';

export interface ApiMethods {
  'app.info': { params: void; result: AppInfo };
  'datasets.list': { params: void; result: DatasetSummary[] };
  /** Import a file's raw bytes (base64), so encoding problems are detected by the core. */
  'datasets.import': {
    params: { fileName: string; contentBase64: string; name?: string };
    result: ImportResult;
  };
  'datasets.loadSample': { params: { sampleId: string }; result: ImportResult };
  'datasets.delete': { params: { datasetId: number }; result: { deleted: boolean } };
  'items.list': {
    params: { datasetId: number; subset?: string; search?: string };
    result: ItemRow[];
  };
  'items.get': { params: { itemId: number }; result: Item };
}

export type MethodName = keyof ApiMethods;
export type ParamsOf<M extends MethodName> = ApiMethods[M]['params'];
export type ResultOf<M extends MethodName> = ApiMethods[M]['result'];

/** Events pushed from the core to every connected client. */
export interface ApiEvents {
  'datasets.changed': { datasetId: number | null };
}

export type EventName = keyof ApiEvents;

/** What a client (preload's window.api, the web client) offers the renderer. */
export interface ApiClient {
  call<M extends MethodName>(
    method: M,
    ...params: ParamsOf<M> extends void ? [] : [ParamsOf<M>]
  ): Promise<ResultOf<M>>;
  on<E extends EventName>(event: E, listener: (payload: ApiEvents[E]) => void): () => void;
}

export const IPC_INVOKE_CHANNEL = 'judge-lab:invoke';
export const IPC_EVENT_CHANNEL = 'judge-lab:event';

/** The envelope every door returns, so errors keep their code and issues across IPC and HTTP. */
export type Envelope<T> = { ok: true; result: T } | { ok: false; error: import('./domain').ApiErrorPayload };

/** Runtime list of methods: the preload and the web door refuse anything else. */
export const METHOD_NAMES = [
  'app.info',
  'datasets.list',
  'datasets.import',
  'datasets.loadSample',
  'datasets.delete',
  'items.list',
  'items.get',
] as const satisfies readonly MethodName[];

export const EVENT_NAMES = ['datasets.changed'] as const satisfies readonly EventName[];

// Compile-time checks that the runtime lists name every method and event.
type AssertNever<T extends never> = T;
export type EveryMethodListed = AssertNever<Exclude<MethodName, (typeof METHOD_NAMES)[number]>>;
export type EveryEventListed = AssertNever<Exclude<EventName, (typeof EVENT_NAMES)[number]>>;
