// Judge-LS on the judge report card: accuracy by language, language flip rates, position
// consistency and, with the noise floor on, repeat flips and the flips beyond them.
import type { GateMeasurement, HeadlineRow, ReportCardContribution } from '../../../shared/report-card/types';
import type { JudgeLsMetrics } from '../../../shared/protocols/judge-ls/types';
import { JUDGE_LS_CARD_TEXT } from '../../../shared/protocols/judge-ls/report/card-text';
import type { ReportCardHooks } from '../plugin';
import { positionARateRow, positionLean } from '../../../shared/report-card/position';
import { rateRow } from '../../../shared/report-card/rows';
import { wilsonInterval } from '../../../shared/stats/intervals';
import { JUDGE_LS_GATES } from '../../../shared/protocols/judge-ls/report/gates';

// Phrases of the protocol's card words (shared/protocols/judge-ls/report/card-text.ts).
const language = (code: string) => ({ key: 'language', params: { language: code } });

export function judgeLsReportCard(m: JudgeLsMetrics, judge: string): ReportCardContribution {
  const rows: HeadlineRow[] = [];
  const gates: GateMeasurement[] = [];
  const mine = <T extends { judge: string }>(list: readonly T[]) => list.filter((r) => r.judge === judge);
  for (const q of mine(m.quality))
    rows.push(
      rateRow(
        'accuracy',
        'Accuracy (strict)',
        language(q.language),
        { n: q.n, value: q.accuracy_strict, ci: q.accuracy_strict_ci },
        'no_valid_verdict',
      ),
    );
  for (const f of mine(m.language_invariance))
    rows.push(
      rateRow(
        'flip_rate',
        'Flip rate',
        { key: 'comparison', params: { comparison: f.comparison } },
        { n: f.n, value: f.flip_rate, ci: f.flip_rate_ci },
        'no_pair_both_languages',
      ),
    );
  for (const p of mine(m.position)) {
    const value = p.n ? 1 - p.inconsistency_rate : null;
    const ci: [number, number] | null = p.n
      ? [1 - p.inconsistency_rate_ci[1], 1 - p.inconsistency_rate_ci[0]]
      : null;
    const note = p.n ? {} : { note: { key: 'no_item_both_orders' } };
    rows.push({
      measure: 'position_consistency',
      label: 'Position consistency',
      condition: language(p.language),
      n: p.n,
      value,
      ci,
      unit: 'pct',
      ...note,
    });
    // The paired position test's rate beside the consistency: a lean shows here even when few
    // items carry it.
    rows.push(positionARateRow(p, p.n, language(p.language)));
    gates.push({
      gate: 'position_consistency',
      condition: language(p.language),
      n: p.n,
      value,
      ci,
      ...note,
      lean: positionLean(p, p.lean_p_holm),
    });
  }
  const floor = m.noise_floor;
  for (const r of mine(floor?.repeat ?? []))
    rows.push(
      rateRow(
        'noise_floor',
        'Repeat flip rate (noise floor)',
        language('EN'),
        { n: r.n, value: r.flip_rate, ci: r.flip_rate_ci },
        'no_pair_repeat',
      ),
    );
  const excess = mine(floor?.excess ?? []);
  for (const e of excess) {
    const value = e.n ? e.excess_flip_rate : null;
    const ci = e.n ? e.excess_flip_rate_ci : null;
    const note = e.n ? {} : { note: { key: 'no_pair_floor' } };
    rows.push({
      measure: 'excess_flip_rate',
      label: 'Flip rate beyond the noise floor',
      condition: { key: 'comparison', params: { comparison: e.comparison } },
      n: e.n,
      value,
      ci,
      unit: 'pct',
      ...note,
    });
    gates.push({
      gate: 'language_flip',
      condition: { key: 'beyond_floor', params: { comparison: e.comparison } },
      n: e.n,
      value,
      ci,
      ...note,
    });
  }
  // Without a noise floor the gate holds the raw flip rate (the noise is then part of it).
  if (!excess.length)
    for (const f of mine(m.language_invariance))
      gates.push({
        gate: 'language_flip',
        condition: { key: 'no_floor', params: { comparison: f.comparison } },
        n: f.n,
        value: f.n ? f.flip_rate : null,
        ci: f.n ? f.flip_rate_ci : null,
        ...(f.n ? {} : { note: { key: 'no_pair_both_languages' } }),
      });
  rows.push(...verificationRows(m, judge));
  return { rows, gates };
}

/**
 * With verified translations (issue 37): each target language's share of translations that passed
 * the back-translation check (the same on every judge's card: it is the study's), then this
 * judge's flip rates on the verified items only.
 */
function verificationRows(m: JudgeLsMetrics, judge: string): HeadlineRow[] {
  const v = m.verification;
  if (!v) return [];
  const rows: HeadlineRow[] = [];
  const llm = v.translations.some((r) => 'llm_equivalent' in r);
  for (const target of [...new Set(v.translations.map((r) => r.language))]) {
    const checked = v.translations.filter((r) => r.language === target);
    const passed = checked.filter((r) => r.verified).length;
    rows.push({
      measure: 'translation_verified',
      label: 'Translations verified',
      condition: {
        key: llm ? 'verified_by_llm' : 'verified_by',
        params: { target, model: `${v.provider}/${v.model}`, min: String(v.min_chrf) },
      },
      n: checked.length,
      value: checked.length ? passed / checked.length : null,
      ci: checked.length ? wilsonInterval(passed, checked.length) : null,
      unit: 'pct',
      ...(checked.length ? {} : { note: { key: 'no_translation_checked' } }),
    });
  }
  for (const f of v.language_invariance.filter((r) => r.judge === judge))
    rows.push({
      measure: 'flip_rate',
      label: 'Flip rate',
      condition: { key: 'verified_only', params: { comparison: f.comparison } },
      n: f.n,
      value: f.n ? f.flip_rate : null,
      ci: f.n ? f.flip_rate_ci : null,
      unit: 'pct',
      ...(f.n ? {} : { note: { key: 'no_pair_both_languages' } }),
    });
  return rows;
}

export const judgeLsReportCardHooks: ReportCardHooks<JudgeLsMetrics> = {
  contribute: judgeLsReportCard,
  text: JUDGE_LS_CARD_TEXT,
  gates: JUDGE_LS_GATES,
};
