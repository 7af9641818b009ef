import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tableToCsv, UTF8_BOM } from '../../src/main/report/csv';
import { formatCi, formatP, formatPct, formatUsd } from '../../src/shared/report/format';
import { buildTables, reasonMatchesRule } from '../../src/shared/protocols/judge-ls/report/tables';
import { formatCell, type Table } from '../../src/shared/report/table';
import { excelJs, writeXlsx } from '../../src/main/report/xlsx';
import { JUDGES, makeMetrics, SUBSETS } from './fixture';

const tables = buildTables(makeMetrics());
const byId = (id: string): Table => {
  const t = tables.find((x) => x.id === id);
  if (!t) throw new Error(`no table ${id}`);
  return t;
};
const text = (t: Table, row: number, key: string) =>
  formatCell(
    t.columns.find((c) => c.key === key)!,
    [...t.rows, ...(t.footer ?? [])][row][key],
  );

describe('paper-style number formats', () => {
  it('prints fractions as percentages with one decimal and CIs in brackets', () => {
    expect(formatPct(0.835)).toBe('83.5');
    expect(formatPct(0.0004)).toBe('0.0');
    expect(formatCi([0.801, 0.865])).toBe('[80.1, 86.5]');
    expect(formatPct(Number.NaN)).toBe('–');
    expect(formatCi([Number.NaN, 0.5])).toBe('–');
  });

  it('prints p-values as "< 0.001" or three significant digits', () => {
    expect(formatP(0.00021)).toBe('< 0.001');
    expect(formatP(0.001)).toBe('0.00100');
    expect(formatP(0.0309)).toBe('0.0309');
    expect(formatP(0.5)).toBe('0.500');
    expect(formatP(1)).toBe('1.00');
  });

  it('keeps small costs readable', () => {
    expect(formatUsd(0.0034)).toBe('0.0034');
    expect(formatUsd(12.345)).toBe('12.35');
  });
});

