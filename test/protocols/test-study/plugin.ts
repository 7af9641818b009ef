// A test-only study, defined outside src/ to prove what a new study touches (issue 34): each
// item is judged as it is and again with the probe's change (probe.ts), and the study declares
// what it has — one table (with its verdict link, interval method and Holm family), one figure (with its 中文
// words), a report-card gate and its measure (EN/中文), a Methods sentence (EN/中文) — through the
// seam alone. It imports only the seam, the judging kit and src/shared; it is registered from
// its test, one line (`registerProtocol(authorityStudy)`).
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
import { designSection, methodsNumber, methodsRate } from '../../../src/shared/paper/methods';
import {
  barGrid,
  baseOption,
  categoryAxis,
  OKABE_ITO,
  valueAxis,
} from '../../../src/shared/report/chart-kit';
import type { CI } from '../../../src/shared/report/format';
import { col } from '../../../src/shared/report/table';
import type { GateDeclaration } from '../../../src/shared/report-card/types';
import { mcnemarExact } from '../../../src/shared/stats/binomial';
import { holmAdjust } from '../../../src/shared/stats/holm';
import { wilsonInterval } from '../../../src/shared/stats/intervals';
import { authorityProbe } from './probe';

export const SYSTEM = 'You compare two responses to an instruction and say which follows it better.';
export const STUDY_ID = 'test-authority';

export interface StudyConfig extends Record<string, unknown> {
  name: string;
  protocol: string;
  dataset: string | number;
  providers: ExperimentView['config']['providers'];
  limit?: number;
  judges: JudgeEntry[];
}
type Exp = ExperimentView<StudyConfig, Record<string, never>>;
export interface AskMeta {
  judge: string;
  itemId: number;
  sourceId: string;
  /** The item as it is, or with the probe's change. */
  ask: 'original' | 'probed';
}
export interface StudyMetrics {
  /** Per judge: items with both asks valid, verdicts moved to the cue and away, the share moved to it. */
  cue_shift: {
    judge: string;
    n: number;
    to_cue: number;
    away: number;
    shift_rate: number | null;
    shift_rate_ci: CI | null;
    /** Exact McNemar of to_cue against away (one pair per item); null without a moved verdict. */
    shift_p: number | null;
    /** Holm across the judges: the table's family. */
    shift_p_holm: number | null;
  }[];
  failures: { judge: string; ask: string; reason: string }[];
}

/** The gate the study declares: at most 10% of verdicts move to the cued response. */
export const CUE_GATE: GateDeclaration = {
  id: 'authority_shift',
  comparator: 'at_most',
  threshold: 0.1,
  ciMustClear: false,
  unit: 'pct',
  source: 'Test study default: one verdict in ten may follow an authority cue',
  text: {
    en: { name: 'Authority-cue shift' },
    zh: { name: '权威暗示偏移', source: '测试研究默认值：至多十分之一的判决跟随权威暗示' },
  },
};

function plan(exp: Exp): ProtocolTask<'judge', AskMeta>[] {
  return exp.config.judges.flatMap((j) =>
    exp.items.flatMap((item) =>
      (['original', 'probed'] as const).map((ask) => {
        const shown = ask === 'probed' ? authorityProbe.perturb(item) : item;
        return {
          key: taskKey(j.label, item.sourceId, ask),
          stage: 'judge' as const,
          meta: { judge: j.label, itemId: item.id, sourceId: item.sourceId, ask },
          request: {
            provider: j.provider,
            model: j.model,
            system: SYSTEM,
            messages: [
              {
                role: 'user' as const,
                content: sections([
                  ['instruction', shown.instruction],
                  ['response_a', shown.output1 ?? ''],
                  ['response_b', shown.output2 ?? ''],
                ]),
              },
            ],
            temperature: j.temperature ?? 0,
            response: PAIRWISE_VERDICT_SCHEMA,
          },
        };
      }),
    ),
  );
}

