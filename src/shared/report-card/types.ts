// The judge report card's model (issue 25 §1): what one judge model showed in every study of the
// store, side by side, and the gates a researcher holds it to. Pure data: the main process fills
// it (src/main/report-card/), the app and the exports draw it. Nothing here names a protocol: a
// protocol contributes rows and gate measurements through its plug-in's `reportCard` hook.
import type { CI } from '../report/format';
import type { ExperimentStatus } from '../experiments';

/** A judge model: the provider kind (openai, anthropic, …) and the model id, as configs name it. */
export interface JudgeModelRef {
  kind: string;
  model: string;
}

/** `kind:model`, the key a judge is addressed by (URLs, the CLI's MODEL). */
export const judgeKey = (j: JudgeModelRef): string => `${j.kind}:${j.model}`;

/** How a value is shown: a share (in percent) or a plain number (ρ, κ, d_z). */
export type ValueUnit = 'pct' | 'num';

/**
 * Words of the card as data, put into a language only where they are shown (the page, the
 * figure, the exports): a key of the protocol's card dictionary (or of the card's own, e.g.
 * `people`) and its parameters. A parameter that names a word of the protocol (a probe, a mode)
 * is translated through the dictionary's `values`; codes (EN, NR) and user names pass through.
 */
export interface CardPhrase {
  key: string;
  params?: Record<string, string | number>;
}

/** One language of a card dictionary (see report-card/phrases.ts). */
export interface CardWords {
  /** The protocol's title in this language (a protocol's dictionary; absent: its own title). */
  title?: string;
  /** Templates by phrase key; `{{name}}` takes the parameter `name`. */
  phrases: Record<string, string>;
  /** Words for parameter values, by parameter then value (a value not listed passes through). */
  values?: Record<string, Record<string, string>>;
  /** A protocol's own headline measures by id (`HeadlineRow.measure`); else the card's, else the row's label. */
  measures?: Record<string, string>;
}

/**
 * One headline figure of one experiment. `measure` is a stable id (`accuracy`, `flip_rate`, …)
 * the app translates, `label` its English wording; `condition` says under what it was measured
 * (a language, a setting, a probe).
 */
export interface HeadlineRow {
  measure: string;
  label: string;
  condition: CardPhrase;
  n: number;
  value: number | null;
  ci: CI | null;
  unit: ValueUnit;
  /** Why the value or, when the value exists, its interval is undefined; absent when both exist. */
  note?: CardPhrase;
}

/**
 * A property a gate can hold a judge to, by id. Not a closed list: the card declares its own
 * (`CARD_GATES` in gates.ts) and each study declares the ones it measures (its plug-in's
 * `reportCard.gates`); the core gathers them from the protocol registry.
 */
export type GateId = string;

/**
 * The paired test of a position lean behind a position-consistency measurement (issue 32 item 1):
 * items that chose the answer shown first in both orders against those that chose the second,
 * exact McNemar, Holm-adjusted over the protocol's table family.
 */
export interface PositionLeanTest {
  both_first: number;
  both_second: number;
  lean: 'first' | 'second' | 'none';
  /** The Holm-adjusted p the gate reads. */
  p: number;
}

/** One measurement of a gate's property, by one experiment. */
export interface GateMeasurement {
  gate: GateId;
  condition: CardPhrase;
  n: number;
  value: number | null;
  ci: CI | null;
  note?: CardPhrase;
  /** Position gate only: a significant lean fails the gate whatever the consistency. */
  lean?: PositionLeanTest;
  /**
   * Set when the measurement comes from a run that has not finished (paused at 22 of 192
   * calls, running, cancelled): it is shown, but no gate passes or fails on it.
   */
  incomplete?: { status: string; answered: number; planned: number };
}

/** What a protocol contributes for one judge label of one experiment. */
export interface ReportCardContribution {
  rows: HeadlineRow[];
  gates: GateMeasurement[];
}

/**
 * A gate: `at_least` (value ≥ threshold), `at_most` (value ≤ threshold) or `abs_below`
 * (|value| < threshold). With `ciMustClear` the whole 95% interval must be on the passing side.
 */
