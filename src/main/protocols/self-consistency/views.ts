// The unstable-items browser (API `experiments.protocolView`, view "repeats"): every question
// with each repeat's verdict and reason, computed from the stored results.
import { z } from 'zod';
import type {
  QuestionView,
  RepeatsQuery,
  RepeatsViewResult,
  RepeatView,
} from '../../../shared/protocols/self-consistency/views';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import { shownPair } from '../../judging/order';
import { listResults } from '../host';
import type { CustomView } from '../plugin';
import { conditionOwnTemperature, experimentOf } from './experiment';
import type { RepeatMeta } from './plan';

const DEFAULT_LIMIT = 500;

export const repeatsQuerySchema = z.strictObject({
  judge: z.string().optional(),
  condition: z.string().optional(),
  category: z.string().optional(),
  unstableOnly: z.boolean().optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(20_000).optional(),
});

type Loaded = Parameters<CustomView['run']>[1];

export function repeatsRows(
  db: Parameters<CustomView['run']>[0],
  loaded: Loaded,
  q: RepeatsQuery,
): RepeatsViewResult {
  const { exp, items, mode } = experimentOf(loaded);
  const K = exp.options.repeats;
  const rows = new Map<string, QuestionView>();
  const byId = new Map(items.map((i) => [i.sourceId, i]));
  const k = (m: Pick<RepeatMeta, 'judge' | 'condition' | 'sourceId' | 'order'>) =>
    [m.judge, m.condition, m.sourceId, m.order].join('\u0000');
  const orders = mode === 'pairwise' ? exp.options.orders : ['-' as const];
  for (const c of exp.options.conditions)
    for (const j of exp.config.judges)
      for (const item of items)
        for (const order of orders) {
          const gold =
            item.gold === null
              ? null
              : mode === 'pairwise'
                ? (item.gold === 1) === (order === 'orig')
                  ? 'A'
                  : 'B'
                : String(item.gold);
          rows.set(k({ judge: j.label, condition: c.id, sourceId: item.sourceId, order }), {
            judge: j.label,
            condition: c.id,
            temperature: c.temperature ?? conditionOwnTemperature(j),
            itemId: item.sourceId,
            category: item.category,
            order,
            instruction: item.instruction,
            shown:
              mode === 'pairwise'
                ? shownPair(order as 'orig' | 'swap', item.texts[0], item.texts[1])
                : item.texts,
            gold,
            repeats: Array.from({ length: K }, (_, sample): RepeatView => ({
              sample,
              status: 'pending',
              verdict: null,
              confidence: null,
              reason: null,
              failure: null,
            })),
            distinct: 0,
          });
        }
  for (const r of listResults(db, exp.id, 'judge')) {
    const m = r.meta as RepeatMeta;
    const row = rows.get(k(m));
    if (!row || m.sample >= K || !byId.has(m.sourceId)) continue;
    const rep = row.repeats[m.sample];
    if (r.status !== 'ok') {
      rep.status = 'failed';
      rep.failure = r.reason;
      continue;
    }
    rep.status = 'ok';
    if (mode === 'pairwise') {
      const v = r.value as PairwiseVerdict;
      rep.verdict = v.winner;
      rep.confidence = v.confidence;
      rep.reason = v.reason;
    } else {
      const v = r.value as ScoreVerdict;
      rep.verdict = String(v.score);
      rep.reason = v.reason;
    }
  }
  for (const row of rows.values())
    row.distinct = new Set(row.repeats.filter((x) => x.status === 'ok').map((x) => x.verdict)).size;
  const unstableOnly = q.unstableOnly ?? true;
  const all = [...rows.values()].filter(
    (row) =>
      (q.judge === undefined || row.judge === q.judge) &&
      (q.condition === undefined || row.condition === q.condition) &&
      (q.category === undefined || row.category === q.category) &&
      (!unstableOnly || row.distinct > 1),
  );
  const offset = q.offset ?? 0;
  return {
    rows: all.slice(offset, offset + (q.limit ?? DEFAULT_LIMIT)),
    total: all.length,
    judges: exp.config.judges.map((j) => j.label),
    conditions: exp.options.conditions.map((c) => c.id),
    categories: [...new Set(items.map((i) => i.category))].sort(),
    mode,
  };
}

export const repeatsView: CustomView = {
  query: repeatsQuerySchema,
  run: (db, exp, q) => repeatsRows(db, exp, q as RepeatsQuery),
};