describe('buildTables', () => {
  it('builds every section-8 table', () => {
    expect(tables.map((t) => t.id)).toEqual([
      'quality',
      'invariance',
      'tie_probe',
      'position',
      'subset_quality',
      'subset_flip',
      'significance',
      'audit',
      'audit_items',
      'sensitivity',
      'usage',
      'failures',
    ]);
  });

  it('gives the invariance table its exact McNemar p per judge and comparison, then its Holm-adjusted p', () => {
    const inv = byId('invariance');
    expect(inv.columns.at(-2)).toMatchObject({ key: 'mcnemar_p', header: 'McNemar p', kind: 'p' });
    expect(inv.columns.at(-1)).toMatchObject({ key: 'mcnemar_p_holm', header: 'Holm p', kind: 'p' });
    expect(text(inv, 0, 'mcnemar_p')).toBe(formatP(inv.rows[0].mcnemar_p as number));
    expect(text(inv, 0, 'mcnemar_p_holm')).toBe(formatP(inv.rows[0].mcnemar_p_holm as number));
  });

  it('shows Wilson intervals by default and the item-clustered bootstrap ones when the config asks', () => {
    const m = makeMetrics();
    const wilson = buildTables(m).find((t) => t.id === 'quality')!;
    expect(wilson.rows[0].accuracy_strict_ci).toEqual(m.quality[0].accuracy_strict_ci);
    expect(wilson.caption).toMatch(/Wilson 95% CI/);
    const boot = buildTables({ ...m, statistics: { ...m.statistics, ci: 'cluster-bootstrap' } });
    const q = boot.find((t) => t.id === 'quality')!;
    expect(q.rows[0].accuracy_strict_ci).toEqual(m.quality[0].accuracy_strict_ci_boot);
    expect(q.caption).toMatch(/item-clustered bootstrap 95% CI, B = 2000, seed 1/);
    const inv = boot.find((t) => t.id === 'invariance')!;
    expect(inv.rows[0].flip_rate_ci).toEqual(m.language_invariance[0].flip_rate_ci_boot);
    expect(inv.rows[0].correctness_flip_rate_ci).toEqual(
      m.language_invariance[0].correctness_flip_rate_ci_boot,
    );
    // The results page's switch overrides the config's choice.
    expect(
      buildTables(m, 'cluster-bootstrap').find((t) => t.id === 'quality')!.rows[0].accuracy_strict_ci,
    ).toEqual(m.quality[0].accuracy_strict_ci_boot);
  });

  it('lists tie-half accuracy per judge, subset (dataset order) and language', () => {
    const q = byId('subset_quality');
    expect(q.rows).toHaveLength(JUDGES.length * SUBSETS.length * 3);
    expect(q.rows.slice(0, 4).map((r) => `${r.judge}/${r.subset}/${r.language}`)).toEqual([
      `${JUDGES[0]}/${SUBSETS[0]}/EN`,
      `${JUDGES[0]}/${SUBSETS[0]}/ZH`,
      `${JUDGES[0]}/${SUBSETS[0]}/LS`,
      `${JUDGES[0]}/${SUBSETS[1]}/EN`,
    ]);
    // Second judge, third subset, LS: 0.9 - 0.30 - 0.06 - 0.04.
    const last = q.rows.length - 1;
    expect(q.rows[last]).toMatchObject({ judge: JUDGES[1], subset: SUBSETS[2], language: 'LS', n: 60 });
    expect(text(q, last, 'accuracy_tie_half')).toBe('50.0');
    expect(text(q, last, 'accuracy_tie_half_ci')).toBe('[42.0, 58.0]');
  });

  it('sorts both subset tables into the order the metrics first name the subsets', () => {
    const m = makeMetrics();
    m.subset_flip.reverse();
    const flips = buildTables(m).find((t) => t.id === 'subset_flip')!;
    expect(flips.rows.slice(0, 3).map((r) => `${r.judge}/${r.subset}/${r.comparison}`)).toEqual([
      `${JUDGES[0]}/${SUBSETS[0]}/EN-ZH`,
      `${JUDGES[0]}/${SUBSETS[0]}/EN-LS`,
      `${JUDGES[0]}/${SUBSETS[1]}/EN-ZH`,
    ]);
    m.subset_quality.reverse();
    const reordered = buildTables(m);
    expect(reordered.find((t) => t.id === 'subset_quality')!.rows[0].subset).toBe(SUBSETS[2]);
    expect(reordered.find((t) => t.id === 'subset_flip')!.rows[0].subset).toBe(SUBSETS[2]);
  });

  it('lists flip rates per judge, subset and comparison with Wilson CIs', () => {
    const f = byId('subset_flip');
    expect(f.rows).toHaveLength(JUDGES.length * SUBSETS.length * 2);
    expect(f.rows[1]).toMatchObject({ judge: JUDGES[0], subset: SUBSETS[0], comparison: 'EN-LS' });
    expect(text(f, 1, 'flip_rate')).toBe('8.0');
    expect(f.columns.map((c) => c.key)).toEqual([
      'judge',
      'subset',
      'comparison',
      'n',
      'flip_rate',
      'flip_rate_ci',
    ]);
  });

  it('lists failed calls per judge, kind and reason, the transformer included, with a total', () => {
    const f = byId('failures');
    expect(f.rows.map((r) => [r.judge, r.kind, r.count])).toEqual([
      [JUDGES[0], 'tie_probe', 3],
      [JUDGES[1], 'quality', 1],
      ['transformer', 'transform', 2],
    ]);
    expect(f.footer?.[0]).toMatchObject({ judge: 'Total', count: 6 });
    const empty = buildTables({ ...makeMetrics(), failures: [] }).find((t) => t.id === 'failures')!;
    expect(empty.rows).toEqual([]);
    expect(empty.footer).toBeUndefined();
  });

  it('orders quality rows by judge, then EN, ZH, LS, and formats them like a paper', () => {
    const q = byId('quality');
    expect(q.rows.map((r) => `${r.judge}/${r.language}`)).toEqual(
      JUDGES.flatMap((j) => ['EN', 'ZH', 'LS'].map((l) => `${j}/${l}`)),
    );
    expect(text(q, 0, 'accuracy_strict')).toBe('83.5');
    expect(text(q, 0, 'accuracy_strict_ci')).toBe('[79.5, 87.5]');
  });

  it('lists McNemar p per judge and comparison with the discordant counts, then the tie-probe binomial p', () => {
    const s = byId('significance');
    expect(s.rows).toHaveLength(6);
    expect(s.rows[1]).toMatchObject({
      judge: JUDGES[0],
      comparison: 'EN-LS',
      favour_en: 18,
      favour_target: 4,
    });
    expect(text(s, 1, 'p')).toBe('< 0.001');
    expect(s.rows[4]).toMatchObject({ judge: JUDGES[0], test: 'Binomial (exact)', n: 85, favour_en: 60 });
    expect(text(s, 4, 'p')).toBe('< 0.001');
    expect(text(s, 5, 'p')).toBe('0.0633');
  });

  it('counts flagged items per audit rule and lists each item with its reasons', () => {
    const a = byId('audit');
    expect(Object.fromEntries(a.rows.map((r) => [r.rule, r.items]))).toEqual({
      empty: 1,
      numbers_missing: 1,
      number_count_diff: 0,
      length_ratio: 1,
    });
    expect(a.footer?.[0].items).toBe(2);
    expect(byId('audit_items').rows[1]).toEqual({
      item_id: 'gptinst_5%{x}',
      reasons: 'LS output_2: length_ratio 0.21 < 0.35; ZH instruction: numbers_missing',
    });
    expect(reasonMatchesRule('ZH numbers_missing_extra', 'numbers_missing')).toBe(false);
  });

  it('puts the unflagged-only values next to the full-set values with their difference', () => {
    const s = byId('sensitivity');
    expect(s.rows).toHaveLength(2 * 3 * 2 + 2 * 2 * 2);
    const first = s.rows[0];
    expect(first).toMatchObject({ judge: JUDGES[0], scope: 'EN', metric: 'Acc. strict', n_full: 200 });
    expect(first.delta as number).toBeCloseTo(0.01, 10);
    expect(text(s, 0, 'excl')).toBe('84.5');
    const flip = s.rows.find((r) => r.metric === 'Flip')!;
    expect(flip.delta as number).toBeCloseTo(-0.01, 10);
  });

  it('adds a usage total row', () => {
    const u = byId('usage');
    expect(u.footer?.[0]).toMatchObject({ role: 'Total', calls: 3600, cost_usd: 0.388 + 0.624 + 1.65 });
  });

  it('shows a missing value as a dash instead of failing', () => {
    const t = byId('tie_probe');
    expect(text(t, 1, 'en_share_non_tie')).toBe('–');
  });
});

