// Bias probes' power model (issue 24): per probe, the paired difference (modified − unchanged
// score) by the paired t and by the Wilcoxon signed-rank test the metrics report (through its
// ARE 3/π), in d_z. A pilot's probe rows give the expected d_z (mean |d_z| over its judges) and
// the SD of the differences that turns d_z into score points.
import { assumed, fallbackEffect, pairedRows, type PlanAt } from '../../../shared/paper/power-rows';
import type { RowSelector } from '../../../shared/paper/confirmatory';
import type { PowerComparison } from '../../../shared/paper/types';
import { effectLabel } from '../../../shared/protocols/bias-probes/report/tables';
import type { Item } from '../../../shared/domain';
import type { BiasMetrics, Probe, ProbeRow } from '../../../shared/protocols/bias-probes/types';
import { biasItem } from './item';

/** What the plan reads of the experiment (structural: this module stays off the seam's import ring). */
interface PlannedBias {
  items: readonly Item[];
  options: { probes: readonly Probe[]; shorter: boolean };
}

/** The d_z the inverse plans for without a pilot (between Cohen's small and medium). */
const DEFAULT_DZ = 0.3;

/** The effects each probe measures (ProbeRow.effect), as the metrics name them. */
function effectsOf(options: PlannedBias['options']): ProbeRow['effect'][] {
  return options.probes.flatMap((p): ProbeRow['effect'][] =>
    p === 'position'
      ? ['position']
      : p === 'format'
        ? ['markdown']
        : options.shorter
          ? ['longer', 'shorter']
          : ['longer'],
  );
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
    return effectsOf(exp.options).flatMap((effect) => {
      const rows = pilot?.probes.filter((r) => r.effect === effect) ?? [];
      const dz = meanOf(rows.flatMap((r) => (r.dz === null ? [] : [Math.abs(r.dz)])));
      const sd = meanOf(rows.flatMap((r) => (r.sd === null ? [] : [r.sd])));
      const id = `paired_difference:${effect}`;
      return pairedRows(
        {
          id,
          label: `Paired score difference, ${effect} (per judge)`,
          labelKey: 'power.pairedDifference',
          labelParams: { effect },
          unit: 'items',
          unitsPerItem: 1,
          n: effect === 'position' ? pairs : exp.items.length,
        },
        sd === null ? null : assumed('sd', 'SD of the differences (score points)', sd, 0),
        { typed: effects[id] ?? effects[`${id}:wilcoxon`], fallback: fallbackEffect(dz, DEFAULT_DZ) },
        at,
      );
    });
  },
  /**
   * A probe's paired difference (t or Wilcoxon) is its effect's rows of the bias profile and,
   * with the noise floor on, its excess rows there (the same effect, against the placebo).
   */
  reads(comparison: string, metrics: BiasMetrics): RowSelector[] {
    const [kind, effect] = comparison.split(':');
    if (kind !== 'paired_difference' || !effect) return [];
    const where = { effect: effectLabel(effect as ProbeRow['effect'], metrics.mode) };
    return [
      { table: 'bias_profile', where },
      { table: 'noise_floor', where },
    ];
  },
};
