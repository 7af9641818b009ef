// The API contract: every door (Electron IPC, local web, CLI) exposes exactly these
// methods and events, and the renderer talks to nothing else.
import type { MethodsFiles } from './paper/methods';
import type { PreregistrationView } from './paper/preregistration';
import type { BundleRead, BundleVerifyReport, OpenedBundleReport } from './paper/bundle';
import type { CompareResult, CompareSide } from './compare';
import type { FigureLanguage } from './report/figure-i18n';
import type { VerdictLink, VerdictList } from './verdicts';
import type { AppInfo, DatasetSummary, ImportResult, Item, ItemRow, KeyState } from './domain';
import type {
  CostEstimate,
  ExperimentDetail,
  ExperimentProgress,
  ExperimentResults,
  ExperimentSummary,
  ExportResult,
  FailedCallView,
  FlaggedItem,
  PromptPreview,
} from './experiments';
import type {
  AgreementReport,
  AnnotationFile,
  AnnotationSession,
  AnnotationSetSummary,
  AppliedMapping,
  Disagreement,
  GuidelinesVersion,
  MappingTargets,
  PackageImport,
  AnnotatorProgress,
} from './annotation/api-types';
import type { RatingValue } from './annotation/types';
import type { LeastSureOptions, LeastSureSelection } from './annotation/least-sure';
import type { ProtocolRow } from './protocol-rows';
import type { GateDefinition, GateSettings, JudgeSummary, ReportCard } from './report-card/types';

/** Where keys entered in the app are kept, and which names have one. Never a key. */
export interface KeyStoreStatus {
  managed: boolean;
  stored: string[];
  warning: string | null;
  /** `serve`: an owner-only file (`file`) in the data folder; absent: the desktop's keychain. */
  storage?: 'file';
  file?: string;
  /** The server each stored key may go to besides its API type's known ones. */
  addresses?: Record<string, string>;
}

export interface ApiMethods {
  'app.info': { params: void; result: AppInfo };
  'datasets.list': { params: void; result: DatasetSummary[] };
  /** Import a file's raw bytes (base64), so encoding problems are detected by the core. */
  'datasets.import': {
    /** columns: which column of the file is which field (instruction, output_1, output_2, label…). */
    params: { fileName: string; contentBase64: string; name?: string; columns?: Record<string, string> };
    result: ImportResult;
  };
  /**
   * Import a file the core reads from its own disk (`judge-lab import FILE`). The command line's
   * only: a page's door refuses it (pages send the bytes, `datasets.import`).
   */
  'datasets.importFile': {
    params: { path: string; name?: string; columns?: Record<string, string> };
    result: ImportResult;
  };
  'datasets.loadSample': { params: { sampleId: string }; result: ImportResult };
  'datasets.delete': { params: { datasetId: number }; result: { deleted: boolean } };
  /** A new name (trimmed; unique, since configs may name a dataset). */
  'datasets.rename': { params: { datasetId: number; name: string }; result: DatasetSummary };
  'items.list': {
    params: { datasetId: number; subset?: string; search?: string };
    result: ItemRow[];
  };
  'items.get': { params: { itemId: number }; result: Item };

