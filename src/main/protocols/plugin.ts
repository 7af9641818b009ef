// What a protocol plug-in provides. The runner, the store, the report kit and the doors know
// only this interface; everything a study means (which calls, which answers, which numbers)
// lives behind it, in src/main/protocols/<id>/ (and its pure report content in
// src/shared/protocols/<id>/).
//
// A plug-in is pure where it can be: planning, parsing and metrics never send a request or
// look at the clock. The two hooks that touch the store (`afterAnswers`, `views`) receive
// the database handle explicitly, for protocols that keep indexed tables of their own
// (e.g. transformed texts that people edit by hand).
import type { UsageRow } from '../../shared/report/usage';
import type { z } from 'zod';
import type { Item } from '../../shared/domain';
import type { AnnotationUnit, JudgeRating, RatingScale } from '../../shared/annotation/types';
import type { JudgeAsk } from '../../shared/annotation/least-sure';
import type { FlaggedItem, PromptPreview } from '../../shared/experiments';
import type { FigureSpec } from '../../shared/report/chart-kit';
import type { FigureDictionary, FigureLanguage } from '../../shared/report/figure-i18n';
import type { PlanAt } from '../../shared/paper/power-rows';
import type { RowSelector } from '../../shared/paper/confirmatory';
import type { PowerComparison } from '../../shared/paper/types';
import type { MethodsLang, MethodsSection } from '../../shared/paper/methods';
import type { Table } from '../../shared/report/table';
import type { VerdictLink, VerdictList } from '../../shared/verdicts';
import type { GateDeclaration, ReportCardContribution } from '../../shared/report-card/types';
import type { CardDictionary } from '../../shared/report-card/phrases';
import type { ProviderConfig } from '../providers/config';
import type { PriceTable } from '../providers/pricing';
import type { Database } from '../store/db';
import type { ParseResult, ProtocolTask } from './types';
import type { ChatRequestSpec } from '../providers/types';
import type { DatasetKindSpec } from '../import/kinds';

/** The config keys every protocol shares (DESIGN.md section 7). */
export interface BaseConfig {
  name: string;
  protocol: string;
  dataset: string | number;
  providers: Record<string, ProviderConfig>;
  limit?: number;
  /** How `limit` picks: the first N items (default) or a random sample of N, reproducible by `seed`. */
  sample?: 'first' | 'random';
  seed?: number;
  /** Only items of these subsets (before `limit`). */
  subsets?: string[];
  maxParseRetries?: number;
  /** Early warning: a judge whose first N answers are mostly unusable is paused (default 20; 0: off). */
  earlyWarningAnswers?: number;
  prices?: Record<
    string,
    {
      input: number;
      output: number;
      cachedInput?: number;
      cacheWrite?: number;
      batchInput?: number;
      batchOutput?: number;
    }
  >;
}

/** One model the protocol calls, with the role it plays (judge, transformer, generator, …). */
export interface ModelUse {
  role: string;
  /** Judges: the label metrics name them by; other roles: the role name. */
  label: string;
  provider: string;
  model: string;
  rpm?: number;
  tpm?: number;
  concurrency?: number;
  /** Where the entry's `provider` key sits in the config, for error messages. */
  path?: (string | number)[];
}

/** An experiment as a plug-in sees it: its config, options, items and the models it calls. */
export interface ExperimentView<Config extends BaseConfig = BaseConfig, Options = unknown> {
  id: number;
  name: string;
  config: Config;
  options: Options;
  items: Item[];
  providers: Record<string, ProviderConfig>;
  prices: PriceTable;
}

/** A stored answer of one task (the protocol-neutral results store, parsed once). */
export interface TaskResult<Meta = unknown, Value = unknown> {
  key: string;
  stage: string;
  meta: Meta;
  requestId: number;
  status: 'ok' | 'failed';
  /** The parsed answer (status ok). */
  value: Value | null;
  /** Why there is no usable answer (status failed). */
  reason: string | null;
  attempts: number;
}

