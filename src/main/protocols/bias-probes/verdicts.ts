// Bias probes' verdicts for the verdict browser (issue 26 item 4): each row of the bias profile
// stands on paired differences (a response's score, or a pair's winner, before and after a probe),
// so each verdict listed is one such pair: both answers, and the judge's reason on the changed one.
import { effectLabel } from '../../../shared/protocols/bias-probes/report/tables';
import { ALL } from '../../../shared/protocols/bias-probes/types';
import { withIntervals, type VerdictLink, type VerdictList } from '../../../shared/verdicts';
import type { MetricsContext, VerdictHooks } from '../plugin';
import { metricsInput, type BiasExperiment } from './experiment';
import { profilePairs } from './metrics';

export const BIAS_VERDICT_LINKS: readonly VerdictLink[] = [
  {
    table: 'bias_profile',
    by: { judge: 'judge', category: 'category', effect: 'effect' },
    pooled: { category: ALL },
    // Not the flip columns: they count only the pairs where the verdict could move.
    columns: ['n', ...withIntervals('mean'), 'dz', 'p', 'p_holm', 'sig'],
    count: 'n',
  },
];

function verdictRows(ctx: MetricsContext<BiasExperiment>): VerdictList {
  const mode = ctx.exp.options.mode;
  return {
    fields: ['judge', 'category', 'effect', 'unit'],
    rows: profilePairs(metricsInput(ctx)).map(({ judge, effect, pair }) => ({
      itemId: pair.itemId!,
      sourceId: pair.sourceId,
      fields: { judge, category: pair.category ?? '', effect: effectLabel(effect, mode), unit: pair.unit },
      verdict: pair.shown!,
      correct: null,
      shown: null,
      reason: pair.reason!,
      ...(pair.texts ? { compared: pair.texts } : {}),
    })),
  };
}

export const biasVerdicts: VerdictHooks<BiasExperiment> = { links: BIAS_VERDICT_LINKS, rows: verdictRows };
