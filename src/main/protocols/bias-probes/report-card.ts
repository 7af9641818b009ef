// Bias probes on the judge report card: each probe effect with its interval and d_z, the
// position-A rate and swap consistency (pairwise), over all categories.
import type { GateMeasurement, HeadlineRow, ReportCardContribution } from '../../../shared/report-card/types';
import { ALL, type BiasMetrics } from '../../../shared/protocols/bias-probes/types';
import { BIAS_CARD_TEXT } from '../../../shared/protocols/bias-probes/report/card-text';
import type { ReportCardHooks } from '../plugin';
import { BIAS_GATES } from '../../../shared/protocols/bias-probes/report/gates';
import { probeById } from '../../../shared/protocols/bias-probes/probe-registry';
import { positionARateRow, positionLean } from '../../../shared/report-card/position';

export function biasReportCard(m: BiasMetrics, judge: string): ReportCardContribution {
  const rows: HeadlineRow[] = [];
  const gates: GateMeasurement[] = [];
  for (const p of m.probes.filter((r) => r.judge === judge && r.category === ALL)) {
    const condition = { key: 'probe_effect', params: { probe: p.probe, effect: p.effect, mode: m.mode } };
    // Why the paired differences give no interval (mean) or no d_z: too few, or all equal.
    const spread = p.n < 2 ? { key: 'fewer_than_two' } : p.sd === 0 ? { key: 'zero_variance' } : null;
    rows.push({
      measure: 'bias_effect',
      label: m.mode === 'pointwise' ? 'Mean score change' : 'Mean win-score change',
      condition,
      n: p.n,
      value: p.n ? p.mean : null,
      ci: p.mean_ci,
      unit: 'num',
      ...(!p.n
        ? { note: { key: 'no_valid_pair' } }
        : p.mean_ci
          ? {}
          : { note: spread ?? { key: 'fewer_than_two' } }),
    });
    rows.push({
      measure: 'effect_dz',
      label: "Cohen's d_z",
      condition,
      n: p.n,
      value: p.dz,
      ci: null,
      unit: 'num',
      note: p.dz === null ? (spread ?? { key: 'fewer_than_two' }) : { key: 'dz_no_interval' },
    });
    // A probe that feeds a gate (length: the length-effect gate) gives its effects' d_z to it.
    const gate = probeById(p.probe)?.cardGate as GateMeasurement['gate'] | undefined;
    if (gate)
      gates.push({
        gate,
        condition,
        n: p.n,
        value: p.dz,
        ci: null,
        note: p.dz === null ? (spread ?? { key: 'fewer_than_two' }) : { key: 'dz_no_interval' },
      });
  }
  for (const p of m.position.filter((r) => r.judge === judge && r.category === ALL)) {
    // The rate paired by item (issue 32 item 1): its interval reads an item's two orders together.
    rows.push(positionARateRow(p, p.n_pairs, { key: 'original_both_orders' }));
    const note = p.swap_consistency === null ? { note: { key: 'no_item_both_orders' } } : {};
    rows.push({
      measure: 'position_consistency',
      label: 'Position consistency',
      condition: { key: 'original' },
      n: p.n_pairs,
      value: p.swap_consistency,
      ci: p.swap_consistency_ci,
      unit: 'pct',
      ...note,
    });
    gates.push({
      gate: 'position_consistency',
      condition: { key: 'original' },
      n: p.n_pairs,
      value: p.swap_consistency,
      ci: p.swap_consistency_ci,
      ...note,
      // Holm over the judge × category's probes; never null where the test ran.
      lean: positionLean(p, p.p_holm ?? p.lean_p),
    });
  }
  return { rows, gates };
}

export const biasReportCardHooks: ReportCardHooks<BiasMetrics> = {
  contribute: biasReportCard,
  text: BIAS_CARD_TEXT,
  gates: BIAS_GATES,
};