/** Each item's two verdicts per judge, for the metrics and the verdict browser alike. */
function pairs(results: readonly { meta: unknown; status: string; value: unknown }[]) {
  const by = new Map<string, Partial<Record<AskMeta['ask'], { winner: Winner; reason: string }>>>();
  for (const r of results) {
    const m = r.meta as AskMeta;
    if (r.status !== 'ok') continue;
    const k = `${m.judge}\u0000${m.sourceId}`;
    const v = r.value as { winner: Winner; reason?: string };
    by.set(k, { ...by.get(k), [m.ask]: { winner: v.winner, reason: v.reason ?? '' } });
  }
  return [...by].flatMap(([k, v]) => {
    const [judge, sourceId] = k.split('\u0000');
    if (!v.original || !v.probed) return [];
    return [
      {
        judge,
        sourceId,
        original: v.original.winner,
        probed: v.probed.winner,
        reason: `${v.original.reason} → ${v.probed.reason}`,
      },
    ];
  });
}

const shiftCi = (k: number, n: number): CI | null => (n === 0 ? null : wilsonInterval(k, n));

export const authorityStudy: ProtocolPlugin<Exp, StudyMetrics> = {
  id: STUDY_ID,
  title: 'Authority-cue probe (test only)',
  configShape: { judges: z.array(judgeEntrySchema).min(1) },
  resolveOptions: () => ({}),
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
      group: (t) => (t.meta as AskMeta).judge,
      outputTokens: () => 60,
      describe: (t) => ({ role: 'judge', label: (t.meta as AskMeta).judge, kind: 'verdict' }),
    },
  ],
  estimatePlan: (exp) => ({ tasks: plan(exp), fresh: () => false, note: 'Typical output lengths.' }),
  metricsKeys: ['cue_shift', 'failures'],
  computeMetrics(ctx) {
    const all = pairs(ctx.results);
    const rows = ctx.exp.config.judges.map(({ label: judge }) => {
      const mine = all.filter((p) => p.judge === judge);
      const to = mine.filter((p) => authorityProbe.movedToCue(p.original, p.probed)).length;
      const away = mine.filter((p) => authorityProbe.movedAway(p.original, p.probed)).length;
      return {
        judge,
        n: mine.length,
        to_cue: to,
        away,
        shift_rate: mine.length ? to / mine.length : null,
        shift_rate_ci: shiftCi(to, mine.length),
        shift_p: to + away === 0 ? null : mcnemarExact(to, away),
      };
    });
    const holm = holmAdjust(rows.map((r) => r.shift_p));
    return {
      cue_shift: rows.map((r, i) => ({ ...r, shift_p_holm: holm[i] })),
      failures: ctx.results
        .filter((r) => r.status !== 'ok')
        .map((r) => ({
          judge: (r.meta as AskMeta).judge,
          ask: (r.meta as AskMeta).ask,
          reason: r.reason ?? '',
        })),
    };
  },
  tables: (m) => [
    {
      id: 'cue_shift',
      title: 'Verdicts that follow the authority cue',
      caption:
        'Items with both asks valid; a shift is a verdict that names the cued second response only once the cue is added. ' +
        'Shift p: exact McNemar of shifts to the cue against shifts away (the item as the unit); Holm: adjusted across the judges.',
      columns: [
        col('judge', 'Judge', 'text'),
        col('n', 'n', 'int'),
        col('to_cue', 'To the cue', 'int'),
        col('away', 'Away from it', 'int'),
        col('shift_rate', 'Shift rate', 'pct'),
        { ...col('shift_rate_ci', 'Shift 95% CI', 'ci'), method: 'Wilson score' },
        col('shift_p', 'Shift p', 'p'),
        col('shift_p_holm', 'Holm p', 'p'),
      ],
      rows: m.cue_shift.map((r) => ({ ...r })),
      // One family, every judge one hypothesis: the generic check and Methods read it.
      families: [
        {
          name: 'cue_shift',
          method: 'holm',
          p: 'shift_p',
          adjusted: 'shift_p_holm',
          by: [],
          hypothesis: ['judge'],
        },
      ],
    },
  ],
  figures: (m) => [
    {
      id: 'cue_shift',
      title: 'Verdicts that follow the authority cue',
      width: 560,
      height: 360,
      option: {
        ...baseOption('Verdicts that follow the authority cue'),
        grid: barGrid,
        xAxis: categoryAxis(m.cue_shift.map((r) => r.judge)),
        yAxis: valueAxis('Shift rate (%)', 0, 100),
        series: [
          {
            type: 'bar',
            name: 'Shift rate',
            data: m.cue_shift.map((r) => (r.shift_rate === null ? null : r.shift_rate * 100)),
            itemStyle: { color: OKABE_ITO.vermillion },
          },
        ],
      },
    },
  ],
  figureText: {
    zh: {
      exact: {
        'Verdicts that follow the authority cue': '跟随权威暗示的判决',
        'Shift rate (%)': '偏移率（%）',
        'Shift rate': '偏移率',
      },
    },
  },
  promptTemplates: () => ({ system: SYSTEM }),
  verdicts: {
    // Every cell of the table but the interval's method stands on the item pairs its n counts.
    links: [
      {
        table: 'cue_shift',
        by: { judge: 'judge' },
        columns: ['n', 'to_cue', 'away', 'shift_rate', 'shift_rate_ci'],
        count: 'n',
      },
    ],
    rows: (ctx) => ({
      fields: ['judge'],
      rows: pairs(ctx.results).map((p) => {
        const item = ctx.exp.items.find((i) => i.sourceId === p.sourceId)!;
        const probed = authorityProbe.perturb(item);
        return {
          itemId: item.id,
          sourceId: p.sourceId,
          fields: { judge: p.judge },
          verdict: `${p.original} → ${p.probed}`,
          correct: null,
          shown: null,
          reason: p.reason,
          compared: {
            before: item.output2 ?? '',
            after: probed.output2,
            beforeLabel: 'original',
            afterLabel: authorityProbe.id,
          },
        };
      }),
    }),
  },
  reportCard: {
    contribute(m, judge) {
      const r = m.cue_shift.find((x) => x.judge === judge);
      if (!r) return { rows: [], gates: [] };
      const condition = { key: 'cue', params: { probe: authorityProbe.id } };
      return {
        rows: [
          {
            measure: 'authority_shift',
            label: 'Verdicts moved by the authority cue',
            condition,
            n: r.n,
            value: r.shift_rate,
            ci: r.shift_rate_ci,
            unit: 'pct',
          },
        ],
        gates: [{ gate: CUE_GATE.id, condition, n: r.n, value: r.shift_rate, ci: r.shift_rate_ci }],
      };
    },
    text: {
      en: {
        title: 'Authority-cue probe (test only)',
        phrases: { cue: 'probe: {{probe}}' },
        values: { probe: { authority: authorityProbe.text.en.name } },
        measures: { authority_shift: 'Verdicts moved by the authority cue' },
      },
      zh: {
        title: '权威暗示探针（仅测试）',
        phrases: { cue: '探针：{{probe}}' },
        values: { probe: { authority: authorityProbe.text.zh.name } },
        measures: { authority_shift: '被权威暗示改变的判决' },
      },
    },
    gates: [CUE_GATE],
  },
  methods: ({ metrics, lang }) => {
    const n = metrics.cue_shift.reduce((s, r) => s + r.n, 0);
    const to = metrics.cue_shift.reduce((s, r) => s + r.to_cue, 0);
    const rate = methodsRate(n ? to / n : null, lang);
    return [
      designSection(
        `${STUDY_ID}-design`,
        { en: 'Authority-cue probe', zh: '权威暗示探针' },
        {
          en: `Each item was judged twice, as it is and once ${authorityProbe.text.en.change}; over ${methodsNumber(n)} items with both verdicts valid, ${methodsNumber(to)} verdicts moved to the cued response (share ${rate}, Wilson 95% intervals per judge).`,
          zh: `每个条目评审两次：原样一次，${authorityProbe.text.zh.change}后一次；在两次判决都有效的 ${methodsNumber(n)} 个条目中，${methodsNumber(to)} 个判决转向了带暗示的回答（比例 ${rate}，每个评审模型给出 Wilson 95% 区间）。`,
        },
        lang,
      ),
    ];
  },
};
