// The tables of verified translations (issue 37): each translation's back-translation score, and
// the headline accuracy and flip rates again on verified items only (beside all items), as the
// sensitivity table shows them without audit-flagged items. Only with `transform.verify` set.
import type { JudgeLsMetrics } from '../types';
import { col, inJudgeOrder, type Table, type TableRow } from '../../../report/table';
import { keyColumns, rateColumns } from '../../../report/columns';

/** A chrF cell: one decimal, or why it has no value. */
const score = (x: number | null, why: string) => (x === null ? `undefined (${why})` : x.toFixed(1));

export function verificationTables(metrics: JudgeLsMetrics, judges: string[]): Table[] {
  const v = metrics.verification;
  if (!v) return [];
  // The model's verdict columns only when it was asked for (verify.llmVerdict).
  const llm = v.translations.some((r) => 'llm_equivalent' in r);
  const translations: Table = {
    id: 'verification',
    title: 'Back-translation check of each translation',
    caption:
      `Each translation translated back into English by ${v.provider}/${v.model}, scored against the ` +
      `English source with ${v.metric} (0–100); below ${v.min_chrf} the item is not verified and is left ` +
      `out of the verified-only results. ${v.excluded_item_ids.length} item(s) not verified.`,
    columns: [
      ...keyColumns('item_id', 'language'),
      col('chrf', 'chrF', 'text'),
      col('chrf_instruction', 'Instruction', 'text'),
      col('chrf_output_1', 'Output 1', 'text'),
      col('chrf_output_2', 'Output 2', 'text'),
      ...(llm ? [col('llm_equivalent', 'LLM verdict', 'text'), col('llm_reason', 'LLM reason', 'text')] : []),
      col('verified', 'Verified', 'text'),
      col('reason', 'Why not', 'text'),
    ],
    rows: v.translations.map((r) => ({
      item_id: r.item_id,
      language: r.language,
      chrf: score(r.chrf, 'no back-translation'),
      chrf_instruction: score(r.chrf_instruction, r.chrf === null ? 'no back-translation' : 'blank field'),
      chrf_output_1: score(r.chrf_output_1, r.chrf === null ? 'no back-translation' : 'blank field'),
      chrf_output_2: score(r.chrf_output_2, r.chrf === null ? 'no back-translation' : 'blank field'),
      ...(llm
        ? {
            llm_equivalent:
              r.llm_equivalent === null || r.llm_equivalent === undefined
                ? 'undefined (no verdict)'
                : r.llm_equivalent
                  ? 'equivalent'
                  : 'not equivalent',
            llm_reason: r.llm_reason ?? '',
          }
        : {}),
      verified: r.verified ? 'yes' : 'no',
      reason: r.reason ?? '',
    })),
  };
  const rows: TableRow[] = [];
  const boot = metrics.statistics.ci === 'cluster-bootstrap';
  for (const r of inJudgeOrder(metrics.language_invariance, judges)) {
    const s = v.language_invariance.find((x) => x.judge === r.judge && x.comparison === r.comparison);
    rows.push({
      judge: r.judge,
      comparison: r.comparison,
      n_all: r.n,
      flip_all: r.flip_rate,
      flip_all_ci: r.flip_rate_ci,
      n_verified: s?.n ?? null,
      flip_verified: s?.flip_rate ?? null,
      // The interval the table shows for "All" (metrics after withChosenIntervals), alike here.
      flip_verified_ci: s ? (boot ? s.flip_rate_ci_boot : s.flip_rate_ci) : null,
      delta: s ? s.flip_rate - r.flip_rate : null,
    });
  }
  const verifiedOnly: Table = {
    id: 'verified_only',
    title: 'Language flips on verified items only',
    caption:
      `Flip rate against English on all items and on the items whose every translation passed the ` +
      `back-translation check (chrF ≥ ${v.min_chrf}; %, ${boot ? 'item-clustered bootstrap' : 'Wilson'} 95% CIs); difference in points. An empty ` +
      `verified cell: no verified pair for that judge and language.`,
    columns: [
      ...keyColumns('judge', 'comparison'),
      col('n_all', 'n', 'int'),
      ...rateColumns('flip_all', 'All'),
      col('n_verified', 'n', 'int'),
      ...rateColumns('flip_verified', 'Verified'),
      col('delta', 'Diff.', 'pct'),
    ],
    rows,
  };
  return [translations, verifiedOnly];
}
