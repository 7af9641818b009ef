// Export files beside metrics.json: judgments.csv (one row per judge call), variants.csv (each
// rewrite and paraphrase of the judging instructions with its audit, hand edits marked), item_scores.csv (raw and debiased score per item) and texts.csv (the
// texts each verdict was given, keyed like judgments.csv).
import { toCsv } from '../host';
import type { ExportFile, MetricsContext, TaskCall } from '../plugin';
import { auditVariants } from './metrics';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import type { JudgeMeta } from './plan';
import { biasItems, itemScores, type BiasExperiment } from './experiment';
import { biasTextsCsv } from './texts-csv';
import { instructionParaphrases } from './instructions';
import { instructionRewrites } from './plan';

export function exportFilesOf(
  ctx: MetricsContext<BiasExperiment>,
  calls: ReadonlyMap<number, TaskCall>,
): ExportFile[] {
  const judgments = [
    [
      'judge',
      'item_id',
      'category',
      'mode',
      'response',
      'condition',
      'shown',
      'order',
      'score',
      'winner',
      'confidence',
      'status',
      'attempts',
      'input_tokens',
      'output_tokens',
      'reason',
    ],
  ];
  // The `sample` column (0 = first ask, 1 = the noise floor's repeat) only with repeats, so the
  // file is as before without the option.
  const withSample = ctx.exp.options.noiseFloor;
  if (withSample) judgments[0].push('sample');
  for (const r of ctx.results) {
    if (r.stage !== 'judge') continue;
    const m = r.meta as JudgeMeta;
    const call = calls.get(r.requestId);
    const score = m.mode === 'pointwise' && r.status === 'ok' ? (r.value as ScoreVerdict) : null;
    const verdict = m.mode === 'pairwise' && r.status === 'ok' ? (r.value as PairwiseVerdict) : null;
    judgments.push([
      m.judge,
      m.sourceId,
      m.category ?? '',
      m.mode,
      m.slot ?? '',
      m.condition,
      m.shown ?? '',
      m.order ?? '',
      score ? String(score.score) : '',
      verdict ? verdict.winner : '',
      verdict?.confidence != null ? String(verdict.confidence) : '',
      r.status,
      String(r.attempts),
      call?.inputTokens != null ? String(call.inputTokens) : '',
      call?.outputTokens != null ? String(call.outputTokens) : '',
      r.status === 'ok' ? (score?.reason ?? verdict?.reason ?? '') : (r.reason ?? ''),
      ...(withSample ? [String(m.sample ?? 0)] : []),
    ]);
  }
  const variants = [
    ['item_id', 'response', 'variant', 'status', 'length_ratio', 'flagged', 'reasons', 'text'],
  ];
  const audited = auditVariants(biasItems(ctx.exp), ctx.results, ctx.exp.options);
  const paraphrases = instructionRewrites(ctx.exp.options).length
    ? instructionParaphrases(ctx.exp.options, [], [], ctx.results)
    : [];
  // Who edited a text by hand and when: columns only when a person edited one, so the file is
  // as before without edits.
  const anyHand =
    audited.some((a) => a.hand) || paraphrases.some((b) => b.paraphrases.some((p) => p.edited_by));
  if (anyHand) variants[0].push('edited_by', 'edited_at');
  for (const a of audited)
    variants.push([
      a.sourceId,
      a.slot,
      a.kind,
      a.status,
      a.ratio === null ? '' : a.ratio.toFixed(4),
      a.reasons.length ? '1' : '0',
      a.reasons.join('; '),
      a.text ?? '',
      ...(anyHand ? [a.hand?.by ?? '', a.hand?.at ?? ''] : []),
    ]);
  // The paraphrases of the judging instructions: no item; `response` names the paraphrase (from 1).
  for (const b of paraphrases)
    for (const p of b.paraphrases)
      variants.push([
        '',
        `instructions ${p.paraphrase + 1}`,
        b.condition,
        p.text === null ? 'failed' : 'ok',
        p.ratio === null ? '' : p.ratio.toFixed(4),
        p.reasons.length ? '1' : '0',
        p.reasons.join('; '),
        p.text ?? '',
        ...(anyHand ? [p.edited_by ?? '', p.edited_at ?? ''] : []),
      ]);
  const scores = [['judge', 'item_id', 'response', 'category', 'raw', 'debiased']];
  for (const s of itemScores(ctx))
    scores.push([
      s.judge,
      s.itemId,
      s.response,
      s.category,
      s.raw === null ? '' : String(s.raw),
      s.debiased === null ? '' : String(s.debiased),
    ]);
  return [
    { name: 'judgments.csv', content: toCsv(judgments[0], judgments.slice(1)) },
    { name: 'variants.csv', content: toCsv(variants[0], variants.slice(1)) },
    { name: 'item_scores.csv', content: toCsv(scores[0], scores.slice(1)) },
    { name: 'texts.csv', content: biasTextsCsv(biasItems(ctx.exp), ctx.exp.options, ctx.results) },
  ];
}
