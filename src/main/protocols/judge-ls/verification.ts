// Verified translations (issue 37): each translation's back-translation into English scored
// against the English source with chrF; the results are shown again on verified items only.
import { chrf } from '../../../shared/text/chrf';
import type { VerificationRow } from '../../../shared/protocols/judge-ls/types';
import { canonicalTargets } from '../../../shared/protocols/judge-ls/languages';
import type { MetricsContext } from '../plugin';
import { answerObject, fail, type ParseResult } from '../../judging/answer';
import type { VariantText, VerifyTask } from './model';
import type { Exp } from './experiment';
import type { FlaggedItem } from '../../../shared/experiments';

export const VERIFICATION_METRIC =
  'chrF2 (character n-grams 1..6, beta 2, whitespace dropped; lowest of the three fields)';

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** chrF of one field, or null when both the English and its back-translation are blank. */
function fieldScore(english: string, back: string): number | null {
  return english.trim() === '' && back.trim() === '' ? null : round(chrf(back, english));
}

/** The check of one translation from its back-translation (null: the back-translation failed). */
export function verificationRow(
  itemId: string,
  language: string,
  source: VariantText,
  back: VariantText | null,
  minChrf: number,
  failure?: string,
): VerificationRow {
  if (!back) {
    return {
      item_id: itemId,
      language,
      chrf: null,
      chrf_instruction: null,
      chrf_output_1: null,
      chrf_output_2: null,
      verified: false,
      reason: `no back-translation (${failure ?? 'failed'})`,
    };
  }
  const fields = [
    fieldScore(source.instruction, back.instruction),
    fieldScore(source.output1, back.output1),
    fieldScore(source.output2, back.output2),
  ];
  const scored = fields.filter((f): f is number => f !== null);
  const score = scored.length === 0 ? 100 : Math.min(...scored);
  const verified = score >= minChrf;
  return {
    item_id: itemId,
    language,
    chrf: score,
    chrf_instruction: fields[0],
    chrf_output_1: fields[1],
    chrf_output_2: fields[2],
    verified,
    reason: verified ? null : `chrF ${score.toFixed(1)} < ${minChrf}`,
  };
}

/**
 * One row per translation that has a back-translation task, in item order then target order. A
 * translation edited by hand gets a new task: the newest answer (highest request id) counts.
 */
export function verificationRows(
  ctx: Pick<MetricsContext, 'results' | 'excluded' | 'exp'>,
  minChrf: number,
  languages: readonly string[],
  llmVerdict = false,
): VerificationRow[] {
  const latest = new Map<string, (typeof ctx.results)[number]>();
  for (const r of ctx.results) {
    if (r.stage !== 'verify') continue;
    const m = r.meta as VerifyTask['meta'];
    const k = `${m.sourceId}\u0000${m.language}${m.check === 'llm' ? '\u0000llm' : ''}`;
    const was = latest.get(k);
    if (!was || was.requestId < r.requestId) latest.set(k, r);
  }
  const order = canonicalTargets(languages);
  const rows: VerificationRow[] = [];
  for (const item of ctx.exp.items) {
    if (ctx.excluded.has(item.sourceId)) continue;
    for (const language of order) {
      const r = latest.get(`${item.sourceId}\u0000${language}`);
      if (!r) continue;
      const m = r.meta as VerifyTask['meta'];
      const back = r.status === 'ok' ? (r.value as VariantText) : null;
      const row = verificationRow(item.sourceId, language, m.source, back, minChrf, r.reason ?? undefined);
      if (llmVerdict) {
        const l = latest.get(`${item.sourceId}\u0000${language}\u0000llm`);
        const verdict = l?.status === 'ok' ? (l.value as Equivalence) : null;
        row.llm_equivalent = verdict ? verdict.equivalent : null;
        row.llm_reason = verdict ? verdict.reason : (l?.reason ?? 'not answered');
        // A translation the model calls unfaithful is not verified, whatever its chrF.
        if (verdict && !verdict.equivalent) {
          row.verified = false;
          row.reason = [row.reason, `LLM verdict: not equivalent (${verdict.reason})`]
            .filter(Boolean)
            .join('; ');
        }
      }
      rows.push(row);
    }
  }
  return rows;
}

/** Parses a `back_translation` answer: three strings (blank allowed: it scores low, not fails). */
export function parseBackTranslation(json: unknown): ParseResult<VariantText> {
  const obj = answerObject(json, 'back_translation');
  if (typeof obj === 'string') return fail(obj);
  const out: VariantText = { instruction: '', output1: '', output2: '' };
  for (const [wire, field] of [
    ['instruction', 'instruction'],
    ['output_1', 'output1'],
    ['output_2', 'output2'],
  ] as const) {
    const v = obj[wire];
    if (typeof v !== 'string') return fail(`"${wire}" is ${v === undefined ? 'missing' : 'not a string'}`);
    out[field] = v;
  }
  return { ok: true, value: out };
}

interface Equivalence {
  equivalent: boolean;
  reason: string;
}

/** Parses a `translation_equivalence` answer: a boolean and a reason. */
export function parseEquivalence(json: unknown): ParseResult<Equivalence> {
  const obj = answerObject(json, 'translation_equivalence');
  if (typeof obj === 'string') return fail(obj);
  if (typeof obj.equivalent !== 'boolean') return fail('"equivalent" is not true or false');
  if (typeof obj.reason !== 'string') return fail('"reason" is not a string');
  return { ok: true, value: { equivalent: obj.equivalent, reason: obj.reason } };
}

/**
 * The items the verified-only switch leaves out (every translation of an item must pass), each with
 * its failing translations as "<language>: <why>"; null without `transform.verify`.
 */
export function unverifiedItems(
  ctx: Pick<MetricsContext<Exp>, 'results' | 'excluded' | 'exp'>,
): FlaggedItem[] | null {
  const verify = ctx.exp.options.verify;
  if (!verify) return null;
  const out = new Map<string, string[]>();
  for (const r of verificationRows(ctx, verify.minChrf, ctx.exp.options.languages, verify.llmVerdict)) {
    if (r.verified) continue;
    const reasons = out.get(r.item_id) ?? [];
    reasons.push(`${r.language}: ${r.reason ?? 'not verified'}`);
    out.set(r.item_id, reasons);
  }
  return [...out].map(([item_id, reasons]) => ({ item_id, reasons }));
}
