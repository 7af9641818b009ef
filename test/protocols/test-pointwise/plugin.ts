// A test-only protocol, defined outside src/ to prove the plug-in seam: a pointwise 1–5
// scorer of each item's first output. One stage, its own answer schema, one metric, one
// table, one figure. Registered from test code only.
import { z } from 'zod';
import type { ProtocolPlugin, ExperimentView } from '../../../src/main/protocols/plugin';
import { taskKey, type ProtocolTask } from '../../../src/main/protocols/types';
import {
  categoryAxis,
  baseOption,
  barGrid,
  OKABE_ITO,
  valueAxis,
} from '../../../src/shared/report/chart-kit';
import { col } from '../../../src/shared/report/table';

export const SCORE_SCHEMA = {
  name: 'score_verdict',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['score', 'reason'],
    properties: { score: { type: 'integer', minimum: 1, maximum: 5 }, reason: { type: 'string' } },
  },
};

export interface PointwiseConfig extends Record<string, unknown> {
  name: string;
  protocol: string;
  dataset: string | number;
  providers: ExperimentView['config']['providers'];
  limit?: number;
  scorers: { label: string; provider: string; model: string }[];
}
interface Meta {
  scorer: string;
  itemId: number;
  sourceId: string;
}
export interface PointwiseMetrics {
  mean_score: { scorer: string; n: number; mean: number }[];
  failures: { scorer: string; count: number }[];
}

type Exp = ExperimentView<PointwiseConfig, Record<string, never>>;

export const pointwisePlugin: ProtocolPlugin<Exp, PointwiseMetrics> = {
  id: 'test-pointwise',
  title: 'Pointwise 1–5 (test only)',
  configShape: {
    scorers: z
      .array(
        z.strictObject({ label: z.string().min(1), provider: z.string().min(1), model: z.string().min(1) }),
      )
      .min(1),
  },
  resolveOptions: () => ({}),
  // No selectItems: every item, and the runner applies `limit` (the test's 30 items) for it.
  models: (c) =>
    c.scorers.map((s, i) => ({
      role: 'judge',
      label: s.label,
      provider: s.provider,
      model: s.model,
      path: ['scorers', i, 'provider'],
    })),
  stages: [
    {
      name: 'score',
      plan: (exp) =>
        exp.config.scorers.flatMap((s) =>
          exp.items.map((item): ProtocolTask<'score', Meta> => ({
            key: taskKey(s.label, item.sourceId),
            stage: 'score',
            meta: { scorer: s.label, itemId: item.id, sourceId: item.sourceId },
            request: {
              provider: s.provider,
              model: s.model,
              system: 'Score the response from 1 (useless) to 5 (excellent).',
              messages: [
                { role: 'user', content: `Instruction: ${item.instruction}\n\nResponse: ${item.output1}` },
              ],
              temperature: 0,
              response: SCORE_SCHEMA,
            },
          })),
        ),
      parse: (json) => {
        const v = (typeof json === 'string' ? JSON.parse(json) : json) as {
          score?: unknown;
          reason?: unknown;
        };
        if (!Number.isInteger(v?.score) || (v.score as number) < 1 || (v.score as number) > 5)
          return { ok: false, error: `"score" must be an integer 1–5, got ${JSON.stringify(v?.score)}` };
        return { ok: true, value: { score: v.score, reason: String(v.reason ?? '') } };
      },
      group: (t) => (t.meta as Meta).scorer,
      outputTokens: () => 40,
      describe: (t) => ({ role: 'judge', label: (t.meta as Meta).scorer, kind: 'score' }),
    },
  ],
  estimatePlan(exp, db) {
    return { tasks: [...this.stages[0].plan(exp, db)], fresh: () => false, note: 'Typical output lengths.' };
  },
  metricsKeys: ['mean_score', 'failures'],
  computeMetrics(ctx) {
    const by = new Map<string, number[]>();
    const failed = new Map<string, number>();
    for (const s of ctx.exp.config.scorers) by.set(s.label, []);
    for (const r of ctx.results) {
      const m = r.meta as Meta;
      if (r.status === 'ok') by.get(m.scorer)!.push((r.value as { score: number }).score);
      else failed.set(m.scorer, (failed.get(m.scorer) ?? 0) + 1);
    }
    return {
      mean_score: [...by].map(([scorer, xs]) => ({
        scorer,
        n: xs.length,
        mean: xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length),
      })),
      failures: [...failed].map(([scorer, count]) => ({ scorer, count })),
    };
  },
  tables: (m) => [
    {
      id: 'mean_score',
      title: 'Mean score by scorer',
      caption: 'Mean 1–5 score of the first output, valid answers only.',
      columns: [col('scorer', 'Scorer', 'text'), col('n', 'n', 'int'), col('mean', 'Mean score', 'text')],
      rows: m.mean_score.map((r) => ({ scorer: r.scorer, n: r.n, mean: r.mean.toFixed(2) })),
    },
  ],
  figures: (m) => [
    {
      id: 'mean_score',
      title: 'Mean score by scorer',
      width: 560,
      height: 360,
      option: {
        ...baseOption('Mean score by scorer'),
        grid: barGrid,
        xAxis: categoryAxis(
          m.mean_score.map((r) => r.scorer),
          'Scorer',
        ),
        yAxis: valueAxis('Mean score', 0, 5),
        series: [
          {
            type: 'bar',
            name: 'Mean',
            data: m.mean_score.map((r) => r.mean),
            itemStyle: { color: OKABE_ITO.blue },
          },
        ],
      },
    },
  ],
  promptTemplates: () => ({ system: 'Score the response from 1 (useless) to 5 (excellent).' }),
  // Human ratings: people score the same first output 1–5; each scorer is a judge.
  annotation: {
    scale: () => ({ kind: 'score', min: 1, max: 5 }),
    units: (ctx) =>
      ctx.exp.items.map((item) => ({
        itemKey: item.sourceId,
        itemId: item.id,
        sourceId: item.sourceId,
        category: item.subset,
        view: { prompt: item.instruction, responses: [item.output1 ?? ''] },
      })),
    judgeRatings: (ctx) =>
      ctx.results
        .filter((r) => r.status === 'ok')
        .map((r) => {
          const m = r.meta as Meta;
          return {
            itemKey: m.sourceId,
            itemId: m.itemId,
            judge: m.scorer,
            category: ctx.exp.items.find((i) => i.id === m.itemId)?.subset ?? null,
            kind: 'score' as const,
            value: (r.value as { score: number }).score,
          };
        }),
  },
};