  /** Config as in DESIGN.md section 7; `dataset` may be a dataset id instead of a path. */
  /** Cost, time and the power plan; `effects`: effects typed for the plan's inverse, by comparison id. */
  'experiments.estimate': {
    params: { config: unknown; effects?: Record<string, number> };
    result: CostEstimate;
  };
  'experiments.create': { params: { config: unknown }; result: ExperimentSummary };
  /**
   * `judge-lab run`'s create: the same name continues that experiment (a changed config replaces
   * the stored one; nothing stored is paid again), refused before anything is written when a
   * provider its models call has no key. The experiment is then held by this process until the
   * core closes (the run and its export), so a restore waits for all of it. The command line's
   * only: a page's door refuses it (its hold would last as long as the server).
   */
  'experiments.createForRun': { params: { config: unknown }; result: ExperimentSummary };
  /** An experiment by its name, or by its id (the command line's way of naming one). */
  'experiments.find': { params: { ref: string }; result: ExperimentSummary };
  'experiments.list': { params: void; result: ExperimentSummary[] };
  'experiments.get': { params: { experimentId: number }; result: ExperimentDetail };
  'experiments.delete': { params: { experimentId: number }; result: { deleted: boolean } };
  /** A new draft experiment with the same config under a new name (default: "<name> copy", "<name> copy 2", …). */
  'experiments.duplicate': { params: { experimentId: number; name?: string }; result: ExperimentSummary };
  /**
   * A new config for an experiment that has not started (status draft, nothing planned): name,
   * dataset and protocol may change; refused (conflict) once it has started.
   */
  'experiments.editSetup': { params: { experimentId: number; config: unknown }; result: ExperimentSummary };
  /** The config as a file `judge-lab run` accepts as is: the dataset by name (or path), never by internal id. */
  'experiments.cliConfig': {
    params: { experimentId: number };
    result: { fileName: string; mime: string; contentBase64: string };
  };
  /** Starts (or resumes after a restart) the run in the background; progress comes as events. */
  'experiments.start': { params: { experimentId: number }; result: ExperimentProgress };
  'experiments.pause': { params: { experimentId: number }; result: ExperimentProgress };
  'experiments.resume': { params: { experimentId: number }; result: ExperimentProgress };
  'experiments.cancel': { params: { experimentId: number }; result: ExperimentProgress };
  /** A judge the early warning paused goes on (and is not watched again in this session). */
  'experiments.resumeJudge': { params: { experimentId: number; judge: string }; result: ExperimentProgress };
  /** Failed calls go back to pending, and the run starts again. */
  'experiments.retryFailed': { params: { experimentId: number }; result: ExperimentProgress };
  /**
   * Starts (or resumes) the run and answers when it ends: its last progress (finished, paused,
   * cancelled, failed). `resumeJudges`: judges an early warning paused before that go on (not
   * watched again in this run), as "Resume this judge" does.
   */
  'experiments.runToEnd': {
    params: { experimentId: number; resumeJudges?: string[] };
    result: ExperimentProgress;
  };
  /**
   * Stops the run as quitting does (Ctrl+C): calls on the wire settle and are recorded, provider
   * batches stay open, and the experiment shows as paused, to be resumed later.
   */
  'experiments.interrupt': { params: { experimentId: number }; result: ExperimentProgress };
  'experiments.progress': { params: { experimentId: number }; result: ExperimentProgress };
  /**
   * Metrics; with excludeFlagged every table is recomputed without the audit's flagged items, with
   * verifiedOnly without the items the protocol's verification did not pass (`unverified`).
   */
  'experiments.results': {
    params: { experimentId: number; excludeFlagged?: boolean; verifiedOnly?: boolean };
    result: ExperimentResults;
  };
  /** Which results tables' cells open the verdicts behind them (none where the protocol declares none). */
  'experiments.verdictLinks': { params: { experimentId: number }; result: { links: VerdictLink[] } };
  /** Every usable verdict behind the tables (with excludeFlagged, as the tables are then computed): from the store, offline. */
  'experiments.verdicts': {
    params: { experimentId: number; excludeFlagged?: boolean; verifiedOnly?: boolean };
    result: VerdictList;
  };
  /** The audit's flagged items (as in `experiments.results`), without computing the metrics. */
  'experiments.flagged': { params: { experimentId: number }; result: { flagged: FlaggedItem[] } };
  /** Every call that ended without a usable answer, transforms first, with the raw answer. */
  'experiments.failures': { params: { experimentId: number }; result: { rows: FailedCallView[] } };
  /** Writes the folder of DESIGN.md section 8 (default: <data dir>/exports/<name>). */
  'experiments.export': {
    /** lang: the figures' language (default English; the app sends its UI language). */
    params: { experimentId: number; outDir?: string; lang?: FigureLanguage };
    result: ExportResult;
  };
  /** The prompts a config would send for one item (default: the dataset's first), rendered. */
  'experiments.previewPrompts': {
    params: { config: unknown; itemId?: number };
    result: PromptPreview;
  };
  /**
   * A protocol's own per-item view (its rows, a flip browser, repeats side by side): `view` names
   * it, `query` is checked by the protocol's schema for that view; the result is the view's shape
   * (opaque here: read rows with the protocol's `rowReader`, src/shared/protocol-rows.ts).
   */
  'experiments.protocolView': {
    params: { experimentId: number; view: string; query?: Record<string, unknown> };
    result: unknown;
  };
  /**
   * A person's edit of one of a protocol's rows (e.g. a transformed text): `edit` names the kind
   * of edit, `fields` are checked by the protocol's schema for it. The row is marked manual and
   * every task whose prompt changed is re-planned; `row` is the edited row as its view shows it.
   */
  'experiments.protocolEdit': {
    params: { experimentId: number; edit: string; fields: Record<string, unknown> };
    result: { row: ProtocolRow; replanned: number; estimate: CostEstimate };
  };
  /** One table or figure as a file, for the app's per-table/per-chart export buttons. */
  /** The export folder of section 8 as one zip (the web door's "Export all": a download, not a server folder). */
  'experiments.exportZip': {
    params: { experimentId: number; lang?: FigureLanguage };
    result: { fileName: string; mime: string; contentBase64: string };
  };
  /** The study bundle (issue 24): one zip, `<name>.judgelab`, a reviewer recomputes offline. */
  'experiments.exportBundle': {
    params: { experimentId: number };
    result: { fileName: string; mime: string; contentBase64: string };
  };
  /** Recomputes a study bundle offline and compares every metric, table and figure with the stored ones. */
  'bundles.verify': { params: { fileName: string; contentBase64: string }; result: BundleVerifyReport };
  /**
   * Opens a study bundle in the app: verified as `bundles.verify` does, its replay kept under
   * `session` for `bundles.read` (the bundle's own results and pages) until closed or another is opened.
   */
  'bundles.open': { params: { fileName: string; contentBase64: string }; result: OpenedBundleReport };
  /** One read of the opened bundle's replay (BUNDLE_READS), with that method's parameters. */
  'bundles.read': {
    params: { session: string; method: BundleRead; params?: Record<string, unknown> };
    result: unknown;
  };
  'bundles.close': { params: { session: string }; result: { closed: boolean } };
  /** methods.md, methods.tex and checklist.md (issue 24), as the export folder holds them, in `lang`. */
  'experiments.methods': { params: { experimentId: number; lang?: FigureLanguage }; result: MethodsFiles };
  /** The locked analysis plans (issue 24 part 2), the one in force, the deviations, and preregistration.md in `lang`. */
  'experiments.preregistration': {
    params: { experimentId: number; lang?: FigureLanguage };
    result: PreregistrationView & { markdown: string };
  };
  /** Locks an analysis plan; with `reason`, a new version supersedes the one in force (a lock is never edited). */
  'experiments.preregister': {
    params: { experimentId: number; plan: Record<string, unknown>; reason?: string };
    result: PreregistrationView;
  };
  'experiments.exportFile': {
    params: {
      experimentId: number;
      target: { table: string; format: 'csv' | 'xlsx' | 'tex' } | { figure: string; format: 'svg' | 'png' };
      /** Without flagged items (the sensitivity analysis). */
      sensitivity?: boolean;
      lang?: FigureLanguage;
    };
    result: { fileName: string; mime: string; contentBase64: string };
  };
  /**
   * Two runs side by side (two experiments of one protocol, or two judges of one): metric
   * deltas with paired tests on shared items.
   */
  'experiments.compare': { params: { a: CompareSide; b: CompareSide }; result: CompareResult };
  /** The comparison's table as a file (CSV, XLSX or LaTeX). */
  'experiments.compareFile': {
    params: { a: CompareSide; b: CompareSide; format: 'csv' | 'xlsx' | 'tex' };
    result: { fileName: string; mime: string; contentBase64: string };
  };
  /**
   * The empty recorded-answers file of a config (one row per slot it plans, answers empty), in
   * JSONL or CSV, so the format is never guessed.
   */
  'experiments.recordedTemplate': {
    params: { config: unknown; format: 'jsonl' | 'csv' };
    result: { text: string; rows: number; columns: string[] };
  };
  /** A stored experiment's answers as a recorded-answers file (raw text and usage; unanswered calls left out). */
  'experiments.exportAnswers': {
    params: { experimentId: number; format: 'jsonl' | 'csv' };
    result: { text: string; rows: number; skipped: number };
  };
  /** The protocol's default prompt templates, flattened (languageRulesZH/LS), so editors can start from them. */
  'protocols.defaults': { params: { protocol: string }; result: { templates: Record<string, string> } };
  /** Whether keys can be stored in the app, and which names have one. Never a key. */
  'keys.status': { params: void; result: KeyStoreStatus };
  /**
   * Stores a key under its environment-variable name (desktop: the keychain; `serve`: its
   * owner-only file, with the one other server the key may go to, `baseURL`); it never comes back.
   */
  'keys.set': { params: { name: string; value: string; baseURL?: string }; result: { stored: string[] } };
  'keys.delete': { params: { name: string }; result: { stored: string[] } };
  /** Is each provider's key available (set / missing / withheld)? Never returns a key. */
  'providers.keyStatus': {
    params: { providers: Record<string, unknown> };
    result: Record<string, KeyState>;
  };
  'providers.testConnection': {
    params: { provider: unknown; name: string; model?: string };
    /**
     * models: what the server lists, when it does (offered in the wizard's model fields); batch:
     * whether it answers the Batch API (the wizard then offers the Batch switch).
     */
    result: { ok: boolean; kind?: string; message: string; models?: string[]; batch?: boolean };
  };
  /** The shipped price of each model (USD per 1M tokens), or null where none is known (local models). */
  'prices.get': { params: { models: string[] }; result: { rows: ShippedPriceRow[]; asOf: string } };

