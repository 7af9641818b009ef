// Judge-LS's verdicts for the verdict browser (issue 26 item 4). Single verdicts: the valid first
// asks the quality, tie-probe and subset-accuracy tables count (a noise-floor repeat is not behind
// them), graded as the metrics grade. Pairs: the tables that count pairs of verdicts (language
// invariance, flips by subset, position consistency, the noise floor) list each pair as one row,
// both normalized choices side by side with their grades ("1 ✓ → tie ✗") and both reasons,
// built by the metrics' own pairing (`listedPairs`) so a row's n is its pairs' count.
import { withIntervals, type VerdictLink, type VerdictList, type VerdictRow } from '../../../shared/verdicts';
import type { MetricsContext, VerdictHooks } from '../plugin';
import type { PairwiseVerdict } from '../../judging/pairwise';
import { judgmentRecords, type Exp } from './experiment';
import { listedPairs, type ListedPair, type ListedVerdict } from './metrics';
import type { JudgeTask } from './model';
import { normalizeChoice } from './parse';

const RATES = ['n', ...withIntervals('accuracy_strict', 'accuracy_tie_half')];
const FLIPS = ['n', ...withIntervals('flip_rate')];

/** The `kind` of a listed pair, by the table family that counts it. */
const PAIR_KIND: Record<ListedPair['table'], string> = {
  language: 'language_pair',
  position: 'order_pair',
  noise_floor: 'noise_floor',
};

export const JUDGE_LS_VERDICT_LINKS: readonly VerdictLink[] = [
  {
    table: 'quality',
    by: { judge: 'judge', language: 'language' },
    where: { kind: 'quality' },
    columns: [...RATES, 'position_a_rate', 'tie_rate'],
    count: 'n',
  },
  {
    table: 'tie_probe',
    // A row's comparison (EN-ZH, EN-ar) is its probes' language: a judge's rows open their own language's probes.
    by: { judge: 'judge', comparison: 'language' },
    where: { kind: 'tie_probe' },
    columns: ['n', ...withIntervals('en_win_rate', 'tie_rate', 'zh_win_rate', 'target_win_rate')],
    count: 'n',
  },
  {
    table: 'invariance',
    by: { judge: 'judge', comparison: 'language' },
    where: { kind: PAIR_KIND.language },
    // Not Holm's p: it reads every row of the table.
    columns: [
      ...FLIPS,
      ...withIntervals('correctness_flip_rate'),
      'both_correct',
      'en_only_correct',
      'target_only_correct',
      'both_wrong',
      'mcnemar_p',
    ],
    count: 'n',
  },
  {
    table: 'position',
    by: { judge: 'judge', language: 'language' },
    where: { kind: PAIR_KIND.position },
    columns: ['n', ...withIntervals('inconsistency_rate')],
    count: 'n',
  },
  {
    table: 'subset_quality',
    by: { judge: 'judge', subset: 'subset', language: 'language' },
    where: { kind: 'quality' },
    columns: ['n', ...withIntervals('accuracy_tie_half')],
    count: 'n',
  },
  {
    table: 'subset_flip',
    by: { judge: 'judge', subset: 'subset', comparison: 'language' },
    where: { kind: PAIR_KIND.language },
    columns: FLIPS,
    count: 'n',
  },
  {
    table: 'noise_floor',
    by: { judge: 'judge', comparison: 'language' },
    where: { kind: PAIR_KIND.noise_floor },
    // The language flips of the pairs listed; the repeat's own verdict on them is not listed.
    columns: FLIPS,
    count: 'n',
  },
];

/** A verdict of a pair as listed: its normalized choice and its grade. */
const graded = (v: ListedVerdict) => `${v.choice} ${v.correct ? '✓' : '✗'}`;

/** What each side of a pair is, in the reasons: its language, its order, or the repeat. */
function sideLabels(p: ListedPair): [string, string] {
  if (p.table === 'position') return ['orig', 'swap'];
  if (p.table === 'noise_floor' && p.first.rec.language === p.second.rec.language) return ['EN', 'EN ↺'];
  return [p.first.rec.language, p.second.rec.language];
}

function pairRow(p: ListedPair, itemIds: ReadonlyMap<string, number>): VerdictRow {
  const [a, b] = sideLabels(p);
  const { rec } = p.first;
  return {
    itemId: itemIds.get(rec.itemId)!,
    sourceId: rec.itemId,
    fields: {
      judge: p.judge,
      kind: PAIR_KIND[p.table],
      language: p.group,
      order: p.table === 'position' ? 'orig → swap' : rec.order,
      ...(rec.subset === null ? {} : { subset: rec.subset }),
    },
    verdict: `${graded(p.first)} → ${graded(p.second)}`,
    correct: null,
    shown: null,
    reason: `${a}: ${p.first.rec.reason ?? ''}\n${b}: ${p.second.rec.reason ?? ''}`,
  };
}

function verdictRows(ctx: MetricsContext<Exp>): VerdictList {
  const rows: VerdictRow[] = [];
  for (const r of ctx.results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeTask['meta'];
    const v = r.value as PairwiseVerdict | null;
    if (!v?.winner || m.sample || ctx.excluded.has(m.sourceId)) continue;
    rows.push({
      itemId: m.itemId,
      sourceId: m.sourceId,
      fields: {
        judge: m.judge,
        kind: m.kind,
        language: m.language,
        order: m.order,
        ...(m.subset === null ? {} : { subset: m.subset }),
      },
      verdict: v.winner,
      correct: m.kind === 'quality' ? normalizeChoice(m.order, v.winner) === m.gold : null,
      shown: null,
      reason: v.reason,
    });
  }
  const itemIds = new Map(ctx.exp.items.map((i) => [i.sourceId, i.id]));
  const records = judgmentRecords(ctx);
  for (const p of listedPairs(records, ctx.exp.options.noiseFloor)) rows.push(pairRow(p, itemIds));
  return { fields: ['judge', 'kind', 'language', 'order', 'subset'], rows };
}

export const judgeLsVerdicts: VerdictHooks<Exp> = { links: JUDGE_LS_VERDICT_LINKS, rows: verdictRows };
