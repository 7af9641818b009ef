// Tie probes in every translated target (issue 37), end to end through the real runner and
// SQLite on the simulated provider: a study in zh and ar (no ZH) probes each judge with the gold
// answer in English against its translation into each language, both orders. The metrics give
// one row per judge × language, recomputed here from the stored verdicts (counts, the
// item-clustered test, Holm across the whole table); the tables, figure, judgments.csv, the
// verdict browser's links and the estimate follow the same rows.
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  JudgeLsMetrics,
  JudgmentRecord,
  TargetTieProbeRow,
} from '../../src/shared/protocols/judge-ls/types';
import { judgmentsCsv } from '../../src/main/protocols/judge-ls/judgments-csv';
import { JUDGMENTS_VIEW, type JudgmentView } from '../../src/shared/protocols/judge-ls/views';
import { normalizeChoice } from '../../src/shared/protocols/judge-ls/choice';
import { checkFamilies } from '../../src/shared/report/families';
import type { Table } from '../../src/shared/report/table';
import { buildFigureSpecs } from '../../src/shared/protocols/judge-ls/report/figures';
import { localizeFigure } from '../../src/shared/report/figure-i18n';
import { JUDGE_LS_FIGURES_ZH } from '../../src/shared/protocols/judge-ls/report/figure-zh';
import { clusteredMcnemarExact, holmAdjust } from '../../src/shared/stats';
import { matchVerdicts, rowFilter } from '../../src/shared/verdicts';
import { useSampleCore } from '../helpers/sample-core';

const sample = useSampleCore('llmbar');
const ITEMS = 8;
const JUDGES = ['Sim strong', 'Sim weak'];
const LANGS = ['zh', 'ar'];

const config = (tieProbes: boolean) => ({
  name: 'tie-probes-languages',
  protocol: 'judge-ls',
  dataset: 'LLMBar (sample)',
  limit: ITEMS,
  providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } },
  // LS:ar is code-switched, no translation of the answer: it gets no probe.
  transform: { provider: 'sim', model: 'sim-translator', languages: [...LANGS, 'LS:ar'] },
  judges: [
    { label: JUDGES[0], provider: 'sim', model: 'sim-judge-strong' },
    { label: JUDGES[1], provider: 'sim', model: 'sim-judge-weak' },
  ],
  tieProbes,
  options: { bootstrapB: 200 },
});

let id: number;
let metrics: JudgeLsMetrics;
let tables: Table[];
let probes: JudgmentView[];
let estimated: { on: number; off: number };

beforeAll(async () => {
  const core = sample.core;
  const on = await core.call('experiments.estimate', { config: config(true) });
  const off = await core.call('experiments.estimate', { config: config(false) });
  estimated = { on: on.calls, off: off.calls };
  ({ id } = await core.call('experiments.create', { config: config(true) }));
  expect((await core.experiments.runToEnd(id)).status).toBe('finished');
  const results = await core.call('experiments.results', { experimentId: id });
  metrics = results.metrics as JudgeLsMetrics;
  tables = results.tables;
  const judgments = (await core.call('experiments.protocolView', {
    experimentId: id,
    view: JUDGMENTS_VIEW,
  })) as JudgmentView[];
  probes = judgments.filter((j) => j.kind === 'tie_probe');
}, 240_000);

