// Self-consistency as a plug-in of the generic runner (../plugin.ts; DESIGN.md section 5e): each
// judge answers the same request K times (samples 0 … K − 1) per temperature condition and, for
// pairs, per order; metrics: how often it agrees with itself, Fleiss κ and ICC(1) across repeats,
// accuracy of one repeat vs the majority of k, and position consistency as repeats are voted.
import { selfConsistencyMethods } from './methods';
import type { Item } from '../../../shared/domain';
import { SELF_CONSISTENCY_FIGURES_ZH } from '../../../shared/protocols/self-consistency/report/figure-zh';
import { buildSelfConsistencyFigures } from '../../../shared/protocols/self-consistency/report/figures';
import { buildSelfConsistencyTables } from '../../../shared/protocols/self-consistency/report/tables';
import {
  SELF_CONSISTENCY_ID,
  type SelfConsistencyMetrics,
} from '../../../shared/protocols/self-consistency/types';
import { REPEATS_VIEW } from '../../../shared/protocols/self-consistency/views';
import { parseAskedVerdict } from '../../judging/either';
import { judgeUses } from '../model-use';
import type { ProtocolPlugin } from '../plugin';
import {
  refineSelfConsistencyConfig,
  resolveSelfConsistencyOptions,
  selfConsistencyConfigShape,
  type SelfConsistencyOptions,
} from './config';
import { experimentOf, metricsInput, type ScExperiment } from './experiment';
import { exportFilesOf } from './export';
import { modeOf, scItem } from './item';
import { computeSelfConsistencyMetrics } from './metrics';
import { planRepeats, type RepeatMeta } from './plan';
import { selfConsistencyPower } from './power';
import { promptTemplatesOf } from './prompts';
import { repeatsView } from './views';
import { selfConsistencyReportCardHooks } from './report-card';
import { scVerdicts } from './verdicts';

export const METRICS_KEYS = [
  'mode',
  'scale',
  'repeats',
  'orders',
  'conditions',
  'stability',
  'accuracy_by_k',
  'position_by_k',
  'agreement_histogram',
  'unstable',
  'statistics',
  'usage',
  'failures',
] as const satisfies readonly (keyof SelfConsistencyMetrics)[];

function plan(exp: ScExperiment) {
  const { items, mode } = experimentOf(exp);
  return planRepeats(items, exp.config.judges, exp.options, mode);
}

export const selfConsistencyPlugin: ProtocolPlugin<ScExperiment, SelfConsistencyMetrics> = {
  id: SELF_CONSISTENCY_ID,
  title: 'Self-consistency: how often a judge disagrees with itself on the same request',
  configShape: selfConsistencyConfigShape,
  refineConfig: refineSelfConsistencyConfig,
  resolveOptions: resolveSelfConsistencyOptions,
  selectItems(items: Item[], _options: SelfConsistencyOptions): Item[] {
    // Reads every item (a kind this protocol cannot judge is an error naming the item) and
    // refuses pairs and single responses mixed.
    modeOf(items.map(scItem));
    return items;
  },
  models: (config) => judgeUses(config.judges),
  stages: [
    {
      name: 'judge',
      plan: (exp) => plan(exp),
      parse: (json, task) => parseAskedVerdict(json, task.meta as RepeatMeta),
      group: (t) => (t.meta as RepeatMeta).judge,
      outputTokens: () => 120,
      // The estimate shows first asks and repeats apart: what the repeats cost.
      describe: (t) => {
        const m = t.meta as RepeatMeta;
        return { role: 'judge', label: m.judge, kind: m.sample === 0 ? 'first-ask' : 'repeat' };
      },
    },
  ],
  estimatePlan: (exp) => ({
    tasks: plan(exp),
    fresh: () => false,
    note:
      'Repeats are separate calls: samples 1 … K − 1 are never answered from the first ask (each is its own ' +
      'stored request); a first ask (and any repeat) already stored by an earlier experiment is not paid again.',
    noteKey: 'estimateNote.repeats',
  }),
  metricsKeys: METRICS_KEYS,
  computeMetrics: (ctx) => computeSelfConsistencyMetrics(metricsInput(ctx)),
  tables: buildSelfConsistencyTables,
  figures: buildSelfConsistencyFigures,
  figureText: { zh: SELF_CONSISTENCY_FIGURES_ZH },
  exportFiles: (ctx, calls) => exportFilesOf(ctx, calls),
  methods: selfConsistencyMethods,
  power: selfConsistencyPower,
  promptTemplates: (exp) => promptTemplatesOf(exp.options.scale, exp.options.rubric),
  views: { custom: { [REPEATS_VIEW]: repeatsView } },
  reportCard: selfConsistencyReportCardHooks,
  verdicts: scVerdicts,
};