  // Human ratings (DESIGN.md section 5d).
  /** A stratified sample (judge-score terciles × category, seeded) of an experiment's units. */
  'annotation.createSet': {
    params: {
      experimentId: number;
      size: number;
      seed?: number;
      name?: string;
      goldAsAnnotator?: string;
      /** The set's first guidelines version, shown on the rating screen. */
      guidelines?: string;
      /**
       * Instead of a stratified sample: the judge's least-sure units (`annotation.leastSure`), the
       * first `size` of them, most doubtful first. Refused when there are none.
       */
      leastSure?: LeastSureOptions;
      /** One of the protocol's own rating tasks (`annotation.tasks`); absent: its main units. */
      task?: string;
      /**
       * Labels per judge-score band (the label budget's Neyman allocation), summing to `size`: each
       * band's count is shared among its categories by size; unjudged units get none.
       */
      bandCounts?: { low?: number; mid?: number; high?: number };
    };
    result: AnnotationSetSummary;
  };
  /**
   * The units the judge is least sure about — a score within `margin` points of a cut, the two
   * orders disagreeing, a repeat answering otherwise — each with the criterion and its numbers, most
   * doubtful first; and which criteria this experiment cannot show, with why (issue 36).
   */
  'annotation.leastSure': {
    params: { experimentId: number } & LeastSureOptions;
    result: LeastSureSelection;
  };
  /**
   * The rating tasks the experiment offers beside its main units (e.g. a translation study's
   * `translation_equivalence` when translations were verified), by id.
   */
  'annotation.tasks': { params: { experimentId: number }; result: { tasks: string[] } };
  /** Every version of the set's guidelines, oldest first. */
  'annotation.guidelines': { params: { setId: number }; result: GuidelinesVersion[] };
  /** Stores the text as the next guidelines version (the current text again makes none). */
  'annotation.setGuidelines': { params: { setId: number; text: string }; result: GuidelinesVersion };
  /** Items whose annotators differ (and items already adjudicated), labels side by side. */
  'annotation.disagreements': { params: { setId: number }; result: Disagreement[] };
  /** Stores an adjudicated label (who, when; null withdraws it): the item's human reference from then on. */
  'annotation.adjudicate': {
    params: {
      setId: number;
      unitUid: string;
      value: RatingValue | null;
      adjudicator: string;
      note?: string | null;
    };
    result: Disagreement[];
  };
  'annotation.listSets': { params: { experimentId?: number }; result: AnnotationSetSummary[] };
  'annotation.getSet': { params: { setId: number }; result: AnnotationSetSummary };
  'annotation.deleteSet': { params: { setId: number }; result: { deleted: boolean } };
  'annotation.annotators': { params: void; result: { name: string; createdAt: string }[] };
  'annotation.createAnnotator': { params: { name: string }; result: { name: string; createdAt: string }[] };
  /** The set blinded, in this annotator's order, with only this annotator's labels; where to resume. */
  'annotation.session': { params: { setId: number; annotator: string }; result: AnnotationSession };
  /** One label, skip or comment: stored the moment it is given (one call = one committed row). */
  'annotation.label': {
    params: {
      setId: number;
      annotator: string;
      unitUid: string;
      value?: RatingValue | null;
      skip?: boolean;
      comment?: string | null;
    };
    result: AnnotatorProgress;
  };
  /** Human labels from CSV/JSONL (item_id, annotator, score | preference | label): all or nothing. */
  'annotation.importLabels': {
    params: { setId: number; fileName: string; contentBase64: string };
    result: { imported: number; annotators: string[] };
  };
  'annotation.exportPackage': { params: { setId: number }; result: AnnotationFile };
  /** The labels CSV to fill for importLabels: unit ids, blinded text, an empty value column. */
  'annotation.labelTemplate': { params: { setId: number; annotator?: string }; result: AnnotationFile };
  /**
   * Opens a package as a new set, or merges its labels into the set it came from. A package of a
   * set this store does not know, while it holds other sets, answers `foreign-set` (nothing is
   * imported): ask, then send `asNewSet: true` or `intoSetId` (units must match). A set's label is
   * replaced only by a later package label; the others come back as `conflicts`, unless
   * `takePackageLabels` takes the package's anyway.
   */
  'annotation.importPackage': {
    params: {
      fileName: string;
      contentBase64: string;
      asNewSet?: boolean;
      intoSetId?: number;
      takePackageLabels?: boolean;
    };
    result: PackageImport;
  };
  'annotation.agreement': {
    /** epsilon: the alternative annotator test's ε (default 0.2, the authors' value for experts). */
    params: { setId: number; threshold?: number; epsilon?: number };
    result: AgreementReport;
  };
  /** agreement.json, tables (CSV/XLSX/LaTeX), figures (SVG/PNG), annotations.csv, mapping, manifest: one zip. */
  /** lang: the figures' language (default English; the app sends its export language). Tables stay English as in every export. */
  'annotation.exportZip': {
    params: { setId: number; threshold?: number; epsilon?: number; lang?: FigureLanguage };
    result: AnnotationFile;
  };
  /** The experiments a judge's mapping can be applied to, the others with why not, and its held-out ρ. */
  'annotation.mappingTargets': { params: { setId: number; judge: string }; result: MappingTargets };
  /**
   * The set's calibration mapping applied to another experiment's scores of the same judge.
   * Refused when its held-out ρ is below MAPPING_RHO_FLOOR (or undefined) unless `force`.
   */
  'annotation.applyMapping': {
    params: { setId: number; judge: string; experimentId: number; targetJudge?: string; force?: boolean };
    result: AppliedMapping;
  };

