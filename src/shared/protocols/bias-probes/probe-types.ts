// The probe kit's contract (DESIGN.md §5c "Probes", §1b "How to add a probe"): a probe is one
// module that declares its perturbation (the texts or prompt a judge sees in its conditions), the
// effects that compare two conditions and how (pointwise score change, pairwise flip, paired
// position), each effect's placebo, its texts in English and Chinese and, optionally, its own
// power model and report-card gate. The bias-probes protocol (src/main/protocols/bias-probes/)
// plans, judges, measures, tables and cards every registered probe from these declarations; a
// probe never reaches into the protocol. Pure: the main side, the dashboard and tests read it.
import type { ZodType } from 'zod';
import type { PlanAt } from '../../paper/power-rows';
import type { PowerComparison } from '../../paper/types';
import type { Mode, ProbeRow } from './types';

/** The resolved options every probe may read (the bias-probes config after defaults). */
export interface BiasProbeOptions {
  mode: Mode;
  scale: 5 | 10;
  rubric: string | null;
  /** The probes this experiment runs, in registry order. */
  probes: string[];
  lengthBand: [number, number];
  shorterBand: [number, number];
  shorter: boolean;
  formatTolerance: number;
  noiseFloor: boolean;
  /** Paraphrases of the judging instructions per experiment and mode (the rubric probe; 1–5, default 3). */
  paraphrases: number;
  /**
   * The selected probes' own options (`BiasProbe.options`) after defaults, by probe id; present
   * only when a selected probe declares some (a probe reads its own with `probeOption`).
   */
  probeOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/**
 * An option a probe declares for itself: set in the config under `probeOptions.<probe id>.<key>`
 * (CLI config file, API), checked by `schema`, `default` when not given. The stored config (and
 * so the manifest) holds every selected probe's options with their defaults filled in.
 */
export interface ProbeOption<T = unknown> {
  key: string;
  schema: ZodType<T>;
  default: T;
  label: Bilingual;
}

/** A text in both languages of the app. */
export interface Bilingual {
  en: string;
  zh: string;
}

/**
 * A text the rewriter model makes (the `rewrite` stage): one request per response (pairwise: per
 * worse response), tagged `<rewrite_task>` with the condition's id, audited before it is judged.
 */
export interface RewriteSpec {
  /** What the rewriter is asked to do (after the `<rewrite_task>` tag). */
  instructions: string;
  /** The condition whose text the rewriter gets: `original`, or a derived condition (Markdown from `plain`). */
  from: string;
  /** The placeholder the manifest's prompt template shows for that text (`{{response}}`). */
  placeholder: string;
  /** Only when this holds (default: always). */
  when?: (opts: BiasProbeOptions) => boolean;
  /** The token ratio variant / source the audit accepts. */
  band: (opts: BiasProbeOptions) => [number, number];
  /** The audit's `checks` entry naming that band in metrics.json (key, value). */
  check: (opts: BiasProbeOptions) => [string, unknown];
  /** The words of a variant the audit counts (Markdown: its markup stripped); default the text. */
  content?: (variant: string) => string;
  /** The estimate's stand-in before the rewrite exists (default: the source text). */
  standIn?: (source: string) => string;
}

/**
 * How a condition's text is made from a response's original text: by the rewriter (`rewrite`),
 * by code with no call (`derive`), or unchanged (`same`: the condition changes the prompt only).
 */
export type ConditionText = { rewrite: RewriteSpec } | { derive: (text: string) => string } | { same: true };

/** What a prompt change of a condition is told about the judge call it changes. */
export interface PromptContext {
  mode: Mode;
  /** Pairwise: the letter the worse response is shown under in this call. */
  worse: 'A' | 'B' | null;
  /** The score scale asked for (pointwise; pairwise: the experiment's scale, unused). */
  scale: number;
  /** The experiment's resolved options (a probe's own: `probeOption(ctx.opts, id, option)`). */
  opts: BiasProbeOptions;
  /** The item the call judges: its instruction (the question the responses answer). */
  item: { sourceId: string; instruction: string; category: string | null };
  /** The judge asked (its label in the config, its model name): a self-preference probe's "own". */
  judge: { label: string; model: string };
  /**
   * The models that wrote the responses shown, where the dataset names them (pairwise `model_1`
   * / `model_2`, pointwise `model`), else null: pairwise by the letter each is shown under in
   * this call, pointwise the scored response's under `response`.
   */
  models: { A: string | null; B: string | null } | { response: string | null };
}

/** One judge call's prompt, before and after a condition's change. */
export interface JudgePrompt {
  system: string;
  user: string;
}

/**
 * A condition: what a judge is shown in it. Pointwise, each response is scored alone in it.
 * Pairwise, `pairwise` says which response changes: `both` (both texts made alike, as `plain`),
 * or `worse` (the non-gold response changes; the better one is shown as in condition `betterAs`,
 * `original` or a derived condition, so the pair differs only in the probed property).
 */
export interface ConditionSpec {
  /** The condition's name in task keys, metrics and exports; a rewrite's `<rewrite_task>`. */
  id: string;
  /** Its name for a reader (the accuracy table's variant, the variant browser's filter). */
  name: Bilingual;
  text: ConditionText;
  /** Judged alone in pointwise mode. */
  pointwise: boolean;
  pairwise: null | 'both' | { worse: true; betterAs: string };
  /** A change of the judge's instructions or message in this condition (rubric, system, user). */
  prompt?: (prompt: JudgePrompt, ctx: PromptContext) => JudgePrompt;
  /** Its score is the item's debiased score (the format probe's plain text). */
  debiases?: boolean;
  /**
   * The judge's instructions paraphrased by the rewriter in this condition (the pointwise rubric,
   * the pairwise instructions): K paraphrases per experiment, each (item, response/order) judged
   * under one of them, round-robin on the item's position in the plan.
   */
  instructions?: InstructionRewriteSpec;
}

/**
 * A rewrite of the judging instructions rather than of a response: made `count(opts)` times per
 * experiment and mode (not per item), audited like a response rewrite (not empty, numbers kept,
 * token ratio paraphrase / original inside `band`).
 */
export interface InstructionRewriteSpec {
  /** What the rewriter is asked to do (after the `<rewrite_task>` tag, the condition's id). */
  instructions: string;
  count: (opts: BiasProbeOptions) => number;
  band: (opts: BiasProbeOptions) => [number, number];
}

/**
 * An effect: the paired comparison one row of the bias profile reports.
 * - `paired-change`: pointwise, a response's score in `variant` − in `base` (score change);
 *   pairwise, the worse response's win score (1 win, ½ tie, 0 loss) in `variant` − in `base`
 *   per (item, order), with the flip rate (its verdict moved to the worse response).
 * - `paired-position`: pointwise, a response scored with the pair in view, shown first − shown
 *   second; pairwise, the paired position test on the original pair in both orders (the
 *   `position` table). `variant` and `base` are `original`.
 * - `own-answers` (pairwise; observational, nothing is perturbed): on the items where exactly one
 *   response was written by the judge's own model (`ownAnswer`), the judge's win score of that
 *   response (both orders averaged) − the gold label's (1 when the humans preferred it, else 0),
 *   per item; with the length-balanced excess (`own_answers` in metrics.json). `variant` and
 *   `base` are `original`.
 */
export interface EffectSpec {
  id: string;
  measure: 'paired-change' | 'paired-position' | 'own-answers';
  variant: string;
  base: string;
  /** Modes the effect is measured in. */
  modes: readonly Mode[];
  /**
   * The placebo: the condition whose unchanged text is asked again (sample 1) with the noise
   * floor on, the same text and view the effect starts from (`second` for paired position: the
   * response shown second). Each effect is then read against its own placebo.
   */
  placebo: string;
  /** Its label in tables, figures and the verdict browser, per mode (pairwise default: the id). */
  label: { pointwise: Bilingual; pairwise?: Bilingual };
  /** Its short name on the report card (`{{effect}}`). */
  short: Bilingual;
  /**
   * The label of its placebo's rows in the noise floor (tables, figures) when the repeated
   * condition is not the original (whose rows read "Repeat − first (placebo)").
   */
  placeboLabel?: Bilingual;
  /**
   * `own-answers`: whether a response written by `answerModel` (the dataset's `model_1` /
   * `model_2`) is the judge's own, for a judge asking `judgeModel`.
   */
  ownAnswer?: (judgeModel: string, answerModel: string, opts: BiasProbeOptions) => boolean;
}

/** What a probe's power model is given (the kit's default serves a probe without one). */
export interface ProbePowerContext {
  effect: EffectSpec;
  mode: Mode;
  /** Items in the plan, and the paired units of this effect (pointwise: responses; pairwise: items). */
  items: number;
  units: number;
  /** The pilot's rows of this effect (category "all" and the others), or none. */
  pilot: ProbeRow[];
  /** The effect the user typed for a comparison id, if any. */
  typed: Readonly<Record<string, number>>;
  at: PlanAt;
  /** The kit's default rows for this effect (paired t and Wilcoxon), to keep or adjust. */
  standard: () => PowerComparison[];
}

export interface BiasProbe {
  /** The probe's name in the config's `probes` list and in metrics.json (`ProbeRow.probe`). */
  id: string;
  /** Its conditions, in the order the plan asks them (after the item's `original`). */
  conditions: readonly ConditionSpec[];
  effects: readonly EffectSpec[];
  /** The effects the power plan covers (default: those measured in the experiment's mode). */
  powerEffects?: (opts: BiasProbeOptions) => string[];
  /** Its own power model per effect (default: the kit's paired rows, McNemar for pairwise position). */
  power?: (ctx: ProbePowerContext) => PowerComparison[];
  /** The report-card gate its effects' d_z feeds, if any (a gate id the card knows). */
  cardGate?: string;
  /**
   * Left out of the default selection (a config without `probes`, the wizard's first draft): its
   * calls come on top of the battery a study ran before it existed, so such a study is unchanged.
   */
  optIn?: boolean;
  /**
   * How its perturbation shows in a judge call, for the simulated provider's `-bias-<id><NN>`
   * judge (providers/simulated/planted-bias.ts): the side it favours — the letter pairwise, the
   * scored `response` pointwise — or null where the call carries none (its base, its placebo,
   * other probes' calls). Without it the simulated provider plants nothing for the probe.
   */
  detect?: (prompt: JudgePrompt, mode: Mode) => 'A' | 'B' | 'response' | null;
  /**
   * The modes `detect` plants an effect of known size in (default: every mode its effects are
   * measured in). A probe whose perturbation carries no side pairwise (a paraphrase of the whole
   * instructions) plants pointwise only; the validation's cells read this.
   */
  plantedModes?: readonly Mode[];
  /**
   * Refused on a dataset that names no response's model (no `model_1` / `model_2` / `model`):
   * what it measures needs to know who wrote each response. The words say what is missing.
   */
  needsAnswerModels?: Bilingual;
  /** Its own options (the kit's `BiasProbeOptions` are shared by all probes). */
  options?: readonly ProbeOption[];
  texts: {
    /** Its name (report card `{{probe}}`, the wizard's recap). */
    name: Bilingual;
    /** The wizard's words for choosing it (default: its name). */
    choice?: Bilingual;
    /** A Methods sentence saying what it perturbs (optional; listed under the design). */
    methods?: Bilingual;
  };
}

/** A probe's option as resolved (its default when the config leaves it out). */
export function probeOption<T>(
  opts: Pick<BiasProbeOptions, 'probeOptions'>,
  probe: string,
  option: ProbeOption<T>,
): T {
  const given = opts.probeOptions?.[probe];
  return given && Object.hasOwn(given, option.key) ? (given[option.key] as T) : option.default;
}

/** What a rewriter answers when a shorter variant has no filler to cut: no variant is made. */
export const NO_FILLER = 'NO_FILLER';
