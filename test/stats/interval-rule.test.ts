// Issue 32 item 3: one rule for every interval — it stays inside the range its parameter can take,
// and an interval that does not exist is "undefined (reason)", never zero width — in the metrics
// and in every writer (screen text, CSV, XLSX, LaTeX all go through formatCell / the sheet cells).
import { describe, expect, it } from 'vitest';
import { buildWorkbook } from '../../src/main/report/xlsx';
import { tableToCsv } from '../../src/main/report/csv';
import { computeJudgeLsMetrics } from '../../src/main/protocols/judge-ls/metrics';
import { computeRefSensMetrics } from '../../src/main/protocols/reference-sensitivity/metrics';
import { buildRefSensTables } from '../../src/shared/protocols/reference-sensitivity/report/tables';
import type { JudgmentRecord } from '../../src/shared/protocols/judge-ls/types';
import { buildTables } from '../../src/shared/protocols/judge-ls/report/tables';
import { fixedIntervalText } from '../../src/shared/report/format';
import { UNDEFINED_REASONS_ZH, undefinedTextZh } from '../../src/shared/report/undefined-zh';
import { col, formatCell, intervalCell, type Table } from '../../src/shared/report/table';
import {
  clusterBootstrapRatio,
  cohensKappa,
  cohensKappaTable,
  icc21,
  NO_INTERVAL,
  pairedEffect,
  RANGE,
  ruledBootstrap,
  ruleInterval,
} from '../../src/shared/stats';

describe('intervals stay inside their parameter’s range', () => {
  it('clips κ ± z·SE to [−1, 1] (κ 0.400 on four items was [−0.368, 1.168])', () => {
    const t = cohensKappaTable([
      [1, 0],
      [1, 1],
    ]);
    expect(t.kappa).toBeCloseTo(0.4, 12);
    expect(t.kappa_ci![0]).toBeCloseTo(-0.3681458682168495, 12);
    expect(t.kappa_ci![1]).toBe(1);
    // The same table as paired ratings (agreement report, categories.csv): the same clipped interval.
    const paired = cohensKappa([1, 2, 2], [1, 1, 2]).ci!;
    expect(paired[0]).toBeCloseTo(t.kappa_ci![0], 12);
    expect(paired[1]).toBe(1);
    expect(fixedIntervalText(t.kappa_ci, 3)).toBe('[-0.368, 1.000]');
  });

  it('keeps every ICC(2,1) interval of small rating tables inside [−1, 1]', () => {
    let checked = 0;
    for (let a = 1; a <= 3; a++)
      for (let b = 1; b <= 3; b++)
        for (let c = 1; c <= 3; c++)
          for (let d = 1; d <= 3; d++) {
            const r = icc21([
              [a, b],
              [c, d],
              [b, c],
            ]);
            if (!r.ci) continue;
            checked++;
            expect(r.ci[0], JSON.stringify([a, b, c, d])).toBeGreaterThanOrEqual(-1);
            expect(r.ci[1]).toBeLessThanOrEqual(1);
          }
    expect(checked).toBeGreaterThan(10);
  });

  it('clips a t interval of paired differences to what a difference can take', () => {
    // Win-score differences lie in [−1, 1]; mean 0.75, t interval [−0.046, 1.546] unclipped.
    const e = pairedEffect([1, 1, 1, 0], [-1, 1]);
    expect(e.ci![0]).toBeCloseTo(0.75 - 3.182446305284263 * 0.25, 9);
    expect(e.ci![1]).toBe(1);
  });
});

