// The API's methods, each defined once: its parameters' zod schema (checked by the core for
// every door, and the callers' types derived from it, src/shared/api.ts) and its result type.
// Strict objects: an unknown key is a caller bug worth hearing about. Only the core imports the
// schemas; the renderer and the preload take the types (`import type`), so zod stays out of them.
import { z } from 'zod';
import type { MethodsFiles } from '../paper/methods';
import type { PreregistrationView } from '../paper/preregistration';
import { BUNDLE_READS, type BundleVerifyReport, type OpenedBundleReport } from '../paper/bundle';
import type { CompareResult, CompareSide } from '../compare';
import type { FigureLanguage } from '../report/figure-i18n';
import type { VerdictLink, VerdictList } from '../verdicts';
import type { AppInfo, DatasetSummary, ImportResult, Item, ItemRow, KeyState } from '../domain';
import type {
  BatchFileExport,
  BatchFileImport,
  CostEstimate,
  ExperimentDetail,
  ExperimentProgress,
  ExperimentResults,
  ExperimentSummary,
  ExportResult,
  FailedCallView,
  FlaggedItem,
  PromptPreview,
} from '../experiments';
import type { ProtocolRow } from '../protocol-rows';
import { gateSettingsSchema } from '../report-card/gates';
import type { GateDefinition, GateSettings, JudgeSummary, ReportCard } from '../report-card/types';
import { BUNDLE_FILE_BYTES } from '../input-limits';
import { annotationMethods } from './annotation-methods';
import { returns, type Agree, type AssertTrue, type MethodEntry } from './define';

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

/** One model's entry in the shipped price table, as `prices.get` returns it. */
export interface ShippedPriceRow {
  model: string;
  price: { input: number; cachedInput: number; output: number } | null;
  source: 'shipped' | 'unpriced';
}

type FileResult = { fileName: string; mime: string; contentBase64: string };

const none = z.undefined();
const id = z.number().int().positive();
const experiment = z.strictObject({ experimentId: id });
/** An experiment's results as the tables compute them: all items, or without flagged or unverified ones. */
const resultsScope = z.strictObject({
  experimentId: id,
  excludeFlagged: z.boolean().optional(),
  verifiedOnly: z.boolean().optional(),
});
const text = z.string().max(1_000_000);
const compareSide = z.strictObject({ experimentId: id, judge: z.string().min(1).max(200).optional() });
/** The language of exported figures' words. */
const lang = z.enum(['en', 'zh']).optional();
/** Base64 of a bundle up to BUNDLE_FILE_BYTES (a larger one is refused by name in paper/bundle.ts). */
const bundleFile = {
  fileName: z.string().min(1).max(1000),
  contentBase64: z.string().max(Math.ceil(BUNDLE_FILE_BYTES / 3) * 4 + 4),
};

export type CheckedTypes = [
  AssertTrue<Agree<z.output<typeof compareSide>, CompareSide>>,
  AssertTrue<Agree<NonNullable<z.output<typeof lang>>, FigureLanguage>>,
  AssertTrue<Agree<z.output<typeof gateSettingsSchema>, GateSettings>>,
];

