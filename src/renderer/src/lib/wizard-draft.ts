// The setup wizard's draft as data: what the generic steps and every protocol's plug-in read
// and edit. It names no protocol and asks no registry, so the protocol registry's types can
// use it (lib/experiment-config.ts, which consults the registry, builds on it).
import type { DatasetKind } from '../../../shared/domain';
import type { PresetId, ProviderDraft } from './providers';
import type { PlanDraft } from '../preregistration/plan-form';

/** A wizard step: the generic ones below, or one a protocol plug-in adds (e.g. `transform`). */
export type StepId = string;

/** The generic steps; a protocol's own steps go between the judges and the options. */
export const FIRST_STEPS = ['dataset', 'protocol', 'judges'] as const;
export const LAST_STEPS = ['options', 'summary'] as const;

export interface JudgeDraft {
  /** Stable React key; not part of the config. */
  key: string;
  label: string;
  /** Until the user types a label, it follows the model name. */
  labelEdited: boolean;
  provider: PresetId;
  model: string;
  temperature: string;
  /** Through the provider's Batch API (half price, answers within 24 h) instead of live calls. */
  batch?: boolean;
}

/** A user's price for one model, USD per 1M tokens, as typed. */
export interface PriceDraft {
  input: string;
  /** Empty: the same as input. */
  cachedInput: string;
  output: string;
}

export const PRICE_FIELDS = ['input', 'cachedInput', 'output'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

export interface WizardDraft {
  datasetId: number | null;
  /**
   * The chosen dataset's kind, so each step can check at once that its choices fit the data
   * (issue 38: a QA-only study or a two-response probe on the wrong data). Absent: not known yet.
   */
  datasetKind?: DatasetKind;
  /** The chosen protocol's id; null until one is chosen (the first registered is then in use). */
  protocol: string | null;
  /** Each protocol's own part of the draft, by protocol id, as its plug-in edits it. */
  protocolDrafts: Record<string, unknown>;
  judges: JudgeDraft[];
  /** Every provider the user touched; the config gets only those in use. */
  providers: Partial<Record<PresetId, ProviderDraft>>;
  limit: string;
  /** How the items are picked: the first `limit`, or a random sample of `limit` fixed by `seed`. */
  sample?: 'first' | 'random';
  seed?: string;
  /** Only these subsets (empty or absent: all). */
  subsets?: string[];
  name: string;
  nameEdited: boolean;
  /** Price overrides per model; models not listed use the shipped table. */
  prices: Record<string, PriceDraft>;
  /**
   * The analysis plan to lock at create (the config's `preregistration`), as the run page's lock
   * form edits it; absent or null: nothing is locked.
   */
  preregistration?: PlanDraft | null;
}

export interface DraftIssue {
  /** Config path, e.g. `judges[1].label`, `providers.openai.rpm`. */
  field: string;
  /** i18n key under `wizard.errors`. */
  code: string;
  params?: Record<string, string | number>;
}
