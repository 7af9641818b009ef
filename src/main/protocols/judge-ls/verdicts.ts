// Judge-LS's verdicts for the verdict browser (issue 26 item 4): the valid first asks the quality
// and tie-probe tables count (a noise-floor repeat is not behind them), graded as the metrics grade.
import type { VerdictLink, VerdictList, VerdictRow } from '../../../shared/verdicts';
import type { MetricsContext, VerdictHooks } from '../plugin';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { JudgeTask } from './model';
import { normalizeChoice } from './parse';

const RATES = ['n', 'accuracy_strict', 'accuracy_strict_ci', 'accuracy_tie_half', 'accuracy_tie_half_ci'];

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
    by: { judge: 'judge' },
    where: { kind: 'tie_probe' },
    columns: [
      'n',
      'en_win_rate',
      'en_win_rate_ci',
      'tie_rate',
      'tie_rate_ci',
      'zh_win_rate',
      'zh_win_rate_ci',
    ],
    count: 'n',
  },
];

function verdictRows(ctx: MetricsContext): VerdictList {
  const rows: VerdictRow[] = [];
  for (const r of ctx.results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeTask['meta'];
    const v = r.value as PairwiseVerdict | null;
    if (!v?.winner || m.sample || ctx.excluded.has(m.sourceId)) continue;
    rows.push({
      itemId: m.itemId,
      sourceId: m.sourceId,
      fields: { judge: m.judge, kind: m.kind, language: m.language, order: m.order },
      verdict: v.winner,
      correct: m.kind === 'quality' ? normalizeChoice(m.order, v.winner) === m.gold : null,
      shown: null,
      reason: v.reason,
    });
  }
  return { fields: ['judge', 'kind', 'language', 'order'], rows };
}

export const judgeLsVerdicts: VerdictHooks = { links: JUDGE_LS_VERDICT_LINKS, rows: verdictRows };
