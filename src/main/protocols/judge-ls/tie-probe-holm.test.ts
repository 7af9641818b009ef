// The tie-probe table's exact binomial tests, Holm-adjusted across the table's judges, against
// SciPy's binomtest and statsmodels' multipletests(method='holm')
// (test/fixtures/stats/tie-probe-holm.json, scripts/gen-tie-probe-holm-fixtures.py); and the
// adjusted p in the tie-probe and significance tables that the screen and the exports show.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTables } from '../../../shared/protocols/judge-ls/report/tables';
import { tieProbeTarget, type JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
import { clusteredMcnemarExact, holmAdjust } from '../../../shared/stats';
import { computeJudgeLsMetrics } from './metrics';

interface Fixture {
  cases: {
    name: string;
    judges: { en: number; zh: number; ties: number; binomial_p: number; binomial_p_holm: number }[];
  }[];
}
const FIXTURE = JSON.parse(
  readFileSync(join(__dirname, '../../../../test/fixtures/stats/tie-probe-holm.json'), 'utf8'),
) as Fixture;

/** Probes in the en_zh order (A is the English gold answer): EN wins A, ZH wins B. */
function probes(judge: string, en: number, zh: number, ties: number): JudgmentRecord[] {
  const winners = [...Array(en).fill('A'), ...Array(zh).fill('B'), ...Array(ties).fill('tie')] as (
    'A' | 'B' | 'tie'
  )[];
  return winners.map((winner, k) => ({
    judge,
    itemId: `I${k + 1}`,
    subset: null,
    gold: 1,
    kind: 'tie_probe',
    language: 'EN-ZH',
    order: 'en_zh',
    status: 'ok',
    winner,
  }));
}

describe('Holm across the tie-probe binomial tests', () => {
  it.each(FIXTURE.cases.map((c) => [c.name, c] as const))(
    '%s: p and Holm p match SciPy and statsmodels',
    (_name, c) => {
      const judges = c.judges.map((_, j) => `J${j + 1}`);
      const records = c.judges.flatMap((j, i) => probes(judges[i], j.en, j.zh, j.ties));
      const metrics = computeJudgeLsMetrics(records, { flagged: [], checks: [], usage: [] });
      expect(metrics.tie_probe.map((r) => r.judge)).toEqual(judges);
      metrics.tie_probe.forEach((r, i) => {
        expect(r.en_wins).toBe(c.judges[i].en);
        expect(r.binomial_p).toBeCloseTo(c.judges[i].binomial_p, 12);
        expect(r.binomial_p_holm).toBeCloseTo(c.judges[i].binomial_p_holm, 12);
      });

      const tables = buildTables(metrics);
      const tie = tables.find((t) => t.id === 'tie_probe')!;
      expect(tie.columns.map((col) => col.key)).toEqual(
        expect.arrayContaining(['binomial_p', 'binomial_p_holm']),
      );
      expect(tie.rows.map((r) => r.binomial_p_holm)).toEqual(metrics.tie_probe.map((r) => r.binomial_p_holm));
      const sig = tables.find((t) => t.id === 'significance')!;
      const binomial = sig.rows.filter((r) => r.test === 'Binomial (exact)');
      expect(binomial.map((r) => r.p_holm)).toEqual(metrics.tie_probe.map((r) => r.binomial_p_holm));
    },
  );
});

/** Probes of another target (issue 37) in its en_target order: EN wins A, the translation B. */
function targetProbes(judge: string, target: string, en: number, tr: number, ties: number): JudgmentRecord[] {
  return probes(judge, en, tr, ties).map((r) => ({ ...r, language: `EN-${target}`, order: 'en_target' }));
}

describe('tie probes per judge and language (issue 37)', () => {
  const counts: Record<'ZH' | 'ar' | 'hi', [number, number, number]> = {
    ZH: [9, 2, 1],
    ar: [3, 8, 1],
    hi: [6, 6, 0],
  };
  const records = (targets: (keyof typeof counts)[]) =>
    ['J1', 'J2'].flatMap((j) =>
      targets.flatMap((t) => (t === 'ZH' ? probes(j, ...counts.ZH) : targetProbes(j, t, ...counts[t]))),
    );
  const metricsOf = (targets: (keyof typeof counts)[]) =>
    computeJudgeLsMetrics(records(targets), { flagged: [], checks: [], usage: [] });

  it('a ZH-only study keeps its rows as they were: no language, zh_* fields, Holm across judges', () => {
    const m = metricsOf(['ZH']);
    expect(Object.keys(m.tie_probe[0])).toEqual([
      'judge',
      'n',
      'en_wins',
      'zh_wins',
      'ties',
      'en_win_rate',
      'en_win_rate_ci',
      'zh_win_rate',
      'zh_win_rate_ci',
      'tie_rate',
      'tie_rate_ci',
      'en_share_non_tie',
      'binomial_p',
      'binomial_p_holm',
    ]);
  });

  it('a study probing other targets gives a row per judge × language, Holm across all of them', () => {
    const m = metricsOf(['ZH', 'ar', 'hi']);
    expect(m.tie_probe.map((r) => ['language' in r && r.language, r.judge])).toEqual([
      ['ZH', 'J1'],
      ['ar', 'J1'],
      ['hi', 'J1'],
      ['ZH', 'J2'],
      ['ar', 'J2'],
      ['hi', 'J2'],
    ]);
    for (const r of m.tie_probe) {
      expect('zh_wins' in r).toBe(false);
      const [en, tr, ties] = counts[tieProbeTarget(r).language as keyof typeof counts];
      expect([r.en_wins, tieProbeTarget(r).wins, r.ties]).toEqual([en, tr, ties]);
    }
    // One probe per item here: the item-clustered test is the exact binomial test at ½.
    const ar = m.tie_probe.find((r) => tieProbeTarget(r).language === 'ar')!;
    expect(ar.binomial_p).toBeCloseTo(clusteredMcnemarExact([1, 1, 1, ...Array(8).fill(-1), 0]), 12);
    expect(m.tie_probe.map((r) => r.binomial_p_holm)).toEqual(
      holmAdjust(m.tie_probe.map((r) => r.binomial_p)),
    );
    // ZH's rows first whatever order the store returns the verdicts in.
    const reversed = computeJudgeLsMetrics(records(['ZH', 'ar', 'hi']).reverse(), {
      flagged: [],
      checks: [],
      usage: [],
    });
    expect(tieProbeTarget(reversed.tie_probe[0]).language).toBe('ZH');
    // Holm over six tests, not over each language's two judges.
    const alone = metricsOf(['ar']).tie_probe.find((r) => r.judge === 'J1')!;
    expect(alone.binomial_p).toBe(ar.binomial_p);
    expect(ar.binomial_p_holm).toBeGreaterThan(alone.binomial_p_holm);
  });

  it('refuses probes no plan makes: a code-switched target, or ZH orders on another target', () => {
    const bad = (r: Partial<JudgmentRecord>) => () =>
      computeJudgeLsMetrics([{ ...targetProbes('J', 'ar', 1, 0, 0)[0], ...r }], {
        flagged: [],
        checks: [],
        usage: [],
      });
    expect(bad({ language: 'EN-LS:ar' })).toThrow(/impossible kind\/language\/order/);
    expect(bad({ order: 'en_zh' })).toThrow(/impossible kind\/language\/order/);
    expect(bad({ language: 'EN-ZH' })).toThrow(/impossible kind\/language\/order/);
    expect(bad({})).not.toThrow();
  });
});