describe('tie probes in every translated target', () => {
  it('probes each judge in zh and ar, both orders, and counts the new calls in the estimate', () => {
    const seen = new Set(probes.map((p) => `${p.language} ${p.order}`));
    expect([...seen].sort()).toEqual([
      'EN-ar en_target',
      'EN-ar target_en',
      'EN-zh en_target',
      'EN-zh target_en',
    ]);
    expect(probes).toHaveLength(JUDGES.length * ITEMS * LANGS.length * 2);
    expect(estimated.on - estimated.off).toBe(JUDGES.length * ITEMS * LANGS.length * 2);
  });

  it('gives one row per judge and language, whose counts, test and Holm the stored verdicts reproduce', () => {
    const rows = metrics.tie_probe as TargetTieProbeRow[];
    expect(rows.map((r) => [r.judge, r.language])).toEqual(JUDGES.flatMap((j) => LANGS.map((l) => [j, l])));
    for (const r of rows) {
      // The row shape of a study probing other targets than ZH: language and target_*, no zh_*.
      expect(Object.keys(r)).not.toContain('zh_wins');
      const mine = probes.filter((p) => p.judge === r.judge && p.language === `EN-${r.language}` && p.winner);
      const choice = (p: JudgmentView) => normalizeChoice(p.order as 'en_target' | 'target_en', p.winner!);
      const en = mine.filter((p) => choice(p) === 'EN').length;
      const target = mine.filter((p) => choice(p) === 'target').length;
      expect([r.n, r.en_wins, r.target_wins, r.ties]).toEqual([
        mine.length,
        en,
        target,
        mine.length - en - target,
      ]);
      expect(r.target_win_rate).toBeCloseTo(target / mine.length, 12);
      // The item is the unit: its two orders' EN wins minus translation wins, summed.
      const perItem = new Map<string, number>();
      for (const p of mine)
        perItem.set(
          p.sourceId,
          (perItem.get(p.sourceId) ?? 0) + (choice(p) === 'EN' ? 1 : choice(p) === 'target' ? -1 : 0),
        );
      expect(r.binomial_p).toBeCloseTo(clusteredMcnemarExact([...perItem.values()]), 12);
    }
    // One family: every judge × language row, adjusted together.
    expect(rows.map((r) => r.binomial_p_holm)).toEqual(holmAdjust(rows.map((r) => r.binomial_p)));
    // The simulated judges see one answer in two scripts, Arabic as Chinese: often a tie (per item
    // and model a seeded draw, so pooled over the judges).
    const tieShare = (l: string) => {
      const of = rows.filter((r) => r.language === l);
      return of.reduce((a, r) => a + r.ties, 0) / of.reduce((a, r) => a + r.n, 0);
    };
    expect(tieShare('ar')).toBeGreaterThan(0.25);
    // …and recognises it as ZH's probes are recognised (one answer, translated: a sure tie, 0.8),
    // not as two unrelated answers it cannot tell apart (a coin-flip tie, 0.5).
    const ties = probes.filter((p) => p.winner === 'tie');
    expect(new Set(ties.map((p) => p.confidence))).toEqual(new Set([0.8]));
    expect(tieShare('zh')).toBeGreaterThan(0.2);
  });

  it('shows the rows in the tie-probe and significance tables and the figure, naming each language', () => {
    const table = tables.find((t) => t.id === 'tie_probe')!;
    expect(table.title).toMatch(/Tie probe: English vs Simplified Chinese \(zh\), Arabic \(ar\)$/);
    expect(table.columns.map((c) => c.key)).toContain('language');
    expect(table.columns.map((c) => c.key)).toContain('target_win_rate');
    expect(table.rows.map((r) => [r.judge, r.language, r.comparison])).toEqual(
      JUDGES.flatMap((j) => LANGS.map((l) => [j, l, `EN-${l}`])),
    );
    const sig = tables
      .find((t) => t.id === 'significance')!
      .rows.filter((r) => r.test === 'Binomial (exact)');
    expect(sig.map((r) => r.comparison)).toEqual(
      JUDGES.flatMap(() => LANGS.map((l) => `Tie probe EN vs ${l}`)),
    );
    const rows = metrics.tie_probe as TargetTieProbeRow[];
    expect(sig.map((r) => [r.n, r.favour_target, r.p_holm])).toEqual(
      rows.map((r) => [r.en_wins + r.target_wins, r.target_wins, r.binomial_p_holm]),
    );
    // The declared families hold across both tables: each judge × language once, Holm over them.
    expect(checkFamilies(tables)).toEqual([]);
    const figure = buildFigureSpecs(metrics).find((f) => f.id === 'tie_probe_preference')!;
    expect(figure.title).toBe('Tie probe: gold answer in English vs its translation (zh, ar)');
    const axis = figure.option.yAxis as { data: string[] };
    expect(axis.data).toEqual(JUDGES.flatMap((j) => LANGS.map((l) => `${j} · ${l}`)));
    const series = figure.option.series as { name: string; data: (number | null)[] }[];
    expect(series.map((s) => s.name)).toEqual(['EN wins', 'Tie', 'Translation wins']);
    expect(series[2].data).toEqual(rows.map((r) => Number((r.target_win_rate * 100).toFixed(1))));
    const zh = localizeFigure(figure, 'zh', [JUDGE_LS_FIGURES_ZH]);
    expect(zh.title).toBe('平局探针：同一正确答案的英文版与其译文（zh, ar）');
  });

  it("the tie-probe table's cells open exactly the probes of their judge and language", async () => {
    const { links } = await sample.core.call('experiments.verdictLinks', { experimentId: id });
    const link = links.find((l) => l.table === 'tie_probe')!;
    expect(link.columns).toContain('target_win_rate');
    const { rows } = await sample.core.call('experiments.verdicts', { experimentId: id });
    const table = tables.find((t) => t.id === 'tie_probe')!;
    for (const row of table.rows) {
      const behind = matchVerdicts(rows, rowFilter(link, row)!);
      expect(behind.length).toBe(row.n);
      expect(new Set(behind.map((v) => v.fields.language))).toEqual(new Set([`EN-${row.language}`]));
      const en = behind.filter(
        (v) => normalizeChoice(v.fields.order as 'en_target', v.verdict as 'A') === 'EN',
      );
      expect(en.length / behind.length).toBeCloseTo(row.en_win_rate as number, 12);
    }
  });

  it('writes the probes to judgments.csv with the translation named as the choice', () => {
    // The exporter's own writer on the stored verdicts (the full export also draws every figure).
    const records: JudgmentRecord[] = probes.map((p) => ({
      judge: p.judge,
      itemId: p.sourceId,
      subset: p.subset,
      gold: p.gold,
      kind: p.kind,
      language: p.language,
      order: p.order,
      status: p.status,
      winner: p.winner,
      reason: p.reason,
      failureReason: p.failureReason,
      attempts: p.attempts,
    }));
    const csv = parse(judgmentsCsv(records), { columns: true, bom: true }) as Record<string, string>[];
    const ar = csv.filter((r) => r.kind === 'tie_probe' && r.language === 'EN-ar');
    expect(ar).toHaveLength(JUDGES.length * ITEMS * 2);
    for (const r of ar) {
      const expected =
        r.winner === 'tie' ? 'tie' : (r.winner === 'A') === (r.order === 'en_target') ? 'EN' : 'ar';
      expect(r.choice).toBe(expected);
    }
    expect(new Set(ar.map((r) => r.choice))).toContain('tie');
  });
});
