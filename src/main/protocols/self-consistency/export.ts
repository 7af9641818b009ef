// judgments.csv beside metrics.json: one row per repeat, keyed by judge, condition, item, order
// and sample.
import { toCsv } from '../host';
import type { ExportFile, MetricsContext, TaskCall } from '../plugin';
import { choiceOf } from '../../judging/order';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import type { ScExperiment } from './experiment';
import { scItem } from './item';
import type { RepeatMeta } from './plan';

export const JUDGMENTS_HEADER = [
  'judge',
  'condition',
  'temperature',
  'item_id',
  'category',
  'order',
  'sample',
  'winner',
  'choice',
  'score',
  'confidence',
  'gold',
  'status',
  'attempts',
  'input_tokens',
  'output_tokens',
  'reason',
];

export function exportFilesOf(
  ctx: MetricsContext<ScExperiment>,
  calls: ReadonlyMap<number, TaskCall>,
): ExportFile[] {
  const gold = new Map(ctx.exp.items.map((i) => [i.sourceId, scItem(i).gold]));
  const rows: string[][] = [];
  const sorted = [...ctx.results].sort((a, b) => {
    const x = a.meta as RepeatMeta;
    const y = b.meta as RepeatMeta;
    return (
      x.judge.localeCompare(y.judge) ||
      x.condition.localeCompare(y.condition) ||
      x.itemId - y.itemId ||
      x.order.localeCompare(y.order) ||
      x.sample - y.sample
    );
  });
  for (const r of sorted) {
    const m = r.meta as RepeatMeta;
    if (ctx.excluded.has(m.sourceId)) continue;
    const call = calls.get(r.requestId);
    const pair = m.mode === 'pairwise' && r.status === 'ok' ? (r.value as PairwiseVerdict) : null;
    const score = m.mode === 'pointwise' && r.status === 'ok' ? (r.value as ScoreVerdict) : null;
    rows.push([
      m.judge,
      m.condition,
      m.temperature === null ? '' : String(m.temperature),
      m.sourceId,
      m.category,
      m.order,
      String(m.sample),
      pair?.winner ?? '',
      pair ? String(choiceOf(m.order as 'orig' | 'swap', pair.winner)) : '',
      score ? String(score.score) : '',
      pair?.confidence != null ? String(pair.confidence) : '',
      gold.get(m.sourceId) == null ? '' : String(gold.get(m.sourceId)),
      r.status,
      String(r.attempts),
      call?.inputTokens != null ? String(call.inputTokens) : '',
      call?.outputTokens != null ? String(call.outputTokens) : '',
      r.status === 'ok' ? (pair?.reason ?? score?.reason ?? '') : (r.reason ?? ''),
    ]);
  }
  return [{ name: 'judgments.csv', content: toCsv(JUDGMENTS_HEADER, rows) }];
}
