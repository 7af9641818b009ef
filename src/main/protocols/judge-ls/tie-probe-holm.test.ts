// The tie-probe table's exact binomial tests, Holm-adjusted across the table's judges, against
// SciPy's binomtest and statsmodels' multipletests(method='holm')
// (test/fixtures/stats/tie-probe-holm.json, scripts/gen-tie-probe-holm-fixtures.py); and the
// adjusted p in the tie-probe and significance tables that the screen and the exports show.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTables } from '../../../shared/protocols/judge-ls/report/tables';
import type { JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
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
