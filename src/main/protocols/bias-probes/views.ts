// The variant browser's rows: each rewrite beside the text it was made from, with every judge's
// answer on both (`experiments.protocolView` routes view `variants` here).
import type { BiasVariantView, JudgedCell } from '../../../shared/protocols/bias-probes/views';
import type { Condition } from '../../../shared/protocols/bias-probes/types';
import type { ExperimentView } from '../plugin';
import type { Database } from '../host';
import { listResults } from '../host';
import { auditVariants, choiceOf } from './metrics';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import type { JudgeMeta } from './plan';
import { biasItems, type BiasExperiment } from './experiment';
import { rewriteSource } from './plan';
import { rewriteOf } from '../../../shared/protocols/bias-probes/probe-registry';

export function variantViews(db: Database, view: ExperimentView, flaggedOnly = false): BiasVariantView[] {
  const exp = view as BiasExperiment;
  const items = biasItems(exp);
  const byId = new Map(items.map((i) => [i.sourceId, i]));
  const results = listResults(db, exp.id);
  const answers = new Map<string, JudgedCell>();
  // The noise floor's repeats (sample 1) of each unchanged side, keyed like the first asks.
  const repeats = new Map<string, JudgedCell>();
  const key = (...p: (string | null)[]) => p.join('\u0000');
  for (const r of results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeMeta;
    if (m.shown) continue;
    const into = m.sample ? repeats : answers;
    if (m.mode === 'pointwise') {
      const v = r.value as ScoreVerdict;
      into.set(key(m.judge, m.sourceId, m.slot, m.condition, null), {
        value: String(v.score),
        reason: v.reason,
      });
    } else {
      const v = r.value as PairwiseVerdict;
      const item = byId.get(m.sourceId);
      const worse = item?.label === 1 ? 2 : 1;
      const c = choiceOf(v, m.order!);
      const value = c === 'tie' ? 'tie' : c === worse ? 'worse' : 'better';
      into.set(key(m.judge, m.sourceId, worse === 1 ? 'output_1' : 'output_2', m.condition, m.order), {
        value,
        reason: v.reason,
      });
    }
  }
  const judges = exp.config.judges.map((j) => j.label);
  const orders = exp.options.mode === 'pairwise' ? (['orig', 'swap'] as const) : [null];
  return auditVariants(items, results, exp.options)
    .filter((a) => a.status === 'ok' && (!flaggedOnly || a.reasons.length > 0))
    .map((a) => {
      const item = byId.get(a.sourceId)!;
      const original = item.responses.find((r) => r.slot === a.slot)!.text;
      // The text the rewrite was made from (plain for Markdown), which its effect starts from.
      const baseCondition: Condition = rewriteOf(a.kind)?.from ?? 'original';
      return {
        itemId: a.sourceId,
        category: item.category,
        response: a.slot,
        variant: a.kind,
        instruction: item.instruction,
        base: rewriteSource(a.kind, original),
        baseLabel: baseCondition,
        text: a.text!,
        ratio: a.ratio,
        reasons: a.reasons,
        judgments: judges.flatMap((judge) =>
          orders.map((order) => ({
            judge,
            order,
            base: answers.get(key(judge, a.sourceId, a.slot, baseCondition, order)) ?? null,
            variant: answers.get(key(judge, a.sourceId, a.slot, a.kind, order)) ?? null,
            // The base's own repeat: the original's, or the plain text's for a Markdown variant.
            ...(exp.options.noiseFloor
              ? { repeat: repeats.get(key(judge, a.sourceId, a.slot, baseCondition, order)) ?? null }
              : {}),
          })),
        ),
      };
    });
}