  // The judge report card (DESIGN.md, "Judge report card").
  /** Every judge model (provider kind + model id) the store's experiments used. */
  'judges.list': { params: void; result: JudgeSummary[] };
  /** `model`: `kind:model` or a model id; `gates`: thresholds for this call only (else the store's). */
  'judges.reportCard': { params: { model: string; gates?: GateSettings }; result: ReportCard };
  /** The card as one file (JSON, LaTeX, Markdown, CSV of the figures or of the gates, SVG or PNG), words in `lang`. */
  'judges.reportCardFile': {
    params: {
      model: string;
      format: 'json' | 'tex' | 'md' | 'csv' | 'gates-csv' | 'svg' | 'png';
      lang?: FigureLanguage;
    };
    result: { fileName: string; mime: string; contentBase64: string };
  };
  /** The store's gates: what the researcher set, and every gate as it applies (defaults marked by their source). */
  'judges.gates': { params: void; result: { settings: GateSettings; gates: GateDefinition[] } };
  'judges.setGates': {
    params: { settings: GateSettings };
    result: { settings: GateSettings; gates: GateDefinition[] };
  };
}

/** One model's entry in the shipped price table, as `prices.get` returns it. */
export interface ShippedPriceRow {
  model: string;
  price: { input: number; cachedInput: number; output: number } | null;
  source: 'shipped' | 'unpriced';
}

export type MethodName = keyof ApiMethods;
export type ParamsOf<M extends MethodName> = ApiMethods[M]['params'];
export type ResultOf<M extends MethodName> = ApiMethods[M]['result'];

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
