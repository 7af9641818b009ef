// Builds a power plan's rows from the app's power models (src/shared/stats/power.ts), so each
// protocol only says which comparisons it makes, on how many units, with which rates: the
// figures, their undefined cases and the inverse (items for a typed effect) are the same for all.
import {
  exactBinomialMde,
  exactBinomialSampleSize,
  fisherZMde,
  fisherZSampleSize,
  mcnemarExactMde,
  mcnemarExactSampleSize,
  pairedTMde,
  pairedTSampleSize,
  wilcoxonMde,
  wilcoxonSampleSize,
} from '../stats/power';
import type { EffectSource, PowerAssumption, PowerComparison } from './types';

/** The α and power a plan is made at. */
export interface PlanAt {
  alpha: number;
  power: number;
}

/** What every row names: its id and words, the units it counts and how many. */
export interface RowBase {
  id: string;
  label: string;
  labelKey?: string;
  labelParams?: Record<string, string>;
  unit: string;
  unitsPerItem: number;
  n: number;
}

const itemsFor = (units: number | null, perItem: number) =>
  units === null ? null : Math.ceil(units / perItem);
const NO_UNITS = 'no units to test: the plan has no items';
const BEYOND = 'beyond a million items';

/**
 * The effect a row plans for when none is typed: the pilot's observation when it has a usable
 * one, else the app's default, saying which.
 */
export interface FallbackEffect {
  value: number;
  source: Exclude<EffectSource, 'user'>;
}

/** The pilot's effect when it is a finite number (and `usable` holds), else the default. */
export function fallbackEffect(
  pilot: number | null | undefined,
  fallback: number,
  usable: (x: number) => boolean = () => true,
): FallbackEffect {
  return pilot !== null && pilot !== undefined && Number.isFinite(pilot) && usable(pilot)
    ? { value: pilot, source: 'pilot' }
    : { value: fallback, source: 'default' };
}

/** What a row is asked to plan for: the user's typed effect, else its fallback. */
export interface PlannedEffect {
  typed?: number;
  fallback: FallbackEffect;
}

const effectSourceOf = (e: PlannedEffect): EffectSource =>
  e.typed !== undefined ? 'user' : e.fallback.source;

/**
 * The rise of a rate over its reference p0 to plan for: the user's, else the pilot's rate above
 * p0 when the pilot lies above it, else the default rise.
 */
export function riseOverReference(
  typed: number | undefined,
  pilot: number | null,
  p0: PowerAssumption,
  defaultRise: number,
): PlannedEffect {
  return {
    typed,
    fallback: fallbackEffect(pilot === null ? null : pilot - p0.value, defaultRise, (rise) => rise > 0),
  };
}

/**
 * A protocol's plan of its confirmatory tests (`PowerHooks.comparisons`): from the experiment, a
 * pilot's metrics (null without one), the effects the user typed by comparison id, and the level
 * and power asked for.
 */
export type PlanComparisons<E, Metrics> = (
  exp: E,
  pilot: Metrics | null,
  effects: Readonly<Record<string, number>>,
  at: PlanAt,
) => PowerComparison[];

/** A rate taken from the pilot when it has one, else the default. */
export function assumed(
  key: PowerAssumption['key'],
  name: string,
  pilot: number | null | undefined,
  fallback: number,
): PowerAssumption {
  return pilot !== null && pilot !== undefined && Number.isFinite(pilot)
    ? { key, name, value: pilot, source: 'pilot' }
    : { key, name, value: fallback, source: 'default' };
}

function row(
  base: RowBase,
  model: PowerComparison['model'],
  effectScale: string,
  assumptions: PowerAssumption[],
  mde: number | null,
  mdeUndefined: string,
  effect: number,
  effectSource: EffectSource,
  units: number | null,
  itemsUndefined: string,
): PowerComparison {
  const itemsNeeded = itemsFor(units, base.unitsPerItem);
  return {
    ...base,
    model,
    effectScale,
    assumptions,
    mde,
    ...(mde === null ? { mdeUndefined: base.n === 0 ? NO_UNITS : mdeUndefined } : {}),
    effect,
    effectSource,
    effectTyped: effectSource === 'user',
    itemsNeeded,
    ...(itemsNeeded === null ? { itemsUndefined } : {}),
  };
}

/**
 * A paired change of a proportion tested by the exact McNemar test: the effect is |p10 − p01|
 * (the change), ψ = p10 + p01 the discordant share.
 */