export interface GateDefinition {
  id: GateId;
  comparator: 'at_least' | 'at_most' | 'abs_below';
  threshold: number;
  ciMustClear: boolean;
  enabled: boolean;
  unit: ValueUnit;
  /** Where the default comes from; null once the researcher changed the threshold. */
  source: string | null;
  /**
   * The gate's name and (when it has one in that language) its default's source, per language:
   * the declaration carries its own words, so a page or file never looks a gate up in a list.
   */
  text: Record<'en' | 'zh', { name: string; source?: string }>;
  /** The thresholds that make sense beyond the unit's own (a correlation: [-1, 1]). */
  thresholdRange?: [number, number];
}

/** A gate as a study (or the card) declares it: its definition with the literature default. */
export type GateDeclaration = Omit<GateDefinition, 'enabled' | 'source'> & {
  enabled?: boolean;
  source: string;
};

/** What the researcher may change about a gate (the gates file's entries). */
export interface GateSetting {
  threshold?: number;
  ciMustClear?: boolean;
  enabled?: boolean;
}

/** By gate id (ids are declared by studies, so any string; unknown ids are refused by the core). */
export type GateSettings = Record<GateId, GateSetting>;

/**
 * pass; warn: the value passes but its 95% interval reaches past the threshold (a gate that does
 * not ask the whole interval to clear it); fail; not measured; incomplete: measured only by runs
 * that have not finished.
 */
/**
 * `off`: the researcher turned the gate off; it stays on the card and in its exports, unchecked.
 * `incomplete`: measured only by runs that have not finished; no gate passes or fails on them.
 */
export type GateStatus = 'pass' | 'warn' | 'fail' | 'not_measured' | 'incomplete' | 'off';

/** A measurement held to its gate, with the experiment it comes from. */
export interface GateCheck extends GateMeasurement {
  experimentId: number;
  experimentName: string;
  dataset: string;
  status: Exclude<GateStatus, 'not_measured' | 'off'> | 'undefined';
  /** Why it failed or is undefined (e.g. "the 95% interval … is not clear of 0.80"). */
  reason?: CardPhrase;
}

export interface GateResult {
  definition: GateDefinition;
  /** fail when any measurement fails; else warn when any warns; pass when every defined one passes; else not measured. */
  status: GateStatus;
  /** The measurement the status rests on (the worst one), when there is one. */
  decisive: GateCheck | null;
  checks: GateCheck[];
}

/** One experiment that used the judge, with what it showed. */
export interface CardExperiment {
  experimentId: number;
  name: string;
  protocol: string;
  protocolTitle: string;
  dataset: string;
  datasetId: number;
  /** Items the experiment planned (its `limit` and filters applied). */
  items: number;
  status: ExperimentStatus;
  /** The judge's labels in this experiment (one model may be judged under two labels). */
  labels: string[];
  /** Answered by the built-in simulated provider: a demo, not a measurement. */
  simulated: boolean;
  /** Answered from a recorded-answers file (judgments made elsewhere), not asked by this app. */
  recorded: boolean;
  rows: (HeadlineRow & { judge: string })[];
  /** Why nothing could be computed (e.g. the protocol offers no report card rows). */
  note?: CardPhrase;
}

export interface ReportCard {
  judge: JudgeModelRef;
  generatedAt: string;
  experiments: CardExperiment[];
  gates: GateResult[];
  /**
   * Each listed protocol's card words (its `reportCard.text`), as the core has them: a page
   * speaks a study's phrases and measures without a renderer part of that study.
   */
  words?: Record<string, Record<'en' | 'zh', CardWords>>;
}

/** A judge model of the store, for the list of judges. */
export interface JudgeSummary extends JudgeModelRef {
  key: string;
  experiments: number;
  protocols: string[];
  /** Some of its experiments answered from a recorded file. */
  recorded: boolean;
  /** Some of its experiments answered by the simulated provider. */
  simulated: boolean;
}
