// Bias probes on the judge report card: each probe effect with its interval and d_z, the
// position-A rate and swap consistency (pairwise), over all categories.
import type {
  CardPhrase,
  GateMeasurement,
  HeadlineRow,
  ReportCardContribution,
} from '../../../shared/report-card/types';
import {
  ALL,
  type BiasMetrics,
  type OwnAnswersRow,
  type OwnEstimate,
} from '../../../shared/protocols/bias-probes/types';
import { BIAS_CARD_TEXT } from '../../../shared/protocols/bias-probes/report/card-text';
import type { ReportCardHooks } from '../plugin';
import { BIAS_GATES } from '../../../shared/protocols/bias-probes/report/gates';
import { effectById, probeById } from '../../../shared/protocols/bias-probes/probe-registry';
import { positionARateRow, positionLean } from '../../../shared/report-card/position';

export function biasReportCard(m: BiasMetrics, judge: string): ReportCardContribution {
  const rows: HeadlineRow[] = [];
  const gates: GateMeasurement[] = [];
  for (const p of m.probes.filter((r) => r.judge === judge && r.category === ALL)) {
    // An own-answers effect's profile row is its excess, which its own rows below show as a share.
    if (effectById(p.effect)?.effect.measure === 'own-answers') continue;
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
  for (const o of (m.own_answers ?? []).filter((r) => r.judge === judge && r.category === ALL)) {
    const own = ownAnswerRows(o, m.mode);
    rows.push(...own.rows);
    const gate = effectById(o.effect)?.probe.cardGate;
    if (gate) gates.push({ gate, ...own.gate });
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

/** Why an own-answers estimate has no value or no interval, as a card phrase. */
function ownNote(o: OwnAnswersRow, e: OwnEstimate): { note?: CardPhrase } {
  if (o.undefined_reason) return { note: { key: 'no_own_answer', params: { model: o.judge_model } } };
  if (e.mean === null) return { note: { key: 'length_unbalanced' } };
  return e.ci ? {} : { note: { key: 'fewer_than_two' } };
}

/**
 * Self-preference on the card: the raw self-win rate beside the excess over the human rate (both
 * as shares) and its length-balanced form, which also feeds the probe's gate.
 */
function ownAnswerRows(o: OwnAnswersRow, mode: BiasMetrics['mode']) {
  const condition = {
    key: 'probe_effect',
    params: { probe: effectById(o.effect)?.probe.id ?? o.effect, effect: o.effect, mode },
  };
  const row = (measure: string, label: string, e: OwnEstimate, n: number): HeadlineRow => ({
    measure,
    label,
    condition,
    n,
    value: e.mean,
    ci: e.ci,
    unit: 'pct',
    ...ownNote(o, e),
  });
  const balanced = row(
    'excess_self_win_balanced',
    'Excess self-win rate (length-balanced)',
    o.length_balanced,
    o.n_pairs,
  );
  return {
    rows: [
      row('self_win_rate', 'Self-win rate', o.self_win_rate, o.n_pairs),
      row('excess_self_win', 'Excess self-win rate (judge − human)', o.excess, o.n_pairs),
      balanced,
    ],
    gate: {
      condition,
      n: o.n_pairs,
      value: balanced.value,
      ci: balanced.ci,
      ...(balanced.note ? { note: balanced.note } : {}),
    },
  };
}

export const biasReportCardHooks: ReportCardHooks<BiasMetrics> = {
  contribute: biasReportCard,
  text: BIAS_CARD_TEXT,
  gates: BIAS_GATES,
};