export const coreMethods = {
  'app.info': { params: none, result: returns<AppInfo>() },
  'datasets.list': { params: none, result: returns<DatasetSummary[]>() },
  /**
   * Import a file's raw bytes (base64), so encoding problems are detected by the core.
   * columns: which column of the file is which field (instruction, output_1, output_2, label…).
   */
  'datasets.import': {
    params: z.strictObject({
      fileName: z.string().min(1).max(1024),
      contentBase64: z.string().max(700 * 1024 * 1024),
      name: z.string().trim().min(1).max(200).optional(),
      columns: z.record(z.string().min(1).max(100), z.string().min(1).max(1000)).optional(),
    }),
    result: returns<ImportResult>(),
  },
  /**
   * Import a file the core reads from its own disk (`judge-lab import FILE`). The command line's
   * only: a page's door refuses it (pages send the bytes, `datasets.import`). As the command line
   * gives them: the name untrimmed, the columns already checked by --column.
   */
  'datasets.importFile': {
    params: z.strictObject({
      path: z.string().max(100_000),
      name: z.string().max(100_000).optional(),
      columns: z.record(z.string(), z.string()).optional(),
    }),
    result: returns<ImportResult>(),
  },
  'datasets.loadSample': {
    params: z.strictObject({ sampleId: z.string().min(1) }),
    result: returns<ImportResult>(),
  },
  'datasets.delete': { params: z.strictObject({ datasetId: id }), result: returns<{ deleted: boolean }>() },
  /** A new name (trimmed; unique, since configs may name a dataset). */
  'datasets.rename': {
    params: z.strictObject({ datasetId: id, name: z.string().max(1000) }),
    result: returns<DatasetSummary>(),
  },
  'items.list': {
    params: z.strictObject({
      datasetId: id,
      subset: z.string().max(200).optional(),
      search: z.string().max(1000).optional(),
    }),
    result: returns<ItemRow[]>(),
  },
  'items.get': { params: z.strictObject({ itemId: id }), result: returns<Item>() },

  // A config is as in DESIGN.md section 7 (`dataset` may be a dataset id instead of a path),
  // validated by the experiment config schema, which names every key.
  /** Cost, time and the power plan; `effects`: effects typed for the plan's inverse, by comparison id. */
  'experiments.estimate': {
    params: z.strictObject({
      config: z.unknown(),
      effects: z.record(z.string().min(1).max(200), z.number().finite()).optional(),
    }),
    result: returns<CostEstimate>(),
  },
  'experiments.create': {
    params: z.strictObject({ config: z.unknown() }),
    result: returns<ExperimentSummary>(),
  },
  /**
   * `judge-lab run`'s create: the same name continues that experiment (a changed config replaces
   * the stored one; nothing stored is paid again), refused before anything is written when a
   * provider its models call has no key. The experiment is then held by this process until the
   * core closes (the run and its export), so a restore waits for all of it. The command line's
   * only: a page's door refuses it (its hold would last as long as the server).
   */
  'experiments.createForRun': {
    params: z.strictObject({ config: z.unknown() }),
    result: returns<ExperimentSummary>(),
  },
  /**
   * An experiment by its name, or by its id (the command line's way of naming one). The name as
   * the person typed it: no trimming, so the lookup is exact (an empty one is not found).
   */
  'experiments.find': {
    params: z.strictObject({ ref: z.string().max(100_000) }),
    result: returns<ExperimentSummary>(),
  },
  'experiments.list': { params: none, result: returns<ExperimentSummary[]>() },
  'experiments.get': { params: experiment, result: returns<ExperimentDetail>() },
  'experiments.delete': { params: experiment, result: returns<{ deleted: boolean }>() },
  /** A new draft experiment with the same config under a new name (default: "<name> copy", "<name> copy 2", …). */
  'experiments.duplicate': {
    params: z.strictObject({ experimentId: id, name: z.string().min(1).max(200).optional() }),
    result: returns<ExperimentSummary>(),
  },
  /**
   * A new config for an experiment that has not started (status draft, nothing planned): name,
   * dataset and protocol may change; refused (conflict) once it has started.
   */
  'experiments.editSetup': {
    params: z.strictObject({ experimentId: id, config: z.unknown() }),
    result: returns<ExperimentSummary>(),
  },
  /** The config as a file `judge-lab run` accepts as is: the dataset by name (or path), never by internal id. */
  'experiments.cliConfig': { params: experiment, result: returns<FileResult>() },
  /** Starts (or resumes after a restart) the run in the background; progress comes as events. */
  'experiments.start': { params: experiment, result: returns<ExperimentProgress>() },
  'experiments.pause': { params: experiment, result: returns<ExperimentProgress>() },
  'experiments.resume': { params: experiment, result: returns<ExperimentProgress>() },
  'experiments.cancel': { params: experiment, result: returns<ExperimentProgress>() },
  /** A judge the early warning paused goes on (and is not watched again in this session). */
  'experiments.resumeJudge': {
    params: z.strictObject({ experimentId: id, judge: z.string().min(1) }),
    result: returns<ExperimentProgress>(),
  },
  /** Failed calls go back to pending, and the run starts again. */
  'experiments.retryFailed': { params: experiment, result: returns<ExperimentProgress>() },
  /**
   * Starts (or resumes) the run and answers when it ends: its last progress (finished, paused,
   * cancelled, failed). `resumeJudges`: judges an early warning paused before that go on (not
   * watched again in this run), as "Resume this judge" does.
   */
  'experiments.runToEnd': {
    params: z.strictObject({
      experimentId: id,
      resumeJudges: z.array(z.string().min(1).max(200)).max(100).optional(),
    }),
    result: returns<ExperimentProgress>(),
  },
  /**
   * Stops the run as quitting does (Ctrl+C): calls on the wire settle and are recorded, provider
   * batches stay open, and the experiment shows as paused, to be resumed later.
   */
  'experiments.interrupt': { params: experiment, result: returns<ExperimentProgress>() },
  'experiments.progress': { params: experiment, result: returns<ExperimentProgress>() },
  /**
   * Metrics; with excludeFlagged every table is recomputed without the audit's flagged items, with
   * verifiedOnly without the items the protocol's verification did not pass (`unverified`).
   */
  'experiments.results': {
    params: resultsScope,
    result: returns<ExperimentResults>(),
  },
  /** Which results tables' cells open the verdicts behind them (none where the protocol declares none). */
  'experiments.verdictLinks': { params: experiment, result: returns<{ links: VerdictLink[] }>() },
  /** Every usable verdict behind the tables (with excludeFlagged, as the tables are then computed): from the store, offline. */
  'experiments.verdicts': {
    params: resultsScope,
    result: returns<VerdictList>(),
  },
  /** The audit's flagged items (as in `experiments.results`), without computing the metrics. */
  'experiments.flagged': { params: experiment, result: returns<{ flagged: FlaggedItem[] }>() },
  /** Every call that ended without a usable answer, transforms first, with the raw answer. */
  'experiments.failures': { params: experiment, result: returns<{ rows: FailedCallView[] }>() },
  /**
   * Writes the folder of DESIGN.md section 8 (default: <data dir>/exports/<name>). lang: the
   * figures' language (default English; the app sends its UI language).
   */
  'experiments.export': {
    params: z.strictObject({ experimentId: id, outDir: z.string().min(1).optional(), lang }),
    result: returns<ExportResult>(),
  },
  /** The prompts a config would send for one item (default: the dataset's first), rendered. */
  'experiments.previewPrompts': {
    params: z.strictObject({ config: z.unknown(), itemId: id.optional() }),
    result: returns<PromptPreview>(),
  },
  /**
   * A protocol's own per-item view (its rows, a flip browser, repeats side by side): `view` names
   * it, `query` is checked again by the protocol's schema for that view; the result is the view's
   * shape (opaque here: read rows with the protocol's `rowReader`, src/shared/protocol-rows.ts).
   */
  'experiments.protocolView': {
    params: z.strictObject({
      experimentId: id,
      view: z.string().min(1).max(100),
      query: z.record(z.string(), z.unknown()).optional(),
    }),
    result: returns<unknown>(),
  },
  /**
   * A person's edit of one of a protocol's rows (e.g. a transformed text): `edit` names the kind
   * of edit, `fields` are checked again by the protocol's schema for it (every text the protocol
   * may take is at most `text` long). The row is marked manual and every task whose prompt
   * changed is re-planned; `row` is the edited row as its view shows it.
   */
  'experiments.protocolEdit': {
    params: z.strictObject({
      experimentId: id,
      edit: z.string().min(1).max(100),
      fields: z.record(z.string(), z.union([text, z.number(), z.boolean(), z.null()])),
    }),
    result: returns<{ row: ProtocolRow; replanned: number; estimate: CostEstimate }>(),
  },
  /** One table or figure as a file, for the app's per-table/per-chart export buttons. */
  'experiments.exportFile': {
    params: z.strictObject({
      experimentId: id,
      target: z.union([
        z.strictObject({ table: z.string().min(1), format: z.enum(['csv', 'xlsx', 'tex']) }),
        z.strictObject({ figure: z.string().min(1), format: z.enum(['svg', 'png']) }),
      ]),
      /** Without flagged items (the sensitivity analysis). */
      sensitivity: z.boolean().optional(),
      lang,
    }),
    result: returns<FileResult>(),
  },
  /** The export folder of section 8 as one zip (the web door's "Export all": a download, not a server folder). */
  'experiments.exportZip': {
    params: z.strictObject({ experimentId: id, lang }),
    result: returns<FileResult>(),
  },
  /** methods.md, methods.tex and checklist.md (issue 24), as the export folder holds them, in `lang`. */
  'experiments.methods': {
    params: z.strictObject({ experimentId: id, lang }),
    result: returns<MethodsFiles>(),
  },
  /** The locked analysis plans (issue 24 part 2), the one in force, the deviations, and preregistration.md in `lang`. */
  'experiments.preregistration': {
    params: z.strictObject({ experimentId: id, lang }),
    result: returns<PreregistrationView & { markdown: string }>(),
  },
  /**
   * Locks an analysis plan; with `reason`, a new version supersedes the one in force (a lock is
   * never edited). The plan's fields are checked by its own schema when locked (errors name plan.<field>).
   */
  'experiments.preregister': {
    params: z.strictObject({
      experimentId: id,
      plan: z.record(z.string(), z.unknown()),
      reason: z.string().max(20_000).optional(),
    }),
    result: returns<PreregistrationView>(),
  },
  /** The study bundle (issue 24): one zip, `<name>.judgelab`, a reviewer recomputes offline. */
  'experiments.exportBundle': { params: z.strictObject({ experimentId: id }), result: returns<FileResult>() },
  /** Recomputes a study bundle offline and compares every metric, table and figure with the stored ones. */
  'bundles.verify': { params: z.strictObject(bundleFile), result: returns<BundleVerifyReport>() },
  /**
   * Opens a study bundle in the app: verified as `bundles.verify` does, its replay kept under
   * `session` for `bundles.read` (the bundle's own results and pages) until closed or another is opened.
   */
  'bundles.open': { params: z.strictObject(bundleFile), result: returns<OpenedBundleReport>() },
  /**
   * One read of the opened bundle's replay (BUNDLE_READS), with that method's parameters, which
   * its method's schema checks (paper/bundle-session.ts).
   */
  'bundles.read': {
    params: z.strictObject({
      session: z.string().min(1).max(100),
      method: z.enum(BUNDLE_READS),
      params: z.record(z.string(), z.unknown()).optional(),
    }),
    result: returns<unknown>(),
  },
  'bundles.close': {
    params: z.strictObject({ session: z.string().min(1).max(100) }),
    result: returns<{ closed: boolean }>(),
  },
  /**
   * Two runs side by side (two experiments of one protocol, or two judges of one): metric
   * deltas with paired tests on shared items.
   */
  'experiments.compare': {
    params: z.strictObject({ a: compareSide, b: compareSide }),
    result: returns<CompareResult>(),
  },
  /** The comparison's table as a file (CSV, XLSX or LaTeX). */
  'experiments.compareFile': {
    params: z.strictObject({ a: compareSide, b: compareSide, format: z.enum(['csv', 'xlsx', 'tex']) }),
    result: returns<FileResult>(),
  },
  /**
   * The empty recorded-answers file of a config (one row per slot it plans, answers empty), in
   * JSONL or CSV, so the format is never guessed.
   */
  'experiments.recordedTemplate': {
    params: z.strictObject({ config: z.unknown(), format: z.enum(['jsonl', 'csv']) }),
    result: returns<{ text: string; rows: number; columns: string[] }>(),
  },
  /** A stored experiment's answers as a recorded-answers file (raw text and usage; unanswered calls left out). */
  'experiments.exportAnswers': {
    params: z.strictObject({ experimentId: id, format: z.enum(['jsonl', 'csv']) }),
    result: returns<{ text: string; rows: number; skipped: number }>(),
  },
  /** The protocol's default prompt templates, flattened (languageRulesZH/LS), so editors can start from them. */
  /**
   * `judge-lab batch export`'s create: as `experiments.createForRun` (same name continues it, a
   * changed config replaces the stored one, held by the process), without its key check: the
   * app never calls the cluster a batch file goes to.
   */
  'experiments.createForExport': {
    params: z.strictObject({ config: z.unknown() }),
    result: returns<ExperimentSummary>(),
  },
  /**
   * The experiment planned from what is stored, and every request not answered yet as an
   * OpenAI Batch input file (JSONL) for `vllm run-batch` on a cluster the app never reaches.
   */
  'experiments.batchExport': {
    params: z.strictObject({ experimentId: id, model: z.string().min(1).max(500).optional() }),
    result: returns<BatchFileExport>(),
  },
  /**
   * A `vllm run-batch` output file (its text; `file` names it in messages) into the ledger:
   * refused whole if a line was made for another experiment or other requests.
   */
  'experiments.batchImport': {
    params: z.strictObject({
      experimentId: id,
      file: z.string().min(1).max(4096),
      text: z.string().max(BUNDLE_FILE_BYTES),
    }),
    result: returns<BatchFileImport>(),
  },
  'protocols.defaults': {
    params: z.strictObject({ protocol: z.string().min(1).max(100) }),
    result: returns<{ templates: Record<string, string> }>(),
  },
  /** Whether keys can be stored in the app, and which names have one. Never a key. */
  'keys.status': { params: none, result: returns<KeyStoreStatus>() },
  /**
   * Stores a key under its environment-variable name (desktop: the keychain; `serve`: its
   * owner-only file, with the one other server the key may go to, `baseURL`); it never comes back.
   */
  'keys.set': {
    params: z.strictObject({
      name: z.string().min(1).max(200),
      value: z.string().min(1).max(10_000),
      baseURL: z.string().max(2_000).optional(),
    }),
    result: returns<{ stored: string[] }>(),
  },
  'keys.delete': {
    params: z.strictObject({ name: z.string().min(1).max(200) }),
    result: returns<{ stored: string[] }>(),
  },
  /** Is each provider's key available (set / missing / withheld)? Never returns a key. */
  'providers.keyStatus': {
    params: z.strictObject({ providers: z.record(z.string(), z.unknown()) }),
    result: returns<Record<string, KeyState>>(),
  },
  /**
   * models: what the server lists, when it does (offered in the wizard's model fields); batch:
   * whether it answers the Batch API (the wizard then offers the Batch switch).
   */
  'providers.testConnection': {
    params: z.strictObject({
      provider: z.unknown(),
      name: z.string().min(1),
      model: z.string().min(1).optional(),
    }),
    result: returns<{ ok: boolean; kind?: string; message: string; models?: string[]; batch?: boolean }>(),
  },
  /** The shipped price of each model (USD per 1M tokens), or null where none is known (local models). */
  'prices.get': {
    params: z.strictObject({ models: z.array(z.string().min(1).max(200)).max(1000) }),
    result: returns<{ rows: ShippedPriceRow[]; asOf: string }>(),
  },
} satisfies Record<string, MethodEntry>;

