// Reference sensitivity's power model (issue 24): the calibration gap C1 − C2 (the share of
// questions a judge accepts with the gold answer minus with a wrong one, paired by question)
// and the NR→RV flips (verdicts that change when a reference is shown, paired by answer), both
// by the exact McNemar test on the discordant pairs. A pilot's rows give the discordant shares:
// NR→RV from its flip rate, the gap from its C1 and C2 rates assuming the two verdicts of a
// question independent (the table keeps no 2×2 counts).
import { assumed, fallbackEffect, mcnemarRow, type PlanComparisons } from '../../../shared/paper/power-rows';
import type { RowSelector } from '../../../shared/paper/confirmatory';
import type { PowerComparison } from '../../../shared/paper/types';
import {
  ALL,
  type RefSensMetrics,
  type Setting,
} from '../../../shared/protocols/reference-sensitivity/types';

const DEFAULT_DISCORDANT = 0.3;
const DEFAULT_GAP = 0.1;
const DEFAULT_FLIP_CHANGE = 0.05;

const meanOf = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** What the plan reads of the experiment (structural: this module stays off the seam's import ring). */
interface PlannedRefSens {
  items: readonly unknown[];
  config: { generators?: readonly { label?: string; model: string }[] };
  options: {
    calibration: boolean;
    sensitivity: boolean;
    settings: readonly Setting[];
    imported: readonly { generator: string }[];
  };
}

const planComparisons: PlanComparisons<PlannedRefSens, RefSensMetrics> = (exp, pilot, effects, at) => {
  const out: PowerComparison[] = [];
  const questions = exp.items.length;
  if (exp.options.calibration) {
    const rows = (pilot?.calibration ?? []).filter((r) => r.c1_accept !== null && r.c2_accept !== null);
    const psi = meanOf(
      rows.map((r) => r.c1_accept! * (1 - r.c2_accept!) + r.c2_accept! * (1 - r.c1_accept!)),
    );
    const gap = meanOf(rows.map((r) => Math.abs(r.cgp ?? 0)));
    const id = 'calibration_gap';
    out.push(
      mcnemarRow(
        {
          id,
          label: 'Calibration gap C1 − C2 (per judge)',
          labelKey: 'power.calibrationGap',
          unit: 'questions',
          unitsPerItem: 1,
          n: questions,
        },
        assumed('psi', 'discordant share ψ', psi, DEFAULT_DISCORDANT),
        {
          typed: effects[id],
          fallback: fallbackEffect(gap, DEFAULT_GAP, (g) => psi !== null && g <= psi && g > 0),
        },
        at,
      ),
    );
  }
  const { settings } = exp.options;
  if (exp.options.sensitivity && settings.includes('NR') && settings.includes('RV')) {
    const sources = new Set([
      ...(exp.config.generators ?? []).map((g) => g.label ?? g.model),
      ...exp.options.imported.map((a) => a.generator),
    ]).size;
    const rows = (pilot?.flips ?? []).filter(
      (r) => r.transition === 'NR-RV' && r.generator === ALL && r.flip_rate !== null,
    );
    const psi = meanOf(rows.map((r) => r.flip_rate!));
    const id = 'flips:NR-RV';
    out.push(
      mcnemarRow(
        {
          id,
          label: 'NR→RV flips: correct→incorrect vs incorrect→correct (per judge)',
          labelKey: 'power.nrRvFlips',
          unit: 'answers',
          unitsPerItem: Math.max(1, sources),
          n: questions * Math.max(1, sources),
        },
        assumed('psi', 'discordant share ψ (flip rate)', psi, DEFAULT_DISCORDANT),
        { typed: effects[id], fallback: fallbackEffect(null, DEFAULT_FLIP_CHANGE) },
        at,
      ),
    );
  }
  return out;
};

/** The `power` capability of the reference-sensitivity plug-in (protocols/plugin.ts `PowerHooks`). */
export const refSensPower = {
  comparisons: planComparisons,
  /**
   * The gap is each judge's calibration row; the NR→RV flips are the transition's rows pooled
   * over generators (the plan counts every generator's answers). With one generator the table
   * shows that pool under the generator's own name (its "all" row would repeat it), so that row.
   */
  reads(comparison: string, metrics?: RefSensMetrics | null): RowSelector[] {
    if (comparison === 'calibration_gap') return [{ table: 'calibration' }];
    if (comparison === 'flips:NR-RV') {
      const generators = new Set((metrics?.flips ?? []).map((r) => r.generator).filter((g) => g !== ALL));
      const generator = generators.size === 1 ? [...generators][0] : ALL;
      return [{ table: 'flips', where: { transition: 'NR-RV', generator } }];
    }
    return [];
  },
};
