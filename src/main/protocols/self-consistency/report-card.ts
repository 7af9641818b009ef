// Self-consistency on the judge report card: P(two repeats disagree) and the unanimous share per
// condition (all categories), and position consistency of single verdicts (k = 1).
import type { GateMeasurement, HeadlineRow, ReportCardContribution } from '../../../shared/report-card/types';
import { ALL, type SelfConsistencyMetrics } from '../../../shared/protocols/self-consistency/types';
import { SELF_CONSISTENCY_CARD_TEXT } from '../../../shared/protocols/self-consistency/report/card-text';
import type { ReportCardHooks } from '../plugin';
import { SELF_CONSISTENCY_GATES } from '../../../shared/protocols/self-consistency/report/gates';
import { positionARateRow, positionLean } from '../../../shared/report-card/position';

const phrase = (key: string | undefined) => (key ? { key } : undefined);

export function selfConsistencyReportCard(m: SelfConsistencyMetrics, judge: string): ReportCardContribution {
  const rows: HeadlineRow[] = [];
  const gates: GateMeasurement[] = [];
  for (const s of m.stability.filter((r) => r.judge === judge && r.category === ALL)) {
    const condition = { key: 'repeats', params: { condition: s.condition, repeats: m.repeats } };
    // The interval's reasons are the metrics' own words ('no items', …), keys of the card words.
    const dNote = phrase(s.disagree_prob === null ? 'no_two_repeats' : s.disagree_prob_ci_undefined_reason);
    const uNote = phrase(s.unanimous_rate === null ? 'no_two_repeats' : s.unanimous_rate_ci_undefined_reason);
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
    const note = p.consistency === null ? { note: { key: 'no_item_all_repeats' } } : {};
    const condition = { key: 'one_per_order', params: { condition: p.condition } };
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
    // The paired position test's rate beside the consistency (one verdict per order).
    rows.push(positionARateRow(p, p.n, condition));
    gates.push({
      gate: 'position_consistency',
      condition,
      n: p.n,
      value: p.consistency,
      ci: p.consistency_ci,
      ...note,
      lean: positionLean(p, p.lean_p_holm),
    });
  }
  return { rows, gates };
}

export const selfConsistencyReportCardHooks: ReportCardHooks<SelfConsistencyMetrics> = {
  contribute: selfConsistencyReportCard,
  text: SELF_CONSISTENCY_CARD_TEXT,
  gates: SELF_CONSISTENCY_GATES,
};