export function mcnemarRow(
  base: RowBase,
  psi: PowerAssumption,
  effect: PlannedEffect,
  at: PlanAt,
): PowerComparison {
  const d = Math.abs(effect.typed ?? effect.fallback.value);
  const valid = psi.value > 0 && psi.value <= 1;
  const mde = valid && base.n > 0 ? mcnemarExactMde(base.n, psi.value, at.alpha, at.power) : null;
  const units =
    valid && d > 0 && d <= psi.value ? mcnemarExactSampleSize(psi.value, d, at.alpha, at.power) : null;
  return row(
    base,
    'mcnemar-exact',
    'difference of paired proportions',
    [psi],
    mde,
    !valid
      ? 'the discordant share ψ is 0: nothing changes, nothing can be detected'
      : `even a change equal to the discordant share ψ = ${psi.value.toFixed(3)} is not detected with ${base.n} ${base.unit}`,
    d,
    effectSourceOf(effect),
    units,
    !valid || d === 0
      ? 'the effect is 0'
      : d > psi.value
        ? `a change larger than the discordant share ψ = ${psi.value.toFixed(3)} cannot occur`
        : BEYOND,
  );
}

/** A rate tested against a reference rate p0 by the exact binomial test; the effect is the rise over p0. */
export function binomialRow(
  base: RowBase,
  p0: PowerAssumption,
  effect: PlannedEffect,
  at: PlanAt,
): PowerComparison {
  const rise = Math.abs(effect.typed ?? effect.fallback.value);
  const top = base.n > 0 ? exactBinomialMde(base.n, p0.value, 'up', at.alpha, at.power) : null;
  const p1 = p0.value + rise;
  const units = rise > 0 && p1 <= 1 ? exactBinomialSampleSize(p0.value, p1, at.alpha, at.power) : null;
  return row(
    base,
    'binomial-exact',
    'rise of the rate over the reference rate p0',
    [p0],
    top === null ? null : top - p0.value,
    `no rate up to 1 is detected with ${base.n} ${base.unit}`,
    rise,
    effectSourceOf(effect),
    units,
    rise === 0 ? 'the effect is 0' : p1 > 1 ? 'the rate would exceed 1' : BEYOND,
  );
}

/** A paired mean difference: the paired t and the Wilcoxon signed-rank test (ARE 3/π); effects in d_z. */
export function pairedRows(
  base: RowBase,
  sd: PowerAssumption | null,
  effect: PlannedEffect,
  at: PlanAt,
): PowerComparison[] {
  const dz = Math.abs(effect.typed ?? effect.fallback.value);
  const assumptions = sd ? [sd] : [];
  const fewer = `fewer than 2 ${base.unit}`;
  const t = row(
    base,
    'paired-t',
    "standardized mean difference d_z (Cohen's)",
    assumptions,
    pairedTMde(base.n, at.alpha, at.power),
    fewer,
    dz,
    effectSourceOf(effect),
    dz > 0 ? ceilOrNull(pairedTSampleSize(dz, at.alpha, at.power)) : null,
    dz === 0 ? 'the effect is 0' : BEYOND,
  );
  const w = row(
    { ...base, id: `${base.id}:wilcoxon` },
    'wilcoxon-are',
    "standardized mean difference d_z (Cohen's)",
    assumptions,
    // The ARE needs n · 3/π ≥ 2 equivalent pairs.
    base.n >= 3 ? wilcoxonMde(base.n, at.alpha, at.power) : null,
    `fewer than 3 ${base.unit}`,
    dz,
    effectSourceOf(effect),
    dz > 0 ? ceilOrNull(wilcoxonSampleSize(dz, at.alpha, at.power)) : null,
    dz === 0 ? 'the effect is 0' : BEYOND,
  );
  return [t, w];
}

/** A correlation whose Fisher-z interval should exclude ρ0; the effect is the true ρ expected. */
export function fisherZRow(
  base: RowBase,
  rho0: number,
  rho1: PowerAssumption,
  effect: { typed?: number },
  at: PlanAt,
): PowerComparison {
  const r = effect.typed ?? rho1.value;
  const ok = Math.abs(r) < 1 && r !== rho0;
  return row(
    base,
    'fisher-z',
    `Spearman ρ whose interval excludes ${rho0}`,
    [{ key: 'rho0', name: 'threshold ρ0', value: rho0, source: 'default' }, rho1],
    base.n > 3 ? fisherZMde(base.n, rho0, 'up', at.alpha, at.power, true) : null,
    `4 ${base.unit} at least`,
    r,
    effectSourceOf({ typed: effect.typed, fallback: { value: rho1.value, source: rho1.source } }),
    ok ? ceilOrNull(fisherZSampleSize(r, rho0, at.alpha, at.power, true)) : null,
    ok ? BEYOND : `ρ must lie in (−1, 1) and differ from ${rho0}`,
  );
}

const ceilOrNull = (x: number | null) => (x === null ? null : Math.ceil(x - 1e-9));