/** The judge report card (DESIGN.md, "Judge report card"). */
export const judgeMethods = {
  /** Every judge model (provider kind + model id) the store's experiments used. */
  'judges.list': { params: none, result: returns<JudgeSummary[]>() },
  /** `model`: `kind:model` or a model id; `gates`: thresholds for this call only (else the store's). */
  'judges.reportCard': {
    params: z.strictObject({ model: z.string().min(1).max(500), gates: gateSettingsSchema.optional() }),
    result: returns<ReportCard>(),
  },
  /** The card as one file (JSON, LaTeX, Markdown, CSV of the figures or of the gates, SVG or PNG), words in `lang`. */
  'judges.reportCardFile': {
    params: z.strictObject({
      model: z.string().min(1).max(500),
      format: z.enum(['json', 'tex', 'md', 'csv', 'gates-csv', 'svg', 'png']),
      lang,
    }),
    result: returns<FileResult>(),
  },
  /** The store's gates: what the researcher set, and every gate as it applies (defaults marked by their source). */
  'judges.gates': { params: none, result: returns<{ settings: GateSettings; gates: GateDefinition[] }>() },
  'judges.setGates': {
    params: z.strictObject({ settings: gateSettingsSchema }),
    result: returns<{ settings: GateSettings; gates: GateDefinition[] }>(),
  },
} satisfies Record<string, MethodEntry>;

/** Every method, by name: the parts above, each method in exactly one (test/api/method-table.test.ts). */
export const API_METHODS = { ...coreMethods, ...annotationMethods, ...judgeMethods };
