// The API contract: every door (Electron IPC, local web, CLI) exposes exactly these
// methods and events, and the renderer talks to nothing else. Each method is defined once, in
// the table of src/shared/api/methods.ts (its parameters' zod schema and its result type); the
// types here are derived from it. `import type` only: the renderer and the preload load no zod.
import type { z } from 'zod';
import type { Returns } from './api/define';
import type { API_METHODS } from './api/methods';
import type { ExperimentProgress } from './experiments';

export type { KeyStoreStatus, ShippedPriceRow } from './api/methods';

type Table = typeof API_METHODS;
export type MethodName = keyof Table;
/** What a caller sends (before the schema's defaults and trimming). */
export type ParamsOf<M extends MethodName> = z.input<Table[M]['params']>;
/** What the method's handler receives: the parameters as the schema let them through. */
export type ParsedParamsOf<M extends MethodName> = z.output<Table[M]['params']>;
export type ResultOf<M extends MethodName> = Table[M]['result'] extends Returns<infer R> ? R : never;
export type ApiMethods = { [M in MethodName]: { params: ParamsOf<M>; result: ResultOf<M> } };

/** A method's implementation: the type checker refuses one whose parameters or result disagree. */
export type HandlerOf<M extends MethodName> = (
  params: ParsedParamsOf<M>,
) => ResultOf<M> | Promise<ResultOf<M>>;
/** The handlers of a group of methods (every method of the group, and no other). */
export type HandlersOf<M extends MethodName> = { [K in M]: HandlerOf<K> };

/** Events pushed from the core to every connected client. */
export interface ApiEvents {
  'datasets.changed': { datasetId: number | null };
  'experiments.changed': { experimentId: number | null };
  'run.progress': ExperimentProgress;
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
  'datasets.importFile',
  'datasets.loadSample',
  'datasets.delete',
  'datasets.rename',
  'items.list',
  'items.get',
  'experiments.estimate',
  'experiments.create',
  'experiments.createForRun',
  'experiments.find',
  'experiments.list',
  'experiments.get',
  'experiments.delete',
  'experiments.duplicate',
  'experiments.editSetup',
  'experiments.cliConfig',
  'experiments.start',
  'experiments.pause',
  'experiments.resume',
  'experiments.cancel',
  'experiments.resumeJudge',
  'experiments.retryFailed',
  'experiments.runToEnd',
  'experiments.interrupt',
  'experiments.progress',
  'experiments.results',
  'experiments.verdictLinks',
  'experiments.verdicts',
  'experiments.flagged',
  'experiments.failures',
  'experiments.export',
  'experiments.previewPrompts',
  'experiments.protocolView',
  'experiments.protocolEdit',
  'experiments.exportFile',
  'experiments.exportZip',
  'experiments.methods',
  'experiments.preregistration',
  'experiments.preregister',
  'experiments.exportBundle',
  'bundles.verify',
  'bundles.open',
  'bundles.read',
  'bundles.close',
  'experiments.compare',
  'experiments.compareFile',
  'experiments.recordedTemplate',
  'experiments.exportAnswers',
  'experiments.createForExport',
  'experiments.batchExport',
  'experiments.batchImport',
  'providers.keyStatus',
  'providers.testConnection',
  'protocols.defaults',
  'keys.status',
  'keys.set',
  'keys.delete',
  'prices.get',
  'annotation.createSet',
  'annotation.leastSure',
  'annotation.tasks',
  'annotation.guidelines',
  'annotation.setGuidelines',
  'annotation.disagreements',
  'annotation.adjudicate',
  'annotation.listSets',
  'annotation.getSet',
  'annotation.deleteSet',
  'annotation.annotators',
  'annotation.createAnnotator',
  'annotation.session',
  'annotation.label',
  'annotation.importLabels',
  'annotation.exportPackage',
  'annotation.labelTemplate',
  'annotation.importPackage',
  'annotation.agreement',
  'annotation.exportZip',
  'annotation.mappingTargets',
  'annotation.applyMapping',
  'judges.list',
  'judges.reportCard',
  'judges.reportCardFile',
  'judges.gates',
  'judges.setGates',
] as const satisfies readonly MethodName[];

export const EVENT_NAMES = [
  'datasets.changed',
  'experiments.changed',
  'run.progress',
] as const satisfies readonly EventName[];

// Compile-time checks that the runtime lists name every method and event.
type AssertNever<T extends never> = T;
export type EveryMethodListed = AssertNever<Exclude<MethodName, (typeof METHOD_NAMES)[number]>>;
export type EveryEventListed = AssertNever<Exclude<EventName, (typeof EVENT_NAMES)[number]>>;
