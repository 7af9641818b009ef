// The paper kit's types that cross the doors (issue 24; docs/DESIGN.md "Paper kit"): the power
// plan shown beside the cost. Protocol-neutral: a protocol names its comparisons, the power
// models (src/shared/stats/power.ts) are the app's.

/** The power models a comparison may use (the glossary names each formula). */
export type PowerModel = 'mcnemar-exact' | 'binomial-exact' | 'paired-t' | 'wilcoxon-are' | 'fisher-z';

/** A rate or effect a power figure rests on, and where it came from. */
export interface PowerAssumption {
  /** Which rate: the UI's words for it are `wizard.power.assumptions.<key>`. */
  key: 'psi' | 'p0' | 'sd' | 'rho0' | 'rho1';
  /** What it is, in English (e.g. "discordant share ψ"). */
  name: string;
  value: number;
  /**
   * 'pilot': observed in the plan's pilot (`PowerPlan.pilot` names the run); 'default': the
   * app's assumption.
   */
  source: 'pilot' | 'default';
}

/** Where a planned effect came from: typed by the user, observed in the pilot, or the app's default. */
export type EffectSource = 'user' | 'pilot' | 'default';

/** One confirmatory comparison: the smallest effect the planned items detect, and the items an effect needs. */
export interface PowerComparison {
  /** Stable id, the key a typed effect is given under (e.g. "accuracy_change:EN-ZH"). */
  id: string;
  /** In English; `labelKey` names the same words in the protocol's UI strings (params: `labelParams`). */
  label: string;
  labelKey?: string;
  labelParams?: Record<string, string>;
  model: PowerModel;
  /** How the effect is measured (English), e.g. "difference of proportions". */
  effectScale: string;
  /** Units the test counts (pairs, items, questions) and how many one item gives. */
  unit: string;
  unitsPerItem: number;
  /** Units the chosen items give, per judge. */
  n: number;
  /** Smallest detectable effect at the plan's power and α; null with `mdeUndefined` saying why. */
  mde: number | null;
  mdeUndefined?: string;
  assumptions: PowerAssumption[];
  /** The effect the inverse is for, and where it came from (`effectTyped`: the user's). */
  effect: number;
  effectSource: EffectSource;
  effectTyped: boolean;
  /** Items needed for `effect` at the plan's power and α; null with `itemsUndefined` saying why. */
  itemsNeeded: number | null;
  itemsUndefined?: string;
}

export interface PowerPlan {
  alpha: number;
  power: number;
  /** The run whose observed rates were used; null when every rate is the app's default. */
  pilot: { experimentId: number; name: string; simulated: boolean } | null;
  comparisons: PowerComparison[];
}
