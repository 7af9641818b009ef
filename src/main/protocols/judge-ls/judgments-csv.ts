// judgments.csv of DESIGN.md section 8: one row per stored verdict, the columns in contract order.
import type { JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
import { normalizeChoice } from '../../../shared/protocols/judge-ls/choice';
import { isTargetLanguage, probeOrdersOf, probeTargetOf } from '../../../shared/protocols/judge-ls/languages';
import { toCsv } from '../host';

export const JUDGMENTS_COLUMNS = [
  'judge',
  'item_id',
  'subset',
  'kind',
  'language',
  'order',
  'winner',
  'choice',
  'gold',
  'correct',
  'status',
  'attempts',
  'input_tokens',
  'output_tokens',
  'reason',
] as const;

/**
 * A planned verdict without a stored answer: `blocked` when an input it needs failed (its
 * translation), `pending` when it was not answered yet. judgments.csv lists it with that status,
 * so every planned verdict has a row.
 */
export interface MissingJudgment {
  judge: string;
  itemId: string;
  subset: string | null;
  gold: 1 | 2;
  kind: 'quality' | 'tie_probe';
  language: JudgmentRecord['language'];
  order: JudgmentRecord['order'];
  status: 'blocked' | 'pending';
  reason: string;
  /** 1 on the noise floor's repeat of an EN verdict. */
  sample?: number;
}

/** Token usage of the call behind one judgment (JudgmentRecord does not carry it). */
export interface JudgmentTokens {
  inputTokens: number;
  outputTokens: number;
}

function invalid(index: number, field: string, value: unknown, expected: string): Error {
  return new Error(`judgments[${index}]: field "${field}" is ${JSON.stringify(value)}, expected ${expected}`);
}

/** Checks the enum fields the CSV derives columns from, so bad rows fail loudly instead of exporting wrong. */
function checkRecord(r: JudgmentRecord, i: number): void {
  if (r.kind !== 'quality' && r.kind !== 'tie_probe') throw invalid(i, 'kind', r.kind, 'quality | tie_probe');
  if (r.status !== 'ok' && r.status !== 'failed') throw invalid(i, 'status', r.status, 'ok | failed');
  if (r.winner !== null && r.winner !== 'A' && r.winner !== 'B' && r.winner !== 'tie') {
    throw invalid(i, 'winner', r.winner, 'A | B | tie | null');
  }
  if (r.gold !== 1 && r.gold !== 2) throw invalid(i, 'gold', r.gold, '1 | 2');
  if (r.kind === 'quality') {
    // Any target the study may judge in (issue 37: `ar`, `LS:hi`, …), not only ZH and LS.
    if (r.language !== 'EN' && !isTargetLanguage(r.language))
      throw invalid(i, 'language', r.language, 'EN | ZH | LS | a target language code');
    if (r.order !== 'orig' && r.order !== 'swap') throw invalid(i, 'order', r.order, 'orig | swap');
  } else {
    const target = probeTargetOf(r.language);
    if (target === null) throw invalid(i, 'language', r.language, 'EN-ZH | EN-<code> (EN-ar, …)');
    const orders = probeOrdersOf(target);
    if (!(orders as readonly string[]).includes(r.order))
      throw invalid(i, 'order', r.order, orders.join(' | '));
  }
}

/**
 * The normalized choice: quality orig A→1, B→2, swap A→2, B→1; tie probe en_zh A→EN, B→ZH,
 * zh_en A→ZH, B→EN, and for another target (EN-ar) en_target A→EN, B→ar, target_en A→ar, B→EN;
 * tie stays tie; no verdict → ''.
 */
export function normalizedChoice(r: JudgmentRecord): string {
  if (r.winner === null) return '';
  const choice = String(normalizeChoice(r.order, r.winner));
  // The translation's win is named by its language, as ZH's always was.
  return choice === 'target' ? (probeTargetOf(r.language) ?? choice) : choice;
}

function countText(n: number | undefined, index: number, field: string): string {
  if (n === undefined) return '';
  if (!Number.isInteger(n) || n < 0) throw invalid(index, field, n, 'a non-negative integer');
  return String(n);
}

/**
 * judgments.csv text (UTF-8 BOM, CRLF). `tokens` runs parallel to `judgments` (same index, null
 * when unknown, e.g. a call that failed before any answer).
 */
export function judgmentsCsv(
  judgments: readonly JudgmentRecord[],
  tokens?: readonly (JudgmentTokens | null | undefined)[],
  missing: readonly MissingJudgment[] = [],
): string {
  if (tokens && tokens.length !== judgments.length) {
    throw new Error(`tokens has ${tokens.length} entries but there are ${judgments.length} judgments`);
  }
  // The `sample` column (0 = first ask, 1 = the noise floor's repeat) only when there are repeats,
  // so the file is byte-identical to before without them.
  const withSample = judgments.some((r) => r.sample) || missing.some((m) => m.sample);
  const sampleOf = (s: number | undefined) => (withSample ? [String(s ?? 0)] : []);
  const rows = judgments.map((r, i) => {
    checkRecord(r, i);
    const choice = normalizedChoice(r);
    const correct =
      r.kind === 'quality' && r.status === 'ok' && choice !== ''
        ? choice === String(r.gold)
          ? '1'
          : '0'
        : '';
    const reason = r.status === 'failed' ? (r.failureReason ?? r.reason ?? '') : (r.reason ?? '');
    const t = tokens?.[i];
    return [
      r.judge,
      r.itemId,
      r.subset ?? '',
      r.kind,
      r.language,
      r.order,
      r.winner ?? 'invalid',
      r.status === 'failed' ? '' : choice,
      String(r.gold),
      correct,
      r.status,
      countText(r.attempts, i, 'attempts'),
      t ? countText(t.inputTokens, i, 'tokens.inputTokens') : '',
      t ? countText(t.outputTokens, i, 'tokens.outputTokens') : '',
      reason,
      ...sampleOf(r.sample),
    ];
  });
  for (const m of missing) {
    rows.push([
      m.judge,
      m.itemId,
      m.subset ?? '',
      m.kind,
      m.language,
      m.order,
      '',
      '',
      String(m.gold),
      '',
      m.status,
      '0',
      '',
      '',
      m.reason,
      ...sampleOf(m.sample),
    ]);
  }
  return toCsv(withSample ? [...JUDGMENTS_COLUMNS, 'sample'] : JUDGMENTS_COLUMNS, rows);
}
