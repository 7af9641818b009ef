// Self-consistency on the judge report card: P(two repeats disagree) and the unanimous share per
// condition (all categories), and position consistency of single verdicts (k = 1).
import type { GateMeasurement, HeadlineRow, ReportCardContribution } from '../../../shared/report-card/types';
import { ALL, type SelfConsistencyMetrics } from '../../../shared/protocols/self-consistency/types';

export function selfConsistencyReportCard(m: SelfConsistencyMetrics, judge: string): ReportCardContribution {
  const rows: HeadlineRow[] = [];
  const gates: GateMeasurement[] = [];
  for (const s of m.stability.filter((r) => r.judge === judge && r.category === ALL)) {
    const condition = `${s.condition}, ${m.repeats} repeats`;
    const dNote =
      s.disagree_prob === null ? 'no question with two valid repeats' : s.disagree_prob_ci_undefined_reason;
    const uNote =
      s.unanimous_rate === null ? 'no question with two valid repeats' : s.unanimous_rate_ci_undefined_reason;
    rows.push({
      measure: 'disagreement',
      label: 'P(two repeats disagree)',
      condition,
      n: s.questions,
      value: s.disagree_prob,
      ci: s.disagree_prob_ci,
      unit: 'pct',
      ...(dNote ? { note: dNote } : {}),
    });
    rows.push({
      measure: 'unanimous',
      label: 'Unanimous share',
      condition,
      n: s.questions,
      value: s.unanimous_rate,
      ci: s.unanimous_rate_ci,
      unit: 'pct',
      ...(uNote ? { note: uNote } : {}),
    });
    gates.push({
      gate: 'self_disagreement',
      condition,
      n: s.questions,
      value: s.disagree_prob,
      ci: s.disagree_prob_ci,
      ...(dNote ? { note: dNote } : {}),
    });
  }
  for (const p of m.position_by_k.filter((r) => r.judge === judge && r.k === 1)) {
    const note = p.consistency === null ? { note: 'no item with every repeat of both orders valid' } : {};
    const condition = `${p.condition}, one verdict per order`;
    rows.push({
      measure: 'position_consistency',
      label: 'Position consistency',
      condition,
      n: p.n,
      value: p.consistency,
      ci: p.consistency_ci,
      unit: 'pct',
      ...note,
    });
    gates.push({
      gate: 'position_consistency',
      condition,
      n: p.n,
      value: p.consistency,
      ci: p.consistency_ci,
      ...note,
    });
  }
  return { rows, gates };
}
