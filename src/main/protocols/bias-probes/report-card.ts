// Bias probes on the judge report card: each probe effect with its interval and d_z, the
// position-A rate and swap consistency (pairwise), over all categories.
import type { GateMeasurement, HeadlineRow, ReportCardContribution } from '../../../shared/report-card/types';
import { ALL, type BiasMetrics } from '../../../shared/protocols/bias-probes/types';

export function biasReportCard(m: BiasMetrics, judge: string): ReportCardContribution {
  const rows: HeadlineRow[] = [];
  const gates: GateMeasurement[] = [];
  for (const p of m.probes.filter((r) => r.judge === judge && r.category === ALL)) {
    const condition = `${p.probe}: ${p.effect} (${m.mode})`;
    rows.push({
      measure: 'bias_effect',
      label: m.mode === 'pointwise' ? 'Mean score change' : 'Mean win-score change',
      condition,
      n: p.n,
      value: p.n ? p.mean : null,
      ci: p.mean_ci,
      unit: 'num',
      ...(!p.n
        ? { note: 'no valid pair' }
        : p.mean_ci
          ? {}
          : { note: 'interval undefined (fewer than two pairs or SD 0)' }),
    });
    rows.push({
      measure: 'effect_dz',
      label: "Cohen's d_z",
      condition,
      n: p.n,
      value: p.dz,
      ci: null,
      unit: 'num',
      ...(p.dz === null ? { note: 'undefined: SD of the differences is 0 or fewer than two pairs' } : {}),
    });
    if (p.probe === 'length')
      gates.push({
        gate: 'length_effect',
        condition,
        n: p.n,
        value: p.dz,
        ci: null,
        ...(p.dz === null
          ? { note: 'd_z undefined: SD of the differences is 0 or fewer than two pairs' }
          : {}),
      });
  }
  for (const p of m.position.filter((r) => r.judge === judge && r.category === ALL)) {
    rows.push({
      measure: 'position_a_rate',
      label: 'Position-A rate',
      condition: 'original texts, both orders',
      n: p.n,
      value: p.n ? p.position_a_rate : null,
      ci: p.n ? p.position_a_rate_ci : null,
      unit: 'pct',
      ...(p.n ? {} : { note: 'no verdict named A or B' }),
    });
    const note = p.swap_consistency === null ? { note: 'no item valid in both orders' } : {};
    rows.push({
      measure: 'position_consistency',
      label: 'Position consistency',
      condition: 'original texts',
      n: p.n_pairs,
      value: p.swap_consistency,
      ci: p.swap_consistency_ci,
      unit: 'pct',
      ...note,
    });
    gates.push({
      gate: 'position_consistency',
      condition: 'original texts',
      n: p.n_pairs,
      value: p.swap_consistency,
      ci: p.swap_consistency_ci,
      ...note,
    });
  }
  return { rows, gates };
}
