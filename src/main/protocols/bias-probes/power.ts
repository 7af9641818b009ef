// Bias probes' power model (issue 24): per probe, the paired difference (modified − unchanged
// score) by the paired t and by the Wilcoxon signed-rank test the metrics report (through its
// ARE 3/π), in d_z. A pilot's probe rows give the expected d_z (mean |d_z| over its judges) and
// the SD of the differences that turns d_z into score points. Pairwise, the position probe is
// the paired position test the run reports (issue 32 item 1): exact McNemar of the items that
// chose the answer shown first in both orders against those that chose the second, one unit per
// item (its two orders are the pair), planned with the McNemar model.
import {
  assumed,
  fallbackEffect,
  mcnemarRow,
  pairedRows,
  type PlanAt,
} from '../../../shared/paper/power-rows';
import type { RowSelector } from '../../../shared/paper/confirmatory';
import type { PowerComparison } from '../../../shared/paper/types';
import { effectLabel } from '../../../shared/protocols/bias-probes/report/tables';
import type { Item } from '../../../shared/domain';
import {
  ALL,
  type BiasMetrics,
  type Mode,
  type PositionRow,
  type Probe,
  type ProbeRow,
} from '../../../shared/protocols/bias-probes/types';
import type { BiasProbeOptions, EffectSpec } from '../../../shared/protocols/bias-probes/probe-types';
import { effectById, selectedProbes } from '../../../shared/protocols/bias-probes/probe-registry';
import { biasItem } from './item';

/** What the plan reads of the experiment (structural: this module stays off the seam's import ring). */
interface PlannedBias {
  items: readonly Item[];
  options: { probes: readonly Probe[]; shorter: boolean; mode: Mode };
}

/** Without a pilot: the share of items whose two orders both chose one position, … */
const DEFAULT_LEAN_DISCORDANT = 0.1;
/** … and the lean the inverse plans for: (both first − both second) / items, 5 points. */
const DEFAULT_LEAN = 0.05;

/** The pilot's position rows (all categories) as the McNemar model reads them: ψ and the lean. */
function pilotLean(pilot: BiasMetrics | null): { psi: number | null; lean: number | null } {
  const rows = (pilot?.position ?? []).filter((r) => r.category === ALL && r.n_pairs - r.tied > 0);
  const decided = (r: PositionRow) => r.n_pairs - r.tied;
  return {
    psi: meanOf(rows.map((r) => (r.both_first + r.both_second) / decided(r))),
    lean: meanOf(rows.map((r) => Math.abs(r.both_first - r.both_second) / decided(r))),
  };
}

/** The d_z the inverse plans for without a pilot (between Cohen's small and medium). */
const DEFAULT_DZ = 0.3;

/**
 * The effects the plan covers, per selected probe in registry order: its `powerEffects`, else
 * the effects it measures in the experiment's mode.
 */
function effectsOf(options: PlannedBias['options']): EffectSpec[] {
  return selectedProbes(options).flatMap((p) => {
    const ids = p.powerEffects
      ? p.powerEffects(options as BiasProbeOptions)
      : p.effects.filter((e) => e.modes.includes(options.mode)).map((e) => e.id);
    return ids.map((id) => effectById(id)!.effect);
  });
}

/**
 * Pointwise: the responses whose scores a probe pairs, one difference each (the position probe
 * scores the two responses of a pair, so only items with two count).
 */
function responses(exp: PlannedBias, effect: EffectSpec): number {
  return exp.items
    .map(biasItem)
    .filter((i) => effect.measure !== 'paired-position' || i.responses.length === 2)
    .reduce((n, i) => n + i.responses.length, 0);
}

const meanOf = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** The `power` capability of the bias-probes plug-in (protocols/plugin.ts `PowerHooks`). */
export const biasPower = {
  comparisons(
    exp: PlannedBias,
    pilot: BiasMetrics | null,
    effects: Readonly<Record<string, number>>,
    at: PlanAt,
  ): PowerComparison[] {
    // The position probe needs an item with two responses to swap.
    const pairs = exp.items.map(biasItem).filter((i) => i.responses.length === 2).length;
    return effectsOf(exp.options).flatMap((spec) => {
      const effect = spec.id;
      if (spec.measure === 'paired-position' && exp.options.mode === 'pairwise') {
        const id = 'position_lean';
        const p = pilotLean(pilot);
        return [
          mcnemarRow(
            {
              id,
              label: 'Position lean: both orders first vs both second (per judge)',
              labelKey: 'power.positionLean',
              unit: 'items',
              unitsPerItem: 1,
              n: pairs,
            },
            assumed('psi', 'discordant share ψ', p.psi, DEFAULT_LEAN_DISCORDANT),
            // A pilot that showed no lean plans for the default lean rather than for nothing.
            { typed: effects[id], fallback: fallbackEffect(p.lean, DEFAULT_LEAN, (x) => x > 0) },
            at,
          ),
        ];
      }
      const rows = pilot?.probes.filter((r) => r.effect === effect) ?? [];
      const dz = meanOf(rows.flatMap((r) => (r.dz === null ? [] : [Math.abs(r.dz)])));
      const sd = meanOf(rows.flatMap((r) => (r.sd === null ? [] : [r.sd])));
      const id = `paired_difference:${effect}`;
      // Pointwise, every response is scored alone and gives its own difference (two per item of
      // a pair dataset): the test's units. Pairwise, an item's two orders judge one pair, so the
      // plan counts the item once, whatever its orders' correlation (as the other pairwise plans do).
      const pointwise = exp.options.mode === 'pointwise';
      // Self-preference pairs only items whose two responses name different models: a judge owns
      // at most one of them, so that count is the most items any judge's test can have.
      const items =
        spec.measure === 'paired-position'
          ? pairs
          : spec.measure === 'own-answers'
            ? exp.items.map(biasItem).filter((i) => {
                const [a, b] = i.responses.map((r) => r.model);
                return i.responses.length === 2 && a !== undefined && b !== undefined && a !== b;
              }).length
            : exp.items.length;
      const units = pointwise ? responses(exp, spec) : items;
      const standard = () =>
        pairedRows(
          {
            id,
            label: `Paired score difference, ${effect} (per judge)`,
            labelKey: 'power.pairedDifference',
            labelParams: { effect },
            unit: pointwise ? 'responses' : 'items',
            unitsPerItem: items > 0 ? units / items : 1,
            n: units,
          },
          sd === null ? null : assumed('sd', 'SD of the differences (score points)', sd, 0),
          { typed: effects[id] ?? effects[`${id}:wilcoxon`], fallback: fallbackEffect(dz, DEFAULT_DZ) },
          at,
        );
      // A probe with its own power model plans its effects; the kit's rows are its default.
      const own = effectById(effect)!.probe.power;
      return own
        ? own({
            effect: spec,
            mode: exp.options.mode,
            items,
            units,
            pilot: rows,
            typed: effects,
            at,
            standard,
          })
        : standard();
    });
  },
  /**
   * A probe's paired difference (t or Wilcoxon) is its effect's rows of the bias profile and,
   * with the noise floor on, its excess rows there (the same effect, against the placebo).
   */
  reads(comparison: string, metrics: BiasMetrics): RowSelector[] {
    // The paired position test is the position table's row of every judge and category.
    if (comparison === 'position_lean') return [{ table: 'position' }];
    const [kind, effect] = comparison.split(':');
    if (kind !== 'paired_difference' || !effect) return [];
    const where = { effect: effectLabel(effect as ProbeRow['effect'], metrics.mode) };
    return [
      { table: 'bias_profile', where },
      { table: 'noise_floor', where },
    ];
  },
};