describe('an interval that does not exist says undefined and why', () => {
  it('is never zero width: equal differences, a bootstrap whose resamples all agree', () => {
    expect(pairedEffect([1, 1]).ci).toBeNull();
    expect(pairedEffect([1, 1]).ci_undefined_reason).toMatch(/every difference is equal/);
    const zero = clusterBootstrapRatio(
      [
        { num: 0, den: 2 },
        { num: 0, den: 2 },
      ],
      { B: 50, seed: 1 },
    );
    expect(zero).toEqual([0, 0]);
    expect(ruledBootstrap(zero, RANGE.proportion)).toEqual({
      ci: null,
      reason: 'every resample gives the same value',
    });
    expect(
      ruleInterval([Number.NaN, Number.NaN], RANGE.proportion, { none: 'no items', zeroWidth: 'x' }),
    ).toEqual({
      ci: null,
      reason: 'no items',
    });
  });

  it('shows the same "undefined (reason)" on screen, in CSV, XLSX and LaTeX cells', async () => {
    const table: Table = {
      id: 't',
      title: 'T',
      caption: '',
      columns: [col('rate', 'Rate', 'pct'), col('rate_ci', '95% CI', 'ci')],
      rows: [
        { rate: 0, rate_ci: intervalCell(null, 'every resample gives the same value') },
        { rate: 0.5, rate_ci: intervalCell([0.2, 0.8]) },
      ],
    };
    const text = 'undefined (every resample gives the same value)';
    expect(formatCell(table.columns[1], table.rows[0].rate_ci)).toBe(text);
    expect(tableToCsv(table)).toContain(`,${text}\r\n`);
    const sheet = buildWorkbook([table]).getWorksheet(1)!;
    expect([sheet.getCell('B2').value, sheet.getCell('C2').value]).toEqual([text, text]);
    expect(sheet.getCell('B3').value).toBe(0.2);
  });

  it('Judge-LS: no [0, 0] or [1, 1] bootstrap interval — undefined with the reason, in metrics and tables', () => {
    // Six items, EN asked twice with the same verdict (no repeat flip anywhere), ZH the same,
    // every verdict correct: accuracy 100% and flip rates 0 on every item.
    const rec = (itemId: string, language: 'EN' | 'ZH', sample?: number): JudgmentRecord => ({
      judge: 'J',
      itemId,
      subset: null,
      gold: 1,
      kind: 'quality',
      language,
      order: 'orig',
      status: 'ok',
      winner: 'A',
      ...(sample ? { sample } : {}),
    });
    const records = Array.from({ length: 6 }, (_, i) => `item-${i}`).flatMap((item) => [
      rec(item, 'EN'),
      rec(item, 'ZH'),
      rec(item, 'EN', 1),
    ]);
    const m = computeJudgeLsMetrics(records, { flagged: [], checks: [], usage: [], noiseFloor: true });
    const repeat = m.noise_floor!.repeat[0];
    expect(repeat.flips).toBe(0);
    expect(repeat.flip_rate_ci_boot).toBeNull();
    expect(repeat.flip_rate_ci_boot_undefined_reason).toBe('every resample gives the same value');
    const en = m.quality.find((r) => r.language === 'EN')!;
    expect(en.accuracy_strict_ci_boot).toBeNull();
    // Wilson's interval exists at 6 of 6 and keeps a width.
    expect(en.accuracy_strict_ci![0]).toBeLessThan(1);
    const quality = buildTables({ ...m, statistics: { ...m.statistics!, ci: 'cluster-bootstrap' } }).find(
      (t) => t.id === 'quality',
    )!;
    const column = quality.columns.find((c) => c.key === 'accuracy_strict_ci')!;
    const row = quality.rows.find((r) => r.language === 'EN')!;
    expect(formatCell(column, row.accuracy_strict_ci)).toBe(
      'undefined (every resample gives the same value)',
    );
  });

  it('reference sensitivity: a calibration row with no valid pair has no interval, not the whole range', () => {
    const m = computeRefSensMetrics({
      judges: ['J'],
      generators: [],
      languages: ['en'],
      settings: ['NR'],
      calibration: [
        { judge: 'J', sourceId: 'q1', language: 'en', probe: 'C1', verdict: null },
        { judge: 'J', sourceId: 'q1', language: 'en', probe: 'C2', verdict: 'CORRECT' },
      ],
      verdicts: [],
      answers: [],
      gold: new Map(),
      usage: [],
      failures: [],
    });
    const row = m.calibration[0];
    expect(row).toMatchObject({ n: 0, c1_accept_ci: null, c2_accept_ci: null, cgp_ci: null });
    expect(row.ci_undefined_reason).toBe('no question with both verdicts valid');
    const table = buildRefSensTables(m).find((t) => t.id === 'calibration')!;
    const cgp = table.columns.find((c) => c.key === 'cgp_ci')!;
    expect(formatCell(cgp, table.rows[0].cgp_ci)).toBe('undefined (no question with both verdicts valid)');
  });

  it('says it in 中文 on a 中文 page, for every reason the rule gives', () => {
    for (const reason of Object.values(NO_INTERVAL))
      expect(UNDEFINED_REASONS_ZH[reason], reason).toBeDefined();
    expect(undefinedTextZh('undefined (every resample gives the same value)')).toBe(
      '无定义（每次重抽样的值都相同）',
    );
    expect(undefinedTextZh('[0.1, 0.2]')).toBe('[0.1, 0.2]');
  });
});