/** A task's call as the reports see it: the ledger's raw answer and usage. */
export interface TaskCall {
  rawText: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

/** Usage per model role (metrics.json `usage`): the report kit's. */
export type { UsageRow };

/**
 * What the runner tells a stage when it plans again while a round goes (to pick up tasks whose
 * inputs just arrived). A stage may leave out, without rendering them, the tasks for which
 * `planned(key)` is true: the run has recorded them, and a recorded task's prompt changes only
 * through a path that records it again itself (a person's edit: `ProtocolViews.edits`). A stage
 * that ignores it is still correct, only slower: on a 92,000-call study every such plan rendered,
 * hashed and looked up every task again, most of a run's CPU. Plans without a context (each
 * round's first plan, the estimate) are whole.
 */
export interface PlanContext {
  planned(key: string): boolean;
  /**
   * The stage's own record, kept for as long as `planned` (the run): names of inputs (items, for
   * Judge-LS) whose every task it found recorded. A later plan may skip them without computing
   * their keys (on a 419 × 3 study the keys of tasks already recorded were looked up ~10,000
   * times at every plan). Optional: a stage that ignores it is only slower.
   */
  settled?: Set<string>;
}

/** One stage: plans tasks from what exists now and parses their answers. */
export interface StagePlugin<E extends ExperimentView = ExperimentView> {
  readonly name: string;
  /**
   * Tasks this stage can plan now. A task whose inputs do not exist yet (a verdict on a
   * translation not made) is left out and planned in a later round, so no stage has to
   * wait for another stage as a whole.
   */
  /**
   * (An iterable, e.g. a generator: the runner records a big plan a chunk at a time, so its
   * rendered requests need not all exist at once.)
   */
  plan(exp: E, db: Database, ctx?: PlanContext): Iterable<ProtocolTask>;
  /** Parses an answer; an error makes the engine ask again, then record the call failed. */
  parse(json: unknown, task: Pick<ProtocolTask, 'key' | 'meta'>): ParseResult<unknown>;
  /** The progress group of a task (the judge's label; the stage name for other roles). */
  group(task: Pick<ProtocolTask, 'meta'>): string;
  /**
   * Output tokens to expect, for estimates before anything was answered. A count of texts goes
   * through `tokens`, the estimate's own counter: its texts were counted ahead (in a one-study
   * process, by a worker that ends), so counting here loads no tokenizer tables into the run.
   */
  outputTokens(task: ProtocolTask, tokens: PlanTokens): number;
  /** What the estimate calls the task's kind and who makes it (role, label). */
  describe(task: Pick<ProtocolTask, 'meta'>): { role: string; label: string; kind: string };
}

/** The estimate's token counter, as a stage's `outputTokens` sees it. */
export interface PlanTokens {
  /** Input tokens of a request (system prompt, messages, schema), as the estimate counts them. */
  input(spec: ChatRequestSpec): number;
}

export interface MetricsContext<E extends ExperimentView = ExperimentView> {
  exp: E;
  results: readonly TaskResult[];
  usage: UsageRow[];
  /** Items dropped by the sensitivity switch (source ids); empty when it is off. */
  excluded: ReadonlySet<string>;
  flagged: FlaggedItem[];
}

/**
 * One graded observation, for comparing runs (src/main/experiments/compare.ts): who answered,
 * under which condition, on which item (the dataset's source id) and which unit of it (e.g.
 * the answer order), and whether the answer was right. Only valid answers are listed.
 */
export interface ComparableRow {
  judge: string;
  condition: string;
  item: string;
  unit: string;
  correct: boolean;
}

export interface ExportFile {
  /** Path inside the export folder, '/'-separated. */
  name: string;
  content: string | Buffer;
}

export interface ProtocolPlugin<E extends ExperimentView = ExperimentView, Metrics = unknown> {
  /** The `protocol` value of a config. */
  readonly id: string;
  readonly title: string;
  /** The protocol's config keys, merged into the shared ones (config is a union on `protocol`). */
  readonly configShape: z.ZodRawShape;
  /** Cross-field checks of a parsed config (providers named, labels unique, options valid). */
  refineConfig?(config: E['config'], issue: (path: (string | number)[], message: string) => void): void;
  /**
   * The config as it is stored: every file it names by path read in, so the experiment (and a
   * study bundle of it) no longer depends on the disk it was created on. Without it the config
   * is stored as given.
   */
  sealConfig?(config: E['config']): E['config'];
  /**
   * The fields of a config (as given, unchecked) that name a file on disk by path: what
   * `sealConfig` reads in. A study bundle's config is sealed when written, so `bundle verify`
   * refuses a config with any of them instead of opening a file of the reviewer's disk.
   */
  configPaths?(config: Record<string, unknown>): { field: string; path: string }[];
  /**
   * Texts a person edited by hand, as a study bundle carries them (`edits.json`), keyed by the
   * items' source ids (a replay's store numbers items anew); `apply` puts them into a replay's
   * new experiment before it runs, so the replay judges the texts the study judged. `where` names
   * the entry in errors. Without it a bundle has no edits.
   */
  bundleEdits?: {
    /**
     * With `since` (an ISO time), only the texts edited after it: a preregistration counts the
     * edits made after its lock as a deviation without reading the protocol's own tables.
     */
    list(db: Database, exp: E, since?: string): unknown[];
    apply(db: Database, exp: E, edits: unknown[], where: string): void;
  };
  /**
   * The stored results as the protocol's hand edits make them (a person's text laid over the
   * answer it replaced, which stays in the ledger and the results store): every metrics context
   * (metrics, tables, exports, verdicts, annotation) reads them through it. Without it, as stored.
   */
  editedResults?(db: Database, exp: E, results: readonly TaskResult[]): readonly TaskResult[];
  /**
   * Data shapes this study reads that the importer does not know (its distinctive fields, its
   * record check, its list columns): registered with the protocol, so a new kind of dataset is
   * no edit of the importer's list. The app's own kinds (pairwise, qa, pointwise) need none.
   */
  readonly datasetKinds?: readonly DatasetKindSpec[];
  /** Options with defaults, from a valid config. */
  resolveOptions(config: E['config']): E['options'];
  /**
   * The protocol's own checks and filters of the items (the dataset's kind, a language filter);
   * without it every item is used. Subsets and a random sample are drawn before it, `limit`'s
   * first N after it, by the runner for every protocol: a protocol never slices items itself.
   */
  selectItems?(items: Item[], options: E['options']): Item[];
  /** Every model the experiment calls. */
  models(config: E['config']): ModelUse[];
  /** Stages in order: a later stage may plan from what earlier ones stored. */
  readonly stages: readonly StagePlugin<E>[];
  /**
   * Called after answers of a stage were stored (e.g. store and audit transformed texts), and
   * for every stage when a run starts (a crash may have come between an answer and its hook):
   * it must be idempotent.
   */
  afterAnswers?(exp: E, db: Database, stage: string): void;
  /**
   * Tasks for an estimate before anything ran: inputs that do not exist yet are stood in for
   * (e.g. source texts for transformations not made yet), and `fresh` says a task's request
   * cannot be in the ledger yet. With `forCost` (the cost estimate, not a list of slots), tasks
   * the same in everything the estimate reads (request, stage, `describe`, `fresh`) may be
   * planned once, `calls` saying how many calls each stands for.
   */
  estimatePlan(
    exp: E,
    db: Database,
    storedFrom: number | null,
    forCost?: boolean,
  ): {
    tasks: ProtocolTask[];
    fresh: (t: ProtocolTask) => boolean;
    /** How many calls a task stands for (1 when absent). */
    calls?: (t: ProtocolTask) => number;
    /** In English (the CLI prints it); `noteKey` names the same text in the protocol's UI strings. */
    note: string;
    noteKey?: string;
  };
  /** Items to leave out in the sensitivity view, with reasons. */
  flagged?(exp: E, db: Database): FlaggedItem[];
  /**
   * Items whose inputs failed the protocol's verification (e.g. a translation's back-translation
   * check), with reasons, from the items `ctx` keeps; null when the experiment verifies nothing
   * (the results page then shows no verified-only switch).
   */
  unverified?(ctx: MetricsContext<E>): FlaggedItem[] | null;
  /** metrics.json's top-level keys in file order (the export contract); `name?` is written only when present. */
  readonly metricsKeys: readonly string[];
  /** Metrics: a pure function of stored results. */
  computeMetrics(ctx: MetricsContext<E>): Metrics;
  /** The protocol's tables (the same model drives the dashboard and the exports). */
  tables(metrics: Metrics): Table[];
  /** The protocol's figures (ECharts options; exported as SVG and PNG). */
  figures(metrics: Metrics): FigureSpec[];
  /** Graded observations per judge, condition and item; without it runs of the protocol cannot be compared. */
  comparable?(ctx: MetricsContext<E>): ComparableRow[];
  /** The figures' words in other languages (English is what `figures` builds). */
  readonly figureText?: Partial<Record<FigureLanguage, FigureDictionary>>;
  /** Extra export files beside metrics.json, tables and figures (e.g. one row per verdict). */
  /**
   * Files beside metrics.json: judgments.csv and the texts each verdict was given (translations,
   * rewrites, generated answers) in their own CSV keyed to it. `db` reads protocol tables (e.g.
   * a person's edit of a translation), read-only.
   */
  exportFiles?(ctx: MetricsContext<E>, calls: ReadonlyMap<number, TaskCall>, db: Database): ExportFile[];
  /** The default prompt templates, for the wizard's editors (by the names the config's options use). */
  defaultTemplates?(): Record<string, string>;
  /** Per-item views for the app. */
  views?: ProtocolViews;
  /** The verdicts behind its tables' numbers, for the verdict browser (optional; issue 26 item 4). */
  verdicts?: VerdictHooks<E>;
  /** The prompt templates as run, for the manifest. */
  /**
   * With `db`, texts the experiment made may join the templates (a paraphrase of the judging
   * instructions as judged); without it, the templates the config alone gives.
   */
  promptTemplates(exp: E, db?: Database): Record<string, string>;
  /** Offers the experiment's units for human rating and agreement (optional). */
  annotation?: AnnotationHooks<E>;
  /** Power of the protocol's confirmatory comparisons before a run (optional; src/main/paper). */
  power?: PowerHooks<E, Metrics>;
  /** Headline rows and gate measurements for the judge report card (optional; src/main/report-card). */
  reportCard?: ReportCardHooks<Metrics>;
  /**
   * The protocol's own Methods sections (optional; src/main/paper/methods-text.ts writes the
   * generic ones): its design and the statistics it reports, in `ctx.lang`. Every number in them
   * must come from `ctx.metrics`, the same metrics the tables use.
   */
  methods?(ctx: MethodsHookContext<E, Metrics>): MethodsSection[];
}

/**
 * The verdict browser (issue 26 item 4): which table cells stand on which verdicts, and the
 * usable verdicts themselves, read from the same context as `computeMetrics` (so a cell's count
 * and the rows it opens agree, with or without the flagged items). Pure over `ctx.results`.
 */
export interface VerdictHooks<E extends ExperimentView = ExperimentView> {
  readonly links: readonly VerdictLink[];
  rows(ctx: MetricsContext<E>): VerdictList;
}

/** What a protocol's Methods sentences are written from. */
export interface MethodsHookContext<E extends ExperimentView = ExperimentView, Metrics = unknown> {
  exp: E;
  metrics: Metrics;
  lang: MethodsLang;
}

/**
 * The judge report card (issue 25): what one judge (by its label in this experiment) showed,
 * read from the protocol's own metrics object (pure). Rows keep the metrics' n and intervals;
 * gate measurements name the gate they measure: the card's own (position consistency, ρ with
 * people) or one the protocol declares in `gates`.
 */
export interface ReportCardHooks<Metrics = unknown> {
  contribute(metrics: Metrics, judge: string): ReportCardContribution;
  /**
   * The gates this protocol measures beyond the card's own, as data: comparator, default
   * threshold, unit, the default's source and the gate's words in EN/中文. The card lists every
   * registered protocol's gates, measured or not, so a researcher can set them before a run.
   */
  gates?: readonly GateDeclaration[];
  /**
   * The words of the rows' phrases (conditions, reasons) and the protocol's title, in English and
   * Chinese; the app's registry hands the same dictionary to the page.
   */
  text: CardDictionary;
}

/**
 * The protocol's power model (issue 24): its confirmatory comparisons for the planned items,
 * each through one of the app's power models (src/shared/stats/power.ts). `pilot` is the
 * metrics of an earlier run of the same judges when one exists (its observed rates replace
 * the defaults); `effects` are effects the user typed, by comparison id.
 */
export interface PowerHooks<E extends ExperimentView = ExperimentView, Metrics = unknown> {
  comparisons(
    exp: E,
    pilot: Metrics | null,
    effects: Readonly<Record<string, number>>,
    at: PlanAt,
  ): PowerComparison[];
  /**
   * The rows of the result tables (`tables(metrics)`) that a comparison's test reads: with a
   * preregistration in force they are marked confirmatory, the rest exploratory
   * (src/shared/paper/confirmatory.ts). Without it no row is marked for any comparison.
   */
  reads?(comparison: string, metrics: Metrics): RowSelector[];
}

/**
 * Per-item views a protocol offers the app beyond results, all by name through the generic API
 * (`experiments.protocolView`, `experiments.protocolEdit`, `experiments.previewPrompts`): the
 * API names no protocol, and a protocol without a view answers "not offered".
 */
export interface ProtocolViews {
  /**
   * Read views (its rows, a flip browser, repeats side by side), by name: the query's schema
   * (its errors go back naming the field) and the view, computed from stored results.
   */
  custom?: Record<string, CustomView>;
  /** A person's edits of the protocol's rows (e.g. a transformed text), by name. */
  edits?: Record<string, EditView>;
  /** The prompts a draft config would send for one item (default: the first), stage by stage. */
  previewPrompts?(exp: ExperimentView, itemId?: number): PromptPreview;
}

export interface CustomView {
  query: z.ZodType<Record<string, unknown>>;
  run(db: Database, exp: ExperimentView, query: Record<string, unknown>): unknown;
}

/**
 * One kind of edit: the fields it takes (checked before `apply`; errors name the field) and what
 * it does: stores the edit and returns the tasks to re-plan and the edited row as its view shows it.
 */
export interface EditView {
  fields: z.ZodType<Record<string, unknown>>;
  apply(
    db: Database,
    exp: ExperimentView,
    fields: Record<string, unknown>,
  ): { tasks: ProtocolTask[]; row: object };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProtocol = ProtocolPlugin<any, any>;

/**
 * Human ratings (DESIGN.md section 5d): a protocol that offers its units for people to rate says
 * on which scale, shows each unit blinded, and reports its judges' ratings of the same units.
 * All three are pure over the stored results (`ctx.results`), like `computeMetrics`.
 */
export interface AnnotationHooks<E extends ExperimentView = ExperimentView> {
  scale(exp: E): RatingScale;
  /** Every unit people could rate, as they would see it. */
  units(ctx: MetricsContext<E>): AnnotationUnit[];
  /** The judges' ratings of those units (failed answers left out). */
  judgeRatings(ctx: MetricsContext<E>): JudgeRating[];
  /**
   * Each usable answer behind those ratings, with its order and repeat index, so the core can find
   * the units the judge is least sure about (the two orders or a repeat disagree; issue 36).
   * Without it only a score near a cut can be found.
   */
  asks?(ctx: MetricsContext<E>): JudgeAsk[];
  /**
   * Other things people can rate in the experiment, by task id (the scale's `task`), e.g. whether
   * a translation says what its source says; their "judges" are the protocol's automatic checks.
   */
  tasks?: Readonly<Record<string, AnnotationTask<E>>>;
}

/** One of a protocol's own rating tasks (AnnotationHooks.tasks). */
export interface AnnotationTask<E extends ExperimentView = ExperimentView> {
  /** Whether this experiment has anything to rate for the task (e.g. verification was on). */
  available(exp: E): boolean;
  /** A label scale whose `task` is this task's id. */
  scale(exp: E): RatingScale;
  /** `db` reads the protocol's own tables (e.g. a translation as edited by hand). */
  units(ctx: MetricsContext<E>, db: Database): AnnotationUnit[];
  /** The automatic checks' ratings of those units, each check as a judge. */
  judgeRatings(ctx: MetricsContext<E>, db: Database): JudgeRating[];
}