describe('table CSV', () => {
  it('has a BOM, unique headers and the displayed text, parsable by csv-parse', () => {
    const csv = tableToCsv(byId('quality'));
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    const rows: string[][] = parse(csv, { bom: true });
    expect(rows[0]).toEqual([
      'Judge',
      'Language',
      'n',
      'Acc. strict',
      'Acc. strict 95% CI (Wilson)',
      'Acc. tie-half',
      'Acc. tie-half 95% CI (Wilson score on the mean)',
      'Position A',
      'Ties',
    ]);
    expect(rows[1]).toEqual([
      'GPT-4.1 mini',
      'EN',
      '200',
      '83.5',
      '[79.5, 87.5]',
      '85.5',
      '[81.5, 89.5]',
      '52.0',
      '4.0',
    ]);
    expect(rows).toHaveLength(7);
  });
});

describe('writeXlsx', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jl-xlsx-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one sheet per table with a bold header and numbers that keep their number format', async () => {
    const file = join(dir, 'tables.xlsx');
    await writeXlsx(tables, file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.worksheets.map((s) => s.name)).toEqual(tables.map((t) => t.id));

    const sheet = wb.getWorksheet('quality')!;
    const header = sheet.getRow(1);
    expect(header.getCell(1).value).toBe('Judge');
    expect(header.getCell(1).font?.bold).toBe(true);
    expect(header.getCell(5).value).toBe('Acc. strict 95% CI (Wilson) low');
    expect(header.getCell(6).value).toBe('Acc. strict 95% CI (Wilson) high');
    const row = sheet.getRow(2);
    expect(row.getCell(4).value).toBeCloseTo(0.835, 10);
    expect(row.getCell(4).numFmt).toBe('0.0%');
    expect(row.getCell(5).value).toBeCloseTo(0.795, 10);
    expect(row.getCell(3).value).toBe(200);

    const sig = wb.getWorksheet('significance')!;
    const p = sig.getRow(3).getCell(7);
    expect(p.value).toBeCloseTo(0.00021, 10);
    expect(p.numFmt).toContain('< 0.001');

    const usage = wb.getWorksheet('usage')!;
    const total = usage.getRow(usage.rowCount);
    expect(total.getCell(1).value).toBe('Total');
    expect(total.font?.bold).toBe(true);
  });

  it("loads the package's own Workbook without its streaming parts (the layout of the pinned exceljs)", () => {
    // If an exceljs upgrade moves the file, the loader falls back to the whole package: this
    // test then fails, so the saving is not lost unnoticed.
    expect(excelJs().Workbook).toBe(ExcelJS.Workbook);
    expect(Object.keys(excelJs())).toEqual(['Workbook']);
  });
});
