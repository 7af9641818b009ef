// A second test-only protocol, defined outside src/ to prove what a new study touches: the same
// pairwise question asked `repeats` times per item and judge (samples 0, 1, 2, …), read with the
// judging kit's pairwise contract, and how often a judge agrees with itself. It uses only the
// seam (protocols/plugin, protocols/types), the judging kit (src/main/judging/) and src/shared.
import { z } from 'zod';
import { judgeEntrySchema, type JudgeEntry } from '../../../src/main/judging/config';
import {
  PAIRWISE_VERDICT_SCHEMA,
  parsePairwiseVerdict,
  type Winner,
} from '../../../src/main/judging/pairwise';
import { sections } from '../../../src/main/judging/template';
import type { ExperimentView, ProtocolPlugin } from '../../../src/main/protocols/plugin';
import { taskKey, type ProtocolTask } from '../../../src/main/protocols/types';
import { col } from '../../../src/shared/report/table';

export const SYSTEM = 'You compare two responses to an instruction and say which follows it better.';

export interface RepeatsConfig extends Record<string, unknown> {
  name: string;
  protocol: string;
  dataset: string | number;
  providers: ExperimentView['config']['providers'];
  limit?: number;
  judges: JudgeEntry[];
  repeats?: number;
}
interface Options {
  repeats: number;
}
export interface RepeatMeta {
  judge: string;
  itemId: number;
  sourceId: string;
  sample: number;
}
export interface RepeatsMetrics {
  /** Per judge: items with every repeat valid, and the share of them whose repeats all agree. */
  consistency: { judge: string; items: number; all_agree: number; agreement_rate: number | null }[];
  /** Per judge and sample index: valid verdicts and the share naming A. */
  by_sample: { judge: string; sample: number; n: number; a_rate: number | null }[];
  failures: { judge: string; sample: number; reason: string }[];
}

type Exp = ExperimentView<RepeatsConfig, Options>;

function plan(exp: Exp): ProtocolTask<'judge', RepeatMeta>[] {
  return exp.config.judges.flatMap((j) =>
    exp.items.flatMap((item) =>
      Array.from({ length: exp.options.repeats }, (_, sample) => ({
        key: taskKey(j.label, item.sourceId, sample),
        stage: 'judge' as const,
        meta: { judge: j.label, itemId: item.id, sourceId: item.sourceId, sample },
        request: {
          provider: j.provider,
          model: j.model,
          system: SYSTEM,
          messages: [
            {
              role: 'user' as const,
              content: sections([
                ['instruction', item.instruction],
                ['response_a', item.output1 ?? ''],
                ['response_b', item.output2 ?? ''],
              ]),
            },
          ],
          temperature: j.temperature ?? 1,
          response: PAIRWISE_VERDICT_SCHEMA,
          // The same question again: each sample is its own ledger row, paid once.
          sample,
        },
      })),
    ),
  );
}

const rate = (k: number, n: number) => (n === 0 ? null : k / n);

export const repeatsPlugin: ProtocolPlugin<Exp, RepeatsMetrics> = {
  id: 'test-repeats',
  title: 'Self-agreement over repeated asks (test only)',
  configShape: {
    judges: z.array(judgeEntrySchema).min(1),
    repeats: z.number().int().min(2).max(20).optional(),
  },
  resolveOptions: (c) => ({ repeats: c.repeats ?? 3 }),
  models: (c) =>
    c.judges.map((j, i) => ({
      role: 'judge',
      label: j.label,
      provider: j.provider,
      model: j.model,
      path: ['judges', i, 'provider'],
    })),
  stages: [
    {
      name: 'judge',
      plan,
      parse: (json) => parsePairwiseVerdict(json),
      group: (t) => (t.meta as RepeatMeta).judge,
      outputTokens: () => 60,
      describe: (t) => ({ role: 'judge', label: (t.meta as RepeatMeta).judge, kind: 'verdict' }),
    },
  ],
  estimatePlan: (exp) => ({ tasks: plan(exp), fresh: () => false, note: 'Typical output lengths.' }),
  metricsKeys: ['consistency', 'by_sample', 'failures'],
  computeMetrics(ctx) {
    const repeats = ctx.exp.options.repeats;
    const winners = new Map<string, (Winner | undefined)[]>();
    const failures: RepeatsMetrics['failures'] = [];
    for (const r of ctx.results) {
      const m = r.meta as RepeatMeta;
      if (r.status !== 'ok') {
        failures.push({ judge: m.judge, sample: m.sample, reason: r.reason ?? '' });
        continue;
      }
      const k = `${m.judge}\u0000${m.sourceId}`;
      if (!winners.has(k)) winners.set(k, Array.from({ length: repeats }));
      winners.get(k)![m.sample] = (r.value as { winner: Winner }).winner;
    }
    const labels = ctx.exp.config.judges.map((j) => j.label);
    return {
      consistency: labels.map((judge) => {
        const complete = [...winners]
          .filter(([k, ws]) => k.startsWith(`${judge}\u0000`) && ws.every((w) => w !== undefined))
          .map(([, ws]) => ws);
        const agree = complete.filter((ws) => ws.every((w) => w === ws[0])).length;
        return {
          judge,
          items: complete.length,
          all_agree: agree,
          agreement_rate: rate(agree, complete.length),
        };
      }),
      by_sample: labels.flatMap((judge) =>
        Array.from({ length: repeats }, (_, sample) => {
          const ws = [...winners]
            .filter(([k]) => k.startsWith(`${judge}\u0000`))
            .map(([, w]) => w[sample])
            .filter((w) => w !== undefined);
          return { judge, sample, n: ws.length, a_rate: rate(ws.filter((w) => w === 'A').length, ws.length) };
        }),
      ),
      failures,
    };
  },
  tables: (m) => [
    {
      id: 'consistency',
      title: 'Self-agreement over repeated asks',
      caption: 'Items with every repeat valid; share whose repeats all name the same winner.',
      columns: [
        col('judge', 'Judge', 'text'),
        col('items', 'Items', 'int'),
        col('all_agree', 'All agree', 'int'),
        col('agreement_rate', 'Agreement', 'pct'),
      ],
      rows: m.consistency.map((r) => ({ ...r })),
    },
  ],
  figures: () => [],
  promptTemplates: () => ({ system: SYSTEM }),
};
