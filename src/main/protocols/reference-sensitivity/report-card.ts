// Reference sensitivity on the judge report card: C1/C2 acceptance and the acceptance of
// generated answers without (NR), with a verified (RV) and with a corrupted (RC) reference,
// over all generators; with the noise floor on, the flips beyond the repeat flips.
import type { CardPhrase, HeadlineRow, ReportCardContribution } from '../../../shared/report-card/types';
import { ALL, type CI, type RefSensMetrics } from '../../../shared/protocols/reference-sensitivity/types';
import { REFSENS_CARD_TEXT } from '../../../shared/protocols/reference-sensitivity/report/card-text';
import type { ReportCardHooks } from '../plugin';

// Phrases of the protocol's card words (shared/protocols/reference-sensitivity/report/card-text.ts).
const language = (code: string): CardPhrase => ({ key: 'language', params: { language: code } });

const row = (
  measure: string,
  label: string,
  condition: CardPhrase,
  n: number,
  value: number | null,
  ci: CI | null,
): HeadlineRow => ({
  measure,
  label,
  condition,
  n,
  value,
  ci: value === null ? null : ci,
  unit: 'pct',
  ...(value === null ? { note: { key: 'no_valid_verdict' } } : {}),
});

export function refSensReportCard(m: RefSensMetrics, judge: string): ReportCardContribution {
  const rows: HeadlineRow[] = [];
  for (const c of m.calibration.filter((r) => r.judge === judge)) {
    rows.push(
      row(
        'c1_accept',
        'C1 acceptance (correct answer)',
        language(c.language),
        c.n,
        c.c1_accept,
        c.c1_accept_ci,
      ),
    );
    rows.push(
      row(
        'c2_accept',
        'C2 acceptance (wrong answer)',
        language(c.language),
        c.n,
        c.c2_accept,
        c.c2_accept_ci,
      ),
    );
  }
  for (const a of m.acceptance.filter((r) => r.judge === judge && r.generator === ALL))
    rows.push(
      row(
        'acceptance',
        'Acceptance',
        { key: 'setting_language', params: { setting: a.setting, language: a.language } },
        a.n,
        a.accept_rate,
        a.accept_rate_ci,
      ),
    );
  for (const e of (m.noise_floor?.excess ?? []).filter((r) => r.judge === judge && r.generator === ALL))
    rows.push({
      ...row(
        'excess_flip_rate',
        'Flip rate beyond the noise floor',
        { key: 'transition_language', params: { transition: e.transition, language: e.language } },
        e.n,
        e.n ? e.excess_flip_rate : null,
        e.excess_flip_rate_ci,
      ),
    });
  return { rows, gates: [] };
}

export const refSensReportCardHooks: ReportCardHooks<RefSensMetrics> = {
  contribute: refSensReportCard,
  text: REFSENS_CARD_TEXT,
};
