// Every English verdict of one judge failed: the tables keep its rows and say why, the figures
// say why they have gaps, and a 0% bar still looks different from no bar.
import { describe, expect, it } from 'vitest';
import { renderSvg } from '../../src/main/report/figures';
import { tableToCsv } from '../../src/main/report/csv';
import { buildFigureSpecs, FIGURE_BUILDERS } from '../../src/shared/protocols/judge-ls/report/figures';
import { mostlyFailed } from '../../src/shared/protocols/judge-ls/report/coverage';
import { buildTables } from '../../src/shared/protocols/judge-ls/report/tables';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { formatCell, type Table } from '../../src/shared/report/table';
import { JUDGES, makeMetrics } from './fixture';

const [GPT, CLAUDE] = JUDGES;

/** The fixture with every EN verdict of GPT failed (unparseable): no EN rows, no EN-* pairs. */
function englishFailed(): JudgeLsMetrics {
  const m = makeMetrics();
  m.quality = m.quality.filter((r) => !(r.judge === GPT && r.language === 'EN'));
  m.position = m.position.filter((r) => !(r.judge === GPT && r.language === 'EN'));
  m.language_invariance = m.language_invariance.filter((r) => r.judge !== GPT);
  m.subset_flip = m.subset_flip.filter((r) => r.judge !== GPT);
  m.failures.unshift({
    judge: GPT,
    kind: 'quality',
    language: 'EN',
    reason: 'unparseable: no "winner"',
    count: 360,
  });
  return m;
}

const cell = (t: Table, row: Record<string, unknown>, key: string) =>
  formatCell(
    t.columns.find((c) => c.key === key)!,
    row[key] as never,
  );

describe('a language whose every verdict failed', () => {
  const metrics = englishFailed();
  const tables = buildTables(metrics);
  const byId = (id: string) => tables.find((t) => t.id === id)!;

  it('keeps its row in the accuracy table, saying "no valid verdicts" instead of numbers', () => {
    const quality = byId('quality');
    const row = quality.rows.find((r) => r.judge === GPT && r.language === 'EN')!;
    expect(row).toBeDefined();
    expect(cell(quality, row, 'n')).toBe('0');
    expect(cell(quality, row, 'accuracy_strict')).toBe('–');
    expect(cell(quality, row, 'note')).toBe('no valid verdicts (360 failed, see failures)');
    // In its place among the judge's languages: EN first.
    expect(quality.rows.filter((r) => r.judge === GPT).map((r) => r.language)).toEqual(['EN', 'ZH', 'LS']);
    // The export carries the warning and the note column.
    expect(quality.caption).toContain(
      `Warning: ${GPT} · EN: 0 usable verdicts of 360 (see the failures table).`,
    );
    expect(tableToCsv(quality)).toContain('no valid verdicts (360 failed, see failures)');
  });

  it('keeps the invariance rows that need English, saying which side has no valid verdicts', () => {
    const inv = byId('invariance');
    const rows = inv.rows.filter((r) => r.judge === GPT);
    expect(rows.map((r) => [r.comparison, r.n, r.note])).toEqual([
      ['EN-ZH', 0, 'no valid verdicts in EN (360 failed, see failures)'],
      ['EN-LS', 0, 'no valid verdicts in EN (360 failed, see failures)'],
    ]);
    // The other judge is untouched.
    expect(inv.rows.filter((r) => r.judge === CLAUDE).every((r) => !r.note)).toBe(true);
  });

  it('lists failures per language', () => {
    const f = byId('failures');
    expect(f.columns.map((c) => c.key)).toContain('language');
    expect(f.rows[0]).toMatchObject({ judge: GPT, language: 'EN', count: 360 });
  });

  it('is named for the results banner', () => {
    expect(mostlyFailed(metrics)).toEqual([{ judge: GPT, language: 'EN', usable: 0, failed: 360 }]);
    expect(mostlyFailed(makeMetrics())).toEqual([]);
  });

  it('makes the figures say why a bar is missing, on screen and in the exported SVG', () => {
    const specs = buildFigureSpecs(metrics);
    const acc = specs.find((s) => s.id === 'accuracy_by_language')!;
    expect(acc.note).toBe(`No valid verdicts, so no bar: ${GPT} · EN (360 failed). See the failures table.`);
    const flips = specs.find((s) => s.id === 'flip_rates')!;
    expect(flips.note).toContain(`${GPT} · EN-ZH (no valid EN verdicts)`);
    // The export path uses the same builders.
    const exported = FIGURE_BUILDERS.map((b) => b(metrics)).find((s) => s.id === 'flip_rates')!;
    expect(renderSvg(exported)).toContain('No valid verdicts, so no bar');
    // A healthy experiment has no note.
    expect(buildFigureSpecs(makeMetrics()).every((s) => s.note === undefined)).toBe(true);
  });

  it('explains a figure with nothing to draw', () => {
    const m = englishFailed();
    m.language_invariance = [];
    m.quality = m.quality.filter((r) => r.language !== 'EN');
    m.failures.unshift({ judge: CLAUDE, kind: 'quality', language: 'EN', reason: 'timeout', count: 5 });
    m.subset_flip = [];
    const heat = buildFigureSpecs(m).find((s) => s.id === 'subset_flip_heatmap')!;
    expect(heat.note).toMatch(
      /^Nothing to draw: no valid verdicts \(\d+ failed; see the failures table\)\.$/,
    );
  });

  it('draws a 0% bar as a sliver, unlike a missing one', () => {
    const m = makeMetrics();
    m.quality[0].accuracy_strict = 0;
    const acc = buildFigureSpecs(m).find((s) => s.id === 'accuracy_by_language')!;
    const bars = (acc.option.series as { type: string; barMinHeight?: number }[]).filter(
      (s) => s.type === 'bar',
    );
    expect(bars.every((b) => b.barMinHeight === 2)).toBe(true);
  });
});
